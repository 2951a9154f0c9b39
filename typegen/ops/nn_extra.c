/*
 * More neural-network operators: depth_to_space / space_to_depth, batch_to_space_nd /
 * space_to_batch_nd, mirror_pad, dilate, fifo_buffer, fast_softmax and the losses cross_entropy,
 * cross_entropy_with_logits and nll_loss.
 *
 * Facts from TVM v0.13: src/relay/op/nn/nn.cc (DepthToSpaceRel, SpaceToDepthRel,
 * SpaceToBatchNDRel, BatchToSpaceNDRel, DilateRel, FIFOBufferRel, SoftmaxRel, CrossEntropyRel,
 * NLLLossRel), src/relay/op/nn/pad.cc (MirrorPadRel), src/tir/ir/data_layout.cc (tir::Layout,
 * BijectiveLayout's shape rules, which divide with shapediv, a ceiling division); attribute schemas
 * from include/tvm/relay/attrs/nn.h (SubPixelAttrs, SpaceToBatchNDAttrs, BatchToSpaceNDAttrs,
 * MirrorPadAttrs, DilateAttrs, FIFOBufferAttrs, SoftmaxAttrs, NLLLossAttrs); what the computes
 * accept from python/tvm/topi/nn/{fifo_buffer,depth_to_space,space_to_depth,...}.py.
 *
 * FIFOBufferRel ignores the results of its Assert/AssertEQ calls, so only the ranks are checked;
 * CrossEntropyRel and NLLLossRel check theirs.  Where TVM would read out of bounds (an axis out of
 * range in fifo_buffer, predictions of rank 1 in nll_loss) or divide by zero, the relation rejects
 * the call with a message.  A dimension TVM computes as a non-constant expression from a `?` (a
 * padded `?`, a `?` batch times the block size) is `?` here.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(nn_extra);

/* ------------------------------------------------------------------ nn.depth_to_space, nn.space_to_depth */

static int64_t ceildiv(int64_t a, int64_t b) { return -kit_floordiv(-a, b); }

/* tir::Layout itself is the kit's (kit_layout_*); here the conversions through NCHW. */

/* Whether the layout's primal axes are exactly N, C, H, W (BijectiveLayout(layout, NCHW) is
   defined and its backward rule exists). */
static bool layout_is_nchw_like(const KitLayout *l) {
  size_t primal = 0;
  for (size_t i = 0; i < l->ndim; i++)
    primal += !l->factor[i];
  return primal == 4 && kit_layout_index(l, 'N') >= 0 && kit_layout_index(l, 'C') >= 0 && kit_layout_index(l, 'H') >= 0 &&
         kit_layout_index(l, 'W') >= 0;
}

/* BijectiveLayout(l, NCHW).ForwardShape: a primal axis's extent times its sub-axis's factor. */
static bool layout_to_nchw(OpCall *c, const KitLayout *l, const Type *data, int64_t *nchw) {
  if (data->ndims != l->ndim)
    return op_fail(c, 0, "%s: Input shape size %u mismatch with the expected shape size %zu", c->op->name,
                   data->ndims, l->ndim) != NULL;
  for (size_t i = 0; i < l->ndim; i++)
    if (l->factor[i] && data->dims[i] != KIT_ANY && data->dims[i] != l->factor[i])
      return op_fail(c, 0, "%s: Input shape mismatch at index %zu. Expected %lld, get %lld", c->op->name, i,
                     (long long)l->factor[i], (long long)data->dims[i]) != NULL;
  static const char canon[] = "NCHW";
  for (int k = 0; k < 4; k++) {
    int64_t v = data->dims[kit_layout_index(l, canon[k])];
    int sub = kit_layout_index(l, (char)(canon[k] - 'A' + 'a'));
    nchw[k] = v;
    if (sub >= 0 && !kit_dim_times(c, v, l->factor[sub], &nchw[k])) return false;
  }
  return true;
}

/* BackwardShape: NCHW back to l; a primal axis with a sub-axis is divided by its factor (shapediv,
   rounding up); a sub-axis is its factor. */
static void layout_from_nchw(const KitLayout *l, const int64_t *nchw, int64_t *out) {
  for (size_t i = 0; i < l->ndim; i++) {
    if (l->factor[i]) {
      out[i] = l->factor[i];
      continue;
    }
    int64_t v = nchw[strchr("NCHW", l->axis[i]) - "NCHW"];
    int sub = kit_layout_index(l, (char)(l->axis[i] - 'A' + 'a'));
    out[i] = sub >= 0 && v != KIT_ANY ? ceildiv(v, l->factor[sub]) : v;
  }
}

/* DepthToSpaceRel / SpaceToDepthRel: through NCHW, channels divided by (or multiplied by) the block
   size squared, height and width multiplied (or floor-divided) by it. */
static const Type *subpixel_rel(OpCall *c, bool to_space) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t b;
  if (!data || !kit_int_attr(c, "block_size", &b)) return NULL;
  KitLayout l;
  if (!kit_layout_parse(c, "layout", op_str(c, "layout"), &l)) return NULL;
  if (!layout_is_nchw_like(&l))
    return op_fail(c, -1, "%s only support input layouts that are convertible from NCHW. But got Layout(%s)",
                   to_space ? "DepthToSpace" : "SpaceToDepth", op_str(c, "layout"));
  int64_t s[4], o[KIT_LAYOUT_MAX];
  if (!layout_to_nchw(c, &l, data, s)) return NULL;
  b = (int32_t)b;
  if (b == 0) return op_fail(c, -1, "%s: Divide by zero (block_size is 0)", c->op->name);
  int64_t bb = (int32_t)(b * b);
  if (bb == 0) return op_fail(c, -1, "%s: Divide by zero (block_size * block_size is 0)", c->op->name);
  for (int k = 1; k < 4; k++) {
    if (s[k] == KIT_ANY) continue;
    if (to_space == (k == 1)) s[k] = kit_floordiv(s[k], k == 1 ? bb : b);
    else if (!kit_fit(c, (KitWide)s[k] * (k == 1 ? bb : b), &s[k])) return NULL;
    if (!kit_dim_ok(c, s[k])) return NULL;
  }
  layout_from_nchw(&l, s, o);
  return ty_tensor(c->types, data->dtype, o, l.ndim);
}

static const Type *depth_to_space_rel(OpCall *c) { return subpixel_rel(c, true); }

static const Type *space_to_depth_rel(OpCall *c) { return subpixel_rel(c, false); }

static int64_t gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* depth_to_space / space_to_depth in NCHW or NHWC: a block size that divides what the result
   needs divided, and the input that gives the result exactly. */
static bool subpixel_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, bool to_space) {
  opgen_plan_init(g, op, out);
  bool nhwc = rng_chance(g->rng, 1, 2);
  size_t ci = nhwc ? 3 : 1, hi = nhwc ? 1 : 2, wi = nhwc ? 2 : 3;
  int64_t d[4], b;
  memcpy(d, t->dims, sizeof d);
  if (to_space) {
    b = kit_divisor(g, gcd(d[hi], d[wi]), 4);
    d[ci] *= b * b;
    d[hi] /= b;
    d[wi] /= b;
  } else {
    int64_t ok[4], n = 0;
    for (int64_t k = 1; k <= 4; k++)
      if (d[ci] % (k * k) == 0) ok[n++] = k;
    b = ok[rng_index(g->rng, (size_t)n)];
    d[ci] /= b * b;
    d[hi] *= b;
    d[wi] *= b;
  }
  kit_arg(out, kit_tensor(g, t->dtype, d, 4));
  opgen_set_int(g, op, out, "block_size", b);
  if (nhwc) opgen_set_str(g, op, out, "layout", "NHWC");
  if (to_space && rng_chance(g->rng, 1, 2)) opgen_set_str(g, op, out, "mode", "CDR");
  out->result = t;
  return true;
}

static bool depth_to_space_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return subpixel_solve(g, op, t, out, true);
}

static bool space_to_depth_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return subpixel_solve(g, op, t, out, false);
}

static const OpAttrSpec subpixel_attrs[] = {
    {"block_size", AT_INT, "1"}, {"layout", AT_STR, "\"NCHW\""}, {"mode", AT_STR, "\"DCR\""}};

static const OpDef subpixel_ops[] = {
    KIT_OP("nn.depth_to_space", 1, subpixel_attrs, depth_to_space_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_rank4, depth_to_space_solve)),
    KIT_OP("nn.space_to_depth", 1, subpixel_attrs, space_to_depth_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_rank4, space_to_depth_solve)),
};
OP_REGISTER(subpixel_ops);

/* ------------------------------------------------------------------ nn.space_to_batch_nd */

/* SpaceToBatchNDRel: the batch multiplied by the product of block_shape; spatial dimension i padded
   by paddings[i] and divided (truncating) by block_shape[i]; the rest unchanged.  A rank below 2
   leaves TVM's relation unsolved, an error for a whole program. */
static const Type *space_to_batch_nd_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims <= 1)
    return op_fail(c, 0, "SpaceToBatchND: the input must have at least 2 dimensions, got %u", data->ndims);
  int64_t block[KIT_RANK_MAX], pad[KIT_RANK_MAX][2], o[KIT_RANK_MAX];
  long nb = kit_ints(c, "block_shape", block, KIT_RANK_MAX);
  long np = nb < 0 ? -1
                   : kit_pairs(c, "paddings", pad, KIT_RANK_MAX,
                               "Check failed: paddings[%zu].size() == 2U (%zu vs. 2)");
  if (np < 0) return NULL;
  if (np != nb) return op_fail(c, -1, "SpaceToBatchND: Paddings must be provided for each spatial dim");
  if (nb > (long)data->ndims - 1)
    return op_fail(c, -1, "SpaceToBatchND: %ld spatial dimensions, but the input has only %u dimensions", nb,
                   data->ndims);
  int64_t numel = 1;
  for (long i = 0; i < nb; i++)
    if (!kit_fit(c, (KitWide)numel * block[i], &numel)) return NULL;
  memcpy(o, data->dims, data->ndims * sizeof *o);
  if (!kit_dim_times(c, data->dims[0], numel, &o[0])) return NULL;
  if (data->dims[0] != KIT_ANY && !kit_dim_ok(c, o[0])) return NULL;
  for (long i = 0; i < nb; i++) {
    if (data->dims[i + 1] == KIT_ANY) {
      o[i + 1] = KIT_ANY;
      continue;
    }
    if (block[i] == 0) return op_fail(c, -1, "SpaceToBatchND: Divide by zero (block_shape[%ld] is 0)", i);
    if (!kit_fit(c, ((KitWide)data->dims[i + 1] + pad[i][0] + pad[i][1]) / block[i], &o[i + 1]) ||
        !kit_dim_ok(c, o[i + 1]))
      return NULL;
  }
  return ty_tensor(c->types, data->dtype, o, data->ndims);
}

/* space_to_batch_nd: blocks whose product divides the batch; each spatial dimension padded to
   exactly block times the result's. */
static bool space_to_batch_nd_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t r = t->ndims, m = rng_range(g->rng, 1, r - 1 < 3 ? r - 1 : 3), batch = t->dims[0];
  int64_t block[3], pad[3][2], d[KIT_RANK_MAX];
  memcpy(d, t->dims, (size_t)r * sizeof *d);
  for (int64_t i = 0; i < m; i++) {
    block[i] = kit_divisor(g, batch, 3);
    batch /= block[i];
    int64_t padded = t->dims[i + 1] * block[i], total = rng_range(g->rng, 0, padded - 1 < 4 ? padded - 1 : 4);
    pad[i][0] = rng_range(g->rng, 0, total);
    pad[i][1] = total - pad[i][0];
    d[i + 1] = padded - total;
  }
  d[0] = batch;
  kit_arg(out, kit_tensor(g, t->dtype, d, (size_t)r));
  opgen_set_ints(g, op, out, "block_shape", block, (size_t)m);
  kit_set_pairs(g, op, out, "paddings", (const int64_t(*)[2])pad, (size_t)m);
  if (rng_chance(g->rng, 1, 3)) opgen_set_float(g, op, out, "pad_value", -1.0);
  out->result = t;
  return true;
}

static const OpAttrSpec space_to_batch_nd_attrs[] = {
    {"block_shape", AT_INTS, "[1, 1]"}, {"paddings", AT_ANY, "None"}, {"pad_value", AT_FLOAT, "0f"}};

static const OpDef space_to_batch_nd_ops[] = {
    KIT_OP("nn.space_to_batch_nd", 1, space_to_batch_nd_attrs, space_to_batch_nd_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_static_matrix, space_to_batch_nd_solve)),
};
OP_REGISTER(space_to_batch_nd_ops);

/* ------------------------------------------------------------------ nn.batch_to_space_nd */

/* BatchToSpaceNDRel: the batch divided (truncating) by the product of block_shape; spatial dimension
   i multiplied by block_shape[i] less both crops. */
static const Type *batch_to_space_nd_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims <= 1)
    return op_fail(c, 0, "BatchToSpaceND: the input must have at least 2 dimensions, got %u", data->ndims);
  int64_t block[KIT_RANK_MAX], crop[KIT_RANK_MAX][2], o[KIT_RANK_MAX];
  long nb = kit_ints(c, "block_shape", block, KIT_RANK_MAX);
  long nc = nb < 0 ? -1 : kit_pairs(c, "crops", crop, KIT_RANK_MAX, "crops[%zu] needs 2 values, got %zu");
  if (nc < 0) return NULL;
  if (nc != nb) return op_fail(c, -1, "BatchToSpaceND: crops must be provided for each spatial dim");
  if (nb >= (long)data->ndims)
    return op_fail(c, -1, "BatchToSpaceND: block_shape must be less than input shape");
  int64_t numel = 1;
  for (long i = 0; i < nb; i++)
    if (!kit_fit(c, (KitWide)numel * block[i], &numel)) return NULL;
  memcpy(o, data->dims, data->ndims * sizeof *o);
  if (o[0] != KIT_ANY) {
    if (numel == 0) return op_fail(c, -1, "BatchToSpaceND: Divide by zero (the product of block_shape is 0)");
    if (!kit_fit(c, (KitWide)o[0] / numel, &o[0])) return NULL; /* INT64_MIN / -1 cannot happen: o[0] >= 0 */
    if (!kit_dim_ok(c, o[0])) return NULL;
  }
  for (long i = 0; i < nb; i++) {
    if (data->dims[i + 1] == KIT_ANY) continue;
    if (!kit_fit(c, (KitWide)data->dims[i + 1] * block[i] - crop[i][0] - crop[i][1], &o[i + 1]) ||
        !kit_dim_ok(c, o[i + 1]))
      return NULL;
  }
  return ty_tensor(c->types, data->dtype, o, data->ndims);
}

/* batch_to_space_nd: the batch times the blocks; each spatial dimension a little more than the
   result's over its block, cropped back to it. */
static bool batch_to_space_nd_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t r = t->ndims, m = rng_range(g->rng, 1, r - 1 < 3 ? r - 1 : 3);
  int64_t block[3], crop[3][2], d[KIT_RANK_MAX];
  memcpy(d, t->dims, (size_t)r * sizeof *d);
  for (int64_t i = 0; i < m; i++) {
    block[i] = rng_range(g->rng, 1, 3);
    d[0] *= block[i];
    int64_t o = t->dims[i + 1];
    d[i + 1] = (o + block[i] - 1) / block[i] + rng_range(g->rng, 0, 1);
    int64_t total = d[i + 1] * block[i] - o;
    crop[i][0] = rng_range(g->rng, 0, total);
    crop[i][1] = total - crop[i][0];
  }
  kit_arg(out, kit_tensor(g, t->dtype, d, (size_t)r));
  opgen_set_ints(g, op, out, "block_shape", block, (size_t)m);
  kit_set_pairs(g, op, out, "crops", (const int64_t(*)[2])crop, (size_t)m);
  out->result = t;
  return true;
}

static const OpAttrSpec batch_to_space_nd_attrs[] = {{"block_shape", AT_INTS, "[1, 1]"},
                                                     {"crops", AT_ANY, "None"}};

static const OpDef batch_to_space_nd_ops[] = {
    KIT_OP("nn.batch_to_space_nd", 1, batch_to_space_nd_attrs, batch_to_space_nd_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_static_matrix, batch_to_space_nd_solve)),
};
OP_REGISTER(batch_to_space_nd_ops);

/* ------------------------------------------------------------------ nn.mirror_pad */

/* MirrorPadRel: one (before, after) pair of non-negative widths per dimension. */
static const Type *mirror_pad_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t pw[KIT_RANK_MAX][2], o[KIT_RANK_MAX];
  if (!kit_required(c, "pad_width")) return NULL;
  const AttrVal *v = op_attr(c, "pad_width");
  size_t n = v->kind == ATTR_LIST ? v->n : 1;
  if (n != data->ndims)
    return op_fail(
        c, -1,
        "nn.mirror_pad: There should be as many pad width pairs as shape dimensions but the shape has %u "
        "dimensions and there are %zu pad width pairs.",
        data->ndims, n);
  if (kit_pairs(c, "pad_width", pw, KIT_RANK_MAX,
                "Each pad width element should be a pair but at index %zu there are %zu elements.") < 0)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 2; k++)
      if (pw[i][k] < 0)
        return op_fail(c, -1,
                       "nn.mirror_pad: Param width elements should be positive but first pad width at index "
                       "%zu is %lld.",
                       i, (long long)pw[i][k]);
    if (data->dims[i] == KIT_ANY) o[i] = KIT_ANY;
    else if (!kit_fit(c, (KitWide)data->dims[i] + pw[i][0] + pw[i][1], &o[i])) return NULL;
  }
  return ty_tensor(c->types, data->dtype, o, n);
}

/* mirror_pad: each pad smaller than the input dimension (what REFLECT needs; SYMMETRIC allows one
   more). */
static bool mirror_pad_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t d[KIT_RANK_MAX], pw[KIT_RANK_MAX][2];
  for (uint32_t i = 0; i < t->ndims; i++) {
    int64_t o = t->dims[i], lo = (o + 4) / 3;
    d[i] = rng_range(g->rng, lo < o ? lo : o, o);
    int64_t total = o - d[i], most = d[i] - 1;
    pw[i][0] = rng_range(g->rng, total - most > 0 ? total - most : 0, total < most ? total : most);
    pw[i][1] = total - pw[i][0];
  }
  kit_arg(out, kit_tensor(g, t->dtype, d, t->ndims));
  kit_set_pairs(g, op, out, "pad_width", (const int64_t(*)[2])pw, t->ndims);
  if (rng_chance(g->rng, 1, 2)) opgen_set_str(g, op, out, "mode", "REFLECT");
  out->result = t;
  return true;
}

static const OpAttrSpec mirror_pad_attrs[] = {{"mode", AT_STR, "\"SYMMETRIC\""},
                                              {"pad_width", AT_ANY, "None"}};

static const OpDef mirror_pad_ops[] = {
    KIT_OP("nn.mirror_pad", 1, mirror_pad_attrs, mirror_pad_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_static_ranked, mirror_pad_solve)),
};
OP_REGISTER(mirror_pad_ops);

/* ------------------------------------------------------------------ nn.dilate */

/* DilateRel: one stride per dimension; (d - 1) * stride + 1, `?` staying `?`. */
static const Type *dilate_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t s[KIT_RANK_MAX], o[KIT_RANK_MAX];
  long n = kit_ints(c, "strides", s, KIT_RANK_MAX);
  if (n < 0) return NULL;
  if ((size_t)n != data->ndims)
    return op_fail(c, -1, "nn.dilate: Check failed: x->shape.size() == param->strides.size() (%u vs. %ld)",
                   data->ndims, n);
  for (long i = 0; i < n; i++) {
    if (data->dims[i] == KIT_ANY) o[i] = KIT_ANY;
    else if (!kit_fit(c, ((KitWide)data->dims[i] - 1) * s[i] + 1, &o[i]) || !kit_dim_ok(c, o[i])) return NULL;
  }
  return ty_tensor(c->types, data->dtype, o, (size_t)n);
}

/* dilate: per dimension a stride (1 to 4) that divides the result's dimension less one. */
static bool dilate_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t d[KIT_RANK_MAX], s[KIT_RANK_MAX];
  for (uint32_t i = 0; i < t->ndims; i++) {
    int64_t ok[4], n = 0;
    for (int64_t k = 1; k <= 4; k++)
      if ((t->dims[i] - 1) % k == 0) ok[n++] = k;
    s[i] = ok[rng_index(g->rng, (size_t)n)];
    d[i] = (t->dims[i] - 1) / s[i] + 1;
  }
  kit_arg(out, kit_tensor(g, t->dtype, d, t->ndims));
  opgen_set_ints(g, op, out, "strides", s, t->ndims);
  if (rng_chance(g->rng, 1, 3)) opgen_set_float(g, op, out, "dilation_value", 1.0);
  out->result = t;
  return true;
}

static const OpAttrSpec dilate_attrs[] = {{"strides", AT_INTS, "[1, 1]"}, {"dilation_value", AT_FLOAT, "0f"}};

static const OpDef dilate_ops[] = {
    KIT_OP("nn.dilate", 1, dilate_attrs, dilate_rel, KIT_SOLVED(OPDT_NUMERIC, kit_static_any, dilate_solve)),
};
OP_REGISTER(dilate_ops);

/* ------------------------------------------------------------------ nn.fifo_buffer */

/* FIFOBufferRel: the buffer's type; input and buffer have one rank (the other shape assertions are
   not checked by TVM), and the axis must exist. */
static const Type *fifo_buffer_rel(OpCall *c) {
  const Type *in = op_tensor_arg(c, 0), *buf = in ? op_tensor_arg(c, 1) : NULL;
  int64_t axis;
  if (!buf || !kit_int_attr(c, "axis", &axis)) return NULL;
  if (in->ndims != buf->ndims)
    return op_fail(c, 1,
                   "nn.fifo_buffer: Check failed: input->shape.size() == buffer->shape.size() (%u vs. %u)",
                   in->ndims, buf->ndims);
  int64_t a = axis < 0 ? (int64_t)buf->ndims + axis : axis;
  if (a < 0 || a >= (int64_t)buf->ndims)
    return op_fail(c, -1, "nn.fifo_buffer: axis %lld is out of range for a buffer of rank %u",
                   (long long)axis, buf->ndims);
  return buf;
}

/* fifo_buffer: the buffer is the result; the input matches it but on the axis, where it is no
   longer. */
static bool fifo_buffer_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t axis = rng_range(g->rng, 0, (int64_t)t->ndims - 1), d[KIT_RANK_MAX];
  memcpy(d, t->dims, t->ndims * sizeof *d);
  d[axis] = rng_range(g->rng, 1, t->dims[axis]);
  kit_arg(out, kit_tensor(g, t->dtype, d, t->ndims));
  kit_arg(out, t);
  opgen_set_int(g, op, out, "axis", axis);
  out->result = t;
  return true;
}

static const OpAttrSpec fifo_buffer_attrs[] = {{"axis", AT_INT, "0"}};

static const OpDef fifo_buffer_ops[] = {
    KIT_OP("nn.fifo_buffer", 2, fifo_buffer_attrs, fifo_buffer_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_static_ranked, fifo_buffer_solve)),
};
OP_REGISTER(fifo_buffer_ops);

/* ------------------------------------------------------------------ nn.fast_softmax */

/* SoftmaxRel: the axis in [-ndim, ndim); data's type. */
static const Type *softmax_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t axis;
  if (!data || !kit_int_attr(c, "axis", &axis)) return NULL;
  int64_t nd = data->ndims;
  if (axis >= nd || axis < -nd)
    return op_fail(c, -1, "%s: Wrong axis (%lld) not in expected range: [%lld, %lld)", c->op->name,
                   (long long)axis, (long long)-nd, (long long)nd);
  return data;
}

static bool fast_softmax_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t nd = t->ndims;
  kit_arg(out, t);
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, rng_range(g->rng, 0, nd - 1), nd));
  out->result = t;
  return true;
}

static const OpDef fast_softmax_ops[] = {
    /* softmax and the losses take exponents and logarithms: floats */
    KIT_OP("nn.fast_softmax", 1, kit_softmax_attrs, softmax_rel,
           KIT_SOLVED(OPDT_FLOAT, kit_static_ranked, fast_softmax_solve)),
};
OP_REGISTER(fast_softmax_ops);

/* --------------------------------------------------------- nn.cross_entropy, nn.cross_entropy_with_logits */

/* CrossEntropyRel: two matrices of one shape (`?` matches); a scalar of x's dtype. */
static const Type *cross_entropy_rel(OpCall *c) {
  const Type *x = op_tensor_arg(c, 0), *y = x ? op_tensor_arg(c, 1) : NULL;
  if (!y) return NULL;
  bool ok = x->ndims == 2 && y->ndims == 2 && kit_dim_match(x->dims[0], y->dims[0]) &&
            kit_dim_match(x->dims[1], y->dims[1]);
  if (!ok) {
    char sx[128], sy[128];
    return op_fail(c, 1, "CrossEntropy: shapes of x and y is inconsistent, x shape = %s, y shape = %s",
                   kit_dims_str(x->dims, x->ndims, sx, sizeof sx),
                   kit_dims_str(y->dims, y->ndims, sy, sizeof sy));
  }
  return ty_scalar(c->types, x->dtype);
}

/* cross_entropy(_with_logits): a float scalar from two matrices of one type. */
static bool scalar_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 0, 0);
}

static bool cross_entropy_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t d[2];
  opgen_dims(g, 2, g->policy->max_elements, d);
  const Type *m = kit_tensor(g, t->dtype, d, 2);
  kit_arg(out, m);
  kit_arg(out, m);
  out->result = t;
  return true;
}

static const OpDef cross_entropy_ops[] = {
    KIT_OP_NOATTRS("nn.cross_entropy", 2, cross_entropy_rel,
                   KIT_SOLVED(OPDT_FLOAT, scalar_recognize, cross_entropy_solve)),
    KIT_OP_NOATTRS("nn.cross_entropy_with_logits", 2, cross_entropy_rel,
                   KIT_SOLVED(OPDT_FLOAT, scalar_recognize, cross_entropy_solve)),
};
OP_REGISTER(cross_entropy_ops);

/* ------------------------------------------------------------------ nn.nll_loss */

/* NLLLossRel: predictions (N, C, d...) one rank above targets (N, d...); weights (C); predictions
   and weights of one float dtype, targets of a signed integer dtype.  reduction "none" keeps the
   targets' shape, the others give a scalar. */
static const Type *nll_loss_rel(OpCall *c) {
  const Type *pred = op_tensor_arg(c, 0), *tgt = pred ? op_tensor_arg(c, 1) : NULL,
             *w = tgt ? op_tensor_arg(c, 2) : NULL;
  if (!w || !kit_required(c, "ignore_index")) return NULL;
  char sp[128], st[128];
  kit_dims_str(pred->dims, pred->ndims, sp, sizeof sp);
  if (pred->ndims != tgt->ndims + 1)
    return op_fail(
        c, 1,
        "NLLLossRel: predictions should be one dimension larger than targets,predictions shape = %s, "
        "targets shape = %s",
        sp, kit_dims_str(tgt->dims, tgt->ndims, st, sizeof st));
  if (w->ndims != 1)
    return op_fail(
        c, 2,
        "NLLLossRel: weights should be a one dimension Tensor with its length the number of classes, but "
        "Tensor of dimension %u were provided.",
        w->ndims);
  if (pred->ndims < 2)
    return op_fail(c, 0, "NLLLossRel: predictions must have at least 2 dimensions (N, C, ...)");
  if (!kit_dim_match(pred->dims[1], w->dims[0]))
    return op_fail(
        c, 2,
        "NLLLossRel: the second dimension of predictions should be the number of classes, which is the "
        "length of weights, predictions shape = %s, weights shape = %s",
        sp, kit_dims_str(w->dims, w->ndims, st, sizeof st));
  bool is_float = pred->dtype.code == DT_FLOAT || (pred->dtype.code == DT_BFLOAT && pred->dtype.bits == 16);
  if (!dtype_eq(pred->dtype, w->dtype) || !is_float)
    return op_fail(c, 2, "NLLLossRel: predictions and weights should be of the same floating type.");
  if (tgt->dtype.code != DT_INT) return op_fail(c, 1, "NLLLossRel: targets should be of int type.");
  if (!strcmp(op_str(c, "reduction"), "none")) return ty_tensor(c->types, pred->dtype, tgt->dims, tgt->ndims);
  return ty_scalar(c->types, pred->dtype);
}

/* nll_loss: a scalar from reduction "mean" or "sum", else the targets' shape with "none";
   predictions (N, C, d...), targets (N, d...) of int32/int64, weights (C). */
static bool nll_loss_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 0, KIT_RANK_MAX - 1);
}

static bool nll_loss_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t tg[KIT_RANK_MAX], p[KIT_RANK_MAX], c = rng_range(g->rng, 1, g->policy->max_dim);
  size_t n;
  if (t->ndims == 0) {
    n = (size_t)rng_range(g->rng, 1, 3);
    opgen_dims(g, n, 256, tg);
    opgen_set_str(g, op, out, "reduction", rng_chance(g->rng, 1, 2) ? "sum" : "mean");
  } else {
    n = t->ndims;
    memcpy(tg, t->dims, n * sizeof *tg);
    opgen_set_str(g, op, out, "reduction", "none");
  }
  p[0] = tg[0];
  p[1] = c;
  memcpy(p + 2, tg + 1, (n - 1) * sizeof *p);
  static const int64_t ignore[] = {-100, -1, 0};
  kit_arg(out, kit_tensor(g, t->dtype, p, n + 1));
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), tg, n));
  kit_arg(out, kit_vec(g, t->dtype, c));
  opgen_set_int(g, op, out, "ignore_index", ignore[rng_index(g->rng, 3)]);
  out->result = t;
  return true;
}

static const OpAttrSpec nll_loss_attrs[] = {{"reduction", AT_STR, "\"mean\""},
                                            {"ignore_index", AT_INT, "None"}};

static const OpDef nll_loss_ops[] = {
    KIT_OP("nn.nll_loss", 3, nll_loss_attrs, nll_loss_rel,
           KIT_SOLVED(OPDT_FLOAT, nll_loss_recognize, nll_loss_solve)),
};
OP_REGISTER(nll_loss_ops);
