/*
 * The Arm Ethos-U operators: contrib.ethosu.binary_elementwise, conv2d, depthwise_conv2d, identity,
 * pooling and unary_elementwise.  TVM registers them in every build (they are not behind a CMake
 * option).  Facts from TVM v0.13 src/relay/op/contrib/ethosu/{binary_elementwise.cc, convolution.cc,
 * depthwise.cc, identity.cc, pooling.cc, unary_elementwise.cc, common.cc (the output-shape
 * helpers and the Check* diagnostics), op_attrs.h (the attribute structs)} and
 * src/relay/op/op_common.h (GetPaddingHeightWidth).
 *
 * Layouts are NHWC or NHCWB16 (N, H, C / 16, W, 16: channels in bricks of 16).  The messages are
 * TVM's diagnostics, which name the op as ethosu_conv2d etc.
 *
 * Where TVM would crash (a required attribute missing, a shape too short to index, a `?` where TVM
 * needs a constant, a stride of 0) the call is rejected with a message; a negative output
 * dimension is rejected too.  A `?` input dimension gives a `?` output dimension.
 *
 * Not generated: these ops are created by the Ethos-U partitioning and legalization passes for
 * the NPU, with constant weights and lookup tables; a generated call would be of no use outside
 * that flow.
 *
 * TVM v0.13.0 only: v0.19.0 removed the Ethos-U backend and these ops with it (every row says
 * OP_TVM_ONLY(TVM_0_13)).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(ethosu);

/* ================================================================== helpers the blocks below share */

static const DType dt_i8 = {DT_INT, 8, 1}, dt_u8 = {DT_UINT, 8, 1}, dt_i16 = {DT_INT, 16, 1}, dt_i32 = {DT_INT, 32, 1};

/* CheckDataType: d must be one of `set` (listed in TVM's order). */
static bool check_dtype(OpCall *c, DType d, const DType *set, size_t n, const char *op, const char *op_tensor_arg, const char *type) {
  for (size_t i = 0; i < n; i++)
    if (dtype_eq(d, set[i])) return true;
  char list[128] = "", b[16];
  size_t len = 0;
  for (size_t i = 0; i < n; i++) len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", dtype_str(set[i], b));
  char got[16];
  op_fail(c, -1, "Invalid operator: expected %s %s%sto have type in {%s} for %s but was %s.", op, type, *type ? " " : "", list,
          op_tensor_arg, d.code == DT_VOID ? "void" : dtype_str(d, got));
  return false;
}

/* CheckDataTypeMatch. */
static bool check_match(OpCall *c, DType a, DType b, const char *op, const char *ta, const char *tb, const char *type) {
  if (dtype_eq(a, b)) return true;
  char s1[16], s2[16];
  op_fail(c, -1, "Invalid operator: expected %s %s%sdata types for %s and %s to match, but was %s and %s", op, type,
          *type ? " " : "", ta, tb, dtype_str(a, s1), dtype_str(b, s2));
  return false;
}

/* CheckUpscaleMethod. */
static bool check_upscale(OpCall *c, const char *op) {
  const char *u = op_str(c, "upscale");
  if (!strcmp(u, "NONE") || !strcmp(u, "ZEROS") || !strcmp(u, "NEAREST")) return true;
  op_fail(c, -1, "Invalid operator: expected %s to have upscale method in {NONE, ZEROS, NEAREST} but was %s.", op, u);
  return false;
}

/* A dtype held in a String attribute (ofm_dtype). */
static bool str_dtype(OpCall *c, const char *name, DType *out) {
  if (!kit_required(c, name)) return false;
  if (dtype_parse(op_str(c, name), out)) return true;
  op_fail(c, -1, "%s: %s \"%s\" is not a data type", c->op->name, name, op_str(c, name));
  return false;
}

/* ================================================================== shapes (common.cc) */

static bool is_brick(const char *layout) { return !strcmp(layout, "NHCWB16"); }

/* The channel bricks of an NHCWB16 result: 1 + (channels - 1) / 16 (a constant in TVM). */
static bool bricks(OpCall *c, int64_t ch, int64_t *out) {
  if (ch == KIT_ANY) {
    op_fail(c, -1, "%s: the channel count must be a constant for an NHCWB16 layout", c->op->name);
    return false;
  }
  *out = 1 + (int64_t)(((KitWide)ch - 1) / 16); /* fits: |ch - 1| / 16 < 2^60 */
  return true;
}

/* The IFM as (N, H, W[, C]): NHCWB16 drops its brick axes. */
static bool ifm_nhw(OpCall *c, const Type *ifm, const char *layout, int64_t *s) {
  bool brick = is_brick(layout);
  if (ifm->ndims < (brick ? 4u : 3u)) {
    op_fail(c, 0, "%s: IndexError: the input feature map has rank %u, too small for layout %s", c->op->name, ifm->ndims, layout);
    return false;
  }
  s[0] = ifm->dims[0];
  s[1] = ifm->dims[1];
  s[2] = ifm->dims[brick ? 3 : 2];
  return true;
}

/* (N, H, W, C) or, for an NHCWB16 result, (N, H, bricks, W, 16). */
static const Type *ofm_type(OpCall *c, const char *ofm_layout, const int64_t *nhw, int64_t ch, DType dtype) {
  if (!kit_nonneg_as(c, "ofm_channels", &ch, 1)) return NULL; /* a type cannot hold it; -1 would read as `?` */
  if (!is_brick(ofm_layout)) {
    int64_t o[4] = {nhw[0], nhw[1], nhw[2], ch};
    return ty_tensor(c->types, dtype, o, 4);
  }
  int64_t b;
  if (!bricks(c, ch, &b)) return NULL;
  int64_t o[5] = {nhw[0], nhw[1], b, nhw[2], 16};
  return ty_tensor(c->types, dtype, o, 5);
}

/* EthosuInferElementwiseOutputShape. */
static const Type *elementwise_out(OpCall *c, const Type *ifm, const char *channels, DType dtype) {
  int64_t s[3];
  if (!kit_required(c, channels) || !ifm_nhw(c, ifm, op_str(c, "ifm_layout"), s)) return NULL;
  return ofm_type(c, op_str(c, "ofm_layout"), s, op_int(c, channels), dtype);
}

/* Reads a two-value list attribute (kernel_shape, strides, dilation, pool_shape). */
static bool pair(OpCall *c, const char *name, int64_t *v) {
  if (!kit_required(c, name)) return false;
  int64_t tmp[8];
  size_t n = op_ints(c, name, tmp, 8);
  if (n < 2) {
    op_fail(c, -1, "%s: IndexError: attribute '%s' needs 2 values, got %zu", c->op->name, name, n);
    return false;
  }
  if (tmp[0] == KIT_ANY || tmp[1] == KIT_ANY) {
    op_fail(c, -1, "%s: attribute '%s' must hold constant integers", c->op->name, name);
    return false;
  }
  v[0] = tmp[0];
  v[1] = tmp[1];
  return true;
}

/* EthosuInferUpscaledInput (when upscale is not NONE): H and W doubled; an NHCWB16 IFM is first
   read as (N, H, W, C = bricks * 16), and the result put back in bricks. */
static bool upscaled(OpCall *c, const Type *ifm, const char *layout, int64_t *dims, size_t *n) {
  if (ifm->ndims < 4) {
    op_fail(c, 0, "%s: IndexError: the input feature map has rank %u, too small to upscale", c->op->name, ifm->ndims);
    return false;
  }
  bool brick = is_brick(layout);
  int64_t s[4] = {ifm->dims[0], ifm->dims[1], ifm->dims[brick ? 3 : 2], ifm->dims[3]};
  int64_t u[4] = {s[0], 0, 0, 0};
  if ((brick && !kit_dim_mul(c, ifm->dims[2], 16, &s[3])) || !kit_dim_mul(c, s[1], 2, &u[1]) ||
      !kit_dim_mul(c, s[2], 2, &u[2]))
    return false;
  u[3] = s[3];
  if (!brick) {
    memcpy(dims, u, sizeof u);
    *n = 4;
    return true;
  }
  int64_t b;
  if (!bricks(c, u[3], &b)) return false;
  int64_t o[5] = {u[0], u[1], b, u[2], 16};
  memcpy(dims, o, sizeof o);
  *n = 5;
  return true;
}

/* EthosuInferKernelOutput: (N, H', W', ofm_channels), H' = (H + pad_h - dilated kernel) / stride + 1. */
static const Type *kernel_out(OpCall *c, const int64_t *ifm_dims, size_t rank, const char *kernel, bool dilated,
                              DType dtype) {
  int64_t k[2], st[2], dil[2] = {1, 1}, p[8], s[3];
  Type view = {.kind = TY_TENSOR, .ndims = (uint32_t)rank, .dims = ifm_dims};
  if (!ifm_nhw(c, &view, op_str(c, "ifm_layout"), s) || !pair(c, kernel, k) || !pair(c, "strides", st) ||
      (dilated && !pair(c, "dilation", dil)) || !kit_required(c, "ofm_channels"))
    return NULL;
  size_t np = op_ints(c, "padding", p, 8);
  KitWide pad[2];
  if (np == 1) pad[0] = pad[1] = 2 * (KitWide)p[0];
  else if (np == 2) pad[0] = 2 * (KitWide)p[0], pad[1] = 2 * (KitWide)p[1];
  else if (np == 4) pad[0] = (KitWide)p[0] + p[2], pad[1] = (KitWide)p[1] + p[3];
  else return op_fail(c, -1, "%s:  Padding size should be 1, 2 or 4, but got %zu", c->op->name, np);
  for (size_t i = 0; i < np && i < 8; i++)
    if (p[i] == KIT_ANY) return op_fail(c, -1, "%s: attribute 'padding' must hold constant integers", c->op->name);
  int64_t o[3] = {s[0], 0, 0};
  for (int i = 0; i < 2; i++) {
    if (st[i] <= 0) return op_fail(c, -1, "%s: attribute 'strides' must hold positive integers", c->op->name);
    int64_t in = s[1 + i];
    if (in == KIT_ANY) {
      o[1 + i] = KIT_ANY;
      continue;
    }
    int64_t num;
    if (!kit_fit(c, in + pad[i] - (1 + ((KitWide)k[i] - 1) * dil[i]), &num)) return NULL;
    o[1 + i] = kit_floordiv(num, st[i]) + 1;
    if (o[1 + i] < 0)
      return op_fail(c, -1, "%s: the output %s would be negative (%lld)", c->op->name, i ? "width" : "height",
                     (long long)o[1 + i]);
  }
  return ofm_type(c, op_str(c, "ofm_layout"), o, op_int(c, "ofm_channels"), dtype);
}

/* ================================================================== entries (op_attrs.h) */

/* The quantisation parameters and IndexExpr channel counts have no default. */
#define QPARAMS(...) {"ifm_scale", AT_FLOAT, "None"}, {"ifm_zero_point", AT_INT, "None"}, __VA_ARGS__ \
  {"ofm_scale", AT_FLOAT, "None"}, {"ofm_zero_point", AT_INT, "None"}

#define ACT_CLIP_ROUND \
  {"activation", AT_STR, "\"NONE\""}, {"clip_min", AT_INT, "0"}, {"clip_max", AT_INT, "0"}, {"rounding_mode", AT_STR, "\"TFL\""}

#define WINDOW(kernel) \
  {kernel, AT_INTS, "None"}, {"ofm_channels", AT_INT, "None"}, {"strides", AT_INTS, "[1, 1]"}, {"padding", AT_INTS, "[0, 0, 0, 0]"}

#define LAYOUTS {"ifm_layout", AT_STR, "\"NHWC\""}, {"ofm_layout", AT_STR, "\"NHWC\""}

/* ------------------------------------------------------------------ contrib.ethosu.binary_elementwise */

/* EthosuBinaryElementwiseRel: (ifm, ifm2, lut); the result's channels are ifm_channels. */
static const Type *binary_rel(OpCall *c) {
  const Type *ifm = op_tensor_arg(c, 0), *ifm2 = ifm ? op_tensor_arg(c, 1) : NULL;
  if (!ifm2 || !kit_required(c, "operator_type")) return NULL;
  const char *op = "ethosu_binary_elementwise", *type = op_str(c, "operator_type");
  DType ofm;
  if (!str_dtype(c, "ofm_dtype", &ofm) || !check_match(c, ifm->dtype, ifm2->dtype, op, "ifm", "ifm2", type)) return NULL;
  bool ok;
  if (!strcmp(type, "ADD") || !strcmp(type, "SUB") || !strcmp(type, "MUL")) {
    const DType set[] = {dt_i8, dt_u8, dt_i16, dt_i32};
    ok = check_dtype(c, ifm->dtype, set, 4, op, "ifm", type) && check_dtype(c, ofm, set, 4, op, "ofm", type);
  } else if (!strcmp(type, "MIN") || !strcmp(type, "MAX")) {
    const DType set[] = {dt_i8, dt_u8};
    ok = check_dtype(c, ifm->dtype, set, 2, op, "ifm", type) && check_match(c, ifm->dtype, ofm, op, "ifm", "ofm", type);
  } else if (!strcmp(type, "SHR")) {
    const DType out[] = {dt_u8, dt_i8, dt_i32};
    ok = check_dtype(c, ifm->dtype, &dt_i32, 1, op, "ifm", type) && check_dtype(c, ofm, out, 3, op, "ofm", type);
  } else if (!strcmp(type, "SHL")) {
    ok = check_dtype(c, ifm->dtype, &dt_i32, 1, op, "ifm", type) && check_dtype(c, ofm, &dt_i32, 1, op, "ofm", type);
  } else {
    return op_fail(c, -1,
                   "Invalid operator: expected %s 'ADD' or 'SUB' or 'MUL' or 'MIN' or 'MAX' or 'SHR' or 'SHL' for "
                   "operator_type but was %s",
                   op, type);
  }
  return ok ? elementwise_out(c, ifm, "ifm_channels", ofm) : NULL;
}

static const OpAttrSpec binary_attrs[] = {
    {"operator_type", AT_STR, "None"},
    QPARAMS({"ifm2_scale", AT_FLOAT, "None"}, {"ifm2_zero_point", AT_INT, "None"},),
    {"ifm_channels", AT_INT, "None"},
    {"ifm2_channels", AT_INT, "None"},
    {"reversed_operands", AT_BOOL, "False"},
    ACT_CLIP_ROUND,
    {"ifm_layout", AT_STR, "\"NHWC\""},
    {"ifm2_layout", AT_STR, "\"NHWC\""},
    {"ofm_layout", AT_STR, "\"NHWC\""},
    {"ofm_dtype", AT_STR, "None"},
    {"use_rescale", AT_BOOL, "False"},
    {"rescale_scale", AT_INT, "0"},
    {"rescale_shift", AT_INT, "0"}};

static const OpDef binary_elementwise_ops[] = {
    KIT_OP("contrib.ethosu.binary_elementwise", 3, binary_attrs, binary_rel, OP_TVM_ONLY(TVM_0_13)),
};
OP_REGISTER(binary_elementwise_ops);

/* ------------------------------------------------------------------ contrib.ethosu.conv2d */

/* EthosuConv2DRel: (ifm, weight, scale_bias, lut); weight (ofm_channels, kh, kw, C), scale_bias
   (weight[0], 10) uint8; the result has the IFM's dtype. */
static const Type *conv2d_rel(OpCall *c) {
  const Type *ifm = op_tensor_arg(c, 0), *w = ifm ? op_tensor_arg(c, 1) : NULL, *sb = w ? op_tensor_arg(c, 2) : NULL;
  if (!sb) return NULL;
  const char *op = "ethosu_conv2d";
  const DType q[] = {dt_u8, dt_i8};
  if (!check_dtype(c, ifm->dtype, q, 2, op, "ifm", "") || !check_dtype(c, w->dtype, q, 2, op, "weight", "") ||
      !check_dtype(c, sb->dtype, &dt_u8, 1, op, "scale bias", "") || !check_upscale(c, op))
    return NULL;
  if (w->ndims < 4) return op_fail(c, 1, "%s: IndexError: the weight has rank %u, not 4", c->op->name, w->ndims);
  int64_t sbd[2] = {w->dims[0], 10}, k[2];
  if (!kit_assign_as(c, 2, dt_u8, sbd, 2, KIT_ASSIGN_UNCHECKED | KIT_ASSIGN_BRIEF) || !kit_required(c, "ofm_channels") || !pair(c, "kernel_shape", k)) return NULL;
  int64_t wd[4] = {op_int(c, "ofm_channels"), k[0], k[1], w->dims[3]};
  if (!kit_assign_as(c, 1, w->dtype, wd, 4, KIT_ASSIGN_UNCHECKED | KIT_ASSIGN_BRIEF)) return NULL;
  int64_t dims[5];
  size_t n = ifm->ndims;
  if (strcmp(op_str(c, "upscale"), "NONE") != 0) {
    if (!upscaled(c, ifm, op_str(c, "ifm_layout"), dims, &n)) return NULL;
  } else {
    if (n > 5) n = 5; /* ifm_nhw reads at most dimension 3 */
    memcpy(dims, ifm->dims, n * sizeof *dims);
  }
  return kernel_out(c, dims, n, "kernel_shape", true, ifm->dtype);
}

static const OpAttrSpec conv2d_attrs[] = {QPARAMS({"weight_zero_point", AT_INT, "None"},), WINDOW("kernel_shape"),
                                          {"dilation", AT_INTS, "[1, 1]"}, ACT_CLIP_ROUND,
                                          {"upscale", AT_STR, "\"NONE\""}, LAYOUTS};

static const OpDef conv2d_ops[] = {
    KIT_OP("contrib.ethosu.conv2d", 4, conv2d_attrs, conv2d_rel, OP_TVM_ONLY(TVM_0_13)),
};
OP_REGISTER(conv2d_ops);

/* ------------------------------------------------------------------ contrib.ethosu.depthwise_conv2d */

/* EthosuDepthwiseConv2DRel: as conv2d, without upscaling or a scale_bias shape; the result has
   ofm_dtype. */
static const Type *depthwise_rel(OpCall *c) {
  const Type *ifm = op_tensor_arg(c, 0), *w = ifm ? op_tensor_arg(c, 1) : NULL, *sb = w ? op_tensor_arg(c, 2) : NULL;
  if (!sb) return NULL;
  const char *op = "ethosu_depthwise_conv2d";
  const DType q[] = {dt_u8, dt_i8}, out[] = {dt_u8, dt_i8, dt_i16, dt_i32};
  DType ofm;
  if (!check_dtype(c, ifm->dtype, q, 2, op, "ifm", "") || !check_dtype(c, w->dtype, q, 2, op, "weight", "") ||
      !check_dtype(c, sb->dtype, &dt_u8, 1, op, "scale bias", "") || !str_dtype(c, "ofm_dtype", &ofm) ||
      !check_dtype(c, ofm, out, 4, op, "ofm", ""))
    return NULL;
  if (w->ndims < 4) return op_fail(c, 1, "%s: IndexError: the weight has rank %u, not 4", c->op->name, w->ndims);
  int64_t k[2];
  if (!kit_required(c, "ofm_channels") || !pair(c, "kernel_shape", k)) return NULL;
  int64_t wd[4] = {op_int(c, "ofm_channels"), k[0], k[1], w->dims[3]};
  if (!kit_assign_as(c, 1, w->dtype, wd, 4, KIT_ASSIGN_UNCHECKED | KIT_ASSIGN_BRIEF)) return NULL;
  return kernel_out(c, ifm->dims, ifm->ndims, "kernel_shape", true, ofm);
}

static const OpAttrSpec depthwise_attrs[] = {QPARAMS({"weight_zero_point", AT_INT, "None"},), WINDOW("kernel_shape"),
                                             {"dilation", AT_INTS, "[1, 1]"}, ACT_CLIP_ROUND,
                                             {"upscale", AT_STR, "\"NONE\""}, LAYOUTS,
                                             {"ofm_dtype", AT_STR, "\"int8\""}};

static const OpDef depthwise_conv2d_ops[] = {
    KIT_OP("contrib.ethosu.depthwise_conv2d", 4, depthwise_attrs, depthwise_rel, OP_TVM_ONLY(TVM_0_13)),
};
OP_REGISTER(depthwise_conv2d_ops);

/* ------------------------------------------------------------------ contrib.ethosu.identity */

/* EthosuIdentityRel: (ifm, lut); int8/uint8 of rank <= 4, unchanged. */
static const Type *identity_rel(OpCall *c) {
  const Type *ifm = op_tensor_arg(c, 0);
  const DType q[] = {dt_u8, dt_i8};
  if (!ifm || !check_dtype(c, ifm->dtype, q, 2, "ethosu_identity", "ifm", "")) return NULL;
  if (ifm->ndims > 4) {
    char buf[160];
    return op_fail(c, 0, "Invalid operator: Input Feature Map should be at most 4 dimensional, but was %s",
                   kit_dims_str(ifm->dims, ifm->ndims, buf, sizeof buf));
  }
  return ifm;
}

static const OpAttrSpec identity_attrs[] = {QPARAMS(), {"activation", AT_STR, "\"NONE\""}};

static const OpDef identity_ops[] = {
    KIT_OP("contrib.ethosu.identity", 2, identity_attrs, identity_rel, OP_TVM_ONLY(TVM_0_13)),
};
OP_REGISTER(identity_ops);

/* ------------------------------------------------------------------ contrib.ethosu.pooling */

/* EthosuPoolingRel: (ifm, lut); AVG / MAX keep the dtype, SUM gives int32; the window is
   pool_shape with dilation 1. */
static const Type *pooling_rel(OpCall *c) {
  const Type *ifm = op_tensor_arg(c, 0);
  if (!ifm || !kit_required(c, "pooling_type")) return NULL;
  const char *op = "ethosu_pooling", *type = op_str(c, "pooling_type");
  bool sum = !strcmp(type, "SUM");
  if (!sum && strcmp(type, "AVG") != 0 && strcmp(type, "MAX") != 0)
    return op_fail(c, -1, "Invalid operator: expected %s type 'AVG', 'MAX', or 'SUM' but was %s", op, type);
  const DType in[] = {dt_u8, dt_i8, dt_i16, dt_i32}, out[] = {dt_i8, dt_u8, dt_i16};
  DType ofm;
  if (!check_dtype(c, ifm->dtype, in, sum ? 4 : 3, op, "ifm", type) || !str_dtype(c, "ofm_dtype", &ofm)) return NULL;
  if (sum ? !check_dtype(c, ofm, &dt_i32, 1, op, "ofm", type)
          : !check_dtype(c, ofm, out, 3, op, "ofm", type) || !check_match(c, ofm, ifm->dtype, op, "ifm", "ofm", type))
    return NULL;
  if (!check_upscale(c, op)) return NULL;
  int64_t dims[5];
  size_t n = ifm->ndims;
  if (strcmp(op_str(c, "upscale"), "NONE") != 0) {
    if (!upscaled(c, ifm, op_str(c, "ifm_layout"), dims, &n)) return NULL;
  } else {
    if (n > 5) n = 5;
    memcpy(dims, ifm->dims, n * sizeof *dims);
  }
  return kernel_out(c, dims, n, "pool_shape", false, ofm);
}

static const OpAttrSpec pooling_attrs[] = {{"pooling_type", AT_STR, "None"},
                                           QPARAMS(),
                                           {"pool_shape", AT_INTS, "None"},
                                           {"ofm_channels", AT_INT, "None"},
                                           {"ofm_dtype", AT_STR, "None"},
                                           {"strides", AT_INTS, "[1, 1]"},
                                           {"padding", AT_INTS, "[0, 0, 0, 0]"},
                                           ACT_CLIP_ROUND,
                                           {"upscale", AT_STR, "\"NONE\""},
                                           LAYOUTS};

static const OpDef pooling_ops[] = {
    KIT_OP("contrib.ethosu.pooling", 2, pooling_attrs, pooling_rel, OP_TVM_ONLY(TVM_0_13)),
};
OP_REGISTER(pooling_ops);

/* ------------------------------------------------------------------ contrib.ethosu.unary_elementwise */

/* EthosuUnaryElementwiseRel: (ifm, lut); ABS on int8/uint8, CLZ on int32; the result's channels are
   ofm_channels.  (TVM's message has the stray "<<" and the missing space.) */
static const Type *unary_rel(OpCall *c) {
  const Type *ifm = op_tensor_arg(c, 0);
  if (!ifm || !kit_required(c, "operator_type")) return NULL;
  const char *op = "ethosu_unary_elementwise", *type = op_str(c, "operator_type");
  if (strcmp(type, "ABS") != 0 && strcmp(type, "CLZ") != 0)
    return op_fail(c, -1, "Invalid operator: expected << %s  'ABS' or 'CLZ' for operator_type but was%s", op, type);
  const DType q[] = {dt_u8, dt_i8};
  bool ok = !strcmp(type, "CLZ") ? check_dtype(c, ifm->dtype, &dt_i32, 1, op, "ifm", type)
                                 : check_dtype(c, ifm->dtype, q, 2, op, "ifm", type);
  return ok ? elementwise_out(c, ifm, "ofm_channels", ifm->dtype) : NULL;
}

static const OpAttrSpec unary_attrs[] = {{"operator_type", AT_STR, "None"}, QPARAMS(), {"ofm_channels", AT_INT, "None"},
                                         ACT_CLIP_ROUND, LAYOUTS};

static const OpDef unary_elementwise_ops[] = {
    KIT_OP("contrib.ethosu.unary_elementwise", 2, unary_attrs, unary_rel, OP_TVM_ONLY(TVM_0_13)),
};
OP_REGISTER(unary_elementwise_ops);
