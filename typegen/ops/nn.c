/*
 * Neural-network operators: convolutions and transposed convolutions, dense / matmul /
 * batch_matmul, pooling (windowed, global, adaptive), the normalisations, softmax, bias_add, pad,
 * dropout, upsampling, image.resize2d and the QNN quantisation ops.  Each relation computes what
 * TVM v0.13's XxxRel computes (result shape and dtype, and the types it assigns to the other
 * arguments, which must unify).  Facts from TVM v0.13 src/relay/op/nn/{convolution.cc, nn.cc, nn.h,
 * pooling.cc, pooling_common.h, pad.cc, upsampling.cc}, src/relay/op/image/resize.cc,
 * src/relay/qnn/op/{convolution.cc, quantize.cc, dequantize.cc, requantize.cc}, src/relay/qnn/utils.h
 * and the attribute structs in include/tvm/relay/attrs/{nn.h, image.h} and
 * include/tvm/relay/qnn/attrs.h.
 *
 * Attributes TVM declares without a default (pool_size, units, pad_width, scale_h, ...) have the
 * default "None" here: the schema needs some spelling, and a relation that needs the value rejects
 * None with TVM's "Cannot find required field" message.
 *
 * Where TVM would abort on an ICHECK (a crash, for the user a rejected program) the relation fails
 * with a message; where TVM would build a negative dimension the relation fails too, because a
 * type here cannot hold one.
 *
 * After the relations come the RFC's generators (recognizer, solver, sampler) for every entry; they
 * keep to what TVM's computes accept, which is narrower than what the relations accept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"
#include "ops.h"
#include "nn_common.h"

#define ANY ((int64_t)TY_DIM_ANY)
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ================================================================== small helpers */

/* TVM's spelling of a dtype in messages: "void" for the empty dtype. */
static const char *dt_name(DType d, char *buf) {
  if (d.code == DT_VOID) return strcpy(buf, "void");
  return dtype_str(d, buf);
}

/* A shape as TVM prints an Array<PrimExpr>: "[1, 64, ?]". */
const char *dims_str(const int64_t *d, size_t n, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (size_t i = 0; i < n && len < cap; i++) {
    if (d[i] == ANY) len += (size_t)snprintf(buf + len, cap - len, "%s?", i ? ", " : "");
    else len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)d[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

static bool is_dtype(DType d, DTypeCode code, int bits) { return d.code == code && d.bits == bits && d.lanes == 1; }

/* A writable copy of a tensor's dims (at least one slot, so rank 0 needs no special case). */
int64_t *dims_dup(const Type *t) {
  int64_t *d = xmalloc((t->ndims ? t->ndims : 1) * sizeof *d);
  if (t->ndims) memcpy(d, t->dims, t->ndims * sizeof *d);
  return d;
}

/* A tensor type from a scratch shape, which it then frees. */
const Type *tensor_free(OpCall *c, DType dtype, int64_t *dims, size_t n) {
  const Type *t = ty_tensor(c->types, dtype, dims, n);
  free(dims);
  return t;
}

/* TVM builds an attrs object from the call's text and stops on a field that has no default and was
   not given; the schema spells those defaults None, so None means "missing" here. */
bool required(OpCall *c, const char *name) {
  if (!op_is_none(c, name)) return true;
  op_fail(c, -1, "%s: Cannot find required field '%s' during initialization", c->op->name, name);
  return false;
}

/* Reads list attribute `name` into out[0..max).  Returns its length, or -1 (after failing) when an
   item is not a constant integer: the relations only compute with constants. */
long ints_attr(OpCall *c, const char *name, int64_t *out, size_t max) {
  size_t n = op_ints(c, name, out, max);
  for (size_t i = 0; i < n && i < max; i++)
    if (out[i] == ANY) {
      op_fail(c, -1, "%s: attribute '%s' must hold constant integers", c->op->name, name);
      return -1;
    }
  return (long)n;
}

/* A list attribute the relation indexes up to `need` (TVM reads the first `need` items; a shorter
   list makes it index out of range). */
bool ints_need(OpCall *c, const char *name, size_t need, int64_t *out, size_t max) {
  long n = ints_attr(c, name, out, max);
  if (n < 0) return false;
  if ((size_t)n < need) {
    op_fail(c, -1, "%s: attribute '%s' needs %zu value%s, got %ld", c->op->name, name, need, need == 1 ? "" : "s", n);
    return false;
  }
  return true;
}

/* Positive integers only: strides and dilations divide or scale a dimension. */
bool all_positive(OpCall *c, const char *name, const int64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[i] <= 0) {
      op_fail(c, -1, "%s: attribute '%s' must hold positive integers, got %lld", c->op->name, name, (long long)v[i]);
      return false;
    }
  return true;
}

/* reporter->Assign(types[i], Tensor[dims, dtype]): argument i must unify with that type, where a `?`
   on either side matches any dimension. */
bool assign_arg(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return false;
  bool ok = dtype_eq(t->dtype, dtype) && t->ndims == n;
  size_t bad = (size_t)-1;
  for (size_t k = 0; ok && k < n; k++)
    if (t->dims[k] != dims[k] && t->dims[k] != ANY && dims[k] != ANY) {
      ok = false;
      bad = k;
    }
  if (ok) return true;
  char *got = ty_str(t), *want = ty_str(ty_tensor(c->types, dtype, dims, n));
  if (bad != (size_t)-1)
    op_fail(c, (int)i, "%s: argument %zu has type %s, but the relation requires %s (dimension %zu conflicts: %lld does not match %lld)",
            c->op->name, i + 1, got, want, bad, (long long)t->dims[bad], (long long)dims[bad]);
  else
    op_fail(c, (int)i, "%s: argument %zu has type %s, but the relation requires %s", c->op->name, i + 1, got, want);
  free(got);
  free(want);
  return false;
}

/* Normalises an axis the way most relations do (a negative axis counts from the end). */
static bool norm_axis(OpCall *c, int64_t axis, size_t rank, size_t *out) {
  if (op_axis(axis, rank, out)) return true;
  op_fail(c, -1, "%s: axis %lld is out of range for a tensor of rank %zu", c->op->name, (long long)axis, rank);
  return false;
}

/* ================================================================== layouts (tir::Layout) */

/* Layout itself is ops/layout.c; here the check against a relation's canonical layout. */

/* Parses `attr` and checks it converts to `canon`; `what` and the message follow the relation. */
bool layout_to_canon(OpCall *c, const char *attr, const char *s, const Layout *canon, Layout *l,
                            const char *fmt) {
  if (!layout_parse(c, attr, s, l)) return false;
  if (layout_convertible(l, canon)) return true;
  char msg[256];
  snprintf(msg, sizeof msg, fmt, canon->name, s);
  op_fail(c, -1, "%s: %s", c->op->name, msg);
  return false;
}

/* ================================================================== padding */

/* The total padding per spatial axis (before + after), as GetPaddingWidth / GetPaddingHeightWidth /
   GetPaddingDepthHeightWidth and the pool relations read it: one value pads every side, `nd` values
   pad both sides of each axis, 2*nd values are all befores then all afters. */
bool pad_totals(OpCall *c, size_t nd, int64_t *pad) {
  int64_t p[6];
  long n = ints_attr(c, "padding", p, 6);
  if (n < 0) return false;
  bool overflow = false;
  if (n == 1) {
    for (size_t i = 0; i < nd; i++) overflow |= __builtin_add_overflow(p[0], p[0], &pad[i]);
  } else if ((size_t)n == nd) {
    for (size_t i = 0; i < nd; i++) overflow |= __builtin_add_overflow(p[i], p[i], &pad[i]);
  } else if ((size_t)n == 2 * nd) {
    for (size_t i = 0; i < nd; i++) overflow |= __builtin_add_overflow(p[i], p[i + nd], &pad[i]);
  } else {
    static const char *const counts[] = {"", "1 or 2", "1, 2 or 4", "1, 3 or 6"};
    op_fail(c, -1, "%s: Padding size should be %s, but got %ld", c->op->name, counts[nd], n);
    return false;
  }
  if (overflow) {
    op_fail(c, -1, "%s: the total padding overflows int64", c->op->name);
    return false;
  }
  return true;
}

/* ================================================================== convolutions */

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
static bool conv_layouts(OpCall *c, const ConvKind *k, Layout *in, Layout *kernel, Layout *out) {
  Layout dcanon, kcanon;
  layout_parse(c, "", k->data_canon, &dcanon);
  layout_parse(c, "", k->kernel_canon, &kcanon);
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
  return layout_to_canon(c, "data_layout", data_layout, &dcanon, in, fin) &&
         layout_to_canon(c, "kernel_layout", kernel_layout, &kcanon, kernel, fk) &&
         layout_to_canon(c, "out_layout", out_layout, &dcanon, out, fout);
}

/* Conv1DRel / Conv2DRel / Conv3DRel and Conv1DTransposeRel / Conv2DTransposeRel
   (src/relay/op/nn/convolution.cc).  Arguments 0 and 1 are data and weight (qnn.conv2d reuses this
   with its extra arguments after them). */
static const Type *conv_rel(OpCall *c, const ConvKind *k) {
  const Type *data = op_tensor_arg(c, 0), *weight = data ? op_tensor_arg(c, 1) : NULL;
  if (!weight) return NULL;
  const char *name = c->op->name;
  const size_t nd = k->nd, wrank = nd + 2;

  Layout in, kl, out, dcanon, kcanon;
  if (!conv_layouts(c, k, &in, &kl, &out)) return NULL;
  layout_parse(c, "", k->data_canon, &dcanon);
  layout_parse(c, "", k->kernel_canon, &kcanon);

  int64_t dshape[LAYOUT_MAX];
  if (!layout_convert(c, 0, &in, data->dims, data->ndims, &dcanon, dshape)) return NULL;

  int64_t groups = op_int(c, "groups");
  if (groups <= 0) return op_fail(c, -1, "%s: groups must be positive, got %lld", name, (long long)groups);
  int64_t strides[8], dilation[8], pad[3];
  /* A forward convolution divides by its strides (TVM would divide by zero). */
  if (!ints_need(c, "strides", nd, strides, 8) || !ints_need(c, "dilation", nd, dilation, 8) ||
      (!k->transposed && !all_positive(c, "strides", strides, nd)))
    return NULL;
  if (k->nd == 1 && !k->transposed) {
    /* Conv1DRel adds padding[0] and padding[1] without normalising a single value. */
    int64_t p[8];
    if (!ints_need(c, "padding", 2, p, 8)) return NULL;
    if (__builtin_add_overflow(p[0], p[1], &pad[0])) return op_fail(c, -1, "%s: the total padding overflows int64", c->op->name);
  } else if (!pad_totals(c, nd, pad)) {
    return NULL;
  }
  int64_t outpad[8] = {0};
  if (k->transposed && !ints_need(c, "output_padding", nd, outpad, 8)) return NULL;

  bool have_ks = !op_is_none(c, "kernel_size"), have_ch = !op_is_none(c, "channels");
  int64_t ks[8] = {0}, channels = have_ch ? op_int(c, "channels") : 0;
  long nks = 0;
  if (have_ks && (nks = ints_attr(c, "kernel_size", ks, 8)) < 0) return NULL;
  if (have_ch && op_attr(c, "channels")->kind != ATTR_INT)
    return op_fail(c, -1, "%s: attribute 'channels' must be a constant integer", name);

  int64_t cin = dshape[1], cin_g = cin == ANY ? ANY : opx_floordiv(cin, groups);
  int64_t cout, dk[3], wcan[LAYOUT_MAX], wdims[LAYOUT_MAX];
  char b1[256], b2[256];

  /* Conv2DRel / Conv3DRel: a grouped convolution whose groups equal the input channels and the
     weight's output channels is depthwise, and the weight inferred from the attributes is then
     (C, channels / C, k...). */
  bool depthwise = false;
  if (!k->transposed && nd >= 2 && groups > 1) {
    if (!layout_convert(c, 1, &kl, weight->dims, weight->ndims, &kcanon, wcan)) return NULL;
    depthwise = groups == cin && groups == wcan[0];
  }

  if (have_ks && have_ch) {
    /* The weight's type follows from the attributes; the given weight must unify with it. */
    if ((size_t)nks != nd)
      return op_fail(c, -1, "%s: kernel_size must have %zu value%s, got %ld", name, nd, nd == 1 ? "" : "s", nks);
    if (k->transposed) {
      wcan[0] = cin;
      wcan[1] = opx_floordiv(channels, groups);
    } else if (depthwise) {
      wcan[0] = cin;
      wcan[1] = opx_floordiv(channels, cin);
    } else {
      wcan[0] = channels;
      wcan[1] = cin_g;
    }
    for (size_t i = 0; i < nd; i++) {
      wcan[2 + i] = ks[i];
      dk[i] = 1 + (ks[i] - 1) * dilation[i];
    }
    if (!layout_convert(c, -1, &kcanon, wcan, wrank, &kl, wdims) ||
        !assign_arg(c, 1, weight->dtype, wdims, kl.ndim))
      return NULL;
    cout = channels;
  } else {
    /* Everything follows from the weight's shape, checked against what the attributes say. */
    if (!layout_convert(c, 1, &kl, weight->dims, weight->ndims, &kcanon, wcan)) return NULL;
    dims_str(wcan, wrank, b2, sizeof b2);
    if (have_ks) {
      if ((size_t)nks != nd)
        return op_fail(c, -1, "%s: kernel_size must have %zu value%s, got %ld", name, nd, nd == 1 ? "" : "s", nks);
      for (size_t i = 0; i < nd; i++)
        if (wcan[2 + i] != ANY && wcan[2 + i] != ks[i])
          return op_fail(c, 1, "%s: %s: shape of weight is inconsistent with kernel_size, kernel_size=%s wshape=%s", name,
                         k->tag, dims_str(ks, nd, b1, sizeof b1), b2);
    }
    if (k->transposed) {
      int64_t per_group = have_ch ? opx_floordiv(channels, groups) : 0;
      if (have_ch && wcan[1] != ANY && wcan[1] != per_group)
        return op_fail(c, 1,
                       "%s: %s: shape of weight is inconsistent with out_channels, out_channels // groups != "
                       "weight.shape[1] out_channels=%lld groups=%lld weight.shape=%s",
                       name, k->tag, (long long)channels, (long long)groups, b2);
      if (cin != ANY && wcan[0] != ANY && cin != wcan[0])
        return op_fail(c, 1, "%s: %s: shape of weight is inconsistent with in_channels. data.shape= %s groups= %lld weight.shape= %s",
                       name, k->tag, dims_str(dshape, nd + 2, b1, sizeof b1), (long long)groups, b2);
      cout = wcan[1];
    } else {
      if (have_ch && wcan[0] != ANY && wcan[0] != channels) {
        if (nd == 2)
          return op_fail(c, 1, "%s: conv2D: the first dimensions of the weight tensor (%s)does not match the number of channels (%lld).",
                         name, b2, (long long)channels);
        return op_fail(c, 1, "%s: %s: shape of weight is inconsistent with channels, channels=%lld wshape=%s", name, k->tag,
                       (long long)channels, b2);
      }
      /* Conv1DRel compares the input channels without dividing by groups. */
      int64_t want = nd == 1 ? cin : cin_g;
      if (cin != ANY && wcan[1] != ANY && want != wcan[1]) {
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
    for (size_t i = 0; i < nd; i++) dk[i] = wcan[2 + i] == ANY ? ANY : 1 + (wcan[2 + i] - 1) * dilation[i];
  }

  /* The output, in the canonical layout, then in out_layout. */
  int64_t oshape[LAYOUT_MAX], odims[LAYOUT_MAX];
  oshape[0] = dshape[0];
  oshape[1] = cout;
  static const char *const axis_names[3][3] = {{"width"}, {"height", "width"}, {"depth", "height", "width"}};
  for (size_t i = 0; i < nd; i++) {
    int64_t d = dshape[2 + i];
    if (d == ANY || dk[i] == ANY) {
      oshape[2 + i] = ANY;
      continue;
    }
    int64_t o = k->transposed ? strides[i] * (d - 1) + dk[i] - pad[i] + outpad[i]
                              : opx_floordiv(d + pad[i] - dk[i], strides[i]) + 1;
    /* checked before it is stored: a computed -1 (TVM's type says -1) must not pass for `?` */
    if (o < 0) return op_fail(c, -1, "%s: the output %s would be negative (%lld)", name, axis_names[nd - 1][i], (long long)o);
    oshape[2 + i] = o;
  }
  if (!layout_convert(c, -1, &dcanon, oshape, nd + 2, &out, odims)) return NULL;
  DType out_dtype = op_dtype(c, "out_dtype");
  if (out_dtype.code == DT_VOID) out_dtype = data->dtype;
  return ty_tensor(c->types, out_dtype, odims, out.ndim);
}

static const Type *conv1d_rel(OpCall *c) { return conv_rel(c, &conv1d_kind); }
const Type *conv2d_rel(OpCall *c) { return conv_rel(c, &conv2d_kind); }
static const Type *conv3d_rel(OpCall *c) { return conv_rel(c, &conv3d_kind); }
static const Type *conv1d_transpose_rel(OpCall *c) { return conv_rel(c, &conv1d_transpose_kind); }
static const Type *conv2d_transpose_rel(OpCall *c) { return conv_rel(c, &conv2d_transpose_kind); }

/* ================================================================== dense, matmul, batch_matmul */

/* MatmulRel (src/relay/op/nn/nn.h), shared by nn.dense (transpose_a=false, transpose_b=true, as
   DenseAttrs has no such fields) and nn.matmul. */
static const Type *matmul_common(OpCall *c, bool ta, bool tb) {
  const Type *a = op_tensor_arg(c, 0), *b = a ? op_tensor_arg(c, 1) : NULL;
  if (!b) return NULL;
  const char *name = c->op->name;
  size_t ra = a->ndims;
  if (ra == 0) return op_fail(c, 0, "%s: the first argument must have at least one dimension, got a scalar", name);
  if (ta && ra < 2) return op_fail(c, 0, "%s: transpose_a needs a first argument of rank >= 2, got rank %zu", name, ra);
  int64_t reduce = ta ? a->dims[ra - 2] : a->dims[ra - 1];
  int64_t *oshape = dims_dup(a);
  if (ta) oshape[ra - 2] = a->dims[ra - 1];
  if (!op_is_none(c, "units")) {
    if (op_attr(c, "units")->kind != ATTR_INT) {
      free(oshape);
      return op_fail(c, -1, "%s: attribute 'units' must be a constant integer", name);
    }
    int64_t units = op_int(c, "units");
    int64_t w[2] = {tb ? units : reduce, tb ? reduce : units};
    if (!assign_arg(c, 1, b->dtype, w, 2)) {
      free(oshape);
      return NULL;
    }
    oshape[ra - 1] = units;
  } else {
    if (b->ndims != 2) {
      free(oshape);
      return op_fail(c, 1, "%s: the second argument must be 2-D when units is None, got rank %u", name, b->ndims);
    }
    /* The reduction dimensions of both arguments are unified. */
    int64_t breduce = tb ? b->dims[1] : b->dims[0];
    if (reduce != ANY && breduce != ANY && reduce != breduce) {
      char *sa = ty_str(a), *sb = ty_str(b);
      op_fail(c, 1, "%s: the reduction dimensions do not match: %lld in %s and %lld in %s", name, (long long)reduce, sa,
              (long long)breduce, sb);
      free(sa);
      free(sb);
      free(oshape);
      return NULL;
    }
    oshape[ra - 1] = tb ? b->dims[0] : b->dims[1];
  }
  DType out_dtype = op_dtype(c, "out_dtype");
  if (out_dtype.code == DT_VOID) out_dtype = a->dtype;
  return tensor_free(c, out_dtype, oshape, ra);
}

static const Type *dense_rel(OpCall *c) { return matmul_common(c, false, true); }
static const Type *matmul_rel(OpCall *c) {
  return matmul_common(c, op_bool(c, "transpose_a"), op_bool(c, "transpose_b"));
}

/* BatchMatmulRel (src/relay/op/nn/nn.h): (b, i, k) x (b, k, j) -> (b, i, j), either side possibly
   transposed; a batch of 1 broadcasts; any `?` switches the checks off. */
static const Type *batch_matmul_rel(OpCall *c) {
  const Type *x = op_tensor_arg(c, 0), *y = x ? op_tensor_arg(c, 1) : NULL;
  if (!y) return NULL;
  const char *name = c->op->name;
  if (x->ndims != 3 || y->ndims != 3)
    return op_fail(c, x->ndims != 3 ? 0 : 1, "%s: both arguments must be 3-D, got ranks %u and %u", name, x->ndims,
                   y->ndims);
  bool ta = op_bool(c, "transpose_a"), tb = op_bool(c, "transpose_b");
  int64_t xb = x->dims[0], xi = x->dims[ta ? 2 : 1], xk = x->dims[ta ? 1 : 2];
  int64_t yb = y->dims[0], yk = y->dims[tb ? 2 : 1], yj = y->dims[tb ? 1 : 2];
  bool dyn = false;
  for (int i = 0; i < 3; i++) dyn |= x->dims[i] == ANY || y->dims[i] == ANY;
  if (!dyn) {
    char b1[128], b2[128];
    if (xb != yb && xb != 1 && yb != 1)
      return op_fail(c, 1, "%s: BatchDot: batch dimensions don't match, x shape=%s, y shape=%s", name,
                     dims_str(x->dims, 3, b1, sizeof b1), dims_str(y->dims, 3, b2, sizeof b2));
    if (xk != yk)
      return op_fail(c, 1, "%s: BatchDot: shapes of x and y is inconsistent, x shape=%s, y shape=%s", name,
                     dims_str(x->dims, 3, b1, sizeof b1), dims_str(y->dims, 3, b2, sizeof b2));
  }
  int64_t out[3] = {xb == ANY || yb == ANY ? ANY : (xb > yb ? xb : yb), xi, yj};
  DType out_dtype = op_dtype(c, "out_dtype");
  if (out_dtype.code == DT_VOID) out_dtype = x->dtype;
  return ty_tensor(c->types, out_dtype, out, 3);
}

/* ================================================================== pooling */

static const char *const pool_axes[4] = {"", "W", "HW", "DHW"};

/* The pooled axes' positions: the layout must hold them and must not split them (Pool1DRel,
   Pool2DRel, Pool3DRel, GlobalPool2DRel, AdaptivePool*Rel in pooling.cc). */
static bool pool_layout(OpCall *c, const Type *data, size_t nd, int *idx) {
  static const char *const need_rank[4] = {"", "Pool1D only support input >= 1-D: input must have width",
                                           "Pool2D only support input >= 2-D: input must have height and width",
                                           "Pool3D only support input >= 3-D: input must have depth, height and width"};
  if (data->ndims < nd) {
    op_fail(c, 0, "%s: %s", c->op->name, need_rank[nd]);
    return false;
  }
  Layout l;
  if (!layout_parse(c, "layout", op_str(c, "layout"), &l)) return false;
  const char *axes = pool_axes[nd];
  for (size_t i = 0; i < nd; i++) {
    idx[i] = layout_index(&l, axes[i]);
    if (idx[i] < 0 || layout_index(&l, (char)(axes[i] - 'A' + 'a')) >= 0) {
      static const char *const why[4] = {"", "Pool1D layout must have W", "Pool2D layout must have H and W",
                                         "Pool3D layout must have D, H and W"};
      op_fail(c, -1, "%s: Invalid layout %s. %s, which cannot be split", c->op->name, l.name, why[nd]);
      return false;
    }
    if ((size_t)idx[i] >= data->ndims) {
      op_fail(c, 0, "%s: layout %s puts %c at index %d, but the data has rank %u", c->op->name, l.name, axes[i], idx[i],
              data->ndims);
      return false;
    }
  }
  return true;
}

/* calculate_pool_dimension (pooling_common.h): TVM divides with `/` on PrimExpr, which truncates. */
static int64_t pool_dim(int64_t in, int64_t pad, int64_t k, int64_t dil, int64_t stride, bool ceil_mode) {
  int64_t num = in + pad - ((k - 1) * dil + 1);
  if (ceil_mode) num += stride - 1;
  return num / stride + 1;
}

/* Pool1DRel / Pool2DRel / Pool3DRel (pooling.cc): the pooled axes shrink; the others, and the dtype,
   are kept.  out_layout does not change the result's shape. */
static const Type *pool_rel(OpCall *c, size_t nd) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int idx[3];
  int64_t ps[8], st[8], dil[8], pad[3];
  if (!pool_layout(c, data, nd, idx) || !required(c, "pool_size") || !ints_need(c, "pool_size", nd, ps, 8) ||
      !ints_need(c, "strides", nd, st, 8) || !ints_need(c, "dilation", nd, dil, 8) ||
      !all_positive(c, "strides", st, nd) || !pad_totals(c, nd, pad))
    return NULL;
  bool ceil_mode = op_bool(c, "ceil_mode");
  int64_t *oshape = dims_dup(data);
  for (size_t i = 0; i < nd; i++) {
    int64_t d = data->dims[idx[i]];
    if (d == ANY) continue;
    int64_t o = pool_dim(d, pad[i], ps[i], dil[i], st[i], ceil_mode);
    if (o < 0) {
      free(oshape);
      return op_fail(c, -1, "%s: the pooled dimension %c would be negative (%lld)", c->op->name, pool_axes[nd][i],
                     (long long)o);
    }
    oshape[idx[i]] = o;
  }
  return tensor_free(c, data->dtype, oshape, data->ndims);
}

static const Type *pool1d_rel(OpCall *c) { return pool_rel(c, 1); }
static const Type *pool2d_rel(OpCall *c) { return pool_rel(c, 2); }
static const Type *pool3d_rel(OpCall *c) { return pool_rel(c, 3); }

/* GlobalPool2DRel (pooling.cc): H and W become 1. */
static const Type *global_pool2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int idx[2];
  if (!data || !pool_layout(c, data, 2, idx)) return NULL;
  int64_t *oshape = dims_dup(data);
  oshape[idx[0]] = oshape[idx[1]] = 1;
  return tensor_free(c, data->dtype, oshape, data->ndims);
}

/* AdaptivePool1DRel / 2D / 3D (pooling.cc): the pooled axes become output_size (all of them one
   value when it has one; unchanged when it is empty). */
static const Type *adaptive_pool_rel(OpCall *c, size_t nd) {
  const Type *data = op_tensor_arg(c, 0);
  int idx[3];
  if (!data || !pool_layout(c, data, nd, idx)) return NULL;
  int64_t os[8];
  long n = op_is_none(c, "output_size") ? 0 : ints_attr(c, "output_size", os, 8);
  if (n < 0) return NULL;
  if ((size_t)n > nd) {
    if (nd == 1) return op_fail(c, -1, "%s: output_size must have 1 element.", c->op->name);
    return op_fail(c, -1, "%s: output_size can have up to %zu elements.", c->op->name, nd);
  }
  if (nd == 3 && n == 2) /* AdaptivePool3DRel reads output_size[2] then */
    return op_fail(c, -1, "%s: output_size must have 1 or 3 elements, got 2", c->op->name);
  int64_t *oshape = dims_dup(data);
  for (size_t i = 0; i < nd && n > 0; i++) oshape[idx[i]] = n == 1 ? os[0] : os[i];
  return tensor_free(c, data->dtype, oshape, data->ndims);
}

static const Type *adaptive_pool1d_rel(OpCall *c) { return adaptive_pool_rel(c, 1); }
static const Type *adaptive_pool2d_rel(OpCall *c) { return adaptive_pool_rel(c, 2); }
static const Type *adaptive_pool3d_rel(OpCall *c) { return adaptive_pool_rel(c, 3); }

/* ================================================================== normalisation, softmax, ... */

/* BatchNormRel (nn.cc): gamma, beta, moving_mean and moving_var are vectors of the channel axis's
   length; the result is (normalised data, new mean, new variance).  The axis may be -1 but no
   other negative value. */
static const Type *batch_norm_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t axis = op_int(c, "axis");
  if (data->ndims == 0) return op_fail(c, 0, "%s: the data must have at least one dimension", c->op->name);
  if (axis < -1 || axis >= (int64_t)data->ndims)
    return op_fail(c, -1, "%s: axis %lld is out of range for a tensor of rank %u (it must be -1 or in [0, %u))",
                   c->op->name, (long long)axis, data->ndims, data->ndims);
  int64_t ch = data->dims[axis == -1 ? data->ndims - 1 : (size_t)axis];
  for (size_t i = 1; i <= 4; i++)
    if (!assign_arg(c, i, data->dtype, &ch, 1)) return NULL;
  const Type *vec = ty_tensor(c->types, data->dtype, &ch, 1);
  const Type *fields[3] = {data, vec, vec};
  return ty_tuple(c->types, fields, 3);
}

/* LayerNormRel / GroupNormRel / InstanceNormRel (nn.cc): gamma and beta are vectors of the channel
   axis's length; the result has the data's type.  InstanceNormRel also wants rank > 2. */
static const Type *norm_common(OpCall *c, bool instance) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (instance && data->ndims <= 2)
    return op_fail(c, 0, "%s: the data must have rank > 2, got %u", c->op->name, data->ndims);
  size_t axis;
  if (!norm_axis(c, op_int(c, "axis"), data->ndims, &axis)) return NULL;
  for (size_t i = 1; i <= 2; i++)
    if (!assign_arg(c, i, data->dtype, &data->dims[axis], 1)) return NULL;
  return data;
}

static const Type *norm_rel(OpCall *c) { return norm_common(c, false); }
static const Type *instance_norm_rel(OpCall *c) { return norm_common(c, true); }

/* SoftmaxRel (nn.cc), for softmax and log_softmax: the axis must be in [-ndim, ndim). */
static const Type *softmax_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t axis = op_int(c, "axis"), nd = data->ndims;
  if (axis >= nd || axis < -nd)
    return op_fail(c, -1, "%s: Wrong axis (%lld) not in expected range: [%lld, %lld)", c->op->name, (long long)axis,
                   (long long)-nd, (long long)nd);
  return data;
}

/* BiasAddRel (nn.cc): the bias is a vector of the axis's length; the result has the data's type. */
static const Type *bias_add_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t axis = op_int(c, "axis");
  size_t a;
  if (!op_axis(axis, data->ndims, &a)) {
    char b[256];
    return op_fail(c, -1, "%s: The axis in bias_add must be in range for the shape; attempted to access index %lld of %s",
                   c->op->name, (long long)axis, dims_str(data->dims, data->ndims, b, sizeof b));
  }
  return assign_arg(c, 1, data->dtype, &data->dims[a], 1) ? data : NULL;
}

/* PReluRel (nn.cc): alpha is a vector of the axis's length.  TVM does not normalise a negative axis
   (it then indexes out of range), so only [0, rank) is accepted. */
static const Type *prelu_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t axis = op_int(c, "axis");
  if (axis < 0 || axis >= (int64_t)data->ndims)
    return op_fail(c, -1, "%s: Wrong axis (%lld)value.", c->op->name, (long long)axis);
  return assign_arg(c, 1, data->dtype, &data->dims[axis], 1) ? data : NULL;
}

/* PadRel (pad.cc): one (before, after) pair per dimension; `?` stays `?`.  Negative widths are
   allowed as long as the padded dimension is not negative.  The pad value (argument 2) is not
   constrained by the relation. */
static const Type *pad_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data || !required(c, "pad_width")) return NULL;
  const AttrVal *pw = op_attr(c, "pad_width");
  const char *name = c->op->name;
  if (pw->kind != ATTR_LIST) return op_fail(c, -1, "%s: pad_width must be a list of (before, after) pairs", name);
  if (pw->n != data->ndims)
    return op_fail(c, -1,
                   "%s: There should be as many pad width pairs as shape dimensions but the shape has %u dimensions and "
                   "there are %zu pad width pairs.",
                   name, data->ndims, pw->n);
  int64_t *oshape = dims_dup(data);
  for (size_t i = 0; i < pw->n; i++) {
    const AttrVal *pair = &pw->items[i];
    if (pair->kind != ATTR_LIST || pair->n != 2) {
      free(oshape);
      return op_fail(c, -1, "%s: Each pad width element should be a pair but at index %zu there are %zu elements.", name, i,
                     pair->kind == ATTR_LIST ? pair->n : (size_t)1);
    }
    if (pair->items[0].kind != ATTR_INT || pair->items[1].kind != ATTR_INT) {
      free(oshape);
      return op_fail(c, -1, "%s: pad widths must be constant integers (pair %zu)", name, i);
    }
    if (oshape[i] == ANY) continue;
    if (__builtin_add_overflow(oshape[i], pair->items[0].i, &oshape[i]) ||
        __builtin_add_overflow(oshape[i], pair->items[1].i, &oshape[i])) {
      free(oshape);
      return op_fail(c, -1, "%s: the padded size of axis %zu overflows int64", name, i);
    }
    if (oshape[i] < 0) {
      long long v = (long long)oshape[i];
      free(oshape);
      return op_fail(c, -1, "%s: Output shape post padding should be positive but got %lld", name, v);
    }
  }
  return tensor_free(c, data->dtype, oshape, data->ndims);
}

/* DropoutRel (nn.cc): (output, mask), both of the data's type. */
static const Type *dropout_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const Type *fields[2] = {data, data};
  return ty_tuple(c->types, fields, 2);
}

/* IdentityRel, as nn.lrn registers it. */
static const Type *identity_rel(OpCall *c) { return op_tensor_arg(c, 0); }

/* nn.l2_normalize registers IdentityRel; its eps and axis have no defaults. */
static const Type *l2_normalize_rel(OpCall *c) {
  if (!required(c, "eps") || !required(c, "axis")) return NULL;
  return op_tensor_arg(c, 0);
}

/* BatchFlattenRel (nn.cc): (d0, d1 * d2 * ...); a `?` among d1... makes the product `?`. */
static const Type *batch_flatten_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "%s: the data must have at least one dimension", c->op->name);
  int64_t out[2] = {data->dims[0], 1};
  for (size_t i = 1; i < data->ndims; i++) {
    if (data->dims[i] == ANY) {
      out[1] = ANY;
      break;
    }
    out[1] *= data->dims[i];
  }
  return ty_tensor(c->types, data->dtype, out, 2);
}

/* ================================================================== resizing */

/* tvm::round of the product UpSamplingRel computes: PrimExpr * double makes a float64 constant,
   folded with the current rounding mode, to nearest with ties to even (measured on TVM v0.13.0:
   1 x 2.5 gives 2, 3 x 2.5 gives 8, 1 x 0.5 gives 0).  Written out to stay clear of libm. */
static int64_t round_half_even(double d) {
  if (d < 0) return -round_half_even(-d);
  int64_t whole = (int64_t)d;
  double frac = d - (double)whole;
  return frac > 0.5 || (frac == 0.5 && (whole & 1)) ? whole + 1 : whole;
}

/* UpSamplingRel / UpSampling3DRel (upsampling.cc): in the canonical layout, the spatial axes are
   multiplied by their scales (in float64) and rounded. */
static const Type *upsampling_common(OpCall *c, size_t nd) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  static const char *const scales[3] = {"scale_d", "scale_h", "scale_w"};
  const char *const *sc = scales + (3 - nd);
  for (size_t i = 0; i < nd; i++)
    if (!required(c, sc[i])) return NULL;
  Layout canon, l;
  layout_parse(c, "", nd == 2 ? "NCHW" : "NCDHW", &canon);
  const char *fmt = nd == 2 ? "UpSampling only support input layouts that are convertible from %s. But got %s"
                            : "UpSampling3D only support input layouts that are convertible from %s. But got %s";
  int64_t s[LAYOUT_MAX], o[LAYOUT_MAX];
  if (!layout_to_canon(c, "layout", op_str(c, "layout"), &canon, &l, fmt) ||
      !layout_convert(c, 0, &l, data->dims, data->ndims, &canon, s))
    return NULL;
  for (size_t i = 0; i < nd; i++) {
    if (s[2 + i] == ANY) continue;
    s[2 + i] = round_half_even((double)s[2 + i] * op_float(c, sc[i]));
    if (s[2 + i] < 0) return op_fail(c, -1, "%s: the scaled dimension would be negative (%lld)", c->op->name, (long long)s[2 + i]);
  }
  if (!layout_convert(c, -1, &canon, s, canon.ndim, &l, o)) return NULL;
  return ty_tensor(c->types, data->dtype, o, l.ndim);
}

static const Type *upsampling_rel(OpCall *c) { return upsampling_common(c, 2); }
static const Type *upsampling3d_rel(OpCall *c) { return upsampling_common(c, 3); }

/* Resize2DRel (src/relay/op/image/resize.cc): H and W become size; size must have 2 values and roi
   4; out_dtype "" keeps the data's dtype. */
static const Type *resize2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const AttrVal *size = op_attr(c, "size"), *roi = op_attr(c, "roi");
  if (size->kind != ATTR_LIST || size->n != 2)
    return op_fail(c, -1, "%s: size must have 2 values (param->size.size() == 2)", c->op->name);
  if (roi->kind != ATTR_LIST || roi->n != 4)
    return op_fail(c, -1, "%s: roi must have 4 values (param->roi.size() == 4)", c->op->name);
  int64_t sz[2];
  if (ints_attr(c, "size", sz, 2) < 0) return NULL;
  Layout canon, l;
  layout_parse(c, "", "NCHW", &canon);
  int64_t s[LAYOUT_MAX], o[LAYOUT_MAX];
  if (!layout_to_canon(c, "layout", op_str(c, "layout"), &canon, &l,
                       "Resize only support input layouts that are convertible from %s. But got %s") ||
      !layout_convert(c, 0, &l, data->dims, data->ndims, &canon, s))
    return NULL;
  s[2] = sz[0];
  s[3] = sz[1];
  if (!layout_convert(c, -1, &canon, s, 4, &l, o)) return NULL;
  DType out_dtype = op_dtype(c, "out_dtype");
  if (out_dtype.code == DT_VOID) out_dtype = data->dtype;
  return ty_tensor(c->types, out_dtype, o, l.ndim);
}

/* ================================================================== QNN */

/* AssignType (src/relay/qnn/utils.h): a scale or zero point has the expected dtype and is either a
   scalar or a vector of `len` elements. */
static bool qnn_assign(OpCall *c, size_t i, DType dtype, int64_t len) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return false;
  if (!dtype_eq(t->dtype, dtype)) {
    char b1[16], b2[16];
    op_fail(c, (int)i, "%s: argument %zu: Expected type is %s but received %s", c->op->name, i + 1, dt_name(dtype, b1),
            dt_name(t->dtype, b2));
    return false;
  }
  return t->ndims == 0 || assign_arg(c, i, dtype, &len, 1);
}

/* IsScalarType(type, dtype) (src/relay/qnn/utils.h), which the relations ICHECK. */
static bool qnn_scalar(OpCall *c, size_t i, DType dtype, const char *what) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return false;
  if (t->ndims == 0 && dtype_eq(t->dtype, dtype)) return true;
  char b[16], *s = ty_str(t);
  op_fail(c, (int)i, "%s: argument %zu (%s) must be a scalar %s, got %s", c->op->name, i + 1, what, dt_name(dtype, b), s);
  free(s);
  return false;
}

/* The quantisation axis: negative counts from the end (0 for a scalar). */
static int64_t qnn_axis(int64_t axis, size_t rank) { return axis < 0 ? (rank > 0 ? (int64_t)rank + axis : 0) : axis; }

static bool dtype_in(DType d, const DType *set, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (dtype_eq(d, set[i])) return true;
  return false;
}

static const DType qnn_io_types[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_UINT, 16, 1}, {DT_INT, 32, 1}};

/* QuantizeRel (src/relay/qnn/op/quantize.cc): float32 in; scale (float32) and zero point (int32) are
   scalars or vectors along the axis; out_dtype is an integer type. */
static const Type *quantize_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  char b1[16];
  if (!is_dtype(data->dtype, DT_FLOAT, 32))
    return op_fail(c, 0, "%s: Input type should be one of float32 but was %s", c->op->name, dt_name(data->dtype, b1));
  size_t rank = data->ndims;
  int64_t axis = qnn_axis(op_int(c, "axis"), rank);
  const Type *scale = op_tensor_arg(c, 1), *zp = scale ? op_tensor_arg(c, 2) : NULL;
  if (!zp) return NULL;
  bool scalars = scale->ndims == 0 && zp->ndims == 0;
  /* Out of range fails TVM's check, or (with scalar parameters) its data->shape[axis]. */
  if ((rank > 0 || !scalars) && (axis < 0 || axis >= (int64_t)(rank > 0 ? rank : 1)))
    return op_fail(c, -1, "%s: axis %lld is out of range", c->op->name, (long long)op_int(c, "axis"));
  int64_t len = rank > 0 ? data->dims[axis] : 1;
  if (!qnn_assign(c, 1, dt_float32, len) || !qnn_assign(c, 2, dt_int32, len)) return NULL;
  DType out = op_dtype(c, "out_dtype");
  if (!dtype_in(out, qnn_io_types, NELEMS(qnn_io_types)))
    return op_fail(c, -1, "%s: Output type should be one of [int8, unit8, int16, uint16, int32] but was %s", c->op->name,
                   dt_name(out, b1));
  return ty_tensor(c->types, out, data->dims, rank);
}

/* DequantizeRel (src/relay/qnn/op/dequantize.cc, v0.13: no out_dtype, the result is float32):
   scale and zero point count as scalars also when they hold one element. */
static const Type *dequantize_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  char b1[16];
  if (!dtype_in(data->dtype, qnn_io_types, NELEMS(qnn_io_types)))
    return op_fail(c, 0, "%s: Input type should be one of the quantized types [int8, unit8, int16, uint16, int32] but was %s",
                   c->op->name, dt_name(data->dtype, b1));
  size_t rank = data->ndims;
  int64_t axis = qnn_axis(op_int(c, "axis"), rank);
  const Type *scale = op_tensor_arg(c, 1), *zp = scale ? op_tensor_arg(c, 2) : NULL;
  if (!zp) return NULL;
  bool scalars = (scale->ndims == 0 || ty_num_elements(scale) == 1) && (zp->ndims == 0 || ty_num_elements(zp) == 1);
  int64_t len = 1;
  if (!scalars) {
    if (axis < 0 || axis >= (int64_t)(rank > 0 ? rank : 1) || rank == 0)
      return op_fail(c, -1, "%s: axis %lld is out of range", c->op->name, (long long)op_int(c, "axis"));
    len = data->dims[axis];
  }
  if (!qnn_assign(c, 1, dt_float32, len) || !qnn_assign(c, 2, dt_int32, len)) return NULL;
  return ty_tensor(c->types, dt_float32, data->dims, rank);
}

/* RequantizeRel (src/relay/qnn/op/requantize.cc): the input scale and zero point follow the axis;
   the output ones are scalars. */
static const Type *requantize_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  char b1[16];
  static const DType in_types[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_INT, 32, 1}, {DT_INT, 64, 1}};
  static const DType out_types[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_INT, 32, 1}};
  if (!dtype_in(data->dtype, in_types, NELEMS(in_types)))
    return op_fail(c, 0, "%s: Input type should be one of [int8, uint8, int16, int32, int64] but was %s", c->op->name,
                   dt_name(data->dtype, b1));
  size_t rank = data->ndims;
  int64_t axis = qnn_axis(op_int(c, "axis"), rank);
  if (axis < 0 || axis >= (int64_t)(rank > 0 ? rank : 1))
    return op_fail(c, -1, "%s: axis %lld is out of range", c->op->name, (long long)op_int(c, "axis"));
  int64_t len = rank > 0 ? data->dims[axis] : 1;
  if (!qnn_assign(c, 1, dt_float32, len) || !qnn_assign(c, 2, dt_int32, len) ||
      !qnn_scalar(c, 3, dt_float32, "output_scale") || !qnn_scalar(c, 4, dt_int32, "output_zero_point"))
    return NULL;
  DType out = op_dtype(c, "out_dtype");
  if (!dtype_in(out, out_types, NELEMS(out_types)))
    return op_fail(c, -1, "%s: Output type should be one of [int8, uint8, int16, int32] but was %s", c->op->name,
                   dt_name(out, b1));
  return ty_tensor(c->types, out, data->dims, rank);
}

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
  if (!dtype_in(data->dtype, q_in, NELEMS(q_in)))
    return op_fail(c, 0, "%s: Expected qnn conv2d type(int8, uint8, int16) for input but was %s", name,
                   dt_name(data->dtype, b1));
  if (!dtype_in(weight->dtype, q_in, NELEMS(q_in)))
    return op_fail(c, 1, "%s: Expected qnn conv2d type(int8, uint8, int16) for weight but was %s", name,
                   dt_name(weight->dtype, b1));
  DType out = op_dtype(c, "out_dtype");
  if (!dtype_in(out, q_out, NELEMS(q_out)))
    return op_fail(c, -1, "%s: Expected qnn conv2d type(int16, int32, int64) for output but was %s", name, dt_name(out, b1));
  if (!qnn_scalar(c, 2, dt_int32, "input_zero_point") || !qnn_scalar(c, 4, dt_float32, "input_scale")) return NULL;

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
    int64_t ch = have_ch ? op_int(c, "channels") : ANY, groups = op_int(c, "groups");
    size_t oi = o ? (size_t)(o - kl) : 0, ii = i ? (size_t)(i - kl) : 0, di = (size_t)(d - dl);
    if (oi >= weight->ndims || ii >= weight->ndims || di >= data->ndims)
      return op_fail(c, -1, "%s: the layouts %s / %s do not fit the data and weight ranks", name, dl, kl);
    if (have_ch && groups == data->dims[di] && ch == weight->dims[ii]) /* depthwise */
      len = weight->dims[ii] == ANY || weight->dims[oi] == ANY ? ANY : weight->dims[ii] * weight->dims[oi];
    else
      len = ch; /* grouped */
  }
  if (!qnn_assign(c, 5, dt_float32, len)) return NULL;
  return conv_rel(c, &conv2d_kind);
}

/* ================================================================== generators */

/*
 * The RFC's generators (ops/ops.h): a recognizer (can the op produce type T?), a solver
 * (argument types and attributes that produce exactly T) and a sampler (a random result type the
 * recognizer accepts, then solved).
 *
 * The relations accept more than TVM's computes (topi) do, and a generated call should also
 * compile and run, so the generators stay inside what the computes accept: the plain layouts
 * (NCHW-like and channels-last, with the kernel layouts topi pairs with them), groups only where
 * topi has a grouped kernel, 2-D dense and matmul (the CPU strategies unpack data.shape as (M, K)),
 * padding no wider than the window, and so on.  Results have static shapes with positive
 * dimensions: a `?` cannot come out of a call with static arguments, and a zero extent would need
 * a degenerate window or an empty input, which the computes do not handle either.
 */

/* A static tensor of the op's dtype class, rank in [lo, hi], every dimension >= min_dim. */
bool gen_tensor_ok(const OpDef *op, const Type *t, unsigned lo, unsigned hi, int64_t min_dim) {
  if (t->kind != TY_TENSOR || t->ndims < lo || t->ndims > hi || !opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype))
    return false;
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] == ANY || t->dims[i] < min_dim) return false;
  return true;
}

/* Static tensors of one rank with positive dimensions.  For the convolutions, pools and resizes
   any such tensor is producible: the identity window (or scale) and one input channel give it. */
static bool rank3_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 3, 3, 1); }
bool rank4_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }
bool rank5_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 5, 5, 1); }

/* A random tensor of exactly `rank` dimensions within the policy's max_dim and max_elements.  Not
   opgen_tensor: that one stops at the policy's max_rank, and 3-D convolutions and pools need 5. */
const Type *rand_tensor(OpGen *g, DType dtype, size_t rank) {
  int64_t dims[8], elements = 1;
  if (rank > 8) rank = 8;
  for (size_t i = 0; i < rank; i++) {
    int64_t cap = g->policy->max_elements / elements;
    if (cap > g->policy->max_dim) cap = g->policy->max_dim;
    if (cap < 1) cap = 1;
    dims[i] = rng_range(g->rng, 1, cap);
    elements *= dims[i];
  }
  return ty_tensor(g->types, dtype, dims, rank);
}

/* Rejection sampling over random tensors of rank [lo, hi] (hi capped by the policy unless lo needs
   more), of dtype `fixed` or, when that is void, of the op's dtype class. */
bool sample_ranked(OpGen *g, const OpDef *op, OpPlan *out, unsigned lo, unsigned hi, DType fixed) {
  if (hi > g->policy->max_rank) hi = g->policy->max_rank > lo ? g->policy->max_rank : lo;
  for (int tries = 0; tries < 64; tries++) {
    DType dt = fixed.code == DT_VOID ? opgen_dtype(g, (OpDtypes)op->gen_dtypes) : fixed;
    const Type *t = rand_tensor(g, dt, (size_t)rng_range(g->rng, lo, hi));
    if (op->recognize(op, t) && op->solve(g, op, t, out)) return true;
  }
  return false;
}

/* Sets an attribute to any value (nested lists, lists of floats), which opgen_set_* do not cover. */
static void set_attr(const OpDef *op, OpPlan *plan, const char *name, AttrVal v) {
  for (size_t k = 0; k < op->nattrs; k++)
    if (!strcmp(op->attrs[k].name, name)) {
      plan->attrs[k] = v;
      return;
    }
  abort(); /* a generator names an attribute its own schema lacks: a bug in the table */
}

void set_dtype_attr(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, DType d) {
  char buf[16];
  opgen_set_str(g, op, plan, name, dtype_str(d, buf));
}

/* out_dtype: the relations fall back to the data's dtype for "", so naming that dtype explicitly
   gives the same result; sometimes do, so both spellings get generated. */
void maybe_out_dtype(OpGen *g, const OpDef *op, OpPlan *plan, DType d) {
  if (rng_chance(g->rng, 1, 4)) set_dtype_attr(g, op, plan, "out_dtype", d);
}

static const Type *vec_of(OpGen *g, DType d, int64_t n) { return ty_tensor(g->types, d, &n, 1); }

static const char *pick_str(OpGen *g, const char *const *v, size_t n) { return v[rng_index(g->rng, n)]; }

static double pick_float(OpGen *g, const double *v, size_t n) { return v[rng_index(g->rng, n)]; }

/* A random divisor of n that is at least lo, or 0 if there is none. */
int64_t pick_divisor(OpGen *g, int64_t n, int64_t lo) {
  int64_t found[64];
  size_t nf = 0;
  for (int64_t d = 1; d * d <= n && nf < 62; d++)
    if (n % d == 0) {
      if (d >= lo) found[nf++] = d;
      if (n / d != d && n / d >= lo) found[nf++] = n / d;
    }
  return nf ? found[rng_index(g->rng, nf)] : 0;
}

/* Reorders a shape between two plain layouts (no packed axes): dst in layout `to` from src in `from`. */
void permute(const char *from, const int64_t *src, const char *to, int64_t *dst) {
  for (size_t j = 0; to[j]; j++) dst[j] = src[strchr(from, to[j]) - from];
}

/* ------------------------------------------------------------------ sliding windows */

/* Window (one per spatial axis) and its enums are in nn_common.h. */

/* Chooses a window for each axis such that an input of extent w->in[i] gives output o[i] (inverting
   the relation's formula); false when the random choice needs an input of extent < 1 (the caller
   tries again).  `minimal` picks the identity window (kernel 1, stride 1, no padding), which always
   works.  `ceil_mode` is a pool's. */
bool window_solve(OpGen *g, int kind, size_t nd, const int64_t *o, bool minimal, bool ceil_mode, bool full_pad,
                         Window *w) {
  memset(w, 0, sizeof *w);
  w->nd = nd;
  w->pad_form = full_pad ? PAD_FULL : (int)rng_range(g->rng, PAD_ONE, PAD_FULL);
  int64_t bound[3], common = 2;
  for (size_t i = 0; i < nd; i++) {
    w->k[i] = minimal ? 1 : rng_range(g->rng, 1, 3);
    w->s[i] = minimal ? 1 : rng_range(g->rng, 1, 2);
    /* topi's transposed convolutions take no dilation */
    w->dil[i] = !minimal && kind != WIN_CONV_T && rng_chance(g->rng, 1, 4) ? 2 : 1;
    /* Padding stays inside the window: topi pads a transposed convolution's input by dk - 1 - pad
       (negative fails), and a pool window lying wholly in padding has nothing to reduce. */
    int64_t dk = (w->k[i] - 1) * w->dil[i] + 1;
    bound[i] = kind == WIN_POOL ? w->k[i] - 1 : dk - 1;
    if (bound[i] > 2) bound[i] = 2;
    if (minimal) bound[i] = 0;
    if (bound[i] < common) common = bound[i];
  }
  int64_t p = rng_range(g->rng, 0, common);
  for (size_t i = 0; i < nd; i++) {
    switch (w->pad_form) {
    case PAD_ONE: w->pb[i] = w->pa[i] = p; break;
    case PAD_PER_AXIS: w->pb[i] = w->pa[i] = rng_range(g->rng, 0, bound[i]); break;
    default:
      w->pb[i] = rng_range(g->rng, 0, bound[i]);
      w->pa[i] = rng_range(g->rng, 0, bound[i]);
    }
    int64_t dk = (w->k[i] - 1) * w->dil[i] + 1, pad = w->pb[i] + w->pa[i], s = w->s[i];
    if (kind == WIN_CONV_T) {
      /* o = s * (in - 1) + dk - pad + opad with 0 <= opad < s (topi wants the output padding
         smaller than the stride) */
      int64_t num = o[i] - dk + pad;
      if (num < 0) return false;
      w->opad[i] = num % s;
      w->in[i] = (num - w->opad[i]) / s + 1;
    } else {
      /* o = (in + pad - dk [+ s - 1 in ceil mode]) / s + 1: any remainder r in [0, s) */
      w->in[i] = (o[i] - 1) * s + rng_range(g->rng, 0, s - 1) + dk - pad - (ceil_mode ? s - 1 : 0);
      if (w->in[i] < 1) return false;
    }
  }
  return true;
}

/* strides, dilation and padding as the window chose them. */
void set_window(OpGen *g, const OpDef *op, OpPlan *out, const Window *w) {
  int64_t pad[6];
  size_t n = 0, nd = w->nd;
  opgen_set_ints(g, op, out, "strides", w->s, nd);
  opgen_set_ints(g, op, out, "dilation", w->dil, nd);
  if (w->pad_form == PAD_ONE) {
    pad[n++] = w->pb[0];
  } else {
    for (size_t i = 0; i < nd; i++) pad[n++] = w->pb[i];
    if (w->pad_form == PAD_FULL)
      for (size_t i = 0; i < nd; i++) pad[n++] = w->pa[i];
  }
  opgen_set_ints(g, op, out, "padding", pad, n);
}

int64_t prod(const int64_t *v, size_t n) {
  int64_t p = 1;
  for (size_t i = 0; i < n; i++) p *= v[i];
  return p;
}

/* An input derived from the result (a window's input is about stride x output + kernel) may be
   larger than the policy's max_elements, up to this; beyond it the solvers retry with a smaller
   window and finally the identity one. */
int64_t derived_budget(const OpGen *g) { return 2 * g->policy->max_elements; }

/* Chooses the extents dims[idx[0..nd)] freely: each in [1, max_dim], the tensor within max_elements
   as far as its other extents (given by the result) allow. */
static void free_extents(OpGen *g, int64_t *dims, size_t rank, const size_t *idx, size_t nd) {
  int64_t elements = 1;
  for (size_t i = 0; i < rank; i++) {
    bool chosen = false;
    for (size_t j = 0; j < nd; j++) chosen |= idx[j] == i;
    if (!chosen) elements *= dims[i];
  }
  for (size_t j = 0; j < nd; j++) {
    int64_t cap = g->policy->max_elements / (elements > 0 ? elements : 1);
    if (cap > g->policy->max_dim) cap = g->policy->max_dim;
    if (cap < 1) cap = 1;
    dims[idx[j]] = rng_range(g->rng, 1, cap);
    elements *= dims[idx[j]];
  }
}

/* ------------------------------------------------------------------ convolutions */

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
    permute(dlayout, t->dims, dcanon, oc);
  }
  const int64_t n = oc[0], cout = oc[1], budget = derived_budget(g);
  Window w;
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
       need both channels and kernel_size, below). */
    if (!minimal && nd == 2 && !cg->packed && !cg->qnn && li == 0 && cout > 1 && rng_chance(g->rng, 1, 3)) {
      int64_t d = pick_divisor(g, cout, 2);
      if (!cg->transposed && rng_chance(g->rng, 1, 2)) {
        groups = cin = cout; /* depthwise */
      } else {
        groups = d;
        cin = d * rng_range(g->rng, 1, 2);
      }
    }
    if (!window_solve(g, cg->transposed ? WIN_CONV_T : WIN_CONV, nd, oc + 2, minimal, false,
                      nd == 1 && !cg->transposed /* Conv1DRel adds padding[0] and padding[1] */, &w))
      continue;
    int64_t in_elems = n * cin * prod(w.in, nd), k_elems = cout * (cin / groups) * prod(w.k, nd);
    if (minimal || (in_elems <= budget && k_elems <= budget)) break;
  }

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
    permute(dcanon, dcan, dlayout, ddims);
    permute(kcanon, kcan, klayout, kdims);
  }

  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, ddt, ddims, cg->packed ? 5 : rank);
  out->args[1] = ty_tensor(g->types, wdt, kdims, cg->packed ? 6 : rank);
  out->nargs = 2;
  set_window(g, op, out, &w);
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
    set_dtype_attr(g, op, out, "out_dtype", t->dtype);
    /* input zero point, kernel zero point and input scale are scalars; the kernel scale is a scalar
       or one per output channel */
    out->args[2] = ty_scalar(g->types, dt_int32);
    out->args[3] = ty_scalar(g->types, dt_int32);
    out->args[4] = ty_scalar(g->types, dt_float32);
    out->args[5] = rng_chance(g->rng, 1, 2) ? ty_scalar(g->types, dt_float32) : vec_of(g, dt_float32, cout);
    out->nargs = 6;
  } else {
    maybe_out_dtype(g, op, out, t->dtype);
  }
  out->result = t;
  return true;
}

/* qnn.conv2d: generated with out_dtype int32, the accumulator type QNN's lowering expects. */
static bool qnn_conv2d_recognize(const OpDef *op, const Type *t) {
  return gen_tensor_ok(op, t, 4, 4, 1) && dtype_eq(t->dtype, dt_int32);
}

#define CONV_GENERATORS(name, gen, rank)                                                            \
  static bool name##_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {                \
    return conv_solve(g, op, t, out, &gen);                                                        \
  }                                                                                                \
  static bool name##_sample(OpGen *g, const OpDef *op, OpPlan *out) {                              \
    return sample_ranked(g, op, out, rank, rank, (gen).qnn ? dt_int32 : dt_void);                  \
  }
CONV_GENERATORS(conv1d, conv1d_gen, 3)
CONV_GENERATORS(conv2d, conv2d_gen, 4)
CONV_GENERATORS(conv3d, conv3d_gen, 5)
CONV_GENERATORS(conv1d_transpose, conv1d_transpose_gen, 3)
CONV_GENERATORS(conv2d_transpose, conv2d_transpose_gen, 4)
CONV_GENERATORS(conv2d_nchwc, conv2d_nchwc_gen, 5)
CONV_GENERATORS(qnn_conv2d, qnn_conv2d_gen, 4)

/* ------------------------------------------------------------------ dense, matmul, batch_matmul */

/* Rank 2 only: MatmulRel accepts any rank >= 1 for the data, but the CPU strategies (dense_nopack,
   dense_pack) unpack data.shape as (M, K). */
static bool matrix_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 2, 2, 1); }

/* dense: (M, K) x (N, K) -> (M, N); units, when given, is N. */
static bool dense_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!matrix_recognize(op, t)) return false;
  int64_t m = t->dims[0], n = t->dims[1], k = rng_range(g->rng, 1, g->policy->max_dim);
  int64_t a[2] = {m, k}, b[2] = {n, k};
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, a, 2);
  out->args[1] = ty_tensor(g->types, t->dtype, b, 2);
  out->nargs = 2;
  if (rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "units", n);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

/* matmul: either side possibly transposed. */
static bool matmul_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!matrix_recognize(op, t)) return false;
  int64_t m = t->dims[0], n = t->dims[1], k = rng_range(g->rng, 1, g->policy->max_dim);
  bool ta = rng_chance(g->rng, 1, 2), tb = rng_chance(g->rng, 1, 2);
  int64_t a[2] = {ta ? k : m, ta ? m : k}, b[2] = {tb ? n : k, tb ? k : n};
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, a, 2);
  out->args[1] = ty_tensor(g->types, t->dtype, b, 2);
  out->nargs = 2;
  opgen_set_bool(g, op, out, "transpose_a", ta);
  opgen_set_bool(g, op, out, "transpose_b", tb);
  if (rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "units", n);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool matrix_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 2, 2, dt_void); }

static bool batch_matmul_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 3, 3, 1); }

/* (B, I, K) x (B, K, J) -> (B, I, J), either side possibly transposed, one batch possibly 1
   (broadcast, which topi's batch_matmul supports). */
static bool batch_matmul_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!batch_matmul_recognize(op, t)) return false;
  int64_t b = t->dims[0], i = t->dims[1], j = t->dims[2], k = rng_range(g->rng, 1, g->policy->max_dim);
  int64_t xb = b, yb = b;
  if (b > 1 && rng_chance(g->rng, 1, 4)) *(rng_chance(g->rng, 1, 2) ? &xb : &yb) = 1;
  bool ta = rng_chance(g->rng, 1, 2), tb = rng_chance(g->rng, 1, 2);
  int64_t x[3] = {xb, ta ? k : i, ta ? i : k}, y[3] = {yb, tb ? j : k, tb ? k : j};
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, x, 3);
  out->args[1] = ty_tensor(g->types, t->dtype, y, 3);
  out->nargs = 2;
  opgen_set_bool(g, op, out, "transpose_a", ta);
  opgen_set_bool(g, op, out, "transpose_b", tb);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool batch_matmul_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 3, 3, dt_void);
}

/* ------------------------------------------------------------------ pooling */

/* The layouts the pools are generated in: canonical and channels-last, data rank = layout length
   (the relations only need the pooled axes, but topi indexes the whole layout). */
static const char *const pool_layouts[4][2] = {{"", ""}, {"NCW", "NWC"}, {"NCHW", "NHWC"}, {"NCDHW", "NDHWC"}};

/* Where the pooled axes (W / HW / DHW) sit in a layout. */
static void pooled_axes(const char *layout, size_t nd, size_t *idx) {
  for (size_t i = 0; i < nd; i++) idx[i] = (size_t)(strchr(layout, pool_axes[nd][i]) - layout);
}

static bool pool_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t nd, bool avg) {
  if (!op->recognize(op, t) || t->ndims != nd + 2) return false;
  const char *layout = pool_layouts[nd][rng_index(g->rng, 2)];
  size_t idx[3];
  pooled_axes(layout, nd, idx);
  int64_t o[3], dims[5];
  for (size_t i = 0; i < nd; i++) o[i] = t->dims[idx[i]];
  bool ceil_mode = rng_chance(g->rng, 1, 4);
  Window w;
  int64_t rest = prod(t->dims, t->ndims) / prod(o, nd);
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    if (!window_solve(g, WIN_POOL, nd, o, minimal, ceil_mode, false, &w)) continue;
    if (minimal || rest * prod(w.in, nd) <= derived_budget(g)) break;
  }
  memcpy(dims, t->dims, t->ndims * sizeof *dims);
  for (size_t i = 0; i < nd; i++) dims[idx[i]] = w.in[i];
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, t->ndims);
  out->nargs = 1;
  opgen_set_ints(g, op, out, "pool_size", w.k, nd);
  set_window(g, op, out, &w);
  opgen_set_str(g, op, out, "layout", layout);
  opgen_set_bool(g, op, out, "ceil_mode", ceil_mode);
  if (avg) opgen_set_bool(g, op, out, "count_include_pad", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

#define POOL_GENERATORS(name, nd, avg)                                                              \
  static bool name##_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {                \
    return pool_solve(g, op, t, out, nd, avg);                                                     \
  }                                                                                                \
  static bool name##_sample(OpGen *g, const OpDef *op, OpPlan *out) {                              \
    return sample_ranked(g, op, out, nd + 2, nd + 2, dt_void);                                     \
  }
POOL_GENERATORS(max_pool1d, 1, false)
POOL_GENERATORS(max_pool2d, 2, false)
POOL_GENERATORS(max_pool3d, 3, false)
POOL_GENERATORS(avg_pool1d, 1, true)
POOL_GENERATORS(avg_pool2d, 2, true)
POOL_GENERATORS(avg_pool3d, 3, true)

/* Global pools: rank 4 with H = W = 1 in NCHW or in NHWC. */
static bool global_fits(const Type *t, const char *layout) {
  size_t idx[2];
  pooled_axes(layout, 2, idx);
  return t->dims[idx[0]] == 1 && t->dims[idx[1]] == 1;
}

static bool global_pool_recognize(const OpDef *op, const Type *t) {
  return gen_tensor_ok(op, t, 4, 4, 1) && (global_fits(t, "NCHW") || global_fits(t, "NHWC"));
}

static bool global_pool_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!global_pool_recognize(op, t)) return false;
  bool nchw = global_fits(t, "NCHW"), nhwc = global_fits(t, "NHWC");
  const char *layout = nchw && (!nhwc || rng_chance(g->rng, 1, 2)) ? "NCHW" : "NHWC";
  size_t idx[2];
  pooled_axes(layout, 2, idx);
  int64_t dims[4];
  memcpy(dims, t->dims, sizeof dims);
  free_extents(g, dims, 4, idx, 2);
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, 4);
  out->nargs = 1;
  opgen_set_str(g, op, out, "layout", layout);
  out->result = t;
  return true;
}

/* Random tensors rarely have two 1s in the right places: draw one, then pool it. */
static bool global_pool_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *t = rand_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 4);
  int64_t dims[4];
  memcpy(dims, t->dims, sizeof dims);
  size_t idx[2];
  pooled_axes(rng_chance(g->rng, 1, 2) ? "NCHW" : "NHWC", 2, idx);
  dims[idx[0]] = dims[idx[1]] = 1;
  return global_pool_solve(g, op, ty_tensor(g->types, t->dtype, dims, 4), out);
}

/* Adaptive pools: the pooled axes become output_size, whatever the input's extents. */
static bool adaptive_pool_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t nd) {
  if (!op->recognize(op, t) || t->ndims != nd + 2) return false;
  const char *layout = pool_layouts[nd][rng_index(g->rng, 2)];
  size_t idx[3];
  pooled_axes(layout, nd, idx);
  int64_t dims[5], os[3];
  memcpy(dims, t->dims, t->ndims * sizeof *dims);
  bool all_equal = true;
  for (size_t i = 0; i < nd; i++) {
    os[i] = t->dims[idx[i]];
    all_equal &= os[i] == os[0];
  }
  opgen_plan_init(g, op, out);
  /* An empty output_size keeps the input's extents. */
  if (!rng_chance(g->rng, 1, 5)) {
    free_extents(g, dims, t->ndims, idx, nd);
    /* one value stands for all axes */
    opgen_set_ints(g, op, out, "output_size", os, all_equal && rng_chance(g->rng, 1, 2) ? 1 : nd);
  }
  out->args[0] = ty_tensor(g->types, t->dtype, dims, t->ndims);
  out->nargs = 1;
  opgen_set_str(g, op, out, "layout", layout);
  out->result = t;
  return true;
}

#define ADAPTIVE_GENERATORS(name, nd)                                                               \
  static bool name##_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {                \
    return adaptive_pool_solve(g, op, t, out, nd);                                                 \
  }                                                                                                \
  static bool name##_sample(OpGen *g, const OpDef *op, OpPlan *out) {                              \
    return sample_ranked(g, op, out, nd + 2, nd + 2, dt_void);                                     \
  }
ADAPTIVE_GENERATORS(adaptive_pool1d, 1)
ADAPTIVE_GENERATORS(adaptive_pool2d, 2)
ADAPTIVE_GENERATORS(adaptive_pool3d, 3)

/* ------------------------------------------------------------------ normalisation and friends */

static const double epsilons[] = {1e-5, 1e-3};

static void norm_flags(OpGen *g, const OpDef *op, OpPlan *out) {
  opgen_set_float(g, op, out, "epsilon", pick_float(g, epsilons, NELEMS(epsilons)));
  opgen_set_bool(g, op, out, "center", rng_chance(g->rng, 3, 4));
  opgen_set_bool(g, op, out, "scale", rng_chance(g->rng, 3, 4));
}

/* An axis in [0, rank), spelled as is or counting from the end. */
static int64_t spell_axis(OpGen *g, size_t a, size_t rank) {
  return rng_chance(g->rng, 1, 2) ? (int64_t)a : (int64_t)a - (int64_t)rank;
}

/* batch_norm: (data, mean, var), the vectors as long as one of the data's axes. */
static bool batch_norm_axis_ok(const Type *t, size_t a) { return t->args[0]->dims[a] == t->args[1]->dims[0]; }

static bool batch_norm_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TUPLE || t->nargs != 3 || t->args[1] != t->args[2]) return false;
  const Type *data = t->args[0], *v = t->args[1];
  if (!gen_tensor_ok(op, data, 1, 16, 1) || v->kind != TY_TENSOR || v->ndims != 1 || !dtype_eq(v->dtype, data->dtype))
    return false;
  for (size_t a = 0; a < data->ndims; a++)
    if (batch_norm_axis_ok(t, a)) return true;
  return false;
}

static bool batch_norm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!batch_norm_recognize(op, t)) return false;
  const Type *data = t->args[0], *v = t->args[1];
  size_t axes[16], n = 0;
  for (size_t a = 0; a < data->ndims; a++)
    if (batch_norm_axis_ok(t, a)) axes[n++] = a;
  size_t a = axes[rng_index(g->rng, n)];
  opgen_plan_init(g, op, out);
  out->args[0] = data;
  for (size_t i = 1; i <= 4; i++) out->args[i] = v; /* gamma, beta, moving_mean, moving_var */
  out->nargs = 5;
  /* BatchNormRel takes -1 but no other negative axis. */
  opgen_set_int(g, op, out, "axis", a + 1 == data->ndims && rng_chance(g->rng, 1, 2) ? -1 : (int64_t)a);
  norm_flags(g, op, out);
  out->result = t;
  return true;
}

static bool batch_norm_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *data = rand_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), (size_t)rng_range(g->rng, 1, g->policy->max_rank));
  const Type *v = vec_of(g, data->dtype, data->dims[rng_index(g->rng, data->ndims)]);
  const Type *fields[3] = {data, v, v};
  return batch_norm_solve(g, op, ty_tuple(g->types, fields, 3), out);
}

/* layer_norm / group_norm / instance_norm: gamma and beta along the axis, the data's type out. */
static bool norm_solve_axis(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t a, int64_t spelled) {
  const Type *v = vec_of(g, t->dtype, t->dims[a]);
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  out->args[1] = out->args[2] = v;
  out->nargs = 3;
  opgen_set_int(g, op, out, "axis", spelled);
  norm_flags(g, op, out);
  out->result = t;
  return true;
}

static bool layer_norm_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 1, 16, 1); }
static bool layer_norm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!layer_norm_recognize(op, t)) return false;
  size_t a = rng_index(g->rng, t->ndims);
  return norm_solve_axis(g, op, t, out, a, spell_axis(g, a, t->ndims));
}

/* group_norm: the channel axis is 1 (NC...) or the last (N...C); num_groups divides it, as
   GroupNormToInferUnpack reshapes C into (num_groups, C / num_groups). */
static bool group_norm_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 2, 16, 1); }
static bool group_norm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!group_norm_recognize(op, t)) return false;
  bool last = rng_chance(g->rng, 1, 3);
  size_t a = last ? t->ndims - 1 : 1;
  norm_solve_axis(g, op, t, out, a, last ? -1 : 1);
  opgen_set_int(g, op, out, "num_groups", pick_divisor(g, t->dims[a], 1));
  return true;
}

/* instance_norm: rank > 2 (InstanceNormRel); the channel axis 1 or the last. */
static bool instance_norm_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 3, 16, 1); }
static bool instance_norm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!instance_norm_recognize(op, t)) return false;
  bool last = rng_chance(g->rng, 1, 3);
  return norm_solve_axis(g, op, t, out, last ? t->ndims - 1 : 1, last ? -1 : 1);
}

/* softmax / log_softmax: any axis of a tensor of rank >= 1. */
static bool rank1_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 1, 16, 1); }
static bool softmax_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!rank1_recognize(op, t)) return false;
  opgen_unary_solve(g, op, t, out);
  opgen_set_int(g, op, out, "axis", spell_axis(g, rng_index(g->rng, t->ndims), t->ndims));
  return true;
}

/* bias_add and prelu: a vector along one axis of the data.  PReluRel does not normalise a negative
   axis, so prelu's is always spelled from the front. */
static bool vector_along_axis_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, bool negative_ok) {
  if (!rank1_recognize(op, t)) return false;
  size_t a = rng_index(g->rng, t->ndims);
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  out->args[1] = vec_of(g, t->dtype, t->dims[a]);
  out->nargs = 2;
  opgen_set_int(g, op, out, "axis", negative_ok ? spell_axis(g, a, t->ndims) : (int64_t)a);
  out->result = t;
  return true;
}
static bool bias_add_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return vector_along_axis_solve(g, op, t, out, true);
}
static bool prelu_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return vector_along_axis_solve(g, op, t, out, false);
}

/* l2_normalize: eps, and a non-empty set of axes (IdentityRel does not look at them; topi sums
   over them, so they must exist). */
static bool l2_normalize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!rank1_recognize(op, t)) return false;
  static const double eps[] = {1e-12, 1e-10, 1e-5};
  int64_t axes[16];
  size_t n = 0;
  for (size_t a = 0; a < t->ndims && a < 16; a++)
    if (rng_chance(g->rng, 1, 2)) axes[n++] = (int64_t)a;
  if (!n) axes[n++] = (int64_t)rng_index(g->rng, t->ndims);
  opgen_unary_solve(g, op, t, out);
  opgen_set_float(g, op, out, "eps", pick_float(g, eps, NELEMS(eps)));
  opgen_set_ints(g, op, out, "axis", axes, n);
  return true;
}

static bool rank1_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 1, g->policy->max_rank, dt_void);
}
static bool rank2_plus_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 2, g->policy->max_rank, dt_void);
}
static bool rank3_plus_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 3, g->policy->max_rank, dt_void);
}

/* lrn: topi's lrn is 4-D only, over axis 1 (NCHW) or 3 (NHWC), with an odd window. */
static bool lrn_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!rank4_recognize(op, t)) return false;
  static const double bias[] = {1, 2}, alpha[] = {1e-4, 1e-3}, beta[] = {0.5, 0.75};
  opgen_unary_solve(g, op, t, out);
  opgen_set_int(g, op, out, "size", 2 * rng_range(g->rng, 0, 2) + 1);
  opgen_set_int(g, op, out, "axis", rng_chance(g->rng, 1, 2) ? 1 : 3);
  opgen_set_float(g, op, out, "bias", pick_float(g, bias, 2));
  opgen_set_float(g, op, out, "alpha", pick_float(g, alpha, 2));
  opgen_set_float(g, op, out, "beta", pick_float(g, beta, 2));
  return true;
}
static bool rank4_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 4, 4, dt_void); }
static bool rank5_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 5, 5, dt_void); }

/* dropout: (output, mask), both of the data's type. */
static bool dropout_recognize(const OpDef *op, const Type *t) {
  return t->kind == TY_TUPLE && t->nargs == 2 && t->args[0] == t->args[1] &&
         gen_tensor_ok(op, t->args[0], 0, 16, 0);
}
static bool dropout_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!dropout_recognize(op, t)) return false;
  static const double rates[] = {0.1, 0.25, 0.5, 0.75};
  opgen_plan_init(g, op, out);
  out->args[0] = t->args[0];
  out->nargs = 1;
  opgen_set_float(g, op, out, "rate", pick_float(g, rates, NELEMS(rates)));
  out->result = t;
  return true;
}
static bool dropout_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *d = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 0, g->policy->max_rank);
  const Type *fields[2] = {d, d};
  return dropout_solve(g, op, ty_tuple(g->types, fields, 2), out);
}

/* batch_flatten: (d0, d1 * d2 * ...); the data splits the second extent into factors. */
static bool batch_flatten_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 2, 2, 0); }
static bool batch_flatten_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!batch_flatten_recognize(op, t)) return false;
  int64_t dims[4] = {t->dims[0]}, rest = t->dims[1];
  size_t rank = (size_t)rng_range(g->rng, 1, 4);
  if (rank == 1 && rest != 1) rank = 2; /* rank 1 flattens to (d0, 1) */
  if (rest == 0) rank = 2;              /* no factors of 0 to spread */
  for (size_t i = 1; i + 1 < rank; i++) {
    dims[i] = pick_divisor(g, rest, 1);
    rest /= dims[i];
  }
  if (rank > 1) dims[rank - 1] = rest;
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, rank);
  out->nargs = 1;
  out->result = t;
  return true;
}
static bool batch_flatten_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 2, 2, dt_void);
}

/* pad: each extent grows by its (before, after) pair; the pad value is a scalar of the data's
   dtype.  Non-negative widths only (topi's pad takes no negative ones); "reflect" needs widths
   below the extent, "edge" and "reflect" a non-empty extent. */
static bool pad_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 0, 16, 0); }
static bool pad_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!pad_recognize(op, t)) return false;
  static const char *const modes[] = {"constant", "constant", "edge", "reflect"};
  const char *mode = pick_str(g, modes, NELEMS(modes));
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] == 0) mode = "constant";
  bool reflect = !strcmp(mode, "reflect");
  int64_t dims[16];
  AttrVal *pairs = arena_alloc(g->arena, (t->ndims ? t->ndims : 1) * sizeof *pairs);
  for (size_t i = 0; i < t->ndims; i++) {
    int64_t b = rng_range(g->rng, 0, 2), a = rng_range(g->rng, 0, 2);
    /* shrink the widths until the data's extent is valid for the mode */
    while (b + a > 0 && (t->dims[i] - b - a < 1 || (reflect && (b >= t->dims[i] - b - a || a >= t->dims[i] - b - a)))) {
      if (b >= a) b--;
      else a--;
    }
    dims[i] = t->dims[i] - b - a;
    AttrVal *pair = arena_alloc(g->arena, 2 * sizeof *pair);
    pair[0] = (AttrVal){.kind = ATTR_INT, .i = b, .f = (double)b};
    pair[1] = (AttrVal){.kind = ATTR_INT, .i = a, .f = (double)a};
    pairs[i] = (AttrVal){.kind = ATTR_LIST, .items = pair, .n = 2};
  }
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, t->ndims);
  out->args[1] = ty_scalar(g->types, t->dtype);
  out->nargs = 2;
  set_attr(op, out, "pad_width", (AttrVal){.kind = ATTR_LIST, .items = pairs, .n = t->ndims});
  opgen_set_str(g, op, out, "pad_mode", mode);
  out->result = t;
  return true;
}

/* ------------------------------------------------------------------ resizing */

/* upsampling / upsampling3d: each scaled extent is round(in * scale) in float64, so a scale works
   when some input extent rounds to the wanted one; 1 always does (and is taken when `one`). */
static double pick_scale(OpGen *g, int64_t o, int64_t *in, bool one) {
  static const double scales[] = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0};
  double s = scales[rng_index(g->rng, NELEMS(scales))];
  int64_t found[8];
  size_t n = 0;
  for (int64_t i = 1; i <= 2 * o + 2 && n < 8 && !one; i++)
    if (round_half_even((double)i * s) == o) found[n++] = i;
  if (!n) {
    *in = o;
    return 1.0;
  }
  *in = found[rng_index(g->rng, n)];
  return s;
}

static bool upsampling_solve_nd(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t nd) {
  if (!op->recognize(op, t) || t->ndims != nd + 2) return false;
  static const char *const scale_names[3] = {"scale_d", "scale_h", "scale_w"};
  const char *layout = pool_layouts[nd][rng_index(g->rng, 2)];
  size_t idx[3];
  pooled_axes(layout, nd, idx);
  int64_t dims[5];
  double scale[3];
  memcpy(dims, t->dims, t->ndims * sizeof *dims);
  /* scales below 1 need larger inputs: keep them within the budget, else scale 1 */
  for (int attempt = 0;; attempt++) {
    for (size_t i = 0; i < nd; i++) scale[i] = pick_scale(g, t->dims[idx[i]], &dims[idx[i]], attempt >= 7);
    if (attempt >= 7 || prod(dims, t->ndims) <= derived_budget(g)) break;
  }
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, t->ndims);
  out->nargs = 1;
  for (size_t i = 0; i < nd; i++) opgen_set_float(g, op, out, scale_names[3 - nd + i], scale[i]);
  opgen_set_str(g, op, out, "layout", layout);
  if (nd == 2) {
    static const char *const methods[] = {"nearest_neighbor", "bilinear", "bicubic"};
    opgen_set_str(g, op, out, "method", pick_str(g, methods, NELEMS(methods)));
    opgen_set_bool(g, op, out, "align_corners", rng_chance(g->rng, 1, 2));
  } else {
    static const char *const methods[] = {"nearest_neighbor", "trilinear"};
    static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric"};
    opgen_set_str(g, op, out, "method", pick_str(g, methods, NELEMS(methods)));
    opgen_set_str(g, op, out, "coordinate_transformation_mode", pick_str(g, modes, NELEMS(modes)));
  }
  out->result = t;
  return true;
}

static bool upsampling_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return upsampling_solve_nd(g, op, t, out, 2);
}
static bool upsampling3d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return upsampling_solve_nd(g, op, t, out, 3);
}

/* image.resize2d: size is the result's H and W, the input's are free; roi is four floats. */
static bool resize2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!rank4_recognize(op, t)) return false;
  static const char *const methods[] = {"nearest_neighbor", "linear", "cubic"};
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric"};
  static const char *const roundings[] = {"round", "floor", "ceil"};
  const char *layout = pool_layouts[2][rng_index(g->rng, 2)];
  size_t idx[2];
  pooled_axes(layout, 2, idx);
  int64_t dims[4], size[2] = {t->dims[idx[0]], t->dims[idx[1]]};
  memcpy(dims, t->dims, sizeof dims);
  free_extents(g, dims, 4, idx, 2);
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, 4);
  out->nargs = 1;
  opgen_set_ints(g, op, out, "size", size, 2);
  AttrVal *roi = arena_alloc(g->arena, 4 * sizeof *roi);
  for (size_t i = 0; i < 4; i++) roi[i] = (AttrVal){.kind = ATTR_FLOAT, .f = 0.0};
  set_attr(op, out, "roi", (AttrVal){.kind = ATTR_LIST, .items = roi, .n = 4});
  opgen_set_str(g, op, out, "layout", layout);
  const char *method = pick_str(g, methods, NELEMS(methods));
  opgen_set_str(g, op, out, "method", method);
  opgen_set_str(g, op, out, "coordinate_transformation_mode", pick_str(g, modes, NELEMS(modes)));
  if (!strcmp(method, "nearest_neighbor")) /* rounding only matters there */
    opgen_set_str(g, op, out, "rounding_method", pick_str(g, roundings, NELEMS(roundings)));
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

/* ------------------------------------------------------------------ QNN */

static const DType gen_q8[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}};
static const DType gen_q8_32[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 32, 1}};

static bool static_in(const Type *t, const DType *set, size_t n) {
  if (t->kind != TY_TENSOR || !dtype_in(t->dtype, set, n)) return false;
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] == ANY) return false;
  return true;
}

/* A scale (float32) and zero point (int32): scalars, or vectors along a random axis of `data`.
   Sets the axis attribute (in range whenever the data has a dimension: the relations check it). */
static void qnn_params(OpGen *g, const OpDef *op, OpPlan *out, const Type *data, size_t at) {
  size_t rank = data->ndims;
  bool per_axis = rank > 0 && rng_chance(g->rng, 1, 2);
  size_t a = rank > 0 ? rng_index(g->rng, rank) : 0;
  if (rank > 0) opgen_set_int(g, op, out, "axis", spell_axis(g, a, rank));
  out->args[at] = per_axis ? vec_of(g, dt_float32, data->dims[a]) : ty_scalar(g->types, dt_float32);
  out->args[at + 1] = per_axis ? vec_of(g, dt_int32, data->dims[a]) : ty_scalar(g->types, dt_int32);
}

/* quantize: float32 in, int8 / uint8 out (what QNN's lowering clips to). */
static bool quantize_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return static_in(t, gen_q8, NELEMS(gen_q8));
}
static bool quantize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!quantize_recognize(op, t)) return false;
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, dt_float32);
  qnn_params(g, op, out, out->args[0], 1);
  out->nargs = 3;
  set_dtype_attr(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}
static bool quantize_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return quantize_solve(g, op, opgen_tensor(g, gen_q8[rng_index(g->rng, 2)], 0, g->policy->max_rank), out);
}

/* dequantize: int8 / uint8 / int32 in, float32 out. */
static bool dequantize_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return static_in(t, &dt_float32, 1);
}
static bool dequantize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!dequantize_recognize(op, t)) return false;
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, gen_q8_32[rng_index(g->rng, NELEMS(gen_q8_32))]);
  qnn_params(g, op, out, out->args[0], 1);
  out->nargs = 3;
  out->result = t;
  return true;
}
static bool dequantize_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return dequantize_solve(g, op, opgen_tensor(g, dt_float32, 0, g->policy->max_rank), out);
}

/* requantize: int8 / uint8 / int32 in and out; input parameters along the axis, output ones scalar. */
static bool requantize_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return static_in(t, gen_q8_32, NELEMS(gen_q8_32));
}
static bool requantize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!requantize_recognize(op, t)) return false;
  static const char *const roundings[] = {"None", "UPWARD", "TONEAREST"};
  static const char *const compute[] = {"None", "int64", "float32", "float64"};
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, gen_q8_32[rng_index(g->rng, NELEMS(gen_q8_32))]);
  qnn_params(g, op, out, out->args[0], 1);
  out->args[3] = ty_scalar(g->types, dt_float32);
  out->args[4] = ty_scalar(g->types, dt_int32);
  out->nargs = 5;
  opgen_set_str(g, op, out, "rounding", pick_str(g, roundings, NELEMS(roundings)));
  opgen_set_str(g, op, out, "compute_dtype", pick_str(g, compute, NELEMS(compute)));
  set_dtype_attr(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}
static bool requantize_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  DType d = gen_q8_32[rng_index(g->rng, NELEMS(gen_q8_32))];
  return requantize_solve(g, op, opgen_tensor(g, d, 0, g->policy->max_rank), out);
}

/* ================================================================== the entries */

/* Conv1DAttrs, Conv2DAttrs, Conv3DAttrs: CONV_ATTRS in nn_common.h. */
static const OpAttrSpec conv1d_attrs[] = {CONV_ATTRS("[1]", "[0, 0]", "[1]", "\"NCW\"", "\"OIW\"")};
static const OpAttrSpec conv2d_attrs[] = {CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\"")};
static const OpAttrSpec conv3d_attrs[] = {CONV_ATTRS("[1, 1, 1]", "[0, 0, 0]", "[1, 1, 1]", "\"NCDHW\"", "\"OIDHW\"")};

/* Conv1DTransposeAttrs, Conv2DTransposeAttrs: channels and kernel_size first, output_padding before
   padding. */
#define CONV_T_ATTRS(strides, outpad, padding, dilation, data_layout, kernel_layout)                                     \
  {"channels", AT_INT, "None"}, {"kernel_size", AT_INTS, "None"}, {"strides", AT_INTS, strides},                       \
      {"output_padding", AT_INTS, outpad}, {"padding", AT_INTS, padding}, {"dilation", AT_INTS, dilation},             \
      {"groups", AT_INT, "1"}, {"data_layout", AT_STR, data_layout}, {"kernel_layout", AT_STR, kernel_layout},        \
      {"out_layout", AT_STR, "\"\""}, {"out_dtype", AT_DTYPE, "\"\""}
static const OpAttrSpec conv1d_transpose_attrs[] = {CONV_T_ATTRS("[1]", "[0]", "[0]", "[1]", "\"NCW\"", "\"IOW\"")};
static const OpAttrSpec conv2d_transpose_attrs[] = {
    CONV_T_ATTRS("[1, 1]", "[0, 0]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"IOHW\"")};

/* DenseAttrs, MatmulAttrs, BatchMatmulAttrs: units has no default (the printer always writes it,
   units=None included).  BatchMatmulAttrs's transpose_b defaults to False in C++; only the Python
   wrapper passes True, which is why TVM prints transpose_b=True. */
static const OpAttrSpec dense_attrs[] = {{"units", AT_INT, "None"}, {"out_dtype", AT_DTYPE, "\"\""}};
static const OpAttrSpec matmul_attrs[] = {{"units", AT_INT, "None"},
                                          {"out_dtype", AT_DTYPE, "\"\""},
                                          {"transpose_a", AT_BOOL, "False"},
                                          {"transpose_b", AT_BOOL, "False"}};
static const OpAttrSpec batch_matmul_attrs[] = {
    {"out_dtype", AT_DTYPE, "\"\""}, {"transpose_a", AT_BOOL, "False"}, {"transpose_b", AT_BOOL, "False"}};

/* MaxPool*Attrs / AvgPool*Attrs: POOL_ATTRS in nn_common.h. */
static const OpAttrSpec max_pool1d_attrs[] = {POOL_ATTRS("[1]", "[0]", "\"NCW\"")};
static const OpAttrSpec max_pool2d_attrs[] = {POOL_ATTRS("[1, 1]", "[0, 0]", "\"NCHW\"")};
static const OpAttrSpec max_pool3d_attrs[] = {POOL_ATTRS("[1, 1, 1]", "[0, 0, 0]", "\"NCDHW\"")};
static const OpAttrSpec avg_pool1d_attrs[] = {POOL_ATTRS("[1]", "[0]", "\"NCW\""), {"count_include_pad", AT_BOOL, "False"}};
static const OpAttrSpec avg_pool2d_attrs[] = {POOL_ATTRS("[1, 1]", "[0, 0]", "\"NCHW\""),
                                              {"count_include_pad", AT_BOOL, "False"}};
static const OpAttrSpec avg_pool3d_attrs[] = {POOL_ATTRS("[1, 1, 1]", "[0, 0, 0]", "\"NCDHW\""),
                                              {"count_include_pad", AT_BOOL, "False"}};
static const OpAttrSpec global_pool2d_attrs[] = {{"layout", AT_STR, "\"NCHW\""}, {"out_layout", AT_STR, "\"\""}};
static const OpAttrSpec adaptive_pool1d_attrs[] = {
    {"output_size", AT_INTS, "[]"}, {"layout", AT_STR, "\"NCW\""}, {"out_layout", AT_STR, "\"\""}};
static const OpAttrSpec adaptive_pool2d_attrs[] = {
    {"output_size", AT_INTS, "[]"}, {"layout", AT_STR, "\"NCHW\""}, {"out_layout", AT_STR, "\"\""}};
static const OpAttrSpec adaptive_pool3d_attrs[] = {
    {"output_size", AT_INTS, "[]"}, {"layout", AT_STR, "\"NCDHW\""}, {"out_layout", AT_STR, "\"\""}};

/* BatchNormAttrs, InstanceNormAttrs, LayerNormAttrs (axis -1), GroupNormAttrs. */
#define NORM_ATTRS(axis) \
  {"axis", AT_INT, axis}, {"epsilon", AT_FLOAT, "1e-05f"}, {"center", AT_BOOL, "True"}, {"scale", AT_BOOL, "True"}
static const OpAttrSpec batch_norm_attrs[] = {NORM_ATTRS("1")};
static const OpAttrSpec instance_norm_attrs[] = {NORM_ATTRS("1")};
static const OpAttrSpec layer_norm_attrs[] = {NORM_ATTRS("-1")};
static const OpAttrSpec group_norm_attrs[] = {{"num_groups", AT_INT, "0"}, NORM_ATTRS("1")};

static const OpAttrSpec softmax_attrs[] = {{"axis", AT_INT, "-1"}};
static const OpAttrSpec bias_add_attrs[] = {{"axis", AT_INT, "1"}};
static const OpAttrSpec prelu_attrs[] = {{"axis", AT_INT, "1"}};
static const OpAttrSpec pad_attrs[] = {{"pad_width", AT_ANY, "None"}, {"pad_mode", AT_STR, "\"constant\""}};
static const OpAttrSpec dropout_attrs[] = {{"rate", AT_FLOAT, "0.5f"}};
static const OpAttrSpec lrn_attrs[] = {{"size", AT_INT, "5"},
                                       {"axis", AT_INT, "1"},
                                       {"bias", AT_FLOAT, "2f"},
                                       {"alpha", AT_FLOAT, "0.0001f"},
                                       {"beta", AT_FLOAT, "0.75f"}};
static const OpAttrSpec l2_normalize_attrs[] = {{"eps", AT_FLOAT, "None"}, {"axis", AT_INTS, "None"}};
static const OpAttrSpec upsampling_attrs[] = {{"scale_h", AT_FLOAT, "None"},
                                              {"scale_w", AT_FLOAT, "None"},
                                              {"layout", AT_STR, "\"NCHW\""},
                                              {"method", AT_STR, "\"nearest_neighbor\""},
                                              {"align_corners", AT_BOOL, "False"}};
static const OpAttrSpec upsampling3d_attrs[] = {{"scale_d", AT_FLOAT, "None"},
                                                {"scale_h", AT_FLOAT, "None"},
                                                {"scale_w", AT_FLOAT, "None"},
                                                {"layout", AT_STR, "\"NCDHW\""},
                                                {"method", AT_STR, "\"nearest_neighbor\""},
                                                {"coordinate_transformation_mode", AT_STR, "\"half_pixel\""}};
/* Resize2DAttrs (attrs/image.h); roi holds floats, hence AT_ANY. */
static const OpAttrSpec resize2d_attrs[] = {{"size", AT_INTS, "None"},
                                            {"roi", AT_ANY, "None"},
                                            {"layout", AT_STR, "\"NCHW\""},
                                            {"method", AT_STR, "\"linear\""},
                                            {"coordinate_transformation_mode", AT_STR, "\"half_pixel\""},
                                            {"rounding_method", AT_STR, "\"round\""},
                                            {"cubic_alpha", AT_FLOAT, "-0.5f"},
                                            {"cubic_exclude", AT_INT, "0"},
                                            {"extrapolation_value", AT_FLOAT, "0f"},
                                            {"out_dtype", AT_DTYPE, "\"\""}};

/* QConv2DAttrs (qnn/attrs.h): Conv2DAttrs plus the Hexagon requantisation fields axis and
   rq_out_dtype. */
static const OpAttrSpec qnn_conv2d_attrs[] = {CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\""),
                                              {"axis", AT_INT, "-1"},
                                              {"rq_out_dtype", AT_DTYPE, "\"\""}};
/* QuantizeAttrs: out_dtype has no default.  DequantizeAttrs (v0.13): only axis.  RequantizeAttrs:
   rounding and compute_dtype default to the string "None" (chosen from RequantizeConfig later). */
static const OpAttrSpec quantize_attrs[] = {{"out_dtype", AT_DTYPE, "None"}, {"axis", AT_INT, "-1"}};
static const OpAttrSpec dequantize_attrs[] = {{"axis", AT_INT, "-1"}};
static const OpAttrSpec requantize_attrs[] = {{"axis", AT_INT, "-1"},
                                              {"rounding", AT_STR, "\"None\""},
                                              {"compute_dtype", AT_STR, "\"None\""},
                                              {"out_dtype", AT_DTYPE, "\"\""}};

/* Entries: the relation part, then the generators (dtype class, recognizer, solver, sampler). */
#define GEN(cls, rec, sol, sam) .gen_dtypes = (cls), .recognize = (rec), .solve = (sol), .sample = (sam)
#define OP(n, nargs, a, rel, ...) \
  {.name = (n), .min_args = (nargs), .max_args = (nargs), .attrs = (a), .nattrs = NELEMS(a), .relation = (rel), __VA_ARGS__}
/* Most generators come in name_solve / name_sample pairs. */
#define PAIR(cls, rec, name) GEN(cls, rec, name##_solve, name##_sample)

const OpDef op_family_nn[] = {
    /* convolution.cc */
    OP("nn.conv1d", 2, conv1d_attrs, conv1d_rel, PAIR(OPDT_FLOAT, rank3_recognize, conv1d)),
    OP("nn.conv2d", 2, conv2d_attrs, conv2d_rel, PAIR(OPDT_FLOAT, rank4_recognize, conv2d)),
    /* Conv2D on packed layouts (NCHW4c data, OIHW4i4o kernel): TVM registers Conv2DWinogradRel for
       it (ops/nn_conv.c), which needs channels and kernel_size and does not check the weight. */
    OP("nn.contrib_conv2d_NCHWc", 2, conv2d_attrs, conv2d_nchwc_rel, PAIR(OPDT_FLOAT, rank5_recognize, conv2d_nchwc)),
    OP("nn.conv3d", 2, conv3d_attrs, conv3d_rel, PAIR(OPDT_FLOAT, rank5_recognize, conv3d)),
    OP("nn.conv1d_transpose", 2, conv1d_transpose_attrs, conv1d_transpose_rel,
       PAIR(OPDT_FLOAT, rank3_recognize, conv1d_transpose)),
    OP("nn.conv2d_transpose", 2, conv2d_transpose_attrs, conv2d_transpose_rel,
       PAIR(OPDT_FLOAT, rank4_recognize, conv2d_transpose)),
    /* nn.cc */
    OP("nn.dense", 2, dense_attrs, dense_rel, GEN(OPDT_FLOAT, matrix_recognize, dense_solve, matrix_sample)),
    OP("nn.matmul", 2, matmul_attrs, matmul_rel, GEN(OPDT_FLOAT, matrix_recognize, matmul_solve, matrix_sample)),
    OP("nn.batch_matmul", 2, batch_matmul_attrs, batch_matmul_rel, PAIR(OPDT_FLOAT, batch_matmul_recognize, batch_matmul)),
    /* pooling.cc */
    OP("nn.max_pool1d", 1, max_pool1d_attrs, pool1d_rel, PAIR(OPDT_FLOAT, rank3_recognize, max_pool1d)),
    OP("nn.max_pool2d", 1, max_pool2d_attrs, pool2d_rel, PAIR(OPDT_FLOAT, rank4_recognize, max_pool2d)),
    OP("nn.max_pool3d", 1, max_pool3d_attrs, pool3d_rel, PAIR(OPDT_FLOAT, rank5_recognize, max_pool3d)),
    OP("nn.avg_pool1d", 1, avg_pool1d_attrs, pool1d_rel, PAIR(OPDT_FLOAT, rank3_recognize, avg_pool1d)),
    OP("nn.avg_pool2d", 1, avg_pool2d_attrs, pool2d_rel, PAIR(OPDT_FLOAT, rank4_recognize, avg_pool2d)),
    OP("nn.avg_pool3d", 1, avg_pool3d_attrs, pool3d_rel, PAIR(OPDT_FLOAT, rank5_recognize, avg_pool3d)),
    OP("nn.global_avg_pool2d", 1, global_pool2d_attrs, global_pool2d_rel,
       PAIR(OPDT_FLOAT, global_pool_recognize, global_pool)),
    OP("nn.global_max_pool2d", 1, global_pool2d_attrs, global_pool2d_rel,
       PAIR(OPDT_FLOAT, global_pool_recognize, global_pool)),
    OP("nn.adaptive_avg_pool1d", 1, adaptive_pool1d_attrs, adaptive_pool1d_rel,
       PAIR(OPDT_FLOAT, rank3_recognize, adaptive_pool1d)),
    OP("nn.adaptive_avg_pool2d", 1, adaptive_pool2d_attrs, adaptive_pool2d_rel,
       PAIR(OPDT_FLOAT, rank4_recognize, adaptive_pool2d)),
    OP("nn.adaptive_avg_pool3d", 1, adaptive_pool3d_attrs, adaptive_pool3d_rel,
       PAIR(OPDT_FLOAT, rank5_recognize, adaptive_pool3d)),
    OP("nn.adaptive_max_pool1d", 1, adaptive_pool1d_attrs, adaptive_pool1d_rel,
       PAIR(OPDT_FLOAT, rank3_recognize, adaptive_pool1d)),
    OP("nn.adaptive_max_pool2d", 1, adaptive_pool2d_attrs, adaptive_pool2d_rel,
       PAIR(OPDT_FLOAT, rank4_recognize, adaptive_pool2d)),
    OP("nn.adaptive_max_pool3d", 1, adaptive_pool3d_attrs, adaptive_pool3d_rel,
       PAIR(OPDT_FLOAT, rank5_recognize, adaptive_pool3d)),
    /* nn.cc: normalisation and friends */
    OP("nn.batch_norm", 5, batch_norm_attrs, batch_norm_rel, PAIR(OPDT_FLOAT, batch_norm_recognize, batch_norm)),
    OP("nn.layer_norm", 3, layer_norm_attrs, norm_rel,
       GEN(OPDT_FLOAT, layer_norm_recognize, layer_norm_solve, rank1_sample)),
    OP("nn.group_norm", 3, group_norm_attrs, norm_rel,
       GEN(OPDT_FLOAT, group_norm_recognize, group_norm_solve, rank2_plus_sample)),
    OP("nn.instance_norm", 3, instance_norm_attrs, instance_norm_rel,
       GEN(OPDT_FLOAT, instance_norm_recognize, instance_norm_solve, rank3_plus_sample)),
    OP("nn.softmax", 1, softmax_attrs, softmax_rel, GEN(OPDT_FLOAT, rank1_recognize, softmax_solve, rank1_sample)),
    OP("nn.log_softmax", 1, softmax_attrs, softmax_rel, GEN(OPDT_FLOAT, rank1_recognize, softmax_solve, rank1_sample)),
    OP("nn.bias_add", 2, bias_add_attrs, bias_add_rel, GEN(OPDT_FLOAT, rank1_recognize, bias_add_solve, rank1_sample)),
    OP("nn.prelu", 2, prelu_attrs, prelu_rel, GEN(OPDT_FLOAT, rank1_recognize, prelu_solve, rank1_sample)),
    OP("nn.dropout", 1, dropout_attrs, dropout_rel, PAIR(OPDT_FLOAT, dropout_recognize, dropout)),
    OP("nn.lrn", 1, lrn_attrs, identity_rel, GEN(OPDT_FLOAT, rank4_recognize, lrn_solve, rank4_sample)),
    OP("nn.l2_normalize", 1, l2_normalize_attrs, l2_normalize_rel,
       GEN(OPDT_FLOAT, rank1_recognize, l2_normalize_solve, rank1_sample)),
    /* a reshape: any dtype */
    {.name = "nn.batch_flatten", .min_args = 1, .max_args = 1, .relation = batch_flatten_rel,
     PAIR(OPDT_ANY, batch_flatten_recognize, batch_flatten)},
    /* pad.cc, upsampling.cc, image/resize.cc */
    OP("nn.pad", 2, pad_attrs, pad_rel, GEN(OPDT_NUMERIC, pad_recognize, pad_solve, opgen_sample_by_solving)),
    OP("nn.upsampling", 1, upsampling_attrs, upsampling_rel,
       GEN(OPDT_FLOAT, rank4_recognize, upsampling_solve, rank4_sample)),
    OP("nn.upsampling3d", 1, upsampling3d_attrs, upsampling3d_rel,
       GEN(OPDT_FLOAT, rank5_recognize, upsampling3d_solve, rank5_sample)),
    OP("image.resize2d", 1, resize2d_attrs, resize2d_rel, GEN(OPDT_FLOAT, rank4_recognize, resize2d_solve, rank4_sample)),
    /* src/relay/qnn/op */
    OP("qnn.conv2d", 6, qnn_conv2d_attrs, qnn_conv2d_rel, PAIR(OPDT_INT, qnn_conv2d_recognize, qnn_conv2d)),
    OP("qnn.quantize", 3, quantize_attrs, quantize_rel, PAIR(OPDT_INT, quantize_recognize, quantize)),
    OP("qnn.dequantize", 3, dequantize_attrs, dequantize_rel, PAIR(OPDT_FLOAT, dequantize_recognize, dequantize)),
    OP("qnn.requantize", 5, requantize_attrs, requantize_rel, PAIR(OPDT_INT, requantize_recognize, requantize)),
};
const size_t op_family_nn_len = NELEMS(op_family_nn);
