/*
 * Gradient operators that TVM's autodiff emits: the 2-D pooling gradients and the convolution's
 * gradient with respect to its weight.  Each relation computes what TVM v0.13's XxxRel computes.
 * Facts from TVM v0.13 src/relay/op/nn/pooling.cc (Pool2DGradRel, MakeMaxPool2DGrad,
 * MakeAvgPool2DGrad), src/relay/op/nn/convolution.cc (Conv2DBackwardWeightRel,
 * MakeConv2dBackwardWeight), python/tvm/relay/op/nn/nn.py, and the attribute structs
 * MaxPool2DAttrs, AvgPool2DAttrs, Conv2DAttrs in include/tvm/relay/attrs/nn.h.
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

#include "kit.h"

OP_FAMILY(nn_grad);

/* ================================================================== helpers the blocks below share */

/*
 * The RFC's generators for ops/nn_grad.c's entries.  The relations constrain only the result (the
 * data's type for the pooling gradients; the weight's for conv2d_backward_weight), but a call is
 * generated as autodiff writes it: the output gradient has the shape the forward pool or
 * convolution gives, the layouts are the ones the Python API passes, and avg_pool2d_grad keeps
 * count_include_pad at its default (TVM's parser gives the op MaxPool2DAttrs, which lacks it).
 */

static bool rank4_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 4, 4, dt_void); }

/* ----------------------------------------------------------------- nn.max_pool2d_grad, nn.avg_pool2d_grad */

/* Pool2DGradRel: the gradient with respect to the data has the data's type (argument 2; argument
   1, the output gradient, is not looked at).  pool_size is required by the attributes. */
static const Type *pool2d_grad_rel(OpCall *c) {
  if (!kit_required(c, "pool_size")) return NULL;
  return op_tensor_arg(c, 1);
}

/* The result is the data (NCHW or NHWC); a window that fits it (kernel <= extent + padding,
   padding below the kernel) gives the output gradient's shape, as Pool2DRel computes it. */
static bool pool_grad_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  bool nhwc = rng_chance(g->rng, 1, 3), ceil_mode = rng_chance(g->rng, 1, 4);
  const char *layout = nhwc ? "NHWC" : "NCHW";
  int64_t dc[4], oc[4], od[4], k[2], s[2], p[2];
  kit_permute(layout, t->dims, "NCHW", dc);
  oc[0] = dc[0], oc[1] = dc[1];
  for (int i = 0; i < 2; i++) {
    int64_t in = dc[2 + i];
    k[i] = rng_range(g->rng, 1, in < 3 ? in : 3);
    p[i] = rng_range(g->rng, 0, k[i] - 1);
    s[i] = rng_range(g->rng, 1, 2);
    int64_t num = in + 2 * p[i] - k[i] + (ceil_mode ? s[i] - 1 : 0);
    oc[2 + i] = num / s[i] + 1;
  }
  kit_permute("NCHW", oc, layout, od);
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, od, 4);
  out->args[1] = t;
  out->nargs = 2;
  opgen_set_ints(g, op, out, "pool_size", k, 2);
  opgen_set_ints(g, op, out, "strides", s, 2);
  opgen_set_ints(g, op, out, "padding", p, 2);
  if (nhwc) opgen_set_str(g, op, out, "layout", layout);
  if (ceil_mode) opgen_set_bool(g, op, out, "ceil_mode", true);
  out->result = t;
  return true;
}

static const OpDef pool2d_grad_ops[] = {
    KIT_OP("nn.max_pool2d_grad", 2, kit_max_pool2d_attrs, pool2d_grad_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, pool_grad_solve, rank4_sample)),
    KIT_OP("nn.avg_pool2d_grad", 2, kit_avg_pool2d_attrs, pool2d_grad_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, pool_grad_solve, rank4_sample)),
};
OP_REGISTER(pool2d_grad_ops);

/* ------------------------------------------------------------------ nn.conv2d_backward_weight */

/* BijectiveLayout(layout, canon) as Conv2DBackwardWeightRel uses it, without checking it is defined
   first. */
static bool bijective(OpCall *c, const char *attr, const char *canon_s, KitLayout *canon, KitLayout *l) {
  kit_layout_parse(c, "", canon_s, canon);
  if (!kit_layout_parse(c, attr, op_str(c, attr), l)) return false;
  if (kit_layout_convertible(l, canon)) return true;
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
  KitLayout nchw, oihw, gl, dl, kl;
  if (!bijective(c, "data_layout", "NCHW", &nchw, &gl) || !bijective(c, "kernel_layout", "NCHW", &nchw, &dl) ||
      !bijective(c, "out_layout", "OIHW", &oihw, &kl))
    return NULL;
  int64_t ds[KIT_LAYOUT_MAX], gs[KIT_LAYOUT_MAX], ks[8];
  if (!kit_layout_convert(c, 1, &dl, data->dims, data->ndims, &nchw, ds) ||
      !kit_layout_convert(c, 0, &gl, grad->dims, grad->ndims, &nchw, gs) || !kit_ints_need(c, "kernel_size", 2, ks, 8))
    return NULL;
  int64_t in = ds[1], out = gs[1], groups = op_int(c, "groups");
  if (in == KIT_ANY) return op_fail(c, 1, "%s: Check failed: in_channels_intimm (the data's channels must be a constant)", name);
  if (out == KIT_ANY)
    return op_fail(c, 0, "%s: Check failed: out_channels_intimm (the output gradient's channels must be a constant)", name);
  if (groups == 0) return op_fail(c, -1, "%s: groups must not be 0", name);
  int64_t wi;
  if (in == out && in == groups) {
    if (op_is_none(c, "channels"))
      return op_fail(c, -1, "%s: out_channels attribute not specified for depth wise conv2d.", name);
    if (op_attr(c, "channels")->kind != ATTR_INT)
      return op_fail(c, -1, "%s: attribute 'channels' must be a constant integer", name);
    wi = kit_floordiv(op_int(c, "channels"), groups);
  } else {
    wi = kit_floordiv(in, groups);
  }
  int64_t w[4] = {out, wi, ks[0], ks[1]}, wd[KIT_LAYOUT_MAX];
  for (int i = 0; i < 4; i++)
    if (w[i] < 0) return op_fail(c, -1, "%s: the weight would have a negative extent (%lld)", name, (long long)w[i]);
  if (!kit_layout_convert(c, -1, &oihw, w, 4, &kl, wd)) return NULL;
  DType dt = op_dtype(c, "out_dtype");
  return ty_tensor(c->types, dt.code == DT_VOID ? grad->dtype : dt, wd, kl.ndim);
}

/* The result is an OIHW weight (O, I, kh, kw), groups 1; the data (N, I, H, W) and the output
   gradient (N, O, OH, OW) follow from a random stride, dilation, padding and input extent. */
static bool conv_grad_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *w = t->dims;
  int64_t n = rng_range(g->rng, 1, 2), d[4] = {n, w[1]}, gr[4] = {n, w[0]}, s[2], dil[2], p[2];
  for (int i = 0; i < 2; i++) {
    s[i] = rng_range(g->rng, 1, 2);
    dil[i] = rng_chance(g->rng, 1, 4) ? 2 : 1;
    int64_t dk = (w[2 + i] - 1) * dil[i] + 1;
    p[i] = rng_range(g->rng, 0, dk - 1 < 2 ? dk - 1 : 2);
    int64_t lo = dk - 2 * p[i] > 1 ? dk - 2 * p[i] : 1;
    d[2 + i] = lo + rng_range(g->rng, 0, 4);
    gr[2 + i] = (d[2 + i] + 2 * p[i] - dk) / s[i] + 1;
  }
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, gr, 4);
  out->args[1] = ty_tensor(g->types, t->dtype, d, 4);
  out->nargs = 2;
  opgen_set_ints(g, op, out, "strides", s, 2);
  opgen_set_ints(g, op, out, "padding", p, 2);
  opgen_set_ints(g, op, out, "dilation", dil, 2);
  opgen_set_int(g, op, out, "channels", w[0]);
  int64_t ks[2] = {w[2], w[3]};
  opgen_set_ints(g, op, out, "kernel_size", ks, 2);
  opgen_set_str(g, op, out, "kernel_layout", "NCHW");
  opgen_set_str(g, op, out, "out_layout", "OIHW");
  out->result = t;
  return true;
}

static const OpDef conv2d_backward_weight_ops[] = {
    KIT_OP("nn.conv2d_backward_weight", 2, kit_conv2d_attrs, conv2d_backward_weight_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, conv_grad_solve, rank4_sample)),
};
OP_REGISTER(conv2d_backward_weight_ops);
