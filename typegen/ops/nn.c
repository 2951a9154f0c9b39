/*
 * Neural-network operators: dense / matmul / batch_matmul, pooling (windowed, global, adaptive),
 * the normalisations, softmax, bias_add, prelu, pad, dropout, lrn, l2_normalize, batch_flatten,
 * upsampling, image.resize2d and the QNN quantisation ops (the convolutions are nn_conv.c's).  Each
 * relation computes what TVM v0.13's XxxRel computes (result shape and dtype, and the types it
 * assigns to the other arguments, which must unify).  Facts from TVM v0.13 src/relay/op/nn/{nn.cc,
 * nn.h, pooling.cc, pooling_common.h, pad.cc, upsampling.cc}, src/relay/op/image/resize.cc,
 * src/relay/qnn/op/{quantize.cc, dequantize.cc, requantize.cc}, src/relay/qnn/utils.h and the
 * attribute structs in include/tvm/relay/attrs/{nn.h, image.h} and include/tvm/relay/qnn/attrs.h.
 *
 * Attributes TVM declares without a default (pool_size, units, pad_width, scale_h, ...) have the
 * default "None" here: the schema needs some spelling, and a relation that needs the value rejects
 * None with TVM's "Cannot find required field" message.
 *
 * Where TVM would abort on an ICHECK (a crash, for the user a rejected program) the relation fails
 * with a message; where TVM would build a negative dimension the relation fails too, because a
 * type here cannot hold one.
 *
 * Each op (or group of ops sharing a relation) is one block below: relation, generators, schema,
 * rows.  The generators (recognizer, solver, sampler) keep to what TVM's computes (topi) accept,
 * which is narrower than what the relations accept, so that a generated call also compiles and
 * runs: the plain layouts (NCHW-like and channels-last, with the kernel layouts topi pairs with
 * them), 2-D dense and matmul (the CPU strategies unpack data.shape as (M, K)), padding no wider
 * than the window, and so on.  Results have static shapes with positive dimensions: a `?` cannot
 * come out of a call with static arguments, and a zero extent would need a degenerate window or an
 * empty input, which the computes do not handle either.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"
#include "kit.h"

OP_FAMILY(nn);

/* ================================================================== helpers the blocks below share */

/* Normalises an axis the way most relations do (a negative axis counts from the end). */
static bool norm_axis(OpCall *c, int64_t axis, size_t rank, size_t *out) {
  if (op_axis(axis, rank, out)) return true;
  op_fail(c, -1, "%s: axis %lld is out of range for a tensor of rank %zu", c->op->name, (long long)axis, rank);
  return false;
}

/* The pooled axes of a 1-, 2- or 3-D pool. */
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
  KitLayout l;
  if (!kit_layout_parse(c, "layout", op_str(c, "layout"), &l)) return false;
  const char *axes = pool_axes[nd];
  for (size_t i = 0; i < nd; i++) {
    idx[i] = kit_layout_index(&l, axes[i]);
    if (idx[i] < 0 || kit_layout_index(&l, (char)(axes[i] - 'A' + 'a')) >= 0) {
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

/* Chooses the extents dims[idx[0..nd)] freely: each in [1, max_dim], the tensor within max_elements
   as far as its other extents (given by the result) allow. */
static void free_extents(OpGen *g, int64_t *dims, size_t rank, const size_t *idx, size_t nd) {
  int64_t fixed = 1, chosen[3];
  for (size_t i = 0; i < rank; i++) {
    bool free = false;
    for (size_t j = 0; j < nd; j++) free |= idx[j] == i;
    if (!free) fixed *= dims[i];
  }
  opgen_dims(g, nd, g->policy->max_elements / (fixed > 0 ? fixed : 1), chosen);
  for (size_t j = 0; j < nd; j++) dims[idx[j]] = chosen[j];
}

/* The layouts the pools are generated in: canonical and channels-last, data rank = layout length
   (the relations only need the pooled axes, but topi indexes the whole layout). */
static const char *const pool_layouts[4][2] = {{"", ""}, {"NCW", "NWC"}, {"NCHW", "NHWC"}, {"NCDHW", "NDHWC"}};

/* Where the pooled axes (W / HW / DHW) sit in a layout. */
static void pooled_axes(const char *layout, size_t nd, size_t *idx) {
  for (size_t i = 0; i < nd; i++) idx[i] = (size_t)(strchr(layout, pool_axes[nd][i]) - layout);
}

/* An axis in [0, rank), spelled as is or counting from the end. */
static int64_t spell_axis(OpGen *g, size_t a, size_t rank) {
  return rng_chance(g->rng, 1, 2) ? (int64_t)a : (int64_t)a - (int64_t)rank;
}

/* Static tensors of rank >= 1 (softmax, bias_add, prelu, l2_normalize), and samplers of one rank. */
static bool rank1_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 1, 16, 1); }

static bool rank1_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_ranked(g, op, out, 1, g->policy->max_rank, dt_void);
}

static bool rank4_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 4, 4, dt_void); }

static bool rank5_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 5, 5, dt_void); }

/* ------------------------------------------------------------------ nn.dense, nn.matmul */

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
  int64_t *oshape = kit_dims_dup(a);
  if (ta) oshape[ra - 2] = a->dims[ra - 1];
  if (!op_is_none(c, "units")) {
    if (op_attr(c, "units")->kind != ATTR_INT) {
      free(oshape);
      return op_fail(c, -1, "%s: attribute 'units' must be a constant integer", name);
    }
    int64_t units = op_int(c, "units");
    int64_t w[2] = {tb ? units : reduce, tb ? reduce : units};
    if (!kit_assign(c, 1, b->dtype, w, 2)) {
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
    if (reduce != KIT_ANY && breduce != KIT_ANY && reduce != breduce) {
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
  return kit_tensor_free(c, out_dtype, oshape, ra);
}

static const Type *dense_rel(OpCall *c) { return matmul_common(c, false, true); }

static const Type *matmul_rel(OpCall *c) {
  return matmul_common(c, op_bool(c, "transpose_a"), op_bool(c, "transpose_b"));
}

/* Rank 2 only: MatmulRel accepts any rank >= 1 for the data, but the CPU strategies (dense_nopack,
   dense_pack) unpack data.shape as (M, K). */
static bool matrix_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 2, 2, 1); }

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
  kit_maybe_out_dtype(g, op, out, t->dtype);
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
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool matrix_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_ranked(g, op, out, 2, 2, dt_void); }

/* MatmulAttrs: units has no default (the printer always writes it, units=None included). */
static const OpAttrSpec matmul_attrs[] = {{"units", AT_INT, "None"},
                                          {"out_dtype", AT_DTYPE, "\"\""},
                                          {"transpose_a", AT_BOOL, "False"},
                                          {"transpose_b", AT_BOOL, "False"}};

static const OpDef dense_ops[] = {
    /* nn.cc */
    KIT_OP("nn.dense", 2, kit_dense_attrs, dense_rel,
           KIT_GEN(OPDT_FLOAT, matrix_recognize, dense_solve, matrix_sample)),
    KIT_OP("nn.matmul", 2, matmul_attrs, matmul_rel,
           KIT_GEN(OPDT_FLOAT, matrix_recognize, matmul_solve, matrix_sample)),
};
OP_REGISTER(dense_ops);

/* ------------------------------------------------------------------ nn.batch_matmul */

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
  for (int i = 0; i < 3; i++) dyn |= x->dims[i] == KIT_ANY || y->dims[i] == KIT_ANY;
  if (!dyn) {
    char b1[128], b2[128];
    if (xb != yb && xb != 1 && yb != 1)
      return op_fail(c, 1, "%s: BatchDot: batch dimensions don't match, x shape=%s, y shape=%s", name,
                     kit_dims_str(x->dims, 3, b1, sizeof b1), kit_dims_str(y->dims, 3, b2, sizeof b2));
    if (xk != yk)
      return op_fail(c, 1, "%s: BatchDot: shapes of x and y is inconsistent, x shape=%s, y shape=%s", name,
                     kit_dims_str(x->dims, 3, b1, sizeof b1), kit_dims_str(y->dims, 3, b2, sizeof b2));
  }
  int64_t out[3] = {xb == KIT_ANY || yb == KIT_ANY ? KIT_ANY : (xb > yb ? xb : yb), xi, yj};
  DType out_dtype = op_dtype(c, "out_dtype");
  if (out_dtype.code == DT_VOID) out_dtype = x->dtype;
  return ty_tensor(c->types, out_dtype, out, 3);
}

static bool batch_matmul_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 3, 3, 1); }

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
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool batch_matmul_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_ranked(g, op, out, 3, 3, dt_void);
}

static const OpDef batch_matmul_ops[] = {
    KIT_OP("nn.batch_matmul", 2, kit_batch_matmul_attrs, batch_matmul_rel,
           KIT_GEN(OPDT_FLOAT, batch_matmul_recognize, batch_matmul_solve, batch_matmul_sample)),
};
OP_REGISTER(batch_matmul_ops);

/* ------------------------------------------------------- nn.max_pool1d, nn.max_pool2d, nn.max_pool3d, ... */

/* calculate_pool_dimension (pooling_common.h): TVM divides with `/` on PrimExpr, which truncates. */
static bool pool_dim(OpCall *c, int64_t in, int64_t pad, int64_t k, int64_t dil, int64_t stride, bool ceil_mode,
                     int64_t *out) {
  KitWide num = (KitWide)in + pad - (((KitWide)k - 1) * dil + 1);
  if (ceil_mode) num += (KitWide)stride - 1;
  return kit_fit(c, num / stride + 1, out);
}

/* Pool1DRel / Pool2DRel / Pool3DRel (pooling.cc): the pooled axes shrink; the others, and the dtype,
   are kept.  out_layout does not change the result's shape. */
static const Type *pool_rel(OpCall *c, size_t nd) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int idx[3];
  int64_t ps[8], st[8], dil[8], pad[3];
  if (!pool_layout(c, data, nd, idx) || !kit_required(c, "pool_size") || !kit_ints_need(c, "pool_size", nd, ps, 8) ||
      !kit_ints_need(c, "strides", nd, st, 8) || !kit_ints_need(c, "dilation", nd, dil, 8) ||
      !kit_all_positive(c, "strides", st, nd) || !kit_pad_totals(c, nd, pad))
    return NULL;
  bool ceil_mode = op_bool(c, "ceil_mode");
  int64_t *oshape = kit_dims_dup(data);
  for (size_t i = 0; i < nd; i++) {
    int64_t d = data->dims[idx[i]];
    if (d == KIT_ANY) continue;
    int64_t o;
    if (!pool_dim(c, d, pad[i], ps[i], dil[i], st[i], ceil_mode, &o)) {
      free(oshape);
      return NULL;
    }
    if (o < 0) {
      free(oshape);
      return op_fail(c, -1, "%s: the pooled dimension %c would be negative (%lld)", c->op->name, pool_axes[nd][i],
                     (long long)o);
    }
    oshape[idx[i]] = o;
  }
  return kit_tensor_free(c, data->dtype, oshape, data->ndims);
}

static const Type *pool1d_rel(OpCall *c) { return pool_rel(c, 1); }

static const Type *pool2d_rel(OpCall *c) { return pool_rel(c, 2); }

static const Type *pool3d_rel(OpCall *c) { return pool_rel(c, 3); }

static bool pool_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t nd, bool avg) {
  if (!op->recognize(op, t) || t->ndims != nd + 2) return false;
  const char *layout = pool_layouts[nd][rng_index(g->rng, 2)];
  size_t idx[3];
  pooled_axes(layout, nd, idx);
  int64_t o[3], dims[5];
  for (size_t i = 0; i < nd; i++) o[i] = t->dims[idx[i]];
  bool ceil_mode = rng_chance(g->rng, 1, 4);
  KitWindow w;
  int64_t rest = kit_prod(t->dims, t->ndims) / kit_prod(o, nd);
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    if (!kit_window_solve(g, KIT_WIN_POOL, nd, o, minimal, ceil_mode, false, &w)) continue;
    if (minimal || rest * kit_prod(w.in, nd) <= kit_derived_budget(g)) break;
  }
  memcpy(dims, t->dims, t->ndims * sizeof *dims);
  for (size_t i = 0; i < nd; i++) dims[idx[i]] = w.in[i];
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, t->ndims);
  out->nargs = 1;
  opgen_set_ints(g, op, out, "pool_size", w.k, nd);
  kit_set_window(g, op, out, &w);
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
    return kit_sample_ranked(g, op, out, nd + 2, nd + 2, dt_void);                                     \
  }

POOL_GENERATORS(max_pool1d, 1, false)

POOL_GENERATORS(max_pool2d, 2, false)

POOL_GENERATORS(max_pool3d, 3, false)

POOL_GENERATORS(avg_pool1d, 1, true)

POOL_GENERATORS(avg_pool2d, 2, true)

POOL_GENERATORS(avg_pool3d, 3, true)

/* MaxPool*Attrs / AvgPool*Attrs: KIT_POOL_ATTRS (kit.h). */
static const OpAttrSpec max_pool1d_attrs[] = {KIT_POOL_ATTRS("[1]", "[0]", "\"NCW\"")};

static const OpAttrSpec max_pool3d_attrs[] = {KIT_POOL_ATTRS("[1, 1, 1]", "[0, 0, 0]", "\"NCDHW\"")};

static const OpAttrSpec avg_pool1d_attrs[] = {KIT_POOL_ATTRS("[1]", "[0]", "\"NCW\""), {"count_include_pad", AT_BOOL, "False"}};

static const OpAttrSpec avg_pool3d_attrs[] = {KIT_POOL_ATTRS("[1, 1, 1]", "[0, 0, 0]", "\"NCDHW\""),
                                              {"count_include_pad", AT_BOOL, "False"}};

static const OpDef pool_ops[] = {
    /* pooling.cc */
    KIT_OP("nn.max_pool1d", 1, max_pool1d_attrs, pool1d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank3, max_pool1d_solve, max_pool1d_sample)),
    KIT_OP("nn.max_pool2d", 1, kit_max_pool2d_attrs, pool2d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, max_pool2d_solve, max_pool2d_sample)),
    KIT_OP("nn.max_pool3d", 1, max_pool3d_attrs, pool3d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank5, max_pool3d_solve, max_pool3d_sample)),
    KIT_OP("nn.avg_pool1d", 1, avg_pool1d_attrs, pool1d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank3, avg_pool1d_solve, avg_pool1d_sample)),
    KIT_OP("nn.avg_pool2d", 1, kit_avg_pool2d_attrs, pool2d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, avg_pool2d_solve, avg_pool2d_sample)),
    KIT_OP("nn.avg_pool3d", 1, avg_pool3d_attrs, pool3d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank5, avg_pool3d_solve, avg_pool3d_sample)),
};
OP_REGISTER(pool_ops);

/* ------------------------------------------------------------- nn.global_avg_pool2d, nn.global_max_pool2d */

/* GlobalPool2DRel (pooling.cc): H and W become 1. */
static const Type *global_pool2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int idx[2];
  if (!data || !pool_layout(c, data, 2, idx)) return NULL;
  int64_t *oshape = kit_dims_dup(data);
  oshape[idx[0]] = oshape[idx[1]] = 1;
  return kit_tensor_free(c, data->dtype, oshape, data->ndims);
}

/* Global pools: rank 4 with H = W = 1 in NCHW or in NHWC. */
static bool global_fits(const Type *t, const char *layout) {
  size_t idx[2];
  pooled_axes(layout, 2, idx);
  return t->dims[idx[0]] == 1 && t->dims[idx[1]] == 1;
}

static bool global_pool_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok_dims(op, t, 4, 4, 1) && (global_fits(t, "NCHW") || global_fits(t, "NHWC"));
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
  const Type *t = kit_rand_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 4, g->policy->max_elements);
  int64_t dims[4];
  memcpy(dims, t->dims, sizeof dims);
  size_t idx[2];
  pooled_axes(rng_chance(g->rng, 1, 2) ? "NCHW" : "NHWC", 2, idx);
  dims[idx[0]] = dims[idx[1]] = 1;
  return global_pool_solve(g, op, ty_tensor(g->types, t->dtype, dims, 4), out);
}

static const OpAttrSpec global_pool2d_attrs[] = {{"layout", AT_STR, "\"NCHW\""}, {"out_layout", AT_STR, "\"\""}};

static const OpDef global_pool_ops[] = {
    KIT_OP("nn.global_avg_pool2d", 1, global_pool2d_attrs, global_pool2d_rel,
           KIT_GEN(OPDT_FLOAT, global_pool_recognize, global_pool_solve, global_pool_sample)),
    KIT_OP("nn.global_max_pool2d", 1, global_pool2d_attrs, global_pool2d_rel,
           KIT_GEN(OPDT_FLOAT, global_pool_recognize, global_pool_solve, global_pool_sample)),
};
OP_REGISTER(global_pool_ops);

/* ---------------------------- nn.adaptive_avg_pool1d, nn.adaptive_avg_pool2d, nn.adaptive_avg_pool3d, ... */

/* AdaptivePool1DRel / 2D / 3D (pooling.cc): the pooled axes become output_size (all of them one
   value when it has one; unchanged when it is empty). */
static const Type *adaptive_pool_rel(OpCall *c, size_t nd) {
  const Type *data = op_tensor_arg(c, 0);
  int idx[3];
  if (!data || !pool_layout(c, data, nd, idx)) return NULL;
  int64_t os[8];
  long n = op_is_none(c, "output_size") ? 0 : kit_const_ints(c, "output_size", os, 8);
  if (n < 0 || !kit_nonneg_as(c, "output_size", os, (size_t)n < 8 ? (size_t)n : 8)) return NULL;
  if ((size_t)n > nd) {
    if (nd == 1) return op_fail(c, -1, "%s: output_size must have 1 element.", c->op->name);
    return op_fail(c, -1, "%s: output_size can have up to %zu elements.", c->op->name, nd);
  }
  if (nd == 3 && n == 2) /* AdaptivePool3DRel reads output_size[2] then */
    return op_fail(c, -1, "%s: output_size must have 1 or 3 elements, got 2", c->op->name);
  int64_t *oshape = kit_dims_dup(data);
  for (size_t i = 0; i < nd && n > 0; i++) oshape[idx[i]] = n == 1 ? os[0] : os[i];
  return kit_tensor_free(c, data->dtype, oshape, data->ndims);
}

static const Type *adaptive_pool1d_rel(OpCall *c) { return adaptive_pool_rel(c, 1); }

static const Type *adaptive_pool2d_rel(OpCall *c) { return adaptive_pool_rel(c, 2); }

static const Type *adaptive_pool3d_rel(OpCall *c) { return adaptive_pool_rel(c, 3); }

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
    return kit_sample_ranked(g, op, out, nd + 2, nd + 2, dt_void);                                     \
  }

ADAPTIVE_GENERATORS(adaptive_pool1d, 1)

ADAPTIVE_GENERATORS(adaptive_pool2d, 2)

ADAPTIVE_GENERATORS(adaptive_pool3d, 3)

static const OpAttrSpec adaptive_pool1d_attrs[] = {
    {"output_size", AT_INTS, "[]"}, {"layout", AT_STR, "\"NCW\""}, {"out_layout", AT_STR, "\"\""}};

static const OpAttrSpec adaptive_pool2d_attrs[] = {
    {"output_size", AT_INTS, "[]"}, {"layout", AT_STR, "\"NCHW\""}, {"out_layout", AT_STR, "\"\""}};

static const OpAttrSpec adaptive_pool3d_attrs[] = {
    {"output_size", AT_INTS, "[]"}, {"layout", AT_STR, "\"NCDHW\""}, {"out_layout", AT_STR, "\"\""}};

static const OpDef adaptive_pool_ops[] = {
    KIT_OP("nn.adaptive_avg_pool1d", 1, adaptive_pool1d_attrs, adaptive_pool1d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank3, adaptive_pool1d_solve, adaptive_pool1d_sample)),
    KIT_OP("nn.adaptive_avg_pool2d", 1, adaptive_pool2d_attrs, adaptive_pool2d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, adaptive_pool2d_solve, adaptive_pool2d_sample)),
    KIT_OP("nn.adaptive_avg_pool3d", 1, adaptive_pool3d_attrs, adaptive_pool3d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank5, adaptive_pool3d_solve, adaptive_pool3d_sample)),
    KIT_OP("nn.adaptive_max_pool1d", 1, adaptive_pool1d_attrs, adaptive_pool1d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank3, adaptive_pool1d_solve, adaptive_pool1d_sample)),
    KIT_OP("nn.adaptive_max_pool2d", 1, adaptive_pool2d_attrs, adaptive_pool2d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, adaptive_pool2d_solve, adaptive_pool2d_sample)),
    KIT_OP("nn.adaptive_max_pool3d", 1, adaptive_pool3d_attrs, adaptive_pool3d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank5, adaptive_pool3d_solve, adaptive_pool3d_sample)),
};
OP_REGISTER(adaptive_pool_ops);

/* ------------------------------------------ nn.batch_norm, nn.layer_norm, nn.group_norm, nn.instance_norm */

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
    if (!kit_assign(c, i, data->dtype, &ch, 1)) return NULL;
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
    if (!kit_assign(c, i, data->dtype, &data->dims[axis], 1)) return NULL;
  return data;
}

static const Type *norm_rel(OpCall *c) { return norm_common(c, false); }

static const Type *instance_norm_rel(OpCall *c) { return norm_common(c, true); }

static const double epsilons[] = {1e-5, 1e-3};

static void norm_flags(OpGen *g, const OpDef *op, OpPlan *out) {
  opgen_set_float(g, op, out, "epsilon", kit_pick_float(g, epsilons, KIT_NELEMS(epsilons)));
  opgen_set_bool(g, op, out, "center", rng_chance(g->rng, 3, 4));
  opgen_set_bool(g, op, out, "scale", rng_chance(g->rng, 3, 4));
}

/* batch_norm: (data, mean, var), the vectors as long as one of the data's axes. */
static bool batch_norm_axis_ok(const Type *t, size_t a) { return t->args[0]->dims[a] == t->args[1]->dims[0]; }

static bool batch_norm_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TUPLE || t->nargs != 3 || t->args[1] != t->args[2]) return false;
  const Type *data = t->args[0], *v = t->args[1];
  if (!kit_gen_ok_dims(op, data, 1, 16, 1) || v->kind != TY_TENSOR || v->ndims != 1 || !dtype_eq(v->dtype, data->dtype))
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
  const Type *data = kit_rand_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), (size_t)rng_range(g->rng, 1, g->policy->max_rank),
                                     g->policy->max_elements);
  const Type *v = kit_vec(g, data->dtype, data->dims[rng_index(g->rng, data->ndims)]);
  const Type *fields[3] = {data, v, v};
  return batch_norm_solve(g, op, ty_tuple(g->types, fields, 3), out);
}

/* layer_norm / group_norm / instance_norm: gamma and beta along the axis, the data's type out. */
static bool norm_solve_axis(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t a, int64_t spelled) {
  const Type *v = kit_vec(g, t->dtype, t->dims[a]);
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  out->args[1] = out->args[2] = v;
  out->nargs = 3;
  opgen_set_int(g, op, out, "axis", spelled);
  norm_flags(g, op, out);
  out->result = t;
  return true;
}

static bool layer_norm_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 1, 16, 1); }

static bool layer_norm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!layer_norm_recognize(op, t)) return false;
  size_t a = rng_index(g->rng, t->ndims);
  return norm_solve_axis(g, op, t, out, a, spell_axis(g, a, t->ndims));
}

/* group_norm: the channel axis is 1 (NC...) or the last (N...C); num_groups divides it, as
   GroupNormToInferUnpack reshapes C into (num_groups, C / num_groups). */
static bool group_norm_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 2, 16, 1); }

static bool group_norm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!group_norm_recognize(op, t)) return false;
  bool last = rng_chance(g->rng, 1, 3);
  size_t a = last ? t->ndims - 1 : 1;
  norm_solve_axis(g, op, t, out, a, last ? -1 : 1);
  opgen_set_int(g, op, out, "num_groups", kit_divisor_from(g, t->dims[a], 1));
  return true;
}

/* instance_norm: rank > 2 (InstanceNormRel); the channel axis 1 or the last. */
static bool instance_norm_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 3, 16, 1); }

static bool instance_norm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!instance_norm_recognize(op, t)) return false;
  bool last = rng_chance(g->rng, 1, 3);
  return norm_solve_axis(g, op, t, out, last ? t->ndims - 1 : 1, last ? -1 : 1);
}

static bool rank2_plus_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_ranked(g, op, out, 2, g->policy->max_rank, dt_void);
}

static bool rank3_plus_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_ranked(g, op, out, 3, g->policy->max_rank, dt_void);
}

/* BatchNormAttrs, InstanceNormAttrs, LayerNormAttrs (axis -1), GroupNormAttrs. */
#define NORM_ATTRS(axis) \
  {"axis", AT_INT, axis}, {"epsilon", AT_FLOAT, "1e-05f"}, {"center", AT_BOOL, "True"}, {"scale", AT_BOOL, "True"}

static const OpAttrSpec batch_norm_attrs[] = {NORM_ATTRS("1")};

static const OpAttrSpec instance_norm_attrs[] = {NORM_ATTRS("1")};

static const OpAttrSpec layer_norm_attrs[] = {NORM_ATTRS("-1")};

static const OpAttrSpec group_norm_attrs[] = {{"num_groups", AT_INT, "0"}, NORM_ATTRS("1")};

static const OpDef norm_ops[] = {
    /* nn.cc: normalisation and friends */
    KIT_OP("nn.batch_norm", 5, batch_norm_attrs, batch_norm_rel,
           KIT_GEN(OPDT_FLOAT, batch_norm_recognize, batch_norm_solve, batch_norm_sample)),
    KIT_OP("nn.layer_norm", 3, layer_norm_attrs, norm_rel,
           KIT_GEN(OPDT_FLOAT, layer_norm_recognize, layer_norm_solve, rank1_sample)),
    KIT_OP("nn.group_norm", 3, group_norm_attrs, norm_rel,
           KIT_GEN(OPDT_FLOAT, group_norm_recognize, group_norm_solve, rank2_plus_sample)),
    KIT_OP("nn.instance_norm", 3, instance_norm_attrs, instance_norm_rel,
           KIT_GEN(OPDT_FLOAT, instance_norm_recognize, instance_norm_solve, rank3_plus_sample)),
};
OP_REGISTER(norm_ops);

/* ------------------------------------------------------------------ nn.softmax, nn.log_softmax */

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

/* softmax / log_softmax: any axis of a tensor of rank >= 1. */
static bool softmax_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!rank1_recognize(op, t)) return false;
  opgen_unary_solve(g, op, t, out);
  opgen_set_int(g, op, out, "axis", spell_axis(g, rng_index(g->rng, t->ndims), t->ndims));
  return true;
}

static const OpDef softmax_ops[] = {
    KIT_OP("nn.softmax", 1, kit_softmax_attrs, softmax_rel,
           KIT_GEN(OPDT_FLOAT, rank1_recognize, softmax_solve, rank1_sample)),
    KIT_OP("nn.log_softmax", 1, kit_softmax_attrs, softmax_rel,
           KIT_GEN(OPDT_FLOAT, rank1_recognize, softmax_solve, rank1_sample)),
};
OP_REGISTER(softmax_ops);

/* ------------------------------------------------------------------ nn.bias_add, nn.prelu */

/* BiasAddRel (nn.cc): the bias is a vector of the axis's length; the result has the data's type. */
static const Type *bias_add_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t axis = op_int(c, "axis");
  size_t a;
  if (!op_axis(axis, data->ndims, &a)) {
    char b[256];
    return op_fail(c, -1, "%s: The axis in bias_add must be in range for the shape; attempted to access index %lld of %s",
                   c->op->name, (long long)axis, kit_dims_str(data->dims, data->ndims, b, sizeof b));
  }
  return kit_assign(c, 1, data->dtype, &data->dims[a], 1) ? data : NULL;
}

/* PReluRel (nn.cc): alpha is a vector of the axis's length.  TVM does not normalise a negative axis
   (it then indexes out of range), so only [0, rank) is accepted. */
static const Type *prelu_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t axis = op_int(c, "axis");
  if (axis < 0 || axis >= (int64_t)data->ndims)
    return op_fail(c, -1, "%s: Wrong axis (%lld)value.", c->op->name, (long long)axis);
  return kit_assign(c, 1, data->dtype, &data->dims[axis], 1) ? data : NULL;
}

/* bias_add and prelu: a vector along one axis of the data.  PReluRel does not normalise a negative
   axis, so prelu's is always spelled from the front. */
static bool vector_along_axis_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, bool negative_ok) {
  if (!rank1_recognize(op, t)) return false;
  size_t a = rng_index(g->rng, t->ndims);
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  out->args[1] = kit_vec(g, t->dtype, t->dims[a]);
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

static const OpAttrSpec bias_add_attrs[] = {{"axis", AT_INT, "1"}};

static const OpAttrSpec prelu_attrs[] = {{"axis", AT_INT, "1"}};

static const OpDef vector_along_axis_ops[] = {
    KIT_OP("nn.bias_add", 2, bias_add_attrs, bias_add_rel,
           KIT_GEN(OPDT_FLOAT, rank1_recognize, bias_add_solve, rank1_sample)),
    KIT_OP("nn.prelu", 2, prelu_attrs, prelu_rel,
           KIT_GEN(OPDT_FLOAT, rank1_recognize, prelu_solve, rank1_sample)),
};
OP_REGISTER(vector_along_axis_ops);

/* ------------------------------------------------------------------ nn.dropout */

/* DropoutRel (nn.cc): (output, mask), both of the data's type. */
static const Type *dropout_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const Type *fields[2] = {data, data};
  return ty_tuple(c->types, fields, 2);
}

/* dropout: (output, mask), both of the data's type. */
static bool dropout_recognize(const OpDef *op, const Type *t) {
  return t->kind == TY_TUPLE && t->nargs == 2 && t->args[0] == t->args[1] &&
         kit_gen_ok_dims(op, t->args[0], 0, 16, 0);
}

static bool dropout_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!dropout_recognize(op, t)) return false;
  static const double rates[] = {0.1, 0.25, 0.5, 0.75};
  opgen_plan_init(g, op, out);
  out->args[0] = t->args[0];
  out->nargs = 1;
  opgen_set_float(g, op, out, "rate", kit_pick_float(g, rates, KIT_NELEMS(rates)));
  out->result = t;
  return true;
}

static bool dropout_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *d = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 0, g->policy->max_rank);
  const Type *fields[2] = {d, d};
  return dropout_solve(g, op, ty_tuple(g->types, fields, 2), out);
}

static const OpAttrSpec dropout_attrs[] = {{"rate", AT_FLOAT, "0.5f"}};

static const OpDef dropout_ops[] = {
    KIT_OP("nn.dropout", 1, dropout_attrs, dropout_rel,
           KIT_GEN(OPDT_FLOAT, dropout_recognize, dropout_solve, dropout_sample)),
};
OP_REGISTER(dropout_ops);

/* ------------------------------------------------------------------ nn.lrn (IdentityRel) */

/* lrn: topi's lrn is 4-D only, over axis 1 (NCHW) or 3 (NHWC), with an odd window. */
static bool lrn_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!kit_nn_rank4(op, t)) return false;
  static const double bias[] = {1, 2}, alpha[] = {1e-4, 1e-3}, beta[] = {0.5, 0.75};
  opgen_unary_solve(g, op, t, out);
  opgen_set_int(g, op, out, "size", 2 * rng_range(g->rng, 0, 2) + 1);
  opgen_set_int(g, op, out, "axis", rng_chance(g->rng, 1, 2) ? 1 : 3);
  opgen_set_float(g, op, out, "bias", kit_pick_float(g, bias, 2));
  opgen_set_float(g, op, out, "alpha", kit_pick_float(g, alpha, 2));
  opgen_set_float(g, op, out, "beta", kit_pick_float(g, beta, 2));
  return true;
}

static const OpAttrSpec lrn_attrs[] = {{"size", AT_INT, "5"},
                                       {"axis", AT_INT, "1"},
                                       {"bias", AT_FLOAT, "2f"},
                                       {"alpha", AT_FLOAT, "0.0001f"},
                                       {"beta", AT_FLOAT, "0.75f"}};

static const OpDef lrn_ops[] = {
    KIT_OP("nn.lrn", 1, lrn_attrs, kit_identity_rel, KIT_GEN(OPDT_FLOAT, kit_nn_rank4, lrn_solve, rank4_sample)),
};
OP_REGISTER(lrn_ops);

/* ------------------------------------------------------------------ nn.l2_normalize */

/* nn.l2_normalize registers IdentityRel; its eps and axis have no defaults. */
static const Type *l2_normalize_rel(OpCall *c) {
  if (!kit_required(c, "eps") || !kit_required(c, "axis")) return NULL;
  return op_tensor_arg(c, 0);
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
  opgen_set_float(g, op, out, "eps", kit_pick_float(g, eps, KIT_NELEMS(eps)));
  opgen_set_ints(g, op, out, "axis", axes, n);
  return true;
}

static const OpAttrSpec l2_normalize_attrs[] = {{"eps", AT_FLOAT, "None"}, {"axis", AT_INTS, "None"}};

static const OpDef l2_normalize_ops[] = {
    KIT_OP("nn.l2_normalize", 1, l2_normalize_attrs, l2_normalize_rel,
           KIT_GEN(OPDT_FLOAT, rank1_recognize, l2_normalize_solve, rank1_sample)),
};
OP_REGISTER(l2_normalize_ops);

/* ------------------------------------------------------------------ nn.batch_flatten */

/* BatchFlattenRel (nn.cc): (d0, d1 * d2 * ...); a `?` among d1... makes the product `?`. */
static const Type *batch_flatten_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "%s: the data must have at least one dimension", c->op->name);
  int64_t out[2] = {data->dims[0], 1};
  for (size_t i = 1; i < data->ndims; i++) {
    if (data->dims[i] == KIT_ANY) {
      out[1] = KIT_ANY;
      break;
    }
    if (!kit_fit(c, (KitWide)out[1] * data->dims[i], &out[1])) return NULL;
  }
  return ty_tensor(c->types, data->dtype, out, 2);
}

/* batch_flatten: (d0, d1 * d2 * ...); the data splits the second extent into factors. */
static bool batch_flatten_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 2, 2, 0); }

static bool batch_flatten_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!batch_flatten_recognize(op, t)) return false;
  int64_t dims[4] = {t->dims[0]}, rest = t->dims[1];
  size_t rank = (size_t)rng_range(g->rng, 1, 4);
  if (rank == 1 && rest != 1) rank = 2; /* rank 1 flattens to (d0, 1) */
  if (rest == 0) rank = 2;              /* no factors of 0 to spread */
  for (size_t i = 1; i + 1 < rank; i++) {
    dims[i] = kit_divisor_from(g, rest, 1);
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
  return kit_sample_ranked(g, op, out, 2, 2, dt_void);
}

static const OpDef batch_flatten_ops[] = {
    /* a reshape: any dtype */
    {.name = "nn.batch_flatten",
     .min_args = 1,
     .max_args = 1,
     .relation = batch_flatten_rel,
     KIT_GEN(OPDT_ANY, batch_flatten_recognize, batch_flatten_solve, batch_flatten_sample)},
};
OP_REGISTER(batch_flatten_ops);

/* ------------------------------------------------------------------ nn.pad */

/* PadRel (pad.cc): one (before, after) pair per dimension; `?` stays `?`.  Negative widths are
   allowed as long as the padded dimension is not negative.  The pad value (argument 2) is not
   constrained by the relation. */
static const Type *pad_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data || !kit_required(c, "pad_width")) return NULL;
  const AttrVal *pw = op_attr(c, "pad_width");
  const char *name = c->op->name;
  if (pw->kind != ATTR_LIST) return op_fail(c, -1, "%s: pad_width must be a list of (before, after) pairs", name);
  if (pw->n != data->ndims)
    return op_fail(c, -1,
                   "%s: There should be as many pad width pairs as shape dimensions but the shape has %u dimensions and "
                   "there are %zu pad width pairs.",
                   name, data->ndims, pw->n);
  int64_t *oshape = kit_dims_dup(data);
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
    if (oshape[i] == KIT_ANY) continue;
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
  return kit_tensor_free(c, data->dtype, oshape, data->ndims);
}

/* pad: each extent grows by its (before, after) pair; the pad value is a scalar of the data's
   dtype.  Non-negative widths only (topi's pad takes no negative ones); "reflect" needs widths
   below the extent, "edge" and "reflect" a non-empty extent. */
static bool pad_recognize(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 0, 16, 0); }

static bool pad_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!pad_recognize(op, t)) return false;
  static const char *const modes[] = {"constant", "constant", "edge", "reflect"};
  const char *mode = kit_pick_str(g, modes, KIT_NELEMS(modes));
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
  opgen_set_attr(op, out, "pad_width", (AttrVal){.kind = ATTR_LIST, .items = pairs, .n = t->ndims});
  opgen_set_str(g, op, out, "pad_mode", mode);
  out->result = t;
  return true;
}

static const OpDef pad_ops[] = {
    /* pad.cc, upsampling.cc, image/resize.cc */
    KIT_OP("nn.pad", 2, kit_pad_attrs, pad_rel,
           KIT_GEN(OPDT_NUMERIC, pad_recognize, pad_solve, opgen_sample_by_solving)),
};
OP_REGISTER(pad_ops);

/* ------------------------------------------------------------------ nn.upsampling, nn.upsampling3d */

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
    if (!kit_required(c, sc[i])) return NULL;
  KitLayout canon, l;
  kit_layout_parse(c, "", nd == 2 ? "NCHW" : "NCDHW", &canon);
  const char *fmt = nd == 2 ? "UpSampling only support input layouts that are convertible from %s. But got %s"
                            : "UpSampling3D only support input layouts that are convertible from %s. But got %s";
  int64_t s[KIT_LAYOUT_MAX], o[KIT_LAYOUT_MAX];
  if (!kit_layout_to_canon(c, "layout", op_str(c, "layout"), &canon, &l, fmt) ||
      !kit_layout_convert(c, 0, &l, data->dims, data->ndims, &canon, s))
    return NULL;
  for (size_t i = 0; i < nd; i++) {
    if (s[2 + i] == KIT_ANY) continue;
    double scaled = (double)s[2 + i] * op_float(c, sc[i]);
    /* TVM casts it to int64 as it is: out of range (or NaN) that is undefined and makes no shape */
    if (!(scaled > -0x1p63 && scaled < 0x1p63))
      return op_fail(c, -1, "%s: the scaled dimension (%g) does not fit int64", c->op->name, scaled);
    s[2 + i] = round_half_even(scaled);
    if (s[2 + i] < 0) return op_fail(c, -1, "%s: the scaled dimension would be negative (%lld)", c->op->name, (long long)s[2 + i]);
  }
  if (!kit_layout_convert(c, -1, &canon, s, canon.ndim, &l, o)) return NULL;
  return ty_tensor(c->types, data->dtype, o, l.ndim);
}

static const Type *upsampling_rel(OpCall *c) { return upsampling_common(c, 2); }

static const Type *upsampling3d_rel(OpCall *c) { return upsampling_common(c, 3); }

/* upsampling / upsampling3d: each scaled extent is round(in * scale) in float64, so a scale works
   when some input extent rounds to the wanted one; 1 always does (and is taken when `one`). */
static double pick_scale(OpGen *g, int64_t o, int64_t *in, bool one) {
  static const double scales[] = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0};
  double s = scales[rng_index(g->rng, KIT_NELEMS(scales))];
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
    if (attempt >= 7 || kit_prod(dims, t->ndims) <= kit_derived_budget(g)) break;
  }
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, dims, t->ndims);
  out->nargs = 1;
  for (size_t i = 0; i < nd; i++) opgen_set_float(g, op, out, scale_names[3 - nd + i], scale[i]);
  opgen_set_str(g, op, out, "layout", layout);
  if (nd == 2) {
    static const char *const methods[] = {"nearest_neighbor", "bilinear", "bicubic"};
    opgen_set_str(g, op, out, "method", kit_pick_str(g, methods, KIT_NELEMS(methods)));
    opgen_set_bool(g, op, out, "align_corners", rng_chance(g->rng, 1, 2));
  } else {
    static const char *const methods[] = {"nearest_neighbor", "trilinear"};
    static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric"};
    opgen_set_str(g, op, out, "method", kit_pick_str(g, methods, KIT_NELEMS(methods)));
    opgen_set_str(g, op, out, "coordinate_transformation_mode", kit_pick_str(g, modes, KIT_NELEMS(modes)));
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

static const OpDef upsampling_ops[] = {
    KIT_OP("nn.upsampling", 1, kit_upsampling_attrs, upsampling_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, upsampling_solve, rank4_sample)),
    KIT_OP("nn.upsampling3d", 1, kit_upsampling3d_attrs, upsampling3d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank5, upsampling3d_solve, rank5_sample)),
};
OP_REGISTER(upsampling_ops);

/* ------------------------------------------------------------------ image.resize2d */

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
  if (kit_const_ints(c, "size", sz, 2) < 0 || !kit_nonneg_as(c, "size", sz, 2)) return NULL;
  KitLayout canon, l;
  kit_layout_parse(c, "", "NCHW", &canon);
  int64_t s[KIT_LAYOUT_MAX], o[KIT_LAYOUT_MAX];
  if (!kit_layout_to_canon(c, "layout", op_str(c, "layout"), &canon, &l,
                       "Resize only support input layouts that are convertible from %s. But got %s") ||
      !kit_layout_convert(c, 0, &l, data->dims, data->ndims, &canon, s))
    return NULL;
  s[2] = sz[0];
  s[3] = sz[1];
  if (!kit_layout_convert(c, -1, &canon, s, 4, &l, o)) return NULL;
  DType out_dtype = op_dtype(c, "out_dtype");
  if (out_dtype.code == DT_VOID) out_dtype = data->dtype;
  return ty_tensor(c->types, out_dtype, o, l.ndim);
}

/* image.resize2d: size is the result's H and W, the input's are free; roi is four floats. */
static bool resize2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!kit_nn_rank4(op, t)) return false;
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
  opgen_set_attr(op, out, "roi", (AttrVal){.kind = ATTR_LIST, .items = roi, .n = 4});
  opgen_set_str(g, op, out, "layout", layout);
  const char *method = kit_pick_str(g, methods, KIT_NELEMS(methods));
  opgen_set_str(g, op, out, "method", method);
  opgen_set_str(g, op, out, "coordinate_transformation_mode", kit_pick_str(g, modes, KIT_NELEMS(modes)));
  if (!strcmp(method, "nearest_neighbor")) /* rounding only matters there */
    opgen_set_str(g, op, out, "rounding_method", kit_pick_str(g, roundings, KIT_NELEMS(roundings)));
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static const OpDef resize2d_ops[] = {
    KIT_OP("image.resize2d", 1, kit_resize2d_attrs, resize2d_rel,
           KIT_GEN(OPDT_FLOAT, kit_nn_rank4, resize2d_solve, rank4_sample)),
};
OP_REGISTER(resize2d_ops);

/* ----------------------------------------------------------- qnn.quantize, qnn.dequantize, qnn.requantize */

static bool is_dtype(DType d, DTypeCode code, int bits) { return d.code == code && d.bits == bits && d.lanes == 1; }

/* The quantisation axis: negative counts from the end (0 for a scalar). */
static int64_t qnn_axis(int64_t axis, size_t rank) { return axis < 0 ? (rank > 0 ? (int64_t)rank + axis : 0) : axis; }

/* The quantized dtypes of quantize's result and dequantize's data: v0.19.0 added uint16. */
typedef struct QnnTypes {
  const DType *set;
  size_t n;
  const char *quantize_msg, *dequantize_msg; /* TVM's lists, as its messages spell them */
} QnnTypes;

static const DType qnn_io_types_v13[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_INT, 32, 1}};

static const DType qnn_io_types[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_UINT, 16, 1}, {DT_INT, 32, 1}};

static const QnnTypes qnn_types_v13 = {qnn_io_types_v13, KIT_NELEMS(qnn_io_types_v13), "[int8, unit8, int16, int32]",
                                       "[unit8, int8, int16, int32]"};

static const QnnTypes qnn_types = {qnn_io_types, KIT_NELEMS(qnn_io_types), "[int8, unit8, int16, uint16, int32]",
                                   "[int8, unit8, int16, uint16, int32]"};

/* QuantizeRel (src/relay/qnn/op/quantize.cc): float32 in; scale (float32) and zero point (int32) are
   scalars or vectors along the axis; out_dtype is an integer type. */
static const Type *quantize_rel_with(OpCall *c, const QnnTypes *q) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  char b1[16];
  if (!is_dtype(data->dtype, DT_FLOAT, 32))
    return op_fail(c, 0, "%s: Input type should be one of float32 but was %s", c->op->name, kit_dtype_name(data->dtype, b1));
  size_t rank = data->ndims;
  int64_t axis = qnn_axis(op_int(c, "axis"), rank);
  const Type *scale = op_tensor_arg(c, 1), *zp = scale ? op_tensor_arg(c, 2) : NULL;
  if (!zp) return NULL;
  bool scalars = scale->ndims == 0 && zp->ndims == 0;
  /* Out of range fails TVM's check, or (with scalar parameters) its data->shape[axis]. */
  if ((rank > 0 || !scalars) && (axis < 0 || axis >= (int64_t)(rank > 0 ? rank : 1)))
    return op_fail(c, -1, "%s: axis %lld is out of range", c->op->name, (long long)op_int(c, "axis"));
  int64_t len = rank > 0 ? data->dims[axis] : 1;
  if (!kit_qnn_assign_arg(c, 1, dt_float32, len) || !kit_qnn_assign_arg(c, 2, dt_int32, len)) return NULL;
  DType out = op_dtype(c, "out_dtype");
  if (!kit_dtype_in(out, q->set, q->n))
    return op_fail(c, -1, "%s: Output type should be one of %s but was %s", c->op->name, q->quantize_msg,
                   kit_dtype_name(out, b1));
  return ty_tensor(c->types, out, data->dims, rank);
}

static const Type *quantize_rel_v13(OpCall *c) { return quantize_rel_with(c, &qnn_types_v13); }

static const Type *quantize_rel(OpCall *c) { return quantize_rel_with(c, &qnn_types); }

/* DequantizeRel (src/relay/qnn/op/dequantize.cc): scale and zero point count as scalars also when
   they hold one element.  The result is float32 in v0.13.0; v0.19.0 says which, out_dtype (float32
   or float16), when the schema has it. */
static const Type *dequantize_rel_with(OpCall *c, const QnnTypes *q) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  char b1[16];
  if (!kit_dtype_in(data->dtype, q->set, q->n))
    return op_fail(c, 0, "%s: Input type should be one of the quantized types %s but was %s", c->op->name,
                   q->dequantize_msg, kit_dtype_name(data->dtype, b1));
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
  if (!kit_qnn_assign_arg(c, 1, dt_float32, len) || !kit_qnn_assign_arg(c, 2, dt_int32, len)) return NULL;
  DType out = dt_float32;
  if (q == &qnn_types) {
    out = op_dtype(c, "out_dtype");
    if (!dtype_eq(out, dt_float32) && !dtype_eq(out, DT(DT_FLOAT, 16)))
      return op_fail(c, -1, "%s: Output type should be one of [float16, float32] but was %s", c->op->name,
                     kit_dtype_name(out, b1));
  }
  return ty_tensor(c->types, out, data->dims, rank);
}

static const Type *dequantize_rel_v13(OpCall *c) { return dequantize_rel_with(c, &qnn_types_v13); }

static const Type *dequantize_rel(OpCall *c) { return dequantize_rel_with(c, &qnn_types); }

/* RequantizeRel (src/relay/qnn/op/requantize.cc): the input scale and zero point follow the axis;
   the output ones are scalars. */
static const Type *requantize_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  char b1[16];
  static const DType in_types[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_INT, 32, 1}, {DT_INT, 64, 1}};
  static const DType out_types[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_INT, 32, 1}};
  if (!kit_dtype_in(data->dtype, in_types, KIT_NELEMS(in_types)))
    return op_fail(c, 0, "%s: Input type should be one of [int8, uint8, int16, int32, int64] but was %s", c->op->name,
                   kit_dtype_name(data->dtype, b1));
  size_t rank = data->ndims;
  int64_t axis = qnn_axis(op_int(c, "axis"), rank);
  if (axis < 0 || axis >= (int64_t)(rank > 0 ? rank : 1))
    return op_fail(c, -1, "%s: axis %lld is out of range", c->op->name, (long long)op_int(c, "axis"));
  int64_t len = rank > 0 ? data->dims[axis] : 1;
  if (!kit_qnn_assign_arg(c, 1, dt_float32, len) || !kit_qnn_assign_arg(c, 2, dt_int32, len) ||
      !kit_qnn_scalar_arg(c, 3, dt_float32, "output_scale") || !kit_qnn_scalar_arg(c, 4, dt_int32, "output_zero_point"))
    return NULL;
  DType out = op_dtype(c, "out_dtype");
  if (!kit_dtype_in(out, out_types, KIT_NELEMS(out_types)))
    return op_fail(c, -1, "%s: Output type should be one of [int8, uint8, int16, int32] but was %s", c->op->name,
                   kit_dtype_name(out, b1));
  return ty_tensor(c->types, out, data->dims, rank);
}

static const DType gen_q8[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}};

static const DType gen_q8_32[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 32, 1}};

/* A scale (float32) and zero point (int32): scalars, or vectors along a random axis of `data`.
   Sets the axis attribute (in range whenever the data has a dimension: the relations check it). */
static void qnn_params(OpGen *g, const OpDef *op, OpPlan *out, const Type *data, size_t at) {
  size_t rank = data->ndims;
  bool per_axis = rank > 0 && rng_chance(g->rng, 1, 2);
  size_t a = rank > 0 ? rng_index(g->rng, rank) : 0;
  if (rank > 0) opgen_set_int(g, op, out, "axis", spell_axis(g, a, rank));
  out->args[at] = per_axis ? kit_vec(g, dt_float32, data->dims[a]) : ty_scalar(g->types, dt_float32);
  out->args[at + 1] = per_axis ? kit_vec(g, dt_int32, data->dims[a]) : ty_scalar(g->types, dt_int32);
}

/* quantize: float32 in, int8 / uint8 out (what QNN's lowering clips to). */
static bool quantize_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return kit_static_in(t, gen_q8, KIT_NELEMS(gen_q8));
}

static bool quantize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!quantize_recognize(op, t)) return false;
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, dt_float32);
  qnn_params(g, op, out, out->args[0], 1);
  out->nargs = 3;
  kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}

static bool quantize_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return quantize_solve(g, op, opgen_tensor(g, gen_q8[rng_index(g->rng, 2)], 0, g->policy->max_rank), out);
}

/* dequantize: int8 / uint8 / int32 in, float32 out. */
static bool dequantize_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return kit_static_in(t, &dt_float32, 1);
}

static bool dequantize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!dequantize_recognize(op, t)) return false;
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, gen_q8_32[rng_index(g->rng, KIT_NELEMS(gen_q8_32))]);
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
  return kit_static_in(t, gen_q8_32, KIT_NELEMS(gen_q8_32));
}

static bool requantize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!requantize_recognize(op, t)) return false;
  static const char *const roundings[] = {"None", "UPWARD", "TONEAREST"};
  static const char *const compute[] = {"None", "int64", "float32", "float64"};
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, gen_q8_32[rng_index(g->rng, KIT_NELEMS(gen_q8_32))]);
  qnn_params(g, op, out, out->args[0], 1);
  out->args[3] = ty_scalar(g->types, dt_float32);
  out->args[4] = ty_scalar(g->types, dt_int32);
  out->nargs = 5;
  opgen_set_str(g, op, out, "rounding", kit_pick_str(g, roundings, KIT_NELEMS(roundings)));
  opgen_set_str(g, op, out, "compute_dtype", kit_pick_str(g, compute, KIT_NELEMS(compute)));
  kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}

static bool requantize_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  DType d = gen_q8_32[rng_index(g->rng, KIT_NELEMS(gen_q8_32))];
  return requantize_solve(g, op, opgen_tensor(g, d, 0, g->policy->max_rank), out);
}

/* QuantizeAttrs: out_dtype has no default.  DequantizeAttrs: kit_dequantize_attrs (kit_attrs.c).
   RequantizeAttrs: rounding and compute_dtype default to the string "None" (chosen from
   RequantizeConfig later). */
static const OpAttrSpec quantize_attrs[] = {{"out_dtype", AT_DTYPE, "None"}, {"axis", AT_INT, "-1"}};

static const OpAttrSpec requantize_attrs[] = {{"axis", AT_INT, "-1"},
                                              {"rounding", AT_STR, "\"None\""},
                                              {"compute_dtype", AT_STR, "\"None\""},
                                              {"out_dtype", AT_DTYPE, "\"\""}};

static const OpDef quantize_ops[] = {
    KIT_OP("qnn.quantize", 3, quantize_attrs, quantize_rel_v13,
           KIT_GEN(OPDT_INT, quantize_recognize, quantize_solve, quantize_sample), OP_TVM_ONLY(TVM_0_13)),
    KIT_OP("qnn.quantize", 3, quantize_attrs, quantize_rel,
           KIT_GEN(OPDT_INT, quantize_recognize, quantize_solve, quantize_sample), OP_TVM_ONLY(TVM_0_19)),
    /* generated for float32 results in both (the recognizer's), so that a seed gives the same
       programs; v0.19.0's prints out_dtype="float32", which it requires */
    KIT_OP("qnn.dequantize", 3, kit_dequantize_attrs_v13, dequantize_rel_v13,
           KIT_GEN(OPDT_FLOAT, dequantize_recognize, dequantize_solve, dequantize_sample), OP_TVM_ONLY(TVM_0_13)),
    KIT_OP("qnn.dequantize", 3, kit_dequantize_attrs, dequantize_rel,
           KIT_GEN(OPDT_FLOAT, dequantize_recognize, dequantize_solve, dequantize_sample), OP_TVM_ONLY(TVM_0_19)),
    KIT_OP("qnn.requantize", 5, requantize_attrs, requantize_rel,
           KIT_GEN(OPDT_INT, requantize_recognize, requantize_solve, requantize_sample)),
};
OP_REGISTER(quantize_ops);
