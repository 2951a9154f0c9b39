/*
 * Convolution variants beyond nn.c's conv1d/2d/3d and their transposes: the 3-D transposed
 * convolution, the contrib_* forms that AlterOpLayout introduces (Winograd and GEMM convolutions and
 * their weight transforms, NNPACK's weight transform, the packed NCHWc convolutions), deformable
 * convolution, the bitserial ops and correlation.  Each relation computes what TVM v0.13's XxxRel
 * computes.  Facts from TVM v0.13 src/relay/op/nn/{convolution.cc, convolution.h,
 * convolution_make.h, bitserial.cc, correlation.cc}, src/relay/op/op_common.h (GetPadding*) and
 * the attribute structs in include/tvm/relay/attrs/{nn.h, bitserial.h}.  The generators are in
 * nn_conv_gen.c.
 *
 * What TVM computes and these relations reproduce, odd as some of it is:
 *   - nn.contrib_conv2d_NCHWc is typed by Conv2DWinogradRel<Conv2DAttrs> (not Conv2DRel, which its
 *     depthwise sibling uses): channels and kernel_size are required and the weight is not checked.
 *   - The Winograd, GEMM and bitserial convolutions divide with PrimExpr's `/` (truncating); the
 *     others with indexdiv (flooring).
 *   - Conv3DWinogradRel tests the depth, not the height, for `?` before computing the height: a `?`
 *     depth leaves the height as it is.  Conv2DGemmRel likewise tests W before computing H and C
 *     before computing W.
 *   - Conv3DTransposeRel, when it reads the kernel from the weight, uses the weight's width (with
 *     dilation[2]) for the output height and its height (with dilation[1]) for the output width.
 *   - Conv3DWinogradWeightTransformRel reads the depth as a constant (TVM crashes on `?`; rejected).
 *   - DeformableConv2DRel gives the weight it infers, and the offset, the data's dtype.
 *
 * Deliberate departures (TVM would build a type these types cannot hold, or crash):
 *   - nn.bitserial_conv2d without out_dtype and nn.bitpack without pack_type would have a void
 *     dtype; both are rejected ("... must be set").  The Python API always passes them.
 *   - nn.contrib_conv2d_gemm_weight_transform rejects tile sizes <= 0 (TVM divides by them).
 *   - An output extent computed from a `?` is `?` (TVM keeps a symbolic expression there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_common.h"

#define ANY ((int64_t)TY_DIM_ANY)
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ================================================================== shared pieces */

/* "<who> only support input layouts that are convertible from NCHW. But got NHWC", the wording of
   most convolution relations. */
static bool conv_layouts(OpCall *c, const char *who, const char *dcanon_s, const char *kcanon_s, Layout *dcanon,
                         Layout *kcanon, Layout *in, Layout *kl, Layout *out) {
  layout_parse(c, "", dcanon_s, dcanon);
  layout_parse(c, "", kcanon_s, kcanon);
  const char *dl = op_str(c, "data_layout"), *kls = op_str(c, "kernel_layout");
  const char *ol = *op_str(c, "out_layout") ? op_str(c, "out_layout") : dl;
  char fin[128], fk[128], fout[128];
  snprintf(fin, sizeof fin, "%s only support input layouts that are convertible from %%s. But got %%s", who);
  snprintf(fk, sizeof fk, "%s only support kernel layouts that are convertible from %%s. But got %%s", who);
  snprintf(fout, sizeof fout, "%s only support output layouts that are convertible from %%s. But got %%s", who);
  return layout_to_canon(c, "data_layout", dl, dcanon, in, fin) &&
         layout_to_canon(c, "kernel_layout", kls, kcanon, kl, fk) &&
         layout_to_canon(c, "out_layout", ol, dcanon, out, fout);
}

/* ICHECK_EQ(list.size(), n); kernel sizes that go into a shape must not be negative either. */
static bool ints_exact(OpCall *c, const char *name, size_t n, int64_t *out) {
  long got = ints_attr(c, name, out, 8);
  if (got < 0) return false;
  if ((size_t)got != n) {
    op_fail(c, -1, "%s: %s must have %zu values, got %ld", c->op->name, name, n, got);
    return false;
  }
  for (size_t i = 0; i < n && !strcmp(name, "kernel_size"); i++)
    if (out[i] < 0) {
      op_fail(c, -1, "%s: kernel_size must not hold negative values", c->op->name);
      return false;
    }
  return true;
}

/* An IndexExpr attribute (channels, units) the relation computes with: a constant integer, not
   negative (a shape built from it could not hold it). */
static bool const_int_attr(OpCall *c, const char *name, int64_t *v) {
  const AttrVal *a = op_attr(c, name);
  if (a->kind != ATTR_INT || a->i < 0) {
    op_fail(c, -1, "%s: attribute '%s' must be a constant integer >= 0", c->op->name, name);
    return false;
  }
  *v = a->i;
  return true;
}

/* A computed extent, or NEG when it is negative: TVM would build the negative number, which a type
   here cannot hold, and -1 must not pass for `?`. */
#define NEG INT64_MIN
static int64_t ext(int64_t v) { return v < 0 ? NEG : v; }

/* One output extent of a forward window, (in + pad - dk) / stride + 1, dividing as TVM's `/`
   (truncating) or indexdiv (flooring); `?` in, `?` out. */
static int64_t window_out(int64_t in, int64_t pad, int64_t dk, int64_t stride, bool trunc) {
  if (in == ANY || dk == ANY) return ANY;
  int64_t num = in + pad - dk;
  return ext((trunc ? num / stride : opx_floordiv(num, stride)) + 1);
}

/* A computed shape must not hold a negative extent (NEG). */
static bool nonnegative(OpCall *c, const int64_t *d, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (d[i] == NEG) {
      op_fail(c, -1, "%s: the result would have a negative extent at axis %zu", c->op->name, i);
      return false;
    }
  return true;
}

static DType out_dtype_or(OpCall *c, DType fallback) {
  DType d = op_dtype(c, "out_dtype");
  return d.code == DT_VOID ? fallback : d;
}

/* a * b on extents that may be `?`. */
static int64_t times(int64_t a, int64_t b) { return a == ANY || b == ANY ? ANY : a * b; }

/* ================================================================== Winograd and NCHWc */

/* Conv2DWinogradRel (convolution.h, for the 2-D Winograd convolution and nn.contrib_conv2d_NCHWc)
   and Conv3DWinogradRel (convolution.cc): the output follows from channels and kernel_size alone;
   the weight, pre-transformed for some backend, is not checked. */
static const Type *winograd_rel(OpCall *c, size_t nd) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *name = c->op->name;
  Layout dcanon, kcanon, in, kl, out;
  if (!conv_layouts(c, "Conv", nd == 2 ? "NCHW" : "NCDHW", nd == 2 ? "OIHW" : "OIDHW", &dcanon, &kcanon, &in, &kl,
                    &out))
    return NULL;
  int64_t d[LAYOUT_MAX];
  if (!layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  if (op_is_none(c, "kernel_size") || op_is_none(c, "channels"))
    return op_fail(c, -1, "%s: The kernel size and channels of a Conv must be set or inferred by previous pass", name);
  int64_t ks[8], dil[8], st[8], pad[3], channels;
  if (!ints_exact(c, "kernel_size", nd, ks) || !ints_exact(c, "dilation", nd, dil) ||
      !const_int_attr(c, "channels", &channels) || !ints_need(c, "strides", nd, st, 8) ||
      !all_positive(c, "strides", st, nd) || !pad_totals(c, nd, pad))
    return NULL;
  int64_t o[LAYOUT_MAX] = {d[0], ext(channels)};
  for (size_t i = 0; i < nd; i++) {
    int64_t dk = 1 + (ks[i] - 1) * dil[i];
    /* Conv3DWinogradRel looks at the depth's `?` for the height too */
    bool any = nd == 3 && i == 1 ? d[2] == ANY : d[2 + i] == ANY;
    o[2 + i] = any ? d[2 + i] : window_out(d[2 + i], pad[i], dk, st[i], true);
  }
  int64_t odims[LAYOUT_MAX];
  if (!nonnegative(c, o, nd + 2) || !layout_convert(c, -1, &dcanon, o, nd + 2, &out, odims)) return NULL;
  return ty_tensor(c->types, out_dtype_or(c, data->dtype), odims, out.ndim);
}

static const Type *winograd2d_rel(OpCall *c) { return required(c, "tile_size") ? winograd_rel(c, 2) : NULL; }
static const Type *winograd3d_rel(OpCall *c) { return required(c, "tile_size") ? winograd_rel(c, 3) : NULL; }
const Type *conv2d_nchwc_rel(OpCall *c) { return winograd_rel(c, 2); }

/* Conv2DWinogradWeightTransformRel: (tile + kh - 1, tile + kw - 1, O, I). */
static const Type *winograd_wt2d_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !required(c, "tile_size")) return NULL;
  if (w->ndims != 4) return op_fail(c, 0, "%s: Only support NCHW normal kernel layout", c->op->name);
  int64_t t = op_int(c, "tile_size");
  int64_t o[4] = {w->dims[2] == ANY ? ANY : ext(t + w->dims[2] - 1), w->dims[3] == ANY ? ANY : ext(t + w->dims[3] - 1),
                  w->dims[0], w->dims[1]};
  if (!nonnegative(c, o, 4)) return NULL;
  return ty_tensor(c->types, w->dtype, o, 4);
}

/* Conv3DWinogradWeightTransformRel: the depth is transformed too when it is 3 to 7. */
static const Type *winograd_wt3d_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !required(c, "tile_size")) return NULL;
  if (w->ndims != 5) return op_fail(c, 0, "%s: Only support NCDHW normal kernel layout", c->op->name);
  if (w->dims[2] == ANY)
    return op_fail(c, 0, "%s: the kernel depth (dimension 2) must be a constant, got ?", c->op->name);
  int64_t t = op_int(c, "tile_size");
  bool depth = w->dims[2] > 2 && w->dims[2] < 8;
  const int64_t *k = w->dims + 2;
  int64_t o[5] = {0, 0, 0, w->dims[0], w->dims[1]};
  for (int i = 0; i < 3; i++) {
    int64_t e = depth ? k[i] : (i < 2 ? k[i + 1] : k[0]);
    o[i] = e == ANY ? ANY : (!depth && i == 2 ? e : ext(t + e - 1));
  }
  if (!nonnegative(c, o, 5)) return NULL;
  return ty_tensor(c->types, w->dtype, o, 5);
}

/* Conv2DWinogradNNPACKWeightTransformRel: (O, I, 8, 8). */
static const Type *nnpack_wt_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !required(c, "convolution_algorithm")) return NULL;
  if (w->ndims != 4) return op_fail(c, 0, "%s: Only support NCHW normal kernel layout", c->op->name);
  int64_t o[4] = {w->dims[0], w->dims[1], 8, 8};
  return ty_tensor(c->types, out_dtype_or(c, w->dtype), o, 4);
}

/* ================================================================== GEMM */

/* Conv2DGemmRel: NHWC / HWIO, channels and kernel_size required, the weight not checked. */
static const Type *gemm_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  Layout dcanon, kcanon, in, kl, out;
  if (!conv_layouts(c, "Conv", "NHWC", "HWIO", &dcanon, &kcanon, &in, &kl, &out)) return NULL;
  int64_t d[LAYOUT_MAX];
  if (!layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  if (op_is_none(c, "kernel_size") || op_is_none(c, "channels"))
    return op_fail(c, -1, "%s: The kernel size and channels of a Conv must be set or inferred by previous pass",
                   c->op->name);
  int64_t ks[8], dil[8], st[8], pad[2], channels;
  if (!ints_exact(c, "kernel_size", 2, ks) || !ints_exact(c, "dilation", 2, dil) ||
      !const_int_attr(c, "channels", &channels) || !ints_need(c, "strides", 2, st, 8) ||
      !all_positive(c, "strides", st, 2) || !pad_totals(c, 2, pad))
    return NULL;
  /* H is computed unless W is `?`, W unless C is `?` (sic) */
  int64_t o[4] = {d[0], 0, 0, ext(channels)};
  for (int i = 0; i < 2; i++) {
    int64_t dk = 1 + (ks[i] - 1) * dil[i];
    o[1 + i] = d[2 + i] == ANY ? d[1 + i] : window_out(d[1 + i], pad[i], dk, st[i], true);
  }
  int64_t odims[LAYOUT_MAX];
  if (!nonnegative(c, o, 4) || !layout_convert(c, -1, &dcanon, o, 4, &out, odims)) return NULL;
  return ty_tensor(c->types, out_dtype_or(c, data->dtype), odims, out.ndim);
}

/* Conv2DGemmWeightTransformRel: an HWIO weight as (N, K) = (O, H*W*I) tiles, each padded up to a
   multiple of its tile: (ceil(N / tile_rows), ceil(K / tile_cols), tile_rows, tile_cols). */
static const Type *gemm_wt_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !required(c, "tile_rows") || !required(c, "tile_cols")) return NULL;
  int64_t n = op_int(c, "tile_rows"), k = op_int(c, "tile_cols");
  if (n <= 0 || k <= 0)
    return op_fail(c, -1, "%s: tile_rows and tile_cols must be positive, got %lld and %lld", c->op->name, (long long)n,
                   (long long)k);
  if (w->ndims != 4) return op_fail(c, 0, "%s: Only support HWIO kernel layout", c->op->name);
  int64_t K = times(times(w->dims[0], w->dims[1]), w->dims[2]), N = w->dims[3];
  int64_t o[4] = {N == ANY ? ANY : (N + n - 1) / n, K == ANY ? ANY : (K + k - 1) / k, n, k};
  return ty_tensor(c->types, w->dtype, o, 4);
}

/* ================================================================== 3-D transposed convolution */

/* Conv3DTransposeRel (convolution.cc). */
static const Type *conv3d_transpose_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *name = c->op->name;
  Layout dcanon, kcanon, in, kl, out;
  if (!conv_layouts(c, "Conv3d_transpose", "NCDHW", "IODHW", &dcanon, &kcanon, &in, &kl, &out)) return NULL;
  int64_t d[LAYOUT_MAX];
  if (!layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  int64_t groups = op_int(c, "groups"), ks[8], dil[8], st[8], opad[8], pad[3], channels = 0, dk[3], w[LAYOUT_MAX];
  bool have_ks = !op_is_none(c, "kernel_size"), have_ch = !op_is_none(c, "channels");
  if (have_ch && !const_int_attr(c, "channels", &channels)) return NULL;
  if (have_ch && groups == 0) return op_fail(c, -1, "%s: groups must not be 0", name);
  char b1[128], b2[128];
  int64_t cout;
  if (have_ks && have_ch) {
    if (!ints_exact(c, "kernel_size", 3, ks) || !ints_exact(c, "dilation", 3, dil)) return NULL;
    int64_t wc[5] = {d[1], opx_floordiv(channels, groups), ks[0], ks[1], ks[2]}, wd[LAYOUT_MAX];
    const Type *weight = op_tensor_arg(c, 1);
    if (!weight || !layout_convert(c, -1, &kcanon, wc, 5, &kl, wd) || !assign_arg(c, 1, weight->dtype, wd, kl.ndim))
      return NULL;
    for (int i = 0; i < 3; i++) dk[i] = 1 + (ks[i] - 1) * dil[i];
    cout = ext(channels);
  } else {
    const Type *weight = op_tensor_arg(c, 1);
    if (!weight || !layout_convert(c, 1, &kl, weight->dims, weight->ndims, &kcanon, w) ||
        !ints_need(c, "dilation", 3, dil, 8))
      return NULL;
    dims_str(w, 5, b2, sizeof b2);
    if (have_ks) {
      if (!ints_exact(c, "kernel_size", 3, ks)) return NULL;
      for (int i = 0; i < 3; i++)
        if (w[2 + i] != ANY && w[2 + i] != ks[i])
          return op_fail(c, 1, "%s: Conv3DTransposed: shape of weight is inconsistent with kernel_size,  kernel_size=%s wshape=%s",
                         name, dims_str(ks, 3, b1, sizeof b1), b2);
    }
    if (have_ch && w[1] != ANY && opx_floordiv(channels, groups) != w[1])
      return op_fail(c, 1,
                     "%s: Conv3DTransposed: shape of weight is inconsistent out_channels,  out_channels // groups != "
                     "weight.shape[1]  out_channels=%lld groups=%lld wshape=%s",
                     name, (long long)channels, (long long)groups, b2);
    if (d[1] != ANY && w[0] != ANY && d[1] != w[0])
      return op_fail(c, 1, "%s: the data's input channels (%lld) do not match the weight's (%lld), wshape=%s", name,
                     (long long)d[1], (long long)w[0], b2);
    cout = w[1];
    /* sic: the output height takes the kernel's width and dilation[2], the output width its height
       and dilation[1] */
    int64_t kd[3] = {w[2], w[4], w[3]}, dl[3] = {dil[0], dil[2], dil[1]};
    for (int i = 0; i < 3; i++) dk[i] = kd[i] == ANY ? ANY : 1 + (kd[i] - 1) * dl[i];
  }
  if (!ints_need(c, "strides", 3, st, 8) || !ints_need(c, "output_padding", 3, opad, 8) || !pad_totals(c, 3, pad))
    return NULL;
  int64_t o[5] = {d[0], cout};
  for (int i = 0; i < 3; i++) {
    int64_t x = d[2 + i];
    o[2 + i] = x == ANY ? ANY : dk[i] == ANY ? ANY : ext(st[i] * (x - 1) + dk[i] - pad[i] + opad[i]);
  }
  int64_t odims[LAYOUT_MAX];
  if (!nonnegative(c, o, 5) || !layout_convert(c, -1, &dcanon, o, 5, &out, odims)) return NULL;
  return ty_tensor(c->types, out_dtype_or(c, data->dtype), odims, out.ndim);
}

/* ================================================================== deformable convolution */

/* DeformableConv2DRel: data, offset, weight.  The offset must be (N, 2 * kh * kw *
   deformable_groups, out_h, out_w) in the data's layout, with the data's dtype. */
static const Type *deformable_conv2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *name = c->op->name;
  Layout dcanon, kcanon, in, kl, out;
  layout_parse(c, "", "NCHW", &dcanon);
  layout_parse(c, "", "OIHW", &kcanon);
  const char *dl = op_str(c, "data_layout"), *kls = op_str(c, "kernel_layout");
  const char *ol = *op_str(c, "out_layout") ? op_str(c, "out_layout") : dl;
  if (!layout_to_canon(c, "data_layout", dl, &dcanon, &in,
                       "deformable_conv2d only support input layouts that are convertible from %s. The provided layout is: %s") ||
      !layout_to_canon(c, "kernel_layout", kls, &kcanon, &kl,
                       "deformable_conv2d only support kernel layouts that are convertible from %s. The provided layout is: %s") ||
      !layout_to_canon(c, "out_layout", ol, &dcanon, &out,
                       "deformable_conv2d only support output layouts that are convertible from %s.The provided layout is: %s"))
    return NULL;
  int64_t d[LAYOUT_MAX], w[LAYOUT_MAX], groups = op_int(c, "groups"), dgroups = op_int(c, "deformable_groups");
  if (!layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  if (groups == 0) return op_fail(c, -1, "%s: groups must not be 0", name);
  bool have_ks = !op_is_none(c, "kernel_size"), have_ch = !op_is_none(c, "channels");
  int64_t ks[8], dil[8], channels = 0, cout, ky, kx;
  if (have_ch && !const_int_attr(c, "channels", &channels)) return NULL;
  char b1[128], b2[128];
  if (have_ks && have_ch) {
    if (!ints_exact(c, "kernel_size", 2, ks) || !ints_exact(c, "dilation", 2, dil)) return NULL;
    int64_t wc[4] = {channels, d[1] == ANY ? ANY : opx_floordiv(d[1], groups), ks[0], ks[1]}, wd[LAYOUT_MAX];
    if (!layout_convert(c, -1, &kcanon, wc, 4, &kl, wd) || !assign_arg(c, 2, data->dtype, wd, kl.ndim)) return NULL;
    cout = ext(channels), ky = ext(ks[0]), kx = ext(ks[1]);
  } else {
    const Type *weight = op_tensor_arg(c, 2);
    if (!weight || !layout_convert(c, 2, &kl, weight->dims, weight->ndims, &kcanon, w) ||
        !ints_need(c, "dilation", 2, dil, 8))
      return NULL;
    dims_str(w, 4, b2, sizeof b2);
    if (have_ks) {
      if (!ints_exact(c, "kernel_size", 2, ks)) return NULL;
      if ((w[2] != ANY && w[2] != ks[0]) || (w[3] != ANY && w[3] != ks[1]))
        return op_fail(c, 2, "%s: DeformableConv2D: shape of weight is inconsistent with kernel_size,  kernel_size=%s wshape=%s",
                       name, dims_str(ks, 2, b1, sizeof b1), b2);
    }
    if (have_ch && w[0] != ANY && w[0] != channels)
      return op_fail(c, 2, "%s: DeformableConv2D: shape of weight is inconsistent with channels,  channels=%lld wshape=%s",
                     name, (long long)channels, b2);
    if (d[1] != ANY && w[1] != ANY && opx_floordiv(d[1], groups) != w[1])
      return op_fail(c, 2, "%s: the data's input channels divided by groups (%lld) do not match the weight's (%lld), wshape=%s",
                     name, (long long)opx_floordiv(d[1], groups), (long long)w[1], b2);
    cout = w[0], ky = w[2], kx = w[3];
  }
  int64_t st[8], pad[2];
  if (!ints_need(c, "strides", 2, st, 8) || !all_positive(c, "strides", st, 2) || !pad_totals(c, 2, pad)) return NULL;
  int64_t o[4] = {d[0], cout}, k[2] = {ky, kx};
  for (int i = 0; i < 2; i++) o[2 + i] = window_out(d[2 + i], pad[i], k[i] == ANY ? ANY : 1 + (k[i] - 1) * dil[i], st[i], false);
  int64_t off[4] = {d[0], ky == NEG || kx == NEG ? NEG : ext(times(times(2 * dgroups, ky), kx)), o[2], o[3]}, offd[LAYOUT_MAX], odims[LAYOUT_MAX];
  if (!nonnegative(c, o, 4) || !nonnegative(c, off, 4) || !layout_convert(c, -1, &dcanon, off, 4, &in, offd) ||
      !assign_arg(c, 1, data->dtype, offd, in.ndim) || !layout_convert(c, -1, &dcanon, o, 4, &out, odims))
    return NULL;
  return ty_tensor(c->types, out_dtype_or(c, data->dtype), odims, out.ndim);
}

/* ================================================================== bitserial */

/* BitPackRel (bitserial.cc): the pack axis shrinks by the pack type's width, and a new axis of
   `bits` is inserted before axis bit_axis (appended when it equals the rank; none when it is out of
   range, as with the default -1). */
static const Type *bitpack_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  DType pt = op_dtype(c, "pack_type");
  if (pt.code == DT_VOID) return op_fail(c, -1, "%s: pack_type must be set (the result's dtype)", c->op->name);
  int64_t bits = op_int(c, "bits"), pack_axis = op_int(c, "pack_axis"), bit_axis = op_int(c, "bit_axis");
  int64_t ndim = data->ndims, o[LAYOUT_MAX + 1];
  if (ndim > LAYOUT_MAX) return op_fail(c, 0, "%s: rank %lld is too large", c->op->name, (long long)ndim);
  size_t n = 0;
  for (int64_t i = 0; i < ndim; i++) {
    if (i == bit_axis) o[n++] = ext(bits);
    int64_t x = data->dims[i];
    o[n++] = i == pack_axis && x != ANY ? opx_floordiv(x, pt.bits) : x;
  }
  if (bit_axis == ndim) o[n++] = ext(bits);
  if (!nonnegative(c, o, n)) return NULL;
  return ty_tensor(c->types, pt, o, n);
}

/* BinaryConv2DRel: the output from channels, kernel_size, strides and padding (no dilation), in
   data_layout; the weight is not checked. */
static const Type *bitserial_conv2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  Layout canon, in;
  layout_parse(c, "", "NCHW", &canon);
  if (!layout_to_canon(c, "data_layout", op_str(c, "data_layout"), &canon, &in,
                       "cannot convert from %s to layout %s (an undefined bijective layout)"))
    return NULL;
  int64_t d[LAYOUT_MAX], ks[8], st[8], pad[2], channels;
  if (!layout_convert(c, 0, &in, data->dims, data->ndims, &canon, d)) return NULL;
  if (op_is_none(c, "channels")) return op_fail(c, -1, "%s: Check failed: param->channels.defined()", c->op->name);
  if (op_is_none(c, "kernel_size")) return op_fail(c, -1, "%s: Check failed: param->kernel_size.defined()", c->op->name);
  if (!const_int_attr(c, "channels", &channels) || !ints_need(c, "kernel_size", 2, ks, 8) ||
      !ints_need(c, "strides", 2, st, 8) || !all_positive(c, "strides", st, 2) || !pad_totals(c, 2, pad))
    return NULL;
  DType od = op_dtype(c, "out_dtype");
  if (od.code == DT_VOID) return op_fail(c, -1, "%s: out_dtype must be set (the result's dtype)", c->op->name);
  int64_t o[4] = {d[0], ext(channels), window_out(d[2], pad[0], ks[0], st[0], true), window_out(d[3], pad[1], ks[1], st[1], true)};
  int64_t odims[LAYOUT_MAX];
  if (!nonnegative(c, o, 4) || !layout_convert(c, -1, &canon, o, 4, &in, odims)) return NULL;
  return ty_tensor(c->types, od, odims, in.ndim);
}

/* BinaryDenseRel: the data's shape with its last axis `units`; the weight is not checked. */
static const Type *bitserial_dense_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t units;
  if (!data || !required(c, "units") || !const_int_attr(c, "units", &units)) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "%s: the data must have at least one dimension", c->op->name);
  if (units < 0) return op_fail(c, -1, "%s: units must not be negative, got %lld", c->op->name, (long long)units);
  int64_t *o = dims_dup(data);
  o[data->ndims - 1] = units;
  return tensor_free(c, out_dtype_or(c, data->dtype), o, data->ndims);
}

/* DensePackRel (nn.cc): (N, K) data and a weight packed as (N / tile, K, tile) (or 4-D) give
   (N, weight[0] * weight[2]).  TVM registers DenseAttrs as the op's attribute type but the relation
   reads DensePackAttrs, which the Python API builds (so TVM's parser, which builds DenseAttrs, cannot
   read back a call it prints); the schema here is DensePackAttrs', as printed. */
static const Type *dense_pack_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *w = data ? op_tensor_arg(c, 1) : NULL;
  if (!w) return NULL;
  if (data->ndims != 2) return op_fail(c, 0, "%s: Only 2D data is supported", c->op->name);
  if (w->ndims != 3 && w->ndims != 4) return op_fail(c, 1, "%s: Expect weight to be 3D or 4D", c->op->name);
  int64_t o[2] = {data->dims[0], times(w->dims[0], w->dims[2])};
  return ty_tensor(c->types, out_dtype_or(c, data->dtype), o, 2);
}

/* ================================================================== correlation */

/* CorrelationRel (correlation.cc): NCHW only; (N, (2 * (max_displacement / stride2) + 1)^2, out_h,
   out_w), where the height comes from data1 and the width from data2. */
static const Type *correlation_rel(OpCall *c) {
  const Type *a = op_tensor_arg(c, 0), *b = a ? op_tensor_arg(c, 1) : NULL;
  if (!b) return NULL;
  const char *name = c->op->name;
  if (strcmp(op_str(c, "layout"), "NCHW") != 0) return op_fail(c, -1, "%s: layout not supported.", name);
  if (a->ndims < 3) return op_fail(c, 0, "%s: data1 must have rank 4, got %u", name, a->ndims);
  if (b->ndims < 4) return op_fail(c, 1, "%s: data2 must have rank 4, got %u", name, b->ndims);
  int64_t pad[2];
  if (!pad_totals(c, 2, pad)) return NULL;
  int64_t k = op_int(c, "kernel_size"), maxd = op_int(c, "max_displacement"), s1 = op_int(c, "stride1"),
          s2 = op_int(c, "stride2");
  if (s1 == 0 || s2 == 0) return op_fail(c, -1, "%s: stride1 and stride2 must not be 0", name);
  int64_t border = maxd + (k - 1) / 2, dsize = 2 * (maxd / s2) + 1;
  int64_t h = a->dims[2], w = b->dims[3];
  int64_t o[4] = {a->dims[0], dsize * dsize, h == ANY ? ANY : ext(opx_floordiv(h + pad[0] - 2 * border + s1 - 1, s1)),
                  w == ANY ? ANY : ext(opx_floordiv(w + pad[1] - 2 * border + s1 - 1, s1))};
  if (!nonnegative(c, o, 4)) return NULL;
  return ty_tensor(c->types, a->dtype, o, 4);
}

/* ================================================================== the entries */

#include "nn_conv_gen.h"

/* Conv2DWinogradAttrs, Conv3DWinogradAttrs: tile_size (required), then Conv2DAttrs' fields. */
static const OpAttrSpec winograd2d_attrs[] = {{"tile_size", AT_INT, "None"},
                                              CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\"")};
static const OpAttrSpec winograd3d_attrs[] = {{"tile_size", AT_INT, "None"},
                                              CONV_ATTRS("[1, 1, 1]", "[0, 0, 0]", "[1, 1, 1]", "\"NCDHW\"", "\"OIDHW\"")};
static const OpAttrSpec conv2d_attrs[] = {CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\"")};
static const OpAttrSpec winograd_wt_attrs[] = {{"tile_size", AT_INT, "None"}};
static const OpAttrSpec nnpack_wt_attrs[] = {{"convolution_algorithm", AT_INT, "None"}, {"out_dtype", AT_DTYPE, "\"\""}};
static const OpAttrSpec gemm_wt_attrs[] = {{"tile_rows", AT_INT, "None"}, {"tile_cols", AT_INT, "None"}};
/* Conv3DTransposeAttrs: channels and kernel_size first, output_padding before padding. */
static const OpAttrSpec conv3d_transpose_attrs[] = {
    {"channels", AT_INT, "None"},        {"kernel_size", AT_INTS, "None"},  {"strides", AT_INTS, "[1, 1, 1]"},
    {"output_padding", AT_INTS, "[0, 0, 0]"}, {"padding", AT_INTS, "[0, 0, 0]"}, {"dilation", AT_INTS, "[1, 1, 1]"},
    {"groups", AT_INT, "1"},             {"data_layout", AT_STR, "\"NCDHW\""}, {"kernel_layout", AT_STR, "\"IODHW\""},
    {"out_layout", AT_STR, "\"\""},      {"out_dtype", AT_DTYPE, "\"\""}};
/* DeformableConv2DAttrs: deformable_groups before groups. */
static const OpAttrSpec deformable_conv2d_attrs[] = {
    {"strides", AT_INTS, "[1, 1]"},     {"padding", AT_INTS, "[0, 0]"},     {"dilation", AT_INTS, "[1, 1]"},
    {"deformable_groups", AT_INT, "1"}, {"groups", AT_INT, "1"},            {"channels", AT_INT, "None"},
    {"kernel_size", AT_INTS, "None"},   {"data_layout", AT_STR, "\"NCHW\""}, {"kernel_layout", AT_STR, "\"OIHW\""},
    {"out_layout", AT_STR, "\"\""},     {"out_dtype", AT_DTYPE, "\"\""}};
/* BitPackAttrs, BinaryConv2DAttrs (kernel_size before channels), BinaryDenseAttrs (bitserial.h):
   the dtypes default to void, which the Python API never leaves them at. */
static const OpAttrSpec bitpack_attrs[] = {{"bits", AT_INT, "1"},
                                           {"pack_axis", AT_INT, "1"},
                                           {"bit_axis", AT_INT, "-1"},
                                           {"pack_type", AT_DTYPE, "\"\""},
                                           {"name", AT_STR, "\"BitPack\""}};
static const OpAttrSpec bitserial_conv2d_attrs[] = {
    {"strides", AT_INTS, "[1, 1]"},       {"padding", AT_INTS, "[0, 0]"},      {"kernel_size", AT_INTS, "[3, 3]"},
    {"channels", AT_INT, "None"},         {"activation_bits", AT_INT, "1"},    {"weight_bits", AT_INT, "1"},
    {"data_layout", AT_STR, "\"NCHW\""},  {"kernel_layout", AT_STR, "\"OIHW\""}, {"pack_dtype", AT_DTYPE, "\"\""},
    {"out_dtype", AT_DTYPE, "\"\""},      {"unipolar", AT_BOOL, "True"}};
static const OpAttrSpec bitserial_dense_attrs[] = {{"units", AT_INT, "None"},       {"data_bits", AT_INT, "1"},
                                                   {"weight_bits", AT_INT, "1"},    {"pack_dtype", AT_DTYPE, "\"\""},
                                                   {"out_dtype", AT_DTYPE, "\"\""}, {"unipolar", AT_BOOL, "True"}};
/* DensePackAttrs: units has no default (None is what the Python API passes). */
static const OpAttrSpec dense_pack_attrs[] = {
    {"units", AT_INT, "None"}, {"out_dtype", AT_DTYPE, "\"\""}, {"weight_layout", AT_STR, "\"NC\""}};
/* CorrelationAttrs */
static const OpAttrSpec correlation_attrs[] = {{"kernel_size", AT_INT, "1"},  {"max_displacement", AT_INT, "1"},
                                               {"stride1", AT_INT, "1"},      {"stride2", AT_INT, "1"},
                                               {"padding", AT_INTS, "[0, 0]"}, {"is_multiply", AT_BOOL, "True"},
                                               {"layout", AT_STR, "\"NCHW\""}};

#define GEN(cls, rec, sol, sam) .gen_dtypes = (cls), .recognize = (rec), .solve = (sol), .sample = (sam)
#define OP(n, nargs, a, rel, ...) \
  {.name = (n), .min_args = (nargs), .max_args = (nargs), .attrs = (a), .nattrs = NELEMS(a), .relation = (rel), __VA_ARGS__}

const OpDef op_family_nn_conv[] = {
    /* convolution.cc */
    OP("nn.conv3d_transpose", 2, conv3d_transpose_attrs, conv3d_transpose_rel, CONV3D_TRANSPOSE_GEN),
    OP("nn.contrib_conv2d_winograd_without_weight_transform", 2, winograd2d_attrs, winograd2d_rel, WINOGRAD2D_GEN),
    OP("nn.contrib_conv3d_winograd_without_weight_transform", 2, winograd3d_attrs, winograd3d_rel, WINOGRAD3D_GEN),
    OP("nn.contrib_conv2d_winograd_weight_transform", 1, winograd_wt_attrs, winograd_wt2d_rel, WINOGRAD_WT2D_GEN),
    OP("nn.contrib_conv3d_winograd_weight_transform", 1, winograd_wt_attrs, winograd_wt3d_rel, WINOGRAD_WT3D_GEN),
    OP("nn.contrib_conv2d_winograd_nnpack_weight_transform", 1, nnpack_wt_attrs, nnpack_wt_rel, NNPACK_WT_GEN),
    OP("nn.contrib_conv2d_gemm_without_weight_transform", 2, conv2d_attrs, gemm_rel, GEMM_GEN),
    OP("nn.contrib_conv2d_gemm_weight_transform", 1, gemm_wt_attrs, gemm_wt_rel, GEMM_WT_GEN),
    /* registered with Conv2DRel, like nn.conv2d */
    OP("nn.contrib_depthwise_conv2d_NCHWc", 2, conv2d_attrs, conv2d_rel, DEPTHWISE_NCHWC_GEN),
    OP("nn.deformable_conv2d", 3, deformable_conv2d_attrs, deformable_conv2d_rel, DEFORMABLE_GEN),
    /* bitserial.cc */
    OP("nn.bitpack", 1, bitpack_attrs, bitpack_rel, BITPACK_GEN),
    OP("nn.bitserial_conv2d", 2, bitserial_conv2d_attrs, bitserial_conv2d_rel, BITSERIAL_CONV2D_GEN),
    OP("nn.bitserial_dense", 2, bitserial_dense_attrs, bitserial_dense_rel, BITSERIAL_DENSE_GEN),
    /* nn.cc: not generated (TVM's parser cannot read it back, above) */
    OP("nn.contrib_dense_pack", 2, dense_pack_attrs, dense_pack_rel),
    /* correlation.cc */
    OP("nn.correlation", 2, correlation_attrs, correlation_rel, CORRELATION_GEN),
};
const size_t op_family_nn_conv_len = NELEMS(op_family_nn_conv);
