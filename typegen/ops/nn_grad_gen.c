/*
 * The RFC's generators for ops/nn_grad.c's entries.  The relations constrain only the result (the
 * data's type for the pooling gradients; the weight's for conv2d_backward_weight), but a call is
 * generated as autodiff writes it: the output gradient has the shape the forward pool or
 * convolution gives, the layouts are the ones the Python API passes, and avg_pool2d_grad keeps
 * count_include_pad at its default (TVM's parser gives the op MaxPool2DAttrs, which lacks it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_common.h"
#include "nn_grad_gen.h"

bool nngrad_rank4_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }

bool nngrad_rank4_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 4, 4, dt_void); }

/* The result is the data (NCHW or NHWC); a window that fits it (kernel <= extent + padding,
   padding below the kernel) gives the output gradient's shape, as Pool2DRel computes it. */
bool nngrad_pool_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  bool nhwc = rng_chance(g->rng, 1, 3), ceil_mode = rng_chance(g->rng, 1, 4);
  const char *layout = nhwc ? "NHWC" : "NCHW";
  int64_t dc[4], oc[4], od[4], k[2], s[2], p[2];
  permute(layout, t->dims, "NCHW", dc);
  oc[0] = dc[0], oc[1] = dc[1];
  for (int i = 0; i < 2; i++) {
    int64_t in = dc[2 + i];
    k[i] = rng_range(g->rng, 1, in < 3 ? in : 3);
    p[i] = rng_range(g->rng, 0, k[i] - 1);
    s[i] = rng_range(g->rng, 1, 2);
    int64_t num = in + 2 * p[i] - k[i] + (ceil_mode ? s[i] - 1 : 0);
    oc[2 + i] = num / s[i] + 1;
  }
  permute("NCHW", oc, layout, od);
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

/* The result is an OIHW weight (O, I, kh, kw), groups 1; the data (N, I, H, W) and the output
   gradient (N, O, OH, OW) follow from a random stride, dilation, padding and input extent. */
bool nngrad_conv_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
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
