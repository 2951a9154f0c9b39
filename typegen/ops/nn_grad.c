/*
 * Gradient operators that TVM's autodiff emits: the 2-D pooling gradients and the convolution's
 * gradient with respect to its weight.  Each relation computes what TVM v0.13's XxxRel computes.
 * Facts from TVM v0.13 src/relay/op/nn/pooling.cc (Pool2DGradRel, MakeMaxPool2DGrad,
 * MakeAvgPool2DGrad), src/relay/op/nn/convolution.cc (Conv2DBackwardWeightRel,
 * MakeConv2dBackwardWeight), python/tvm/relay/op/nn/nn.py, and the attribute structs
 * MaxPool2DAttrs, AvgPool2DAttrs, Conv2DAttrs in include/tvm/relay/attrs/nn.h.  The generators are
 * in nn_grad_gen.c.
 *
 * nn.avg_pool2d_grad: TVM registers MaxPool2DAttrs as its attribute type, while its Python API
 * builds AvgPool2DAttrs (with count_include_pad), which the printer writes.  The schema here is
 * AvgPool2DAttrs', so printed programs are read; TVM's own parser would refuse count_include_pad.
 *
 * nn.conv2d_backward_weight reuses Conv2DAttrs with shifted meanings: data_layout is the output
 * gradient's layout, kernel_layout the data's, out_layout the weight's (the result).  The Python API
 * passes all three ("NCHW", "NCHW", "OIHW"); left at Conv2DAttrs' defaults ("NCHW", "OIHW", "") the
 * data's layout does not convert to NCHW and the result's is undefined, which TVM refuses
 * ("Cannot operate on an undefined bijective layout").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_common.h"
#include "nn_grad_gen.h"

#define ANY ((int64_t)TY_DIM_ANY)
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Pool2DGradRel: the gradient with respect to the data has the data's type (argument 2; argument
   1, the output gradient, is not looked at).  pool_size is required by the attributes. */
static const Type *pool2d_grad_rel(OpCall *c) {
  if (!required(c, "pool_size")) return NULL;
  return op_tensor_arg(c, 1);
}

/* BijectiveLayout(layout, canon) as Conv2DBackwardWeightRel uses it, without checking it is defined
   first. */
static bool bijective(OpCall *c, const char *attr, const char *canon_s, Layout *canon, Layout *l) {
  layout_parse(c, "", canon_s, canon);
  if (!layout_parse(c, attr, op_str(c, attr), l)) return false;
  if (layout_convertible(l, canon)) return true;
  op_fail(c, -1, "%s: Cannot operate on an undefined bijective layout (%s=\"%s\" does not convert to %s)", c->op->name,
          attr, l->name, canon_s);
  return false;
}

/* Conv2DBackwardWeightRel: the weight's gradient is (O, I / groups, kh, kw) in out_layout, where O
   is the output gradient's channels and I the data's; a depthwise convolution (I == O == groups)
   takes channels / groups for the second axis.  Both channel counts must be constants. */
static const Type *conv2d_backward_weight_rel(OpCall *c) {
  const char *name = c->op->name;
  const Type *grad = op_tensor_arg(c, 0), *data = grad ? op_tensor_arg(c, 1) : NULL;
  if (!data) return NULL;
  if (op_is_none(c, "kernel_size")) return op_fail(c, -1, "%s: kernel_size attribute needs to be specified", name);
  Layout nchw, oihw, gl, dl, kl;
  if (!bijective(c, "data_layout", "NCHW", &nchw, &gl) || !bijective(c, "kernel_layout", "NCHW", &nchw, &dl) ||
      !bijective(c, "out_layout", "OIHW", &oihw, &kl))
    return NULL;
  int64_t ds[LAYOUT_MAX], gs[LAYOUT_MAX], ks[8];
  if (!layout_convert(c, 1, &dl, data->dims, data->ndims, &nchw, ds) ||
      !layout_convert(c, 0, &gl, grad->dims, grad->ndims, &nchw, gs) || !ints_need(c, "kernel_size", 2, ks, 8))
    return NULL;
  int64_t in = ds[1], out = gs[1], groups = op_int(c, "groups");
  if (in == ANY) return op_fail(c, 1, "%s: Check failed: in_channels_intimm (the data's channels must be a constant)", name);
  if (out == ANY)
    return op_fail(c, 0, "%s: Check failed: out_channels_intimm (the output gradient's channels must be a constant)", name);
  if (groups == 0) return op_fail(c, -1, "%s: groups must not be 0", name);
  int64_t wi;
  if (in == out && in == groups) {
    if (op_is_none(c, "channels"))
      return op_fail(c, -1, "%s: out_channels attribute not specified for depth wise conv2d.", name);
    if (op_attr(c, "channels")->kind != ATTR_INT)
      return op_fail(c, -1, "%s: attribute 'channels' must be a constant integer", name);
    wi = opx_floordiv(op_int(c, "channels"), groups);
  } else {
    wi = opx_floordiv(in, groups);
  }
  int64_t w[4] = {out, wi, ks[0], ks[1]}, wd[LAYOUT_MAX];
  for (int i = 0; i < 4; i++)
    if (w[i] < 0) return op_fail(c, -1, "%s: the weight would have a negative extent (%lld)", name, (long long)w[i]);
  if (!layout_convert(c, -1, &oihw, w, 4, &kl, wd)) return NULL;
  DType dt = op_dtype(c, "out_dtype");
  return ty_tensor(c->types, dt.code == DT_VOID ? grad->dtype : dt, wd, kl.ndim);
}

static const OpAttrSpec max_pool2d_grad_attrs[] = {POOL_ATTRS("[1, 1]", "[0, 0]", "\"NCHW\"")};
static const OpAttrSpec avg_pool2d_grad_attrs[] = {POOL_ATTRS("[1, 1]", "[0, 0]", "\"NCHW\""),
                                                   {"count_include_pad", AT_BOOL, "False"}};
static const OpAttrSpec conv2d_attrs[] = {CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\"")};

#define OP(n, nargs, a, rel, ...) \
  {.name = (n), .min_args = (nargs), .max_args = (nargs), .attrs = (a), .nattrs = NELEMS(a), .relation = (rel), __VA_ARGS__}

const OpDef op_family_nn_grad[] = {
    OP("nn.max_pool2d_grad", 2, max_pool2d_grad_attrs, pool2d_grad_rel, MAX_POOL2D_GRAD_GEN),
    OP("nn.avg_pool2d_grad", 2, avg_pool2d_grad_attrs, pool2d_grad_rel, AVG_POOL2D_GRAD_GEN),
    OP("nn.conv2d_backward_weight", 2, conv2d_attrs, conv2d_backward_weight_rel, CONV2D_BACKWARD_WEIGHT_GEN),
};
const size_t op_family_nn_grad_len = NELEMS(op_family_nn_grad);
