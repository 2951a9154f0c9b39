/*
 * The convolutions: conv1d/2d/3d and their transposes (with qnn.conv2d, which types as Conv2DRel
 * after its own checks), the 3-D transposed convolution, the contrib_* forms that AlterOpLayout
 * introduces (Winograd and GEMM convolutions and their weight transforms, NNPACK's weight
 * transform, the packed NCHWc convolutions), deformable convolution, the bitserial ops and
 * correlation.  Each relation computes what TVM v0.13's XxxRel computes.  Facts from TVM v0.13
 * src/relay/op/nn/{convolution.cc, convolution.h, convolution_make.h, bitserial.cc,
 * correlation.cc}, src/relay/qnn/op/convolution.cc, src/relay/op/op_common.h (GetPadding*) and the
 * attribute structs in include/tvm/relay/attrs/{nn.h, bitserial.h}.  Each op (or group of ops
 * sharing a relation) is one block: relation, generators, schema, rows.
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

#include "kit.h"

OP_FAMILY(nn_conv);

/* ================================================================== helpers the blocks below share */

/* "<who> only support input layouts that are convertible from NCHW. But got NHWC", the wording of
   most convolution relations. */
static bool conv_layouts(OpCall *c, const char *who, const char *dcanon_s, const char *kcanon_s, KitLayout *dcanon,
                         KitLayout *kcanon, KitLayout *in, KitLayout *kl, KitLayout *out) {
  kit_layout_parse(c, "", dcanon_s, dcanon);
  kit_layout_parse(c, "", kcanon_s, kcanon);
  const char *dl = op_str(c, "data_layout"), *kls = op_str(c, "kernel_layout");
  const char *ol = *op_str(c, "out_layout") ? op_str(c, "out_layout") : dl;
  char fin[128], fk[128], fout[128];
  snprintf(fin, sizeof fin, "%s only support input layouts that are convertible from %%s. But got %%s", who);
  snprintf(fk, sizeof fk, "%s only support kernel layouts that are convertible from %%s. But got %%s", who);
  snprintf(fout, sizeof fout, "%s only support output layouts that are convertible from %%s. But got %%s", who);
  return kit_layout_to_canon(c, "data_layout", dl, dcanon, in, fin) &&
         kit_layout_to_canon(c, "kernel_layout", kls, kcanon, kl, fk) &&
         kit_layout_to_canon(c, "out_layout", ol, dcanon, out, fout);
}

/* ICHECK_EQ(list.size(), n); kernel sizes that go into a shape must not be negative either. */
static bool ints_exact(OpCall *c, const char *name, size_t n, int64_t *out) {
  long got = kit_const_ints(c, name, out, 8);
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
  if (in == KIT_ANY || dk == KIT_ANY) return KIT_ANY;
  int64_t num = in + pad - dk;
  return ext((trunc ? num / stride : kit_floordiv(num, stride)) + 1);
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

/* Conv2DWinogradRel (convolution.h, for the 2-D Winograd convolution and nn.contrib_conv2d_NCHWc)
   and Conv3DWinogradRel (convolution.cc): the output follows from channels and kernel_size alone;
   the weight, pre-transformed for some backend, is not checked. */
static const Type *winograd_rel(OpCall *c, size_t nd) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *name = c->op->name;
  KitLayout dcanon, kcanon, in, kl, out;
  if (!conv_layouts(c, "Conv", nd == 2 ? "NCHW" : "NCDHW", nd == 2 ? "OIHW" : "OIDHW", &dcanon, &kcanon, &in, &kl,
                    &out))
    return NULL;
  int64_t d[KIT_LAYOUT_MAX];
  if (!kit_layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  if (op_is_none(c, "kernel_size") || op_is_none(c, "channels"))
    return op_fail(c, -1, "%s: The kernel size and channels of a Conv must be set or inferred by previous pass", name);
  int64_t ks[8], dil[8], st[8], pad[3], channels;
  if (!ints_exact(c, "kernel_size", nd, ks) || !ints_exact(c, "dilation", nd, dil) ||
      !const_int_attr(c, "channels", &channels) || !kit_ints_need(c, "strides", nd, st, 8) ||
      !kit_all_positive(c, "strides", st, nd) || !kit_pad_totals(c, nd, pad))
    return NULL;
  int64_t o[KIT_LAYOUT_MAX] = {d[0], ext(channels)};
  for (size_t i = 0; i < nd; i++) {
    int64_t dk = 1 + (ks[i] - 1) * dil[i];
    /* Conv3DWinogradRel looks at the depth's `?` for the height too */
    bool any = nd == 3 && i == 1 ? d[2] == KIT_ANY : d[2 + i] == KIT_ANY;
    o[2 + i] = any ? d[2 + i] : window_out(d[2 + i], pad[i], dk, st[i], true);
  }
  int64_t odims[KIT_LAYOUT_MAX];
  if (!nonnegative(c, o, nd + 2) || !kit_layout_convert(c, -1, &dcanon, o, nd + 2, &out, odims)) return NULL;
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), odims, out.ndim);
}

/* A forward window (the convolution's formula) whose outputs are o[0..nd): tries random windows
   whose input, times `other` (batch x channels), stays within the budget, then the identity window.
   `no_dil` keeps the dilation at 1 (for ops without one). */
static void fwd_window(OpGen *g, size_t nd, const int64_t *o, int64_t other, bool no_dil, KitWindow *w) {
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    if (!kit_window_solve(g, KIT_WIN_CONV, nd, o, minimal, false, false, w)) continue;
    if (minimal) return;
    bool ok = other * kit_prod(w->in, nd) <= kit_derived_budget(g);
    for (size_t i = 0; i < nd && no_dil; i++) ok &= w->dil[i] == 1;
    if (ok) return;
  }
}

/* ------------------------- the convolutions (convolution.cc): conv1d/2d/3d, transposed, NCHWc, qnn.conv2d */

static const Type *conv2d_nchwc_rel(OpCall *c) { return winograd_rel(c, 2); }

/* What differs between Conv1DRel, Conv2DRel and Conv3DRel (convolution.cc). */
typedef struct ConvKind {
  size_t nd;                /* spatial dimensions */
  const char *data_canon;   /* "NCHW": the layout the relation computes in */
  const char *kernel_canon; /* "OIHW" (forward) or "IOHW" (transposed) */
  const char *tag;          /* TVM's prefix for weight-shape messages: "Conv2D", "Conv2DTransposed" */
  bool transposed;
} ConvKind;

static const ConvKind conv1d_kind = {1, "NCW", "OIW", "Conv1D", false};

static const ConvKind conv2d_kind = {2, "NCHW", "OIHW", "Conv2D", false};

static const ConvKind conv3d_kind = {3, "NCDHW", "OIDHW", "Conv3D", false};

static const ConvKind conv1d_transpose_kind = {1, "NCW", "IOW", "Conv1DTraspose", true}; /* sic, as TVM */

static const ConvKind conv2d_transpose_kind = {2, "NCHW", "IOHW", "Conv2DTransposed", true};

/* The three layout checks every convolution relation starts with.  Conv2DRel words its messages
   differently from the others. */
static bool conv_kind_layouts(OpCall *c, const ConvKind *k, KitLayout *in, KitLayout *kernel, KitLayout *out) {
  KitLayout dcanon, kcanon;
  kit_layout_parse(c, "", k->data_canon, &dcanon);
  kit_layout_parse(c, "", k->kernel_canon, &kcanon);
  const char *data_layout = op_str(c, "data_layout"), *kernel_layout = op_str(c, "kernel_layout");
  const char *out_layout = *op_str(c, "out_layout") ? op_str(c, "out_layout") : data_layout;
  /* conv2d with groups > 1 and a "G" in the kernel layout switches to DNNL's grouped GOIHW form,
     which these relations do not model. */
  if (k->nd == 2 && op_int(c, "groups") > 1 && strchr(kernel_layout, 'G')) {
    op_fail(c, -1, "%s: grouped kernel layouts (%s, with a G axis) are not supported", c->op->name, kernel_layout);
    return false;
  }
  bool conv2d = k->nd == 2 && !k->transposed;
  const char *who = k->transposed && k->nd == 2 ? "Conv2DTransposed" : "Conv";
  char fin[128], fk[128], fout[128];
  if (conv2d) {
    strcpy(fin, "conv2d only support input layouts that are convertible from %s. The provided layout is: %s");
    strcpy(fk, "conv2d only support kernel layouts that are convertible from %s. The provided layout is: %s");
    strcpy(fout, "conv2d only support output layouts that are convertible from %s. The provided layout is: %s");
  } else {
    snprintf(fin, sizeof fin, "%s only support input layouts that are convertible from %%s. But got %%s", who);
    snprintf(fk, sizeof fk, "%s only support kernel layouts that are convertible from %%s. But got %%s", who);
    snprintf(fout, sizeof fout, "%s only support output layouts that are convertible from %%s. But got %%s", who);
  }
  return kit_layout_to_canon(c, "data_layout", data_layout, &dcanon, in, fin) &&
         kit_layout_to_canon(c, "kernel_layout", kernel_layout, &kcanon, kernel, fk) &&
         kit_layout_to_canon(c, "out_layout", out_layout, &dcanon, out, fout);
}

/* Conv1DRel / Conv2DRel / Conv3DRel and Conv1DTransposeRel / Conv2DTransposeRel
   (src/relay/op/nn/convolution.cc).  Arguments 0 and 1 are data and weight (qnn.conv2d reuses this
   with its extra arguments after them). */
static const Type *conv_rel(OpCall *c, const ConvKind *k) {
  const Type *data = op_tensor_arg(c, 0), *weight = data ? op_tensor_arg(c, 1) : NULL;
  if (!weight) return NULL;
  const char *name = c->op->name;
  const size_t nd = k->nd, wrank = nd + 2;

  KitLayout in, kl, out, dcanon, kcanon;
  if (!conv_kind_layouts(c, k, &in, &kl, &out)) return NULL;
  kit_layout_parse(c, "", k->data_canon, &dcanon);
  kit_layout_parse(c, "", k->kernel_canon, &kcanon);

  int64_t dshape[KIT_LAYOUT_MAX];
  if (!kit_layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, dshape)) return NULL;

  int64_t groups = op_int(c, "groups");
  if (groups <= 0) return op_fail(c, -1, "%s: groups must be positive, got %lld", name, (long long)groups);
  int64_t strides[8], dilation[8], pad[3];
  /* A forward convolution divides by its strides (TVM would divide by zero). */
  if (!kit_ints_need(c, "strides", nd, strides, 8) || !kit_ints_need(c, "dilation", nd, dilation, 8) ||
      (!k->transposed && !kit_all_positive(c, "strides", strides, nd)))
    return NULL;
  if (k->nd == 1 && !k->transposed) {
    /* Conv1DRel adds padding[0] and padding[1] without normalising a single value. */
    int64_t p[8];
    if (!kit_ints_need(c, "padding", 2, p, 8)) return NULL;
    if (__builtin_add_overflow(p[0], p[1], &pad[0])) return op_fail(c, -1, "%s: the total padding overflows int64", c->op->name);
  } else if (!kit_pad_totals(c, nd, pad)) {
    return NULL;
  }
  int64_t outpad[8] = {0};
  if (k->transposed && !kit_ints_need(c, "output_padding", nd, outpad, 8)) return NULL;

  bool have_ks = !op_is_none(c, "kernel_size"), have_ch = !op_is_none(c, "channels");
  int64_t ks[8] = {0}, channels = have_ch ? op_int(c, "channels") : 0;
  long nks = 0;
  if (have_ks && (nks = kit_const_ints(c, "kernel_size", ks, 8)) < 0) return NULL;
  if (have_ch && op_attr(c, "channels")->kind != ATTR_INT)
    return op_fail(c, -1, "%s: attribute 'channels' must be a constant integer", name);

  int64_t cin = dshape[1], cin_g = cin == KIT_ANY ? KIT_ANY : kit_floordiv(cin, groups);
  int64_t cout, dk[3], wcan[KIT_LAYOUT_MAX], wdims[KIT_LAYOUT_MAX];
  char b1[256], b2[256];

  /* Conv2DRel / Conv3DRel: a grouped convolution whose groups equal the input channels and the
     weight's output channels is depthwise, and the weight inferred from the attributes is then
     (C, channels / C, k...). */
  bool depthwise = false;
  if (!k->transposed && nd >= 2 && groups > 1) {
    if (!kit_layout_convert(c, 1, &kl, weight->dims, weight->ndims, &kcanon, wcan)) return NULL;
    depthwise = groups == cin && groups == wcan[0];
  }

  if (have_ks && have_ch) {
    /* The weight's type follows from the attributes; the given weight must unify with it. */
    if ((size_t)nks != nd)
      return op_fail(c, -1, "%s: kernel_size must have %zu value%s, got %ld", name, nd, nd == 1 ? "" : "s", nks);
    if (k->transposed) {
      wcan[0] = cin;
      wcan[1] = kit_floordiv(channels, groups);
    } else if (depthwise) {
      wcan[0] = cin;
      wcan[1] = kit_floordiv(channels, cin);
    } else {
      wcan[0] = channels;
      wcan[1] = cin_g;
    }
    for (size_t i = 0; i < nd; i++) {
      wcan[2 + i] = ks[i];
      dk[i] = 1 + (ks[i] - 1) * dilation[i];
    }
    if (!kit_layout_convert(c, -1, &kcanon, wcan, wrank, &kl, wdims) ||
        !kit_assign(c, 1, weight->dtype, wdims, kl.ndim))
      return NULL;
    cout = channels;
  } else {
    /* Everything follows from the weight's shape, checked against what the attributes say. */
    if (!kit_layout_convert(c, 1, &kl, weight->dims, weight->ndims, &kcanon, wcan)) return NULL;
    kit_dims_str(wcan, wrank, b2, sizeof b2);
    if (have_ks) {
      if ((size_t)nks != nd)
        return op_fail(c, -1, "%s: kernel_size must have %zu value%s, got %ld", name, nd, nd == 1 ? "" : "s", nks);
      for (size_t i = 0; i < nd; i++)
        if (wcan[2 + i] != KIT_ANY && wcan[2 + i] != ks[i])
          return op_fail(c, 1, "%s: %s: shape of weight is inconsistent with kernel_size, kernel_size=%s wshape=%s", name,
                         k->tag, kit_dims_str(ks, nd, b1, sizeof b1), b2);
    }
    if (k->transposed) {
      int64_t per_group = have_ch ? kit_floordiv(channels, groups) : 0;
      if (have_ch && wcan[1] != KIT_ANY && wcan[1] != per_group)
        return op_fail(c, 1,
                       "%s: %s: shape of weight is inconsistent with out_channels, out_channels // groups != "
                       "weight.shape[1] out_channels=%lld groups=%lld weight.shape=%s",
                       name, k->tag, (long long)channels, (long long)groups, b2);
      if (cin != KIT_ANY && wcan[0] != KIT_ANY && cin != wcan[0])
        return op_fail(c, 1, "%s: %s: shape of weight is inconsistent with in_channels. data.shape= %s groups= %lld weight.shape= %s",
                       name, k->tag, kit_dims_str(dshape, nd + 2, b1, sizeof b1), (long long)groups, b2);
      cout = wcan[1];
    } else {
      if (have_ch && wcan[0] != KIT_ANY && wcan[0] != channels) {
        if (nd == 2)
          return op_fail(c, 1, "%s: conv2D: the first dimensions of the weight tensor (%s)does not match the number of channels (%lld).",
                         name, b2, (long long)channels);
        return op_fail(c, 1, "%s: %s: shape of weight is inconsistent with channels, channels=%lld wshape=%s", name, k->tag,
                       (long long)channels, b2);
      }
      /* Conv1DRel compares the input channels without dividing by groups. */
      int64_t want = nd == 1 ? cin : cin_g;
      if (cin != KIT_ANY && wcan[1] != KIT_ANY && want != wcan[1]) {
        if (nd == 2)
          return op_fail(c, 1,
                         "%s: conv2d: requires that `%lld`, the input channels (%lld) divided by groups (%lld),\n must match "
                         "the input channels of the weight `%lld`, where the weight shape is (%s).",
                         name, (long long)want, (long long)cin, (long long)groups, (long long)wcan[1], b2);
        return op_fail(c, 1, "%s: %s: the input channels of the data (%lld%s) do not match those of the weight (%lld), where the weight shape is %s",
                       name, k->tag, (long long)want, nd == 1 ? "" : ", divided by groups", (long long)wcan[1], b2);
      }
      cout = wcan[0];
    }
    for (size_t i = 0; i < nd; i++) dk[i] = wcan[2 + i] == KIT_ANY ? KIT_ANY : 1 + (wcan[2 + i] - 1) * dilation[i];
  }

  /* The output, in the canonical layout, then in out_layout. */
  int64_t oshape[KIT_LAYOUT_MAX], odims[KIT_LAYOUT_MAX];
  oshape[0] = dshape[0];
  oshape[1] = cout;
  static const char *const axis_names[3][3] = {{"width"}, {"height", "width"}, {"depth", "height", "width"}};
  for (size_t i = 0; i < nd; i++) {
    int64_t d = dshape[2 + i];
    if (d == KIT_ANY || dk[i] == KIT_ANY) {
      oshape[2 + i] = KIT_ANY;
      continue;
    }
    int64_t o = k->transposed ? strides[i] * (d - 1) + dk[i] - pad[i] + outpad[i]
                              : kit_floordiv(d + pad[i] - dk[i], strides[i]) + 1;
    /* checked before it is stored: a computed -1 (TVM's type says -1) must not pass for `?` */
    if (o < 0) return op_fail(c, -1, "%s: the output %s would be negative (%lld)", name, axis_names[nd - 1][i], (long long)o);
    oshape[2 + i] = o;
  }
  if (!kit_layout_convert(c, -1, &dcanon, oshape, nd + 2, &out, odims)) return NULL;
  DType out_dtype = op_dtype(c, "out_dtype");
  if (out_dtype.code == DT_VOID) out_dtype = data->dtype;
  return ty_tensor(c->types, out_dtype, odims, out.ndim);
}

static const Type *conv1d_rel(OpCall *c) { return conv_rel(c, &conv1d_kind); }

static const Type *conv2d_rel(OpCall *c) { return conv_rel(c, &conv2d_kind); }

static const Type *conv3d_rel(OpCall *c) { return conv_rel(c, &conv3d_kind); }

static const Type *conv1d_transpose_rel(OpCall *c) { return conv_rel(c, &conv1d_transpose_kind); }

static const Type *conv2d_transpose_rel(OpCall *c) { return conv_rel(c, &conv2d_transpose_kind); }

/* QnnConv2DRel (src/relay/qnn/op/convolution.cc): int8/uint8/int16 data and weight, scalar input
   zero point and scale, a weight scale that is a scalar or a vector over the output channels, then
   Conv2DRel on (data, weight). */
static const Type *qnn_conv2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *weight = data ? op_tensor_arg(c, 1) : NULL;
  if (!weight) return NULL;
  const char *name = c->op->name;
  static const DType q_in[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}};
  static const DType q_out[] = {{DT_INT, 16, 1}, {DT_INT, 32, 1}, {DT_INT, 64, 1}};
  char b1[16];
  if (!kit_dtype_in(data->dtype, q_in, KIT_NELEMS(q_in)))
    return op_fail(c, 0, "%s: Expected qnn conv2d type(int8, uint8, int16) for input but was %s", name,
                   kit_dtype_name(data->dtype, b1));
  if (!kit_dtype_in(weight->dtype, q_in, KIT_NELEMS(q_in)))
    return op_fail(c, 1, "%s: Expected qnn conv2d type(int8, uint8, int16) for weight but was %s", name,
                   kit_dtype_name(weight->dtype, b1));
  DType out = op_dtype(c, "out_dtype");
  if (!kit_dtype_in(out, q_out, KIT_NELEMS(q_out)))
    return op_fail(c, -1, "%s: Expected qnn conv2d type(int16, int32, int64) for output but was %s", name, kit_dtype_name(out, b1));
  if (!kit_qnn_scalar_arg(c, 2, dt_int32, "input_zero_point") || !kit_qnn_scalar_arg(c, 4, dt_float32, "input_scale")) return NULL;

  /* The weight scale's length: found by the position of the letters in the layout strings, as TVM
     does (std::string::find), not through a layout conversion. */
  const char *kl = op_str(c, "kernel_layout"), *dl = op_str(c, "data_layout");
  const char *o = strchr(kl, 'O'), *i = strchr(kl, 'I'), *d = strchr(dl, 'C');
  int64_t len;
  if (op_int(c, "groups") == 1) {
    if (!o) return op_fail(c, -1, "%s: Kernel layout attribute is not defined", name);
    if ((size_t)(o - kl) >= weight->ndims)
      return op_fail(c, 1, "%s: the weight has rank %u, too small for kernel layout %s", name, weight->ndims, kl);
    len = weight->dims[o - kl];
  } else {
    if (!o && !i) return op_fail(c, -1, "%s: Kernel layout attribute is not defined", name);
    if (!d) return op_fail(c, -1, "%s: Data layout attribute is not defined", name);
    bool have_ch = !op_is_none(c, "channels");
    int64_t ch = have_ch ? op_int(c, "channels") : KIT_ANY, groups = op_int(c, "groups");
    size_t oi = o ? (size_t)(o - kl) : 0, ii = i ? (size_t)(i - kl) : 0, di = (size_t)(d - dl);
    if (oi >= weight->ndims || ii >= weight->ndims || di >= data->ndims)
      return op_fail(c, -1, "%s: the layouts %s / %s do not fit the data and weight ranks", name, dl, kl);
    if (have_ch && groups == data->dims[di] && ch == weight->dims[ii]) /* depthwise */
      len = weight->dims[ii] == KIT_ANY || weight->dims[oi] == KIT_ANY ? KIT_ANY : weight->dims[ii] * weight->dims[oi];
    else
      len = ch; /* grouped */
  }
  if (!kit_qnn_assign_arg(c, 5, dt_float32, len)) return NULL;
  return conv_rel(c, &conv2d_kind);
}

/* What the solver needs to know about a convolution: the layouts it generates (the canonical pair
   first, then the channels-last pair topi also implements, or NULL), and the variants. */
typedef struct ConvGen {
  size_t nd;
  bool transposed;
  bool packed; /* nn.contrib_conv2d_NCHWc: NCHW[x]c data, OIHW[x]i[y]o kernel, NCHW[y]c result */
  bool qnn;    /* qnn.conv2d: int8/uint8 data, int8 weight, int32 result, four quantisation params */
  const char *layouts[2][2];
} ConvGen;

static const ConvGen conv1d_gen = {1, false, false, false, {{"NCW", "OIW"}, {"NWC", "WIO"}}};

static const ConvGen conv2d_gen = {2, false, false, false, {{"NCHW", "OIHW"}, {"NHWC", "HWIO"}}};

static const ConvGen conv3d_gen = {3, false, false, false, {{"NCDHW", "OIDHW"}, {"NDHWC", "DHWIO"}}};

/* topi's transposed convolutions are NCW / NCHW only */
static const ConvGen conv1d_transpose_gen = {1, true, false, false, {{"NCW", "IOW"}, {NULL, NULL}}};

static const ConvGen conv2d_transpose_gen = {2, true, false, false, {{"NCHW", "IOHW"}, {NULL, NULL}}};

static const ConvGen conv2d_nchwc_gen = {2, false, true, false, {{"NCHW", "OIHW"}, {NULL, NULL}}};

static const ConvGen qnn_conv2d_gen = {2, false, false, true, {{"NCHW", "OIHW"}, {"NHWC", "HWIO"}}};

/* What conv_solve draws for a result of canonical shape oc (N, C, spatial...): the window, the
   groups, the input channels and, packed, the input's channel block. */
typedef struct ConvChoice {
  KitWindow w;
  int64_t groups, cin, ic_bn;
} ConvChoice;

/* Random windows and channels until the input and the kernel stay within the derived budget; from
   the eighth attempt the identity window and one input channel, which always fit.  `li` is the
   layout pair drawn (1: channels last). */
static void conv_choose(OpGen *g, const ConvGen *cg, int li, const int64_t *oc, ConvChoice *ch) {
  const size_t nd = cg->nd;
  const int64_t n = oc[0], cout = oc[1], budget = kit_derived_budget(g);
  KitWindow w;
  int64_t groups = 1, cin = 1, ic_bn = 1;
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7; /* the identity window and one input channel always fit */
    groups = 1;
    ic_bn = 1;
    cin = minimal ? 1 : rng_range(g->rng, 1, 4);
    if (cg->packed && !minimal) {
      ic_bn = rng_range(g->rng, 1, 4);
      cin = ic_bn * rng_range(g->rng, 1, 2);
    }
    /* Grouped convolutions only for 2-D NCHW, where topi has depthwise and group kernels (its 1-D,
       3-D, channels-last and quantised paths take groups == 1; grouped transposed convolutions
       need both channels and kernel_size, which conv_solve then writes). */
    if (!minimal && nd == 2 && !cg->packed && !cg->qnn && li == 0 && cout > 1 && rng_chance(g->rng, 1, 3)) {
      int64_t d = kit_divisor_from(g, cout, 2);
      if (!cg->transposed && rng_chance(g->rng, 1, 2)) {
        groups = cin = cout; /* depthwise */
      } else {
        groups = d;
        cin = d * rng_range(g->rng, 1, 2);
      }
    }
    if (!kit_window_solve(g, cg->transposed ? KIT_WIN_CONV_T : KIT_WIN_CONV, nd, oc + 2, minimal, false,
                          nd == 1 && !cg->transposed /* Conv1DRel adds padding[0] and padding[1] */, &w))
      continue;
    int64_t in_elems = n * cin * kit_prod(w.in, nd), k_elems = cout * (cin / groups) * kit_prod(w.k, nd);
    if (minimal || (in_elems <= budget && k_elems <= budget)) break;
  }
  *ch = (ConvChoice){w, groups, cin, ic_bn};
}

static bool conv_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, const ConvGen *cg) {
  const size_t nd = cg->nd, rank = nd + 2;
  if (!op->recognize(op, t) || t->ndims != (cg->packed ? 5 : rank)) return false;
  int li = cg->layouts[1][0] && rng_chance(g->rng, 1, 3) ? 1 : 0;
  const char *dcanon = cg->layouts[0][0], *kcanon = cg->layouts[0][1];
  const char *dlayout = cg->layouts[li][0], *klayout = cg->layouts[li][1];
  /* The result in the canonical layout (N, C, spatial...); packed, its C is chunks x block. */
  int64_t oc[5] = {0};
  if (cg->packed) {
    oc[0] = t->dims[0], oc[1] = t->dims[1] * t->dims[4], oc[2] = t->dims[2], oc[3] = t->dims[3];
  } else {
    kit_permute(dlayout, t->dims, dcanon, oc);
  }
  const int64_t n = oc[0], cout = oc[1];
  ConvChoice ch;
  conv_choose(g, cg, li, oc, &ch);
  const KitWindow w = ch.w;
  const int64_t groups = ch.groups, cin = ch.cin, ic_bn = ch.ic_bn;

  DType ddt = t->dtype, wdt = t->dtype;
  if (cg->qnn) {
    ddt = rng_chance(g->rng, 1, 2) ? DT(DT_INT, 8) : DT(DT_UINT, 8);
    wdt = DT(DT_INT, 8);
  }
  int64_t dcan[5] = {n, cin}, kcan[5], ddims[6], kdims[6];
  for (size_t i = 0; i < nd; i++) {
    dcan[2 + i] = w.in[i];
    kcan[2 + i] = w.k[i];
  }
  /* OIHW: (out, in / groups, k...); IOHW: (in, out / groups, k...) */
  kcan[0] = cg->transposed ? cin : cout;
  kcan[1] = cg->transposed ? cout / groups : cin / groups;
  char dl[32], kl[32], ol[32];
  if (cg->packed) {
    int64_t oc_bn = t->dims[4];
    snprintf(dl, sizeof dl, "NCHW%lldc", (long long)ic_bn);
    snprintf(kl, sizeof kl, "OIHW%lldi%lldo", (long long)ic_bn, (long long)oc_bn);
    snprintf(ol, sizeof ol, "NCHW%lldc", (long long)oc_bn);
    int64_t d[5] = {n, cin / ic_bn, w.in[0], w.in[1], ic_bn}, k[6] = {t->dims[1], cin / ic_bn, w.k[0], w.k[1], ic_bn, oc_bn};
    memcpy(ddims, d, sizeof d);
    memcpy(kdims, k, sizeof k);
  } else {
    strcpy(dl, dlayout);
    strcpy(kl, klayout);
    kit_permute(dcanon, dcan, dlayout, ddims);
    kit_permute(kcanon, kcan, klayout, kdims);
  }

  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, ddt, ddims, cg->packed ? 5 : rank);
  out->args[1] = ty_tensor(g->types, wdt, kdims, cg->packed ? 6 : rank);
  out->nargs = 2;
  kit_set_window(g, op, out, &w);
  if (cg->transposed) opgen_set_ints(g, op, out, "output_padding", w.opad, nd);
  if (groups > 1) opgen_set_int(g, op, out, "groups", groups);
  opgen_set_str(g, op, out, "data_layout", dl);
  opgen_set_str(g, op, out, "kernel_layout", kl);
  if (cg->packed) opgen_set_str(g, op, out, "out_layout", ol);
  /* channels and kernel_size: the relation then derives the weight from them (and checks it); the
     packed and quantised ops are always written with both (qnn.conv2d's Python API requires them),
     and a grouped transposed convolution needs both (without channels Conv2DTransposeRel takes the
     weight's per-group channel count for the output's). */
  bool both = cg->packed || cg->qnn || (cg->transposed && groups > 1);
  if (both || rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "channels", cout);
  if (both || rng_chance(g->rng, 1, 2)) opgen_set_ints(g, op, out, "kernel_size", w.k, nd);
  if (cg->qnn) {
    kit_set_dtype(g, op, out, "out_dtype", t->dtype);
    /* input zero point, kernel zero point and input scale are scalars; the kernel scale is a scalar
       or one per output channel */
    out->args[2] = ty_scalar(g->types, dt_int32);
    out->args[3] = ty_scalar(g->types, dt_int32);
    out->args[4] = ty_scalar(g->types, dt_float32);
    out->args[5] = rng_chance(g->rng, 1, 2) ? ty_scalar(g->types, dt_float32) : kit_vec(g, dt_float32, cout);
    out->nargs = 6;
  } else {
    kit_maybe_out_dtype(g, op, out, t->dtype);
  }
  out->result = t;
  return true;
}

/* qnn.conv2d: generated with out_dtype int32, the accumulator type QNN's lowering expects. */
static bool qnn_conv2d_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok_dims(op, t, 4, 4, 1) && dtype_eq(t->dtype, dt_int32);
}

#define CONV_GENERATORS(name, gen, rank)                                                            \
  static bool name##_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {                \
    return conv_solve(g, op, t, out, &gen);                                                        \
  }                                                                                                \
  static bool name##_sample(OpGen *g, const OpDef *op, OpPlan *out) {                              \
    return kit_sample_ranked(g, op, out, rank, rank, (gen).qnn ? dt_int32 : dt_void);                  \
  }

CONV_GENERATORS(conv1d, conv1d_gen, 3)

CONV_GENERATORS(conv2d, conv2d_gen, 4)

CONV_GENERATORS(conv3d, conv3d_gen, 5)

CONV_GENERATORS(conv1d_transpose, conv1d_transpose_gen, 3)

CONV_GENERATORS(conv2d_transpose, conv2d_transpose_gen, 4)

CONV_GENERATORS(conv2d_nchwc, conv2d_nchwc_gen, 5)

CONV_GENERATORS(qnn_conv2d, qnn_conv2d_gen, 4)

/* Conv1DAttrs, Conv3DAttrs: KIT_CONV_ATTRS (kit.h), as Conv2DAttrs (kit_conv2d_attrs). */
static const OpAttrSpec conv1d_attrs[] = {KIT_CONV_ATTRS("[1]", "[0, 0]", "[1]", "\"NCW\"", "\"OIW\"")};

static const OpAttrSpec conv3d_attrs[] = {KIT_CONV_ATTRS("[1, 1, 1]", "[0, 0, 0]", "[1, 1, 1]", "\"NCDHW\"", "\"OIDHW\"")};

static const OpAttrSpec conv1d_transpose_attrs[] = {KIT_CONV_T_ATTRS("[1]", "[0]", "[0]", "[1]", "\"NCW\"", "\"IOW\"")};

/* QConv2DAttrs (qnn/attrs.h): Conv2DAttrs plus the Hexagon requantisation fields axis and
   rq_out_dtype. */
static const OpAttrSpec qnn_conv2d_attrs[] = {KIT_CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\""),
                                              {"axis", AT_INT, "-1"},
                                              {"rq_out_dtype", AT_DTYPE, "\"\""}};

static bool depthwise_nchwc_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 5, 5, 1); }

/* (N, C / bn, H, W, bn) data, (C / bn, 1, kh, kw, 1, bn) kernel, groups = channels = C. */
static bool depthwise_nchwc_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cb = o[1], bn = o[4], c = cb * bn;
  KitWindow w;
  fwd_window(g, 2, o + 2, n * c, false, &w);
  int64_t d[5] = {n, cb, w.in[0], w.in[1], bn}, k[6] = {cb, 1, w.k[0], w.k[1], 1, bn};
  char dl[32], kl[32];
  snprintf(dl, sizeof dl, "NCHW%lldc", (long long)bn);
  snprintf(kl, sizeof kl, "OIHW1i%lldo", (long long)bn);
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, d, 5);
  out->args[1] = kit_tensor(g, t->dtype, k, 6);
  out->nargs = 2;
  kit_set_window(g, op, out, &w);
  opgen_set_int(g, op, out, "groups", c);
  opgen_set_int(g, op, out, "channels", c);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  opgen_set_str(g, op, out, "data_layout", dl);
  opgen_set_str(g, op, out, "kernel_layout", kl);
  opgen_set_str(g, op, out, "out_layout", dl);
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool depthwise_nchwc_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_ranked(g, op, out, 5, 5, dt_void);
}

static const OpDef conv_ops[] = {
    /* convolution.cc */
    KIT_OP("nn.conv1d", 2, conv1d_attrs, conv1d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank3, conv1d_solve, conv1d_sample)),
    KIT_OP("nn.conv2d", 2, kit_conv2d_attrs, conv2d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, conv2d_solve, conv2d_sample)),
    /* Conv2D on packed layouts (NCHW4c data, OIHW4i4o kernel): TVM registers Conv2DWinogradRel for
       it (ops/nn_conv.c), which needs channels and kernel_size and does not check the weight. */
    KIT_OP("nn.contrib_conv2d_NCHWc", 2, kit_conv2d_attrs, conv2d_nchwc_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank5, conv2d_nchwc_solve, conv2d_nchwc_sample)),
    KIT_OP("nn.conv3d", 2, conv3d_attrs, conv3d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank5, conv3d_solve, conv3d_sample)),
    KIT_OP("nn.conv1d_transpose", 2, conv1d_transpose_attrs, conv1d_transpose_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank3, conv1d_transpose_solve, conv1d_transpose_sample)),
    KIT_OP("nn.conv2d_transpose", 2, kit_conv2d_transpose_attrs, conv2d_transpose_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, conv2d_transpose_solve, conv2d_transpose_sample)),
    /* src/relay/qnn/op */
    KIT_OP("qnn.conv2d", 6, qnn_conv2d_attrs, qnn_conv2d_rel,
           KIT_GEN(OPDT_INT, qnn_conv2d_recognize, qnn_conv2d_solve, qnn_conv2d_sample)),
    /* registered with Conv2DRel, like nn.conv2d */
    KIT_OP("nn.contrib_depthwise_conv2d_NCHWc", 2, kit_conv2d_attrs, conv2d_rel,
           KIT_GEN(OPDT_FLOAT, depthwise_nchwc_recognize, depthwise_nchwc_solve, depthwise_nchwc_sample)),
};
OP_REGISTER(conv_ops);

/* ------------------------------------------------------------------ nn.conv3d_transpose */

/* Conv3DTransposeRel (convolution.cc). */
static const Type *conv3d_transpose_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *name = c->op->name;
  KitLayout dcanon, kcanon, in, kl, out;
  if (!conv_layouts(c, "Conv3d_transpose", "NCDHW", "IODHW", &dcanon, &kcanon, &in, &kl, &out)) return NULL;
  int64_t d[KIT_LAYOUT_MAX];
  if (!kit_layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  int64_t groups = op_int(c, "groups"), ks[8], dil[8], st[8], opad[8], pad[3], channels = 0, dk[3], w[KIT_LAYOUT_MAX];
  bool have_ks = !op_is_none(c, "kernel_size"), have_ch = !op_is_none(c, "channels");
  if (have_ch && !const_int_attr(c, "channels", &channels)) return NULL;
  if (have_ch && groups == 0) return op_fail(c, -1, "%s: groups must not be 0", name);
  char b1[128], b2[128];
  int64_t cout;
  if (have_ks && have_ch) {
    if (!ints_exact(c, "kernel_size", 3, ks) || !ints_exact(c, "dilation", 3, dil)) return NULL;
    int64_t wc[5] = {d[1], kit_floordiv(channels, groups), ks[0], ks[1], ks[2]}, wd[KIT_LAYOUT_MAX];
    const Type *weight = op_tensor_arg(c, 1);
    if (!weight || !kit_layout_convert(c, -1, &kcanon, wc, 5, &kl, wd) || !kit_assign(c, 1, weight->dtype, wd, kl.ndim))
      return NULL;
    for (int i = 0; i < 3; i++) dk[i] = 1 + (ks[i] - 1) * dil[i];
    cout = ext(channels);
  } else {
    const Type *weight = op_tensor_arg(c, 1);
    if (!weight || !kit_layout_convert(c, 1, &kl, weight->dims, weight->ndims, &kcanon, w) ||
        !kit_ints_need(c, "dilation", 3, dil, 8))
      return NULL;
    kit_dims_str(w, 5, b2, sizeof b2);
    if (have_ks) {
      if (!ints_exact(c, "kernel_size", 3, ks)) return NULL;
      for (int i = 0; i < 3; i++)
        if (w[2 + i] != KIT_ANY && w[2 + i] != ks[i])
          return op_fail(c, 1, "%s: Conv3DTransposed: shape of weight is inconsistent with kernel_size,  kernel_size=%s wshape=%s",
                         name, kit_dims_str(ks, 3, b1, sizeof b1), b2);
    }
    if (have_ch && w[1] != KIT_ANY && kit_floordiv(channels, groups) != w[1])
      return op_fail(c, 1,
                     "%s: Conv3DTransposed: shape of weight is inconsistent out_channels,  out_channels // groups != "
                     "weight.shape[1]  out_channels=%lld groups=%lld wshape=%s",
                     name, (long long)channels, (long long)groups, b2);
    if (d[1] != KIT_ANY && w[0] != KIT_ANY && d[1] != w[0])
      return op_fail(c, 1, "%s: the data's input channels (%lld) do not match the weight's (%lld), wshape=%s", name,
                     (long long)d[1], (long long)w[0], b2);
    cout = w[1];
    /* sic: the output height takes the kernel's width and dilation[2], the output width its height
       and dilation[1] */
    int64_t kd[3] = {w[2], w[4], w[3]}, dl[3] = {dil[0], dil[2], dil[1]};
    for (int i = 0; i < 3; i++) dk[i] = kd[i] == KIT_ANY ? KIT_ANY : 1 + (kd[i] - 1) * dl[i];
  }
  if (!kit_ints_need(c, "strides", 3, st, 8) || !kit_ints_need(c, "output_padding", 3, opad, 8) || !kit_pad_totals(c, 3, pad))
    return NULL;
  int64_t o[5] = {d[0], cout};
  for (int i = 0; i < 3; i++) {
    int64_t x = d[2 + i];
    o[2 + i] = x == KIT_ANY ? KIT_ANY : dk[i] == KIT_ANY ? KIT_ANY : ext(st[i] * (x - 1) + dk[i] - pad[i] + opad[i]);
  }
  int64_t odims[KIT_LAYOUT_MAX];
  if (!nonnegative(c, o, 5) || !kit_layout_convert(c, -1, &dcanon, o, 5, &out, odims)) return NULL;
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), odims, out.ndim);
}

/* Conv3DTransposeAttrs: channels and kernel_size first, output_padding before padding. */
static const OpAttrSpec conv3d_transpose_attrs[] = {
    {"channels", AT_INT, "None"},        {"kernel_size", AT_INTS, "None"},  {"strides", AT_INTS, "[1, 1, 1]"},
    {"output_padding", AT_INTS, "[0, 0, 0]"}, {"padding", AT_INTS, "[0, 0, 0]"}, {"dilation", AT_INTS, "[1, 1, 1]"},
    {"groups", AT_INT, "1"},             {"data_layout", AT_STR, "\"NCDHW\""}, {"kernel_layout", AT_STR, "\"IODHW\""},
    {"out_layout", AT_STR, "\"\""},      {"out_dtype", AT_DTYPE, "\"\""}};

static bool conv3d_transpose_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 5, 5, 1); }

/* NCDHW / IODHW (topi's only layout), groups 1; channels and kernel_size always written, so the
   relation reads the kernel from them (its weight-shape path swaps the kernel's height and width). */
static bool conv3d_transpose_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cout = o[1], budget = kit_derived_budget(g);
  int64_t cin = 1;
  KitWindow w;
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    cin = minimal ? 1 : rng_range(g->rng, 1, 4);
    if (!kit_window_solve(g, KIT_WIN_CONV_T, 3, o + 2, minimal, false, false, &w)) continue;
    if (minimal || (n * cin * kit_prod(w.in, 3) <= budget && cin * cout * kit_prod(w.k, 3) <= budget)) break;
  }
  opgen_plan_init(g, op, out);
  int64_t d[5] = {n, cin, w.in[0], w.in[1], w.in[2]}, k[5] = {cin, cout, w.k[0], w.k[1], w.k[2]};
  out->args[0] = kit_tensor(g, t->dtype, d, 5);
  out->args[1] = kit_tensor(g, t->dtype, k, 5);
  out->nargs = 2;
  kit_set_window(g, op, out, &w);
  opgen_set_ints(g, op, out, "output_padding", w.opad, 3);
  opgen_set_int(g, op, out, "channels", cout);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 3);
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool conv3d_transpose_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_ranked(g, op, out, 5, 5, dt_void);
}

static const OpDef conv3d_transpose_ops[] = {
    /* convolution.cc */
    KIT_OP("nn.conv3d_transpose", 2, conv3d_transpose_attrs, conv3d_transpose_rel,
           KIT_GEN(OPDT_FLOAT, conv3d_transpose_recognize, conv3d_transpose_solve, conv3d_transpose_sample)),
};
OP_REGISTER(conv3d_transpose_ops);

/* ----------------------------------------------- nn.contrib_conv2d_winograd_without_weight_transform, ... */

static const Type *winograd2d_rel(OpCall *c) { return kit_required(c, "tile_size") ? winograd_rel(c, 2) : NULL; }

static const Type *winograd3d_rel(OpCall *c) { return kit_required(c, "tile_size") ? winograd_rel(c, 3) : NULL; }

/* Conv2DWinogradAttrs, Conv3DWinogradAttrs: tile_size (required), then Conv2DAttrs' fields. */
static const OpAttrSpec winograd2d_attrs[] = {{"tile_size", AT_INT, "None"},
                                              KIT_CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\"")};

static const OpAttrSpec winograd3d_attrs[] = {{"tile_size", AT_INT, "None"},
                                              KIT_CONV_ATTRS("[1, 1, 1]", "[0, 0, 0]", "[1, 1, 1]", "\"NCDHW\"", "\"OIDHW\"")};

static bool winograd2d_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 4, 4, 1); }

static bool winograd3d_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 5, 5, 1); }

/* A 3x3(x3) kernel, stride 1, padding 0 or 1 per axis, tile 2 or 4; the weight pre-transformed as
   topi's Winograd weight transform leaves it: (alpha, alpha[, alpha], O, I), alpha = tile + 2. */
static bool winograd_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t nd) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cout = o[1];
  int64_t cin = rng_range(g->rng, 1, 4), pad[3], in[3], ks[3] = {3, 3, 3};
  for (size_t i = 0; i < nd; i++) {
    pad[i] = rng_range(g->rng, 0, 1);
    in[i] = o[2 + i] + 2 - 2 * pad[i];
  }
  if (n * cin * kit_prod(in, nd) > kit_derived_budget(g)) {
    cin = 1;
    for (size_t i = 0; i < nd; i++) pad[i] = 1, in[i] = o[2 + i];
  }
  int64_t tile = rng_chance(g->rng, 1, 2) ? 2 : 4, alpha = tile + 2;
  int64_t d[5] = {n, cin, in[0], in[1], in[2]}, k[5] = {alpha, alpha, alpha, alpha, alpha};
  k[nd] = cout;
  k[nd + 1] = cin;
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, d, nd + 2);
  out->args[1] = kit_tensor(g, t->dtype, k, nd + 2);
  out->nargs = 2;
  opgen_set_int(g, op, out, "tile_size", tile);
  opgen_set_ints(g, op, out, "padding", pad, nd);
  opgen_set_int(g, op, out, "channels", cout);
  opgen_set_ints(g, op, out, "kernel_size", ks, nd);
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool winograd2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return winograd_solve(g, op, t, out, 2);
}

static bool winograd3d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return winograd_solve(g, op, t, out, 3);
}

static bool winograd2d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 4, 4, dt_void); }

static bool winograd3d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 5, 5, dt_void); }

static const OpDef winograd_ops[] = {
    KIT_OP("nn.contrib_conv2d_winograd_without_weight_transform", 2, winograd2d_attrs, winograd2d_rel,
           KIT_GEN(OPDT_FLOAT, winograd2d_recognize, winograd2d_solve, winograd2d_sample)),
    KIT_OP("nn.contrib_conv3d_winograd_without_weight_transform", 2, winograd3d_attrs, winograd3d_rel,
           KIT_GEN(OPDT_FLOAT, winograd3d_recognize, winograd3d_solve, winograd3d_sample)),
};
OP_REGISTER(winograd_ops);

/* --------------- nn.contrib_conv2d_winograd_weight_transform, nn.contrib_conv3d_winograd_weight_transform */

/* Conv2DWinogradWeightTransformRel: (tile + kh - 1, tile + kw - 1, O, I). */
static const Type *winograd_wt2d_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !kit_required(c, "tile_size")) return NULL;
  if (w->ndims != 4) return op_fail(c, 0, "%s: Only support NCHW normal kernel layout", c->op->name);
  int64_t t = op_int(c, "tile_size");
  int64_t o[4] = {w->dims[2] == KIT_ANY ? KIT_ANY : ext(t + w->dims[2] - 1), w->dims[3] == KIT_ANY ? KIT_ANY : ext(t + w->dims[3] - 1),
                  w->dims[0], w->dims[1]};
  if (!nonnegative(c, o, 4)) return NULL;
  return ty_tensor(c->types, w->dtype, o, 4);
}

/* Conv3DWinogradWeightTransformRel: the depth is transformed too when it is 3 to 7. */
static const Type *winograd_wt3d_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !kit_required(c, "tile_size")) return NULL;
  if (w->ndims != 5) return op_fail(c, 0, "%s: Only support NCDHW normal kernel layout", c->op->name);
  if (w->dims[2] == KIT_ANY)
    return op_fail(c, 0, "%s: the kernel depth (dimension 2) must be a constant, got ?", c->op->name);
  int64_t t = op_int(c, "tile_size");
  bool depth = w->dims[2] > 2 && w->dims[2] < 8;
  const int64_t *k = w->dims + 2;
  int64_t o[5] = {0, 0, 0, w->dims[0], w->dims[1]};
  for (int i = 0; i < 3; i++) {
    int64_t e = depth ? k[i] : (i < 2 ? k[i + 1] : k[0]);
    o[i] = e == KIT_ANY ? KIT_ANY : (!depth && i == 2 ? e : ext(t + e - 1));
  }
  if (!nonnegative(c, o, 5)) return NULL;
  return ty_tensor(c->types, w->dtype, o, 5);
}

static const OpAttrSpec winograd_wt_attrs[] = {{"tile_size", AT_INT, "None"}};

/* A tile size t <= lim (lim >= 1): 2 or 4 where they fit, else 1. */
static int64_t pick_tile(OpGen *g, int64_t lim) {
  int64_t c[2];
  size_t n = 0;
  if (lim >= 2) c[n++] = 2;
  if (lim >= 4) c[n++] = 4;
  return n ? c[rng_index(g->rng, n)] : 1;
}

static bool winograd_wt2d_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 4, 4, 1); }

/* (t + kh - 1, t + kw - 1, O, I) from an OIHW weight. */
static bool winograd_wt2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims;
  int64_t tile = pick_tile(g, o[0] < o[1] ? o[0] : o[1]);
  int64_t w[4] = {o[2], o[3], o[0] - tile + 1, o[1] - tile + 1};
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, w, 4);
  out->nargs = 1;
  opgen_set_int(g, op, out, "tile_size", tile);
  out->result = t;
  return true;
}

static bool winograd_wt2d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 4, 4, dt_void); }

/* The 3-D transform keeps a kernel depth outside 3..7 and transforms one inside it. */
static bool wt3d_keeps_depth(const Type *t) { return t->dims[2] <= 2 || t->dims[2] >= 8; }

static void wt3d_depth_tiles(const Type *t, int64_t *lo, int64_t *hi) {
  int64_t a = t->dims[0], b = t->dims[1], c = t->dims[2];
  *lo = a - 6 > 1 ? a - 6 : 1;
  *hi = a - 2;
  if (b < *hi) *hi = b;
  if (c < *hi) *hi = c;
}

static bool winograd_wt3d_recognize(const OpDef *op, const Type *t) {
  if (!kit_gen_ok_dims(op, t, 5, 5, 1)) return false;
  int64_t lo, hi;
  wt3d_depth_tiles(t, &lo, &hi);
  return wt3d_keeps_depth(t) || lo <= hi;
}

static bool winograd_wt3d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims;
  int64_t lo, hi, tile, w[5] = {o[3], o[4]};
  wt3d_depth_tiles(t, &lo, &hi);
  if (lo <= hi && (!wt3d_keeps_depth(t) || rng_chance(g->rng, 1, 2))) {
    tile = rng_range(g->rng, lo, hi);
    w[2] = o[0] - tile + 1, w[3] = o[1] - tile + 1, w[4] = o[2] - tile + 1;
  } else {
    tile = pick_tile(g, o[0] < o[1] ? o[0] : o[1]);
    w[2] = o[2], w[3] = o[0] - tile + 1, w[4] = o[1] - tile + 1;
  }
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, w, 5);
  out->nargs = 1;
  opgen_set_int(g, op, out, "tile_size", tile);
  out->result = t;
  return true;
}

static bool winograd_wt3d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 5, 5, dt_void); }

static const OpDef winograd_weight_transform_ops[] = {
    KIT_OP("nn.contrib_conv2d_winograd_weight_transform", 1, winograd_wt_attrs, winograd_wt2d_rel,
           KIT_GEN(OPDT_FLOAT, winograd_wt2d_recognize, winograd_wt2d_solve, winograd_wt2d_sample)),
    KIT_OP("nn.contrib_conv3d_winograd_weight_transform", 1, winograd_wt_attrs, winograd_wt3d_rel,
           KIT_GEN(OPDT_FLOAT, winograd_wt3d_recognize, winograd_wt3d_solve, winograd_wt3d_sample)),
};
OP_REGISTER(winograd_weight_transform_ops);

/* ----------------------------------------------------- nn.contrib_conv2d_winograd_nnpack_weight_transform */

/* Conv2DWinogradNNPACKWeightTransformRel: (O, I, 8, 8). */
static const Type *nnpack_wt_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !kit_required(c, "convolution_algorithm")) return NULL;
  if (w->ndims != 4) return op_fail(c, 0, "%s: Only support NCHW normal kernel layout", c->op->name);
  int64_t o[4] = {w->dims[0], w->dims[1], 8, 8};
  return ty_tensor(c->types, kit_out_dtype(c, w->dtype), o, 4);
}

static const OpAttrSpec nnpack_wt_attrs[] = {{"convolution_algorithm", AT_INT, "None"}, {"out_dtype", AT_DTYPE, "\"\""}};

/* NNPACK's transform: (O, I, 8, 8) from any OIHW weight; convolution_algorithm 3 is WT_8x8. */
static bool nnpack_wt_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok_dims(op, t, 4, 4, 1) && t->dims[2] == 8 && t->dims[3] == 8;
}

static bool nnpack_wt_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  int64_t w[4] = {t->dims[0], t->dims[1], 3, 3};
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, w, 4);
  out->nargs = 1;
  opgen_set_int(g, op, out, "convolution_algorithm", 3);
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool nnpack_wt_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[4] = {rng_range(g->rng, 1, g->policy->max_dim), rng_range(g->rng, 1, g->policy->max_dim), 8, 8};
  return op->solve(g, op, kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 4), out);
}

static const OpDef nnpack_weight_transform_ops[] = {
    KIT_OP("nn.contrib_conv2d_winograd_nnpack_weight_transform", 1, nnpack_wt_attrs, nnpack_wt_rel,
           KIT_GEN(OPDT_FLOAT, nnpack_wt_recognize, nnpack_wt_solve, nnpack_wt_sample)),
};
OP_REGISTER(nnpack_weight_transform_ops);

/* -------------------------------------------------------- nn.contrib_conv2d_gemm_without_weight_transform */

/* Conv2DGemmRel: NHWC / HWIO, channels and kernel_size required, the weight not checked. */
static const Type *gemm_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  KitLayout dcanon, kcanon, in, kl, out;
  if (!conv_layouts(c, "Conv", "NHWC", "HWIO", &dcanon, &kcanon, &in, &kl, &out)) return NULL;
  int64_t d[KIT_LAYOUT_MAX];
  if (!kit_layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  if (op_is_none(c, "kernel_size") || op_is_none(c, "channels"))
    return op_fail(c, -1, "%s: The kernel size and channels of a Conv must be set or inferred by previous pass",
                   c->op->name);
  int64_t ks[8], dil[8], st[8], pad[2], channels;
  if (!ints_exact(c, "kernel_size", 2, ks) || !ints_exact(c, "dilation", 2, dil) ||
      !const_int_attr(c, "channels", &channels) || !kit_ints_need(c, "strides", 2, st, 8) ||
      !kit_all_positive(c, "strides", st, 2) || !kit_pad_totals(c, 2, pad))
    return NULL;
  /* H is computed unless W is `?`, W unless C is `?` (sic) */
  int64_t o[4] = {d[0], 0, 0, ext(channels)};
  for (int i = 0; i < 2; i++) {
    int64_t dk = 1 + (ks[i] - 1) * dil[i];
    o[1 + i] = d[2 + i] == KIT_ANY ? d[1 + i] : window_out(d[1 + i], pad[i], dk, st[i], true);
  }
  int64_t odims[KIT_LAYOUT_MAX];
  if (!nonnegative(c, o, 4) || !kit_layout_convert(c, -1, &dcanon, o, 4, &out, odims)) return NULL;
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), odims, out.ndim);
}

static bool gemm_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 4, 4, 1); }

/* NHWC / HWIO (topi's GEMM convolution is NHWC only); the weight as the GEMM transform with tiles
   of 4 x 16 leaves it. */
static bool gemm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cout = o[3];
  int64_t cin = rng_range(g->rng, 1, 4), oc[2] = {o[1], o[2]};
  KitWindow w;
  fwd_window(g, 2, oc, n * cin, false, &w);
  int64_t K = w.k[0] * w.k[1] * cin;
  int64_t d[4] = {n, w.in[0], w.in[1], cin}, k[4] = {(cout + 3) / 4, (K + 15) / 16, 4, 16};
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, d, 4);
  out->args[1] = kit_tensor(g, t->dtype, k, 4);
  out->nargs = 2;
  kit_set_window(g, op, out, &w);
  opgen_set_int(g, op, out, "channels", cout);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  opgen_set_str(g, op, out, "data_layout", "NHWC");
  opgen_set_str(g, op, out, "kernel_layout", "HWIO");
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool gemm_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 4, 4, dt_void); }

static const OpDef gemm_ops[] = {
    KIT_OP("nn.contrib_conv2d_gemm_without_weight_transform", 2, kit_conv2d_attrs, gemm_rel,
           KIT_GEN(OPDT_FLOAT, gemm_recognize, gemm_solve, gemm_sample)),
};
OP_REGISTER(gemm_ops);

/* ---------------------------------------------------------------- nn.contrib_conv2d_gemm_weight_transform */

/* Conv2DGemmWeightTransformRel: an HWIO weight as (N, K) = (O, H*W*I) tiles, each padded up to a
   multiple of its tile: (ceil(N / tile_rows), ceil(K / tile_cols), tile_rows, tile_cols). */
static const Type *gemm_wt_rel(OpCall *c) {
  const Type *w = op_tensor_arg(c, 0);
  if (!w || !kit_required(c, "tile_rows") || !kit_required(c, "tile_cols")) return NULL;
  int64_t n = op_int(c, "tile_rows"), k = op_int(c, "tile_cols");
  if (n <= 0 || k <= 0)
    return op_fail(c, -1, "%s: tile_rows and tile_cols must be positive, got %lld and %lld", c->op->name, (long long)n,
                   (long long)k);
  if (w->ndims != 4) return op_fail(c, 0, "%s: Only support HWIO kernel layout", c->op->name);
  int64_t K = kit_dim_mul(kit_dim_mul(w->dims[0], w->dims[1]), w->dims[2]), N = w->dims[3];
  int64_t o[4] = {N == KIT_ANY ? KIT_ANY : (N + n - 1) / n, K == KIT_ANY ? KIT_ANY : (K + k - 1) / k, n, k};
  return ty_tensor(c->types, w->dtype, o, 4);
}

static const OpAttrSpec gemm_wt_attrs[] = {{"tile_rows", AT_INT, "None"}, {"tile_cols", AT_INT, "None"}};

/* GEMM's transform of an HWIO weight: (ceil(O / rows), ceil(H * W * I / cols), rows, cols). */
static bool gemm_wt_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 4, 4, 1); }

static bool gemm_wt_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, rows = o[2], cols = o[3];
  int64_t N = (o[0] - 1) * rows + rng_range(g->rng, 1, rows), K = (o[1] - 1) * cols + rng_range(g->rng, 1, cols);
  int64_t h = kit_divisor_from(g, K, 1), rest = K / h, w = kit_divisor_from(g, rest, 1);
  int64_t d[4] = {h, w, rest / w, N};
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, d, 4);
  out->nargs = 1;
  opgen_set_int(g, op, out, "tile_rows", rows);
  opgen_set_int(g, op, out, "tile_cols", cols);
  out->result = t;
  return true;
}

static bool gemm_wt_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 4, 4, dt_void); }

static const OpDef gemm_weight_transform_ops[] = {
    KIT_OP("nn.contrib_conv2d_gemm_weight_transform", 1, gemm_wt_attrs, gemm_wt_rel,
           KIT_GEN(OPDT_NUMERIC, gemm_wt_recognize, gemm_wt_solve, gemm_wt_sample)),
};
OP_REGISTER(gemm_weight_transform_ops);

/* ------------------------------------------------------------------ nn.deformable_conv2d */

/* DeformableConv2DRel: data, offset, weight.  The offset must be (N, 2 * kh * kw *
   deformable_groups, out_h, out_w) in the data's layout, with the data's dtype. */
static const Type *deformable_conv2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *name = c->op->name;
  KitLayout dcanon, kcanon, in, kl, out;
  kit_layout_parse(c, "", "NCHW", &dcanon);
  kit_layout_parse(c, "", "OIHW", &kcanon);
  const char *dl = op_str(c, "data_layout"), *kls = op_str(c, "kernel_layout");
  const char *ol = *op_str(c, "out_layout") ? op_str(c, "out_layout") : dl;
  if (!kit_layout_to_canon(c, "data_layout", dl, &dcanon, &in,
                       "deformable_conv2d only support input layouts that are convertible from %s. The provided layout is: %s") ||
      !kit_layout_to_canon(c, "kernel_layout", kls, &kcanon, &kl,
                       "deformable_conv2d only support kernel layouts that are convertible from %s. The provided layout is: %s") ||
      !kit_layout_to_canon(c, "out_layout", ol, &dcanon, &out,
                       "deformable_conv2d only support output layouts that are convertible from %s.The provided layout is: %s"))
    return NULL;
  int64_t d[KIT_LAYOUT_MAX], w[KIT_LAYOUT_MAX], groups = op_int(c, "groups"), dgroups = op_int(c, "deformable_groups");
  if (!kit_layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, d)) return NULL;
  if (groups == 0) return op_fail(c, -1, "%s: groups must not be 0", name);
  bool have_ks = !op_is_none(c, "kernel_size"), have_ch = !op_is_none(c, "channels");
  int64_t ks[8], dil[8], channels = 0, cout, ky, kx;
  if (have_ch && !const_int_attr(c, "channels", &channels)) return NULL;
  char b1[128], b2[128];
  if (have_ks && have_ch) {
    if (!ints_exact(c, "kernel_size", 2, ks) || !ints_exact(c, "dilation", 2, dil)) return NULL;
    int64_t wc[4] = {channels, d[1] == KIT_ANY ? KIT_ANY : kit_floordiv(d[1], groups), ks[0], ks[1]}, wd[KIT_LAYOUT_MAX];
    if (!kit_layout_convert(c, -1, &kcanon, wc, 4, &kl, wd) || !kit_assign(c, 2, data->dtype, wd, kl.ndim)) return NULL;
    cout = ext(channels), ky = ext(ks[0]), kx = ext(ks[1]);
  } else {
    const Type *weight = op_tensor_arg(c, 2);
    if (!weight || !kit_layout_convert(c, 2, &kl, weight->dims, weight->ndims, &kcanon, w) ||
        !kit_ints_need(c, "dilation", 2, dil, 8))
      return NULL;
    kit_dims_str(w, 4, b2, sizeof b2);
    if (have_ks) {
      if (!ints_exact(c, "kernel_size", 2, ks)) return NULL;
      if ((w[2] != KIT_ANY && w[2] != ks[0]) || (w[3] != KIT_ANY && w[3] != ks[1]))
        return op_fail(c, 2, "%s: DeformableConv2D: shape of weight is inconsistent with kernel_size,  kernel_size=%s wshape=%s",
                       name, kit_dims_str(ks, 2, b1, sizeof b1), b2);
    }
    if (have_ch && w[0] != KIT_ANY && w[0] != channels)
      return op_fail(c, 2, "%s: DeformableConv2D: shape of weight is inconsistent with channels,  channels=%lld wshape=%s",
                     name, (long long)channels, b2);
    if (d[1] != KIT_ANY && w[1] != KIT_ANY && kit_floordiv(d[1], groups) != w[1])
      return op_fail(c, 2, "%s: the data's input channels divided by groups (%lld) do not match the weight's (%lld), wshape=%s",
                     name, (long long)kit_floordiv(d[1], groups), (long long)w[1], b2);
    cout = w[0], ky = w[2], kx = w[3];
  }
  int64_t st[8], pad[2];
  if (!kit_ints_need(c, "strides", 2, st, 8) || !kit_all_positive(c, "strides", st, 2) || !kit_pad_totals(c, 2, pad)) return NULL;
  int64_t o[4] = {d[0], cout}, k[2] = {ky, kx};
  for (int i = 0; i < 2; i++) o[2 + i] = window_out(d[2 + i], pad[i], k[i] == KIT_ANY ? KIT_ANY : 1 + (k[i] - 1) * dil[i], st[i], false);
  int64_t off[4] = {d[0], ky == NEG || kx == NEG ? NEG : ext(kit_dim_mul(kit_dim_mul(2 * dgroups, ky), kx)), o[2], o[3]}, offd[KIT_LAYOUT_MAX], odims[KIT_LAYOUT_MAX];
  if (!nonnegative(c, o, 4) || !nonnegative(c, off, 4) || !kit_layout_convert(c, -1, &dcanon, off, 4, &in, offd) ||
      !kit_assign(c, 1, data->dtype, offd, in.ndim) || !kit_layout_convert(c, -1, &dcanon, o, 4, &out, odims))
    return NULL;
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), odims, out.ndim);
}

/* DeformableConv2DAttrs: deformable_groups before groups. */
static const OpAttrSpec deformable_conv2d_attrs[] = {
    {"strides", AT_INTS, "[1, 1]"},     {"padding", AT_INTS, "[0, 0]"},     {"dilation", AT_INTS, "[1, 1]"},
    {"deformable_groups", AT_INT, "1"}, {"groups", AT_INT, "1"},            {"channels", AT_INT, "None"},
    {"kernel_size", AT_INTS, "None"},   {"data_layout", AT_STR, "\"NCHW\""}, {"kernel_layout", AT_STR, "\"OIHW\""},
    {"out_layout", AT_STR, "\"\""},     {"out_dtype", AT_DTYPE, "\"\""}};

static bool deformable_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 4, 4, 1); }

/* NCHW / OIHW, groups 1, deformable groups dividing the input channels (topi's requirement). */
static bool deformable_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cout = o[1], budget = kit_derived_budget(g);
  int64_t cin = 1, dg = 1;
  KitWindow w;
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    cin = minimal ? 1 : rng_range(g->rng, 1, 4);
    dg = minimal ? 1 : kit_divisor_from(g, cin, 1);
    if (!kit_window_solve(g, KIT_WIN_CONV, 2, o + 2, minimal, false, false, &w)) continue;
    int64_t offset = n * 2 * w.k[0] * w.k[1] * dg * o[2] * o[3];
    if (minimal || (n * cin * kit_prod(w.in, 2) <= budget && offset <= budget)) break;
  }
  int64_t d[4] = {n, cin, w.in[0], w.in[1]}, off[4] = {n, 2 * w.k[0] * w.k[1] * dg, o[2], o[3]};
  int64_t k[4] = {cout, cin, w.k[0], w.k[1]};
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, t->dtype, d, 4);
  out->args[1] = kit_tensor(g, t->dtype, off, 4);
  out->args[2] = kit_tensor(g, t->dtype, k, 4);
  out->nargs = 3;
  kit_set_window(g, op, out, &w);
  if (dg > 1) opgen_set_int(g, op, out, "deformable_groups", dg);
  if (rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "channels", cout);
  if (rng_chance(g->rng, 1, 2)) opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool deformable_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 4, 4, dt_void); }

static const OpDef deformable_conv2d_ops[] = {
    KIT_OP("nn.deformable_conv2d", 3, deformable_conv2d_attrs, deformable_conv2d_rel,
           KIT_GEN(OPDT_FLOAT, deformable_recognize, deformable_solve, deformable_sample)),
};
OP_REGISTER(deformable_conv2d_ops);

/* ------------------------------------------------------------------ nn.bitpack */

/* BitPackRel (bitserial.cc): the pack axis shrinks by the pack type's width, and a new axis of
   `bits` is inserted before axis bit_axis (appended when it equals the rank; none when it is out of
   range, as with the default -1). */
static const Type *bitpack_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  DType pt = op_dtype(c, "pack_type");
  if (pt.code == DT_VOID) return op_fail(c, -1, "%s: pack_type must be set (the result's dtype)", c->op->name);
  int64_t bits = op_int(c, "bits"), pack_axis = op_int(c, "pack_axis"), bit_axis = op_int(c, "bit_axis");
  int64_t ndim = data->ndims, o[KIT_LAYOUT_MAX + 1];
  if (ndim > KIT_LAYOUT_MAX) return op_fail(c, 0, "%s: rank %lld is too large", c->op->name, (long long)ndim);
  size_t n = 0;
  for (int64_t i = 0; i < ndim; i++) {
    if (i == bit_axis) o[n++] = ext(bits);
    int64_t x = data->dims[i];
    o[n++] = i == pack_axis && x != KIT_ANY ? kit_floordiv(x, pt.bits) : x;
  }
  if (bit_axis == ndim) o[n++] = ext(bits);
  if (!nonnegative(c, o, n)) return NULL;
  return ty_tensor(c->types, pt, o, n);
}

/* BitPackAttrs, BinaryConv2DAttrs (kernel_size before channels), BinaryDenseAttrs (bitserial.h):
   the dtypes default to void, which the Python API never leaves them at. */
static const OpAttrSpec bitpack_attrs[] = {{"bits", AT_INT, "1"},
                                           {"pack_axis", AT_INT, "1"},
                                           {"bit_axis", AT_INT, "-1"},
                                           {"pack_type", AT_DTYPE, "\"\""},
                                           {"name", AT_STR, "\"BitPack\""}};

/* bitpack's result: packed into uint8/16/32 words, with a bit axis (so rank >= 2). */
static bool bitpack_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (t->kind != TY_TENSOR || t->ndims < 2 || t->ndims > KIT_LAYOUT_MAX || t->dtype.code != DT_UINT || t->dtype.lanes != 1 ||
      (t->dtype.bits != 8 && t->dtype.bits != 16 && t->dtype.bits != 32))
    return false;
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] < 1) return false;
  return true;
}

/* The bit axis is some axis j of the result (bits = its extent); the data is the rest, with one
   axis p (the pack axis) widened by the word's bits. */
static bool bitpack_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  size_t r = t->ndims, j = rng_index(g->rng, r), p = rng_index(g->rng, r - 1);
  int64_t d[KIT_LAYOUT_MAX];
  size_t n = 0;
  for (size_t i = 0; i < r; i++)
    if (i != j) d[n++] = t->dims[i];
  /* the pack axis grows by the word's bits: one that stays within max_dim when there is one */
  for (size_t k = 0; k < n && d[p] * t->dtype.bits > g->policy->max_dim; k++)
    if (d[k] * t->dtype.bits <= g->policy->max_dim) p = k;
  d[p] *= t->dtype.bits;
  char buf[16];
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, opgen_dtype(g, OPDT_INT), d, n);
  out->nargs = 1;
  opgen_set_int(g, op, out, "bits", t->dims[j]);
  opgen_set_int(g, op, out, "pack_axis", (int64_t)p);
  opgen_set_int(g, op, out, "bit_axis", (int64_t)j);
  opgen_set_str(g, op, out, "pack_type", dtype_str(t->dtype, buf));
  out->result = t;
  return true;
}

static bool bitpack_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  static const DType words[] = {{DT_UINT, 8, 1}, {DT_UINT, 16, 1}, {DT_UINT, 32, 1}};
  return kit_sample_ranked(g, op, out, 2, g->policy->max_rank, kit_pick_dtype(g, words, 3));
}

static const OpDef bitpack_ops[] = {
    /* bitserial.cc */
    KIT_OP("nn.bitpack", 1, bitpack_attrs, bitpack_rel,
           KIT_GEN(OPDT_INT, bitpack_recognize, bitpack_solve, bitpack_sample)),
};
OP_REGISTER(bitpack_ops);

/* ------------------------------------------------------------------ nn.bitserial_conv2d */

/* BinaryConv2DRel: the output from channels, kernel_size, strides and padding (no dilation), in
   data_layout; the weight is not checked. */
static const Type *bitserial_conv2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  KitLayout canon, in;
  kit_layout_parse(c, "", "NCHW", &canon);
  if (!kit_layout_to_canon(c, "data_layout", op_str(c, "data_layout"), &canon, &in,
                       "cannot convert from %s to layout %s (an undefined bijective layout)"))
    return NULL;
  int64_t d[KIT_LAYOUT_MAX], ks[8], st[8], pad[2], channels;
  if (!kit_layout_convert(c, 0, &in, data->dims, data->ndims, &canon, d)) return NULL;
  if (op_is_none(c, "channels")) return op_fail(c, -1, "%s: Check failed: param->channels.defined()", c->op->name);
  if (op_is_none(c, "kernel_size")) return op_fail(c, -1, "%s: Check failed: param->kernel_size.defined()", c->op->name);
  if (!const_int_attr(c, "channels", &channels) || !kit_ints_need(c, "kernel_size", 2, ks, 8) ||
      !kit_ints_need(c, "strides", 2, st, 8) || !kit_all_positive(c, "strides", st, 2) || !kit_pad_totals(c, 2, pad))
    return NULL;
  DType od = op_dtype(c, "out_dtype");
  if (od.code == DT_VOID) return op_fail(c, -1, "%s: out_dtype must be set (the result's dtype)", c->op->name);
  int64_t o[4] = {d[0], ext(channels), window_out(d[2], pad[0], ks[0], st[0], true), window_out(d[3], pad[1], ks[1], st[1], true)};
  int64_t odims[KIT_LAYOUT_MAX];
  if (!nonnegative(c, o, 4) || !kit_layout_convert(c, -1, &canon, o, 4, &in, odims)) return NULL;
  return ty_tensor(c->types, od, odims, in.ndim);
}

static const OpAttrSpec bitserial_conv2d_attrs[] = {
    {"strides", AT_INTS, "[1, 1]"},       {"padding", AT_INTS, "[0, 0]"},      {"kernel_size", AT_INTS, "[3, 3]"},
    {"channels", AT_INT, "None"},         {"activation_bits", AT_INT, "1"},    {"weight_bits", AT_INT, "1"},
    {"data_layout", AT_STR, "\"NCHW\""},  {"kernel_layout", AT_STR, "\"OIHW\""}, {"pack_dtype", AT_DTYPE, "\"\""},
    {"out_dtype", AT_DTYPE, "\"\""},      {"unipolar", AT_BOOL, "True"}};

/* strides and padding as the window chose them, for ops without a dilation attribute. */
static void set_strides_padding(OpGen *g, const OpDef *op, OpPlan *out, const KitWindow *w) {
  int64_t pad[6];
  size_t n = 0;
  opgen_set_ints(g, op, out, "strides", w->s, w->nd);
  if (w->pad_form == KIT_PAD_ONE) {
    pad[n++] = w->pb[0];
  } else {
    for (size_t i = 0; i < w->nd; i++) pad[n++] = w->pb[i];
    if (w->pad_form == KIT_PAD_FULL)
      for (size_t i = 0; i < w->nd; i++) pad[n++] = w->pa[i];
  }
  opgen_set_ints(g, op, out, "padding", pad, n);
}

static bool bitserial_conv2d_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 4, 4, 1); }

/* NCHW / OIHW or NHWC / HWIO, 8-bit data and weight, pack_dtype uint32, out_dtype the result's. */
static bool bitserial_conv2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  static const char *const layouts[2][2] = {{"NCHW", "OIHW"}, {"NHWC", "HWIO"}};
  int li = rng_chance(g->rng, 1, 3) ? 1 : 0;
  int64_t oc[4];
  kit_permute(layouts[li][0], t->dims, "NCHW", oc);
  int64_t n = oc[0], cout = oc[1], cin = rng_range(g->rng, 1, 4);
  KitWindow w;
  fwd_window(g, 2, oc + 2, n * cin, true, &w);
  int64_t dc[4] = {n, cin, w.in[0], w.in[1]}, kc[4] = {cout, cin, w.k[0], w.k[1]}, d[4], k[4];
  kit_permute("NCHW", dc, layouts[li][0], d);
  kit_permute("OIHW", kc, layouts[li][1], k);
  DType dt = kit_pick_dtype(g, kit_q8, 2);
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, dt, d, 4);
  out->args[1] = kit_tensor(g, dt, k, 4);
  out->nargs = 2;
  set_strides_padding(g, op, out, &w);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  opgen_set_int(g, op, out, "channels", cout);
  if (li) {
    opgen_set_str(g, op, out, "data_layout", layouts[li][0]);
    opgen_set_str(g, op, out, "kernel_layout", layouts[li][1]);
  }
  opgen_set_str(g, op, out, "pack_dtype", "uint32");
  kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}

static bool bitserial_conv2d_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_ranked(g, op, out, 4, 4, dt_void);
}

static const OpDef bitserial_conv2d_ops[] = {
    KIT_OP("nn.bitserial_conv2d", 2, bitserial_conv2d_attrs, bitserial_conv2d_rel,
           KIT_GEN(OPDT_INT, bitserial_conv2d_recognize, bitserial_conv2d_solve, bitserial_conv2d_sample)),
};
OP_REGISTER(bitserial_conv2d_ops);

/* ------------------------------------------------------------------ nn.bitserial_dense */

/* BinaryDenseRel: the data's shape with its last axis `units`; the weight is not checked. */
static const Type *bitserial_dense_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t units;
  if (!data || !kit_required(c, "units") || !const_int_attr(c, "units", &units)) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "%s: the data must have at least one dimension", c->op->name);
  if (units < 0) return op_fail(c, -1, "%s: units must not be negative, got %lld", c->op->name, (long long)units);
  int64_t *o = kit_dims_dup(data);
  o[data->ndims - 1] = units;
  return kit_tensor_free(c, kit_out_dtype(c, data->dtype), o, data->ndims);
}

static const OpAttrSpec bitserial_dense_attrs[] = {{"units", AT_INT, "None"},       {"data_bits", AT_INT, "1"},
                                                   {"weight_bits", AT_INT, "1"},    {"pack_dtype", AT_DTYPE, "\"\""},
                                                   {"out_dtype", AT_DTYPE, "\"\""}, {"unipolar", AT_BOOL, "True"}};

static bool bitserial_dense_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 2, 2, 1); }

/* (M, K) x (units, K) on 8-bit data. */
static bool bitserial_dense_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  int64_t kdim = rng_range(g->rng, 1, g->policy->max_dim), d[2] = {t->dims[0], kdim}, w[2] = {t->dims[1], kdim};
  DType dt = kit_pick_dtype(g, kit_q8, 2);
  opgen_plan_init(g, op, out);
  out->args[0] = kit_tensor(g, dt, d, 2);
  out->args[1] = kit_tensor(g, dt, w, 2);
  out->nargs = 2;
  opgen_set_int(g, op, out, "units", t->dims[1]);
  opgen_set_str(g, op, out, "pack_dtype", "uint32");
  if (!dtype_eq(dt, t->dtype) || rng_chance(g->rng, 1, 2)) kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}

static bool bitserial_dense_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 2, 2, dt_void); }

static const OpDef bitserial_dense_ops[] = {
    KIT_OP("nn.bitserial_dense", 2, bitserial_dense_attrs, bitserial_dense_rel,
           KIT_GEN(OPDT_INT, bitserial_dense_recognize, bitserial_dense_solve, bitserial_dense_sample)),
};
OP_REGISTER(bitserial_dense_ops);

/* ------------------------------------------------------------------ nn.contrib_dense_pack */

/* DensePackRel (nn.cc): (N, K) data and a weight packed as (N / tile, K, tile) (or 4-D) give
   (N, weight[0] * weight[2]).  TVM registers DenseAttrs as the op's attribute type but the relation
   reads DensePackAttrs, which the Python API builds (so TVM's parser, which builds DenseAttrs, cannot
   read back a call it prints); the schema here is DensePackAttrs', as printed. */
static const Type *dense_pack_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *w = data ? op_tensor_arg(c, 1) : NULL;
  if (!w) return NULL;
  if (data->ndims != 2) return op_fail(c, 0, "%s: Only 2D data is supported", c->op->name);
  if (w->ndims != 3 && w->ndims != 4) return op_fail(c, 1, "%s: Expect weight to be 3D or 4D", c->op->name);
  int64_t o[2] = {data->dims[0], kit_dim_mul(w->dims[0], w->dims[2])};
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), o, 2);
}

static const OpDef dense_pack_ops[] = {
    /* nn.cc: not generated (TVM's parser cannot read it back, above) */
    KIT_OP("nn.contrib_dense_pack", 2, kit_dense_pack_attrs, dense_pack_rel),
};
OP_REGISTER(dense_pack_ops);

/* ------------------------------------------------------------------ nn.correlation */

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
  if (!kit_pad_totals(c, 2, pad)) return NULL;
  int64_t k = op_int(c, "kernel_size"), maxd = op_int(c, "max_displacement"), s1 = op_int(c, "stride1"),
          s2 = op_int(c, "stride2");
  if (s1 == 0 || s2 == 0) return op_fail(c, -1, "%s: stride1 and stride2 must not be 0", name);
  int64_t border = maxd + (k - 1) / 2, dsize = 2 * (maxd / s2) + 1;
  int64_t h = a->dims[2], w = b->dims[3];
  int64_t o[4] = {a->dims[0], dsize * dsize, h == KIT_ANY ? KIT_ANY : ext(kit_floordiv(h + pad[0] - 2 * border + s1 - 1, s1)),
                  w == KIT_ANY ? KIT_ANY : ext(kit_floordiv(w + pad[1] - 2 * border + s1 - 1, s1))};
  if (!nonnegative(c, o, 4)) return NULL;
  return ty_tensor(c->types, a->dtype, o, 4);
}

/* CorrelationAttrs */
static const OpAttrSpec correlation_attrs[] = {{"kernel_size", AT_INT, "1"},  {"max_displacement", AT_INT, "1"},
                                               {"stride1", AT_INT, "1"},      {"stride2", AT_INT, "1"},
                                               {"padding", AT_INTS, "[0, 0]"}, {"is_multiply", AT_BOOL, "True"},
                                               {"layout", AT_STR, "\"NCHW\""}};

/* The channels are (2 * (max_displacement / stride2) + 1)^2: an odd square. */
static int64_t odd_root(int64_t c) {
  for (int64_t r = 1; r * r <= c; r += 2)
    if (r * r == c) return r;
  return 0;
}

static bool correlation_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok_dims(op, t, 4, 4, 1) && odd_root(t->dims[1]) > 0;
}

/* out = floor((extent + 2 * pad - 2 * border + stride1 - 1) / stride1), border = max_displacement +
   (kernel_size - 1) / 2: pick the parameters, then the extents that give the result. */
static bool correlation_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  int64_t dr = (odd_root(t->dims[1]) - 1) / 2, s2 = rng_range(g->rng, 1, 2), maxd = dr * s2 + rng_range(g->rng, 0, s2 - 1);
  int64_t k = rng_chance(g->rng, 1, 2) ? 1 : 3, border = maxd + (k - 1) / 2, s1 = rng_range(g->rng, 1, 2);
  int64_t p = rng_range(g->rng, 0, border), d[4] = {t->dims[0], rng_range(g->rng, 1, 3)};
  for (int i = 0; i < 2; i++) d[2 + i] = t->dims[2 + i] * s1 + rng_range(g->rng, 0, s1 - 1) - 2 * p + 2 * border - s1 + 1;
  int64_t pad[2] = {p, p};
  opgen_plan_init(g, op, out);
  out->args[0] = out->args[1] = kit_tensor(g, t->dtype, d, 4);
  out->nargs = 2;
  opgen_set_int(g, op, out, "kernel_size", k);
  opgen_set_int(g, op, out, "max_displacement", maxd);
  opgen_set_int(g, op, out, "stride1", s1);
  opgen_set_int(g, op, out, "stride2", s2);
  opgen_set_ints(g, op, out, "padding", pad, 2);
  if (rng_chance(g->rng, 1, 2)) opgen_set_bool(g, op, out, "is_multiply", false);
  out->result = t;
  return true;
}

static bool correlation_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[4] = {rng_range(g->rng, 1, 4), rng_chance(g->rng, 1, 2) ? 1 : 9, rng_range(g->rng, 1, g->policy->max_dim),
                  rng_range(g->rng, 1, g->policy->max_dim)};
  return op->solve(g, op, kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 4), out);
}

static const OpDef correlation_ops[] = {
    /* correlation.cc */
    KIT_OP("nn.correlation", 2, correlation_attrs, correlation_rel,
           KIT_GEN(OPDT_FLOAT, correlation_recognize, correlation_solve, correlation_sample)),
};
OP_REGISTER(correlation_ops);
