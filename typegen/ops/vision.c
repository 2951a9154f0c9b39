/*
 * Vision operators: anchors and box decoding (multibox_prior, multibox_transform_loc), box
 * filtering (get_valid_counts, non_max_suppression, all_class_non_max_suppression), region pooling
 * (roi_align, roi_pool, proposal) and yolo_reorg.  Facts from TVM v0.13
 * src/relay/op/vision/{multibox_op.cc, nms.cc, rcnn_op.cc, yolo.cc}, the attribute structs in
 * include/tvm/relay/attrs/vision.h, and python/tvm/relay/op/vision/ (multibox.py, nms.py, rcnn.py)
 * for the argument types the Python API builds (scalar thresholds and counts).
 *
 * Departures from TVM, deliberate:
 *   - get_valid_counts, non_max_suppression, all_class_non_max_suppression, roi_align, roi_pool and
 *     proposal are registered without set_attrs_type, so TVM's parser takes keyword attributes for
 *     them only with attrs_type_key="relay.attrs.XAttrs" (and its printer writes their attributes
 *     as meta[relay.attrs.XAttrs][0], which relaykit does not read).  Their schemas list the attrs
 *     struct's fields and then attrs_type_key; a call with attributes but no key is rejected with the
 *     parser's message, and a call without attributes is rejected where the relation reads them
 *     (TVM crashes or fails an ICHECK there).  get_valid_counts's score_threshold has no default in
 *     TVM (required once the attributes are built from text); relaykit cannot tell an explicit None
 *     from a missing field and accepts both.
 *   - Float list attributes (sizes, ratios, steps, offsets, variances, scales) have kind AT_ANY:
 *     their defaults are lists of floats.
 *   - A product with a `?` dimension (multibox_prior's H*W*k, proposal's batch*post_nms_top_n,
 *     yolo_reorg's C*stride*stride) is `?`: TVM keeps a symbolic expression a type here cannot hold.
 *     A dimension that would be negative is rejected.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(vision);

/* ================================================================== helpers the blocks below share */

static const Type *tuple2(OpCall *c, const Type *a, const Type *b) {
  const Type *f[2] = {a, b};
  return ty_tuple(c->types, f, 2);
}

static void set_key(OpGen *g, const OpDef *op, OpPlan *out, const char *key) {
  opgen_set_str(g, op, out, "attrs_type_key", key);
}

static bool is_tensor_of(const Type *t, DType dt, const int64_t *dims, size_t n) {
  if (t->kind != TY_TENSOR || !dtype_eq(t->dtype, dt) || t->ndims != n) return false;
  for (size_t i = 0; i < n; i++)
    if (t->dims[i] != dims[i]) return false;
  return true;
}

static bool rank4_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_rank(g, op, out, 4); }

/* ------------------------------------------------------------------ vision.multibox_prior */

/* MultiboxPriorRel: (1, H * W * (len(sizes) + len(ratios) - 1), 4) in the data's dtype. */
static const Type *multibox_prior_rel(OpCall *c) {
  const Type *data = kit_ranked(c, 0, 4, "Input data should be 4D: [batch, channel, height, width]");
  if (!data) return NULL;
  long ns = kit_list_len(c, "sizes"), nr = ns < 0 ? -1 : kit_list_len(c, "ratios");
  if (nr < 0) return NULL;
  int64_t k = ns + nr - 1;
  if (k < 0)
    return op_fail(c, -1, "%s: sizes and ratios are both empty: a negative box count per position",
                   c->op->name);
  int64_t dims[3] = {1, kit_dim_mul_folded(kit_dim_mul_folded(data->dims[2], data->dims[3]), k), 4};
  return ty_tensor(c->types, data->dtype, dims, 3);
}

/* multibox_prior: (1, H*W*k, 4); k = len(sizes) + len(ratios) - 1, both lists non-empty. */
static bool multibox_prior_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 3, 3) && t->dims[0] == 1 && t->dims[2] == 4;
}

static bool multibox_prior_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  static const double sizes[] = {0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5};
  static const double ratios[] = {0.5, 1.0, 1.3, 2.0, 2.4, 3.0};
  int64_t k = kit_divisor_of(g, t->dims[1], 8), hw = t->dims[1] / k, h = kit_divisor_of(g, hw, hw), w = hw / h;
  int64_t ns = rng_range(g->rng, 1, k), nr = k + 1 - ns;
  opgen_plan_init(g, op, out);
  int64_t bc[2], budget = kit_budget(g, t) / hw;
  opgen_dims(g, 2, budget, bc);
  int64_t d[4] = {bc[0], bc[1], h, w};
  kit_arg(out, kit_tensor(g, t->dtype, d, 4));
  double v[8];
  for (int64_t i = 0; i < ns; i++)
    v[i] = kit_pick_float(g, sizes, KIT_NELEMS(sizes));
  kit_set_floats(g, op, out, "sizes", v, (size_t)ns);
  for (int64_t i = 0; i < nr; i++)
    v[i] = kit_pick_float(g, ratios, KIT_NELEMS(ratios));
  kit_set_floats(g, op, out, "ratios", v, (size_t)nr);
  if (rng_chance(g->rng, 1, 2)) {
    static const double steps[] = {0.02, 0.05, 0.1, 0.25};
    v[0] = kit_pick_float(g, steps, KIT_NELEMS(steps));
    v[1] = kit_pick_float(g, steps, KIT_NELEMS(steps));
    kit_set_floats(g, op, out, "steps", v, 2);
  }
  if (rng_chance(g->rng, 1, 3)) {
    v[0] = v[1] = rng_chance(g->rng, 1, 2) ? 0.25 : 0.75;
    kit_set_floats(g, op, out, "offsets", v, 2);
  }
  opgen_set_bool(g, op, out, "clip", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static bool multibox_prior_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t hw[2];
  opgen_dims(g, 2, g->policy->max_elements / 16, hw);
  int64_t d[3] = {1, hw[0] * hw[1] * rng_range(g->rng, 1, 4), 4};
  return multibox_prior_solve(g, op, kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 3), out);
}

/* include/tvm/relay/attrs/vision.h, fields in declaration order; attrs_type_key last for the ops
   TVM registers without an attrs type (see the comment at the top). */
static const OpAttrSpec multibox_prior_attrs[] = {{"sizes", AT_ANY, "[1f]"},
                                                  {"ratios", AT_ANY, "[1f]"},
                                                  {"steps", AT_ANY, "[-1f, -1f]"},
                                                  {"offsets", AT_ANY, "[0.5f, 0.5f]"},
                                                  {"clip", AT_BOOL, "False"}};

static const OpDef multibox_prior_ops[] = {
    /* multibox_op.cc */
    KIT_OP("vision.multibox_prior", 1, multibox_prior_attrs, multibox_prior_rel,
           KIT_GEN(OPDT_FLOAT, multibox_prior_recognize, multibox_prior_solve, multibox_prior_sample)),
};
OP_REGISTER(multibox_prior_ops);

/* ------------------------------------------------------------------ vision.multibox_transform_loc */

/* MultiBoxTransformLocRel: cls_prob (B, classes, A), loc_pred (B, 4A), anchor (_, A, 4) give
   ((B, A, 6) in cls_prob's dtype, (B) int32). */
static const Type *multibox_transform_loc_rel(OpCall *c) {
  const Type *cls = op_tensor_arg(c, 0), *loc = cls ? op_tensor_arg(c, 1) : NULL,
             *anchor = loc ? op_tensor_arg(c, 2) : NULL;
  if (!anchor) return NULL;
  if (cls->ndims != 3)
    return op_fail(c, 0, "The dimension of class probability should be 3, but received %u", cls->ndims);
  if (loc->ndims != 2)
    return op_fail(c, 1, "The dimension of location prediction should be 2, but received %u", loc->ndims);
  if (anchor->ndims != 3)
    return op_fail(c, 2, "The dimension of anchor should be 3, but received %u", anchor->ndims);
  if (!kit_dim_match(cls->dims[2], anchor->dims[1])) return op_fail(c, 2, "Number of anchors mismatch found");
  if (!kit_dim_match(kit_dim_mul_folded(cls->dims[2], 4), loc->dims[1]))
    return op_fail(c, 1, "# anchors mismatch with # loc.");
  if (anchor->dims[1] == 0) return op_fail(c, 2, "Number of anchors must > 0.");
  if (!kit_dim_match(anchor->dims[2], 4))
    return op_fail(
        c, 2,
        "%s: Check failed: reporter->AssertEQ(anchor_shape[2], 4) (the anchor's last dimension is %lld)",
        c->op->name, (long long)anchor->dims[2]);
  int64_t d0[3] = {cls->dims[0], anchor->dims[1], 6};
  return tuple2(c, ty_tensor(c->types, cls->dtype, d0, 3), ty_tensor(c->types, dt_int32, cls->dims, 1));
}

/* multibox_transform_loc: ((B, A, 6), (B) int32); cls_prob (B, classes, A), loc (B, 4A), anchor
   (1, A, 4), all of the result's dtype. */
static bool mtl_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TUPLE || t->nargs != 2) return false;
  const Type *a = t->args[0];
  return kit_gen_ok(a, (OpDtypes)op->gen_dtypes, 3, 3) && a->dims[2] == 6 &&
         is_tensor_of(t->args[1], dt_int32, a->dims, 1);
}

static bool mtl_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  const Type *a = t->args[0];
  int64_t b = a->dims[0], n = a->dims[1], classes;
  opgen_dims(g, 1, kit_budget(g, t) / (b * n), &classes);
  opgen_plan_init(g, op, out);
  int64_t cd[3] = {b, classes, n}, ld[2] = {b, 4 * n}, ad[3] = {1, n, 4};
  kit_arg(out, kit_tensor(g, a->dtype, cd, 3));
  kit_arg(out, kit_tensor(g, a->dtype, ld, 2));
  kit_arg(out, kit_tensor(g, a->dtype, ad, 3));
  opgen_set_bool(g, op, out, "clip", rng_chance(g->rng, 1, 2));
  static const double thresholds[] = {0.01, 0.02, 0.05, 0.1};
  opgen_set_float(g, op, out, "threshold", kit_pick_float(g, thresholds, KIT_NELEMS(thresholds)));
  if (rng_chance(g->rng, 1, 3)) {
    double v[4] = {0.2, 0.2, 0.3, 0.3};
    kit_set_floats(g, op, out, "variances", v, 4);
  }
  out->result = t;
  return true;
}

static bool mtl_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[3];
  opgen_dims(g, 2, g->policy->max_elements / 8, d);
  d[2] = 6;
  const Type *f[2] = {kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 3), kit_tensor(g, dt_int32, d, 1)};
  return mtl_solve(g, op, ty_tuple(g->types, f, 2), out);
}

static const OpAttrSpec multibox_transform_loc_attrs[] = {{"clip", AT_BOOL, "True"},
                                                          {"threshold", AT_FLOAT, "0.01f"},
                                                          {"variances", AT_ANY, "[0.1f, 0.1f, 0.2f, 0.2f]"}};

static const OpDef multibox_transform_loc_ops[] = {
    KIT_OP("vision.multibox_transform_loc", 3, multibox_transform_loc_attrs, multibox_transform_loc_rel,
           KIT_GEN(OPDT_FLOAT, mtl_recognize, mtl_solve, mtl_sample)),
};
OP_REGISTER(multibox_transform_loc_ops);

/* ------------------------------------------------------------------ vision.get_valid_counts */

/* GetValidCountRel: data (B, N, E) gives ((B) int32, data, (B, N) int32).  The score_threshold
   argument is not looked at. */
static const Type *get_valid_counts_rel(OpCall *c) {
  if (!kit_keyed_attrs(c, "relay.attrs.GetValidCountsAttrs", false)) return NULL;
  const Type *data = kit_ranked(c, 0, 3, "Input data should be 3-D.");
  if (!data) return NULL;
  const Type *f[3] = {ty_tensor(c->types, dt_int32, data->dims, 1), data,
                      ty_tensor(c->types, dt_int32, data->dims, 2)};
  return ty_tuple(c->types, f, 3);
}

/* get_valid_counts: ((B) int32, data (B, N, E), (B, N) int32); the threshold is a float32 scalar. */
static bool gvc_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TUPLE || t->nargs != 3) return false;
  const Type *d = t->args[1];
  return kit_gen_ok(d, (OpDtypes)op->gen_dtypes, 3, 3) && is_tensor_of(t->args[0], dt_int32, d->dims, 1) &&
         is_tensor_of(t->args[2], dt_int32, d->dims, 2);
}

static bool gvc_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  const Type *d = t->args[1];
  int64_t e = d->dims[2];
  opgen_plan_init(g, op, out);
  kit_arg(out, d);
  kit_arg(out, kit_scalar(g, dt_float32));
  /* TVM builds these attributes from text only with the key, and then needs score_threshold. */
  set_key(g, op, out, "relay.attrs.GetValidCountsAttrs");
  static const double thresholds[] = {0.0, 0.5, 0.55, 0.95};
  opgen_set_float(g, op, out, "score_threshold", kit_pick_float(g, thresholds, KIT_NELEMS(thresholds)));
  int64_t score = rng_range(g->rng, 0, e - 1), id = rng_range(g->rng, -1, e - 1);
  if (id == score) id = -1;
  opgen_set_int(g, op, out, "score_index", score);
  opgen_set_int(g, op, out, "id_index", id);
  out->result = t;
  return true;
}

static bool gvc_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[3];
  opgen_dims(g, 2, g->policy->max_elements / 6, d);
  d[2] = rng_range(g->rng, 1, 6);
  const Type *f[3] = {kit_tensor(g, dt_int32, d, 1), kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 3),
                      kit_tensor(g, dt_int32, d, 2)};
  return gvc_solve(g, op, ty_tuple(g->types, f, 3), out);
}

static const OpAttrSpec get_valid_counts_attrs[] = {{"score_threshold", AT_FLOAT, "None"},
                                                    {"id_index", AT_INT, "0"},
                                                    {"score_index", AT_INT, "1"},
                                                    {"attrs_type_key", AT_STR, "None"}};

static const OpDef get_valid_counts_ops[] = {
    /* nms.cc */
    KIT_OP("vision.get_valid_counts", 2, get_valid_counts_attrs, get_valid_counts_rel,
           KIT_GEN(OPDT_FLOAT, gvc_recognize, gvc_solve, gvc_sample)),
};
OP_REGISTER(get_valid_counts_ops);

/* ------------------------------------------------------------------ vision.non_max_suppression */

/* NMSRel: data (B, N, E) and valid_count (B); the data's type, or with return_indices
   ((B, N) int32, (B, 1) int32).  indices, max_output_size and iou_threshold are not looked at. */
static const Type *nms_rel(OpCall *c) {
  if (!kit_keyed_attrs(c, "relay.attrs.NonMaximumSuppressionAttrs", true)) return NULL;
  const Type *data = op_tensor_arg(c, 0), *valid = data ? op_tensor_arg(c, 1) : NULL;
  if (!valid) return NULL;
  if (data->ndims != 3) return op_fail(c, 0, "Input data should be 3-D.");
  if (valid->ndims != 1) return op_fail(c, 1, "Input valid count should be 1-D.");
  if (!op_bool(c, "return_indices")) return data;
  int64_t counts[2] = {data->dims[0], 1};
  return tuple2(c, ty_tensor(c->types, dt_int32, data->dims, 2), ty_tensor(c->types, dt_int32, counts, 2));
}

/* non_max_suppression: the data's type (rows of E >= 5 values: [id,] score, 4 coordinates, ...), or
   ((B, N) int32, (B, 1) int32) with return_indices. */
static bool nms_recognize(const OpDef *op, const Type *t) {
  if (t->kind == TY_TENSOR) return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 3, 3) && t->dims[2] >= 5;
  if (t->kind != TY_TUPLE || t->nargs != 2) return false;
  const Type *a = t->args[0];
  if (!kit_gen_ok(a, OPDT_INT, 2, 2) || !dtype_eq(a->dtype, dt_int32)) return false;
  int64_t counts[2] = {a->dims[0], 1};
  return is_tensor_of(t->args[1], dt_int32, counts, 2);
}

static bool nms_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  bool indices = t->kind == TY_TUPLE;
  const Type *data = t;
  if (indices) {
    const Type *a = t->args[0];
    int64_t d[3] = {a->dims[0], a->dims[1], rng_range(g->rng, 5, 6)};
    data = kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 3);
  }
  int64_t e = data->dims[2], b = data->dims[0], n = data->dims[1], bn[2] = {b, n};
  opgen_plan_init(g, op, out);
  kit_arg(out, data);
  kit_arg(out, kit_tensor(g, dt_int32, &b, 1));
  kit_arg(out, kit_tensor(g, dt_int32, bn, 2));
  kit_arg(out, kit_scalar(g, dt_int32));
  kit_arg(out, kit_scalar(g, dt_float32));
  set_key(g, op, out, "relay.attrs.NonMaximumSuppressionAttrs");
  if (!indices || rng_chance(g->rng, 1, 3)) opgen_set_bool(g, op, out, "return_indices", indices);
  /* The last four values are the coordinates, the score just before them, the id before that. */
  int64_t coord = rng_range(g->rng, 1, e - 4), score = coord - 1;
  opgen_set_int(g, op, out, "coord_start", coord);
  opgen_set_int(g, op, out, "score_index", score);
  opgen_set_int(g, op, out, "id_index", score > 0 && rng_chance(g->rng, 2, 3) ? score - 1 : -1);
  opgen_set_bool(g, op, out, "force_suppress", rng_chance(g->rng, 1, 2));
  opgen_set_int(g, op, out, "top_k", rng_chance(g->rng, 1, 2) ? -1 : rng_range(g->rng, 1, n));
  opgen_set_bool(g, op, out, "invalid_to_bottom", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static bool nms_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[3];
  opgen_dims(g, 2, g->policy->max_elements / 6, d);
  d[2] = rng_range(g->rng, 5, 6);
  if (rng_chance(g->rng, 1, 2)) return nms_solve(g, op, kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 3), out);
  int64_t counts[2] = {d[0], 1};
  const Type *f[2] = {kit_tensor(g, dt_int32, d, 2), kit_tensor(g, dt_int32, counts, 2)};
  return nms_solve(g, op, ty_tuple(g->types, f, 2), out);
}

static const OpAttrSpec nms_attrs[] = {{"force_suppress", AT_BOOL, "False"},
                                       {"top_k", AT_INT, "-1"},
                                       {"coord_start", AT_INT, "2"},
                                       {"score_index", AT_INT, "1"},
                                       {"id_index", AT_INT, "0"},
                                       {"return_indices", AT_BOOL, "True"},
                                       {"invalid_to_bottom", AT_BOOL, "False"},
                                       {"attrs_type_key", AT_STR, "None"}};

static const OpDef non_max_suppression_ops[] = {
    KIT_OP("vision.non_max_suppression", 5, nms_attrs, nms_rel,
           KIT_GEN(OPDT_FLOAT, nms_recognize, nms_solve, nms_sample)),
};
OP_REGISTER(non_max_suppression_ops);

/* ------------------------------------------------------------------ vision.all_class_non_max_suppression */

/* AllClassNMSRel: boxes (B, N, 4), scores (B, C, N).  "onnx": ((B*C*N, 3) int64, (1) int64), the
   first dimension `?` when B or N is; any other format (TensorFlow's): ((B, C*N, 2) int64,
   (B, C*N) float32, (B) int64), C*N `?` when N is. */
static const Type *all_class_nms_rel(OpCall *c) {
  if (!kit_keyed_attrs(c, "relay.attrs.AllClassNonMaximumSuppressionAttrs", true)) return NULL;
  const Type *boxes = op_tensor_arg(c, 0), *scores = boxes ? op_tensor_arg(c, 1) : NULL;
  if (!scores) return NULL;
  if (boxes->ndims != 3) return op_fail(c, 0, "Input boxes should be 3-D.");
  if (scores->ndims != 3) return op_fail(c, 1, "Input scores count should be 3-D.");
  int64_t batch = boxes->dims[0], classes = scores->dims[1], nboxes = boxes->dims[1];
  const Type *i64 = NULL;
  if (!strcmp(op_str(c, "output_format"), "onnx")) {
    int64_t total[2] = {batch == KIT_ANY || nboxes == KIT_ANY ? KIT_ANY : kit_dim_mul_folded(kit_dim_mul_folded(batch, classes), nboxes), 3},
            one = 1;
    i64 = ty_tensor(c->types, dt_int64, total, 2);
    return tuple2(c, i64, ty_tensor(c->types, dt_int64, &one, 1));
  }
  int64_t per_batch = nboxes == KIT_ANY ? KIT_ANY : kit_dim_mul_folded(classes, nboxes);
  int64_t idx[3] = {batch, per_batch, 2};
  const Type *f[3] = {ty_tensor(c->types, dt_int64, idx, 3), ty_tensor(c->types, dt_float32, idx, 2),
                      ty_tensor(c->types, dt_int64, &batch, 1)};
  return ty_tuple(c->types, f, 3);
}

/* all_class_non_max_suppression: onnx ((M, 3) int64, (1) int64) with M = B*C*N; tensorflow
   ((B, K, 2) int64, (B, K) float32, (B) int64) with K = C*N.  boxes (B, N, 4) and scores (B, C, N)
   are float32; max_output_boxes_per_class an int64 scalar, the thresholds float32 scalars. */
static bool acnms_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (t->kind != TY_TUPLE) return false;
  const int64_t one = 1;
  if (t->nargs == 2) {
    const Type *a = t->args[0];
    return kit_gen_ok(a, OPDT_INT, 2, 2) && dtype_eq(a->dtype, dt_int64) && a->dims[1] == 3 &&
           is_tensor_of(t->args[1], dt_int64, &one, 1);
  }
  if (t->nargs != 3) return false;
  const Type *a = t->args[0];
  return kit_gen_ok(a, OPDT_INT, 3, 3) && dtype_eq(a->dtype, dt_int64) && a->dims[2] == 2 &&
         is_tensor_of(t->args[1], dt_float32, a->dims, 2) && is_tensor_of(t->args[2], dt_int64, a->dims, 1);
}

static bool acnms_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  bool onnx = t->nargs == 2;
  int64_t b, rest;
  if (onnx) {
    b = kit_divisor_of(g, t->args[0]->dims[0], t->args[0]->dims[0]);
    rest = t->args[0]->dims[0] / b;
  } else {
    b = t->args[0]->dims[0];
    rest = t->args[0]->dims[1];
  }
  int64_t classes = kit_divisor_of(g, rest, rest), n = rest / classes;
  opgen_plan_init(g, op, out);
  int64_t bd[3] = {b, n, 4}, sd[3] = {b, classes, n};
  kit_arg(out, kit_tensor(g, dt_float32, bd, 3));
  kit_arg(out, kit_tensor(g, dt_float32, sd, 3));
  kit_arg(out, kit_scalar(g, dt_int64));
  kit_arg(out, kit_scalar(g, dt_float32));
  kit_arg(out, kit_scalar(g, dt_float32));
  set_key(g, op, out, "relay.attrs.AllClassNonMaximumSuppressionAttrs");
  if (!onnx) opgen_set_str(g, op, out, "output_format", "tensorflow");
  out->result = t;
  return true;
}

static bool acnms_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[3];
  /* the results hold B*C*N (onnx) or C*N boxes on one axis: within max_dim */
  bool onnx = rng_chance(g->rng, 1, 2);
  opgen_dims(g, onnx ? 3 : 2, g->policy->max_dim, onnx ? d : d + 1);
  if (!onnx) d[0] = rng_range(g->rng, 1, g->policy->max_dim);
  if (onnx) {
    int64_t m[2] = {d[0] * d[1] * d[2], 3}, one = 1;
    const Type *f[2] = {kit_tensor(g, dt_int64, m, 2), kit_tensor(g, dt_int64, &one, 1)};
    return acnms_solve(g, op, ty_tuple(g->types, f, 2), out);
  }
  int64_t k[3] = {d[0], d[1] * d[2], 2};
  const Type *f[3] = {kit_tensor(g, dt_int64, k, 3), kit_tensor(g, dt_float32, k, 2),
                      kit_tensor(g, dt_int64, k, 1)};
  return acnms_solve(g, op, ty_tuple(g->types, f, 3), out);
}

static const OpAttrSpec all_class_nms_attrs[] = {{"output_format", AT_STR, "\"onnx\""},
                                                 {"attrs_type_key", AT_STR, "None"}};

static const OpDef all_class_non_max_suppression_ops[] = {
    KIT_OP("vision.all_class_non_max_suppression", 5, all_class_nms_attrs, all_class_nms_rel,
           KIT_GEN(OPDT_FLOAT, acnms_recognize, acnms_solve, acnms_sample)),
};
OP_REGISTER(all_class_non_max_suppression_ops);

/* ------------------------------------------------------------------ vision.roi_align, vision.roi_pool */

/* ROIAlignRel / ROIPoolRel: data (B, C, H, W) in `layout` (NCHW or NHWC), rois (R, 5) give
   (R, C, P0, P1) or (R, P0, P1, C) in the data's dtype. */
static const Type *roi_common(OpCall *c, const char *key, bool align) {
  if (!kit_keyed_attrs(c, key, true) || !kit_required(c, "pooled_size") || !kit_required(c, "spatial_scale"))
    return NULL;
  const Type *data = op_tensor_arg(c, 0), *rois = data ? op_tensor_arg(c, 1) : NULL;
  if (!rois) return NULL;
  if (data->ndims != 4) return op_fail(c, 0, "Input data should be 4-D.");
  if (rois->ndims != 2) return op_fail(c, 1, "Input rois should be 2-D.");
  int64_t ps[2];
  long n = kit_ints_opt(c, "pooled_size", ps, 2);
  if (n < 0) return NULL;
  if (n < 2)
    return op_fail(c, -1, "%s: IndexError: indexing %ld on an array of size %ld (pooled_size)", c->op->name,
                   n, n);
  if (!kit_nonneg_as(c, "pooled_size", ps, 2)) return NULL;
  const char *layout = op_str(c, "layout");
  int64_t o[4];
  if (!strcmp(layout, "NCHW")) {
    o[0] = rois->dims[0], o[1] = data->dims[1], o[2] = ps[0], o[3] = ps[1];
  } else if (!strcmp(layout, "NHWC")) {
    o[0] = rois->dims[0], o[1] = ps[0], o[2] = ps[1], o[3] = data->dims[3];
  } else if (align) {
    return op_fail(c, -1, "%s: Unexpected ROI Align layout (%s)", c->op->name, layout);
  } else {
    return op_fail(c, -1, "vision.roi_pool does not support %s layout", layout);
  }
  return ty_tensor(c->types, data->dtype, o, 4);
}

static const Type *roi_align_rel(OpCall *c) { return roi_common(c, "relay.attrs.ROIAlignAttrs", true); }

static const Type *roi_pool_rel(OpCall *c) { return roi_common(c, "relay.attrs.ROIPoolAttrs", false); }

/* roi_align / roi_pool: any static 4-D float result; data's batch and spatial size are free. */
static bool roi_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, bool align) {
  bool nhwc = rng_chance(g->rng, 1, 3);
  int64_t r = t->dims[0], ch = nhwc ? t->dims[3] : t->dims[1];
  int64_t ps[2] = {nhwc ? t->dims[1] : t->dims[2], nhwc ? t->dims[2] : t->dims[3]};
  int64_t bhw[3];
  opgen_dims(g, 3, kit_budget(g, t) / ch, bhw);
  int64_t d[4] = {bhw[0], ch, bhw[1], bhw[2]};
  if (nhwc) d[1] = bhw[1], d[2] = bhw[2], d[3] = ch;
  opgen_plan_init(g, op, out);
  int64_t rd[2] = {r, 5};
  kit_arg(out, kit_tensor(g, t->dtype, d, 4));
  kit_arg(out, kit_tensor(g, t->dtype, rd, 2));
  set_key(g, op, out, align ? "relay.attrs.ROIAlignAttrs" : "relay.attrs.ROIPoolAttrs");
  opgen_set_ints(g, op, out, "pooled_size", ps, 2);
  static const double scales[] = {1.0, 0.5, 0.25, 0.125, 0.0625};
  opgen_set_float(g, op, out, "spatial_scale", kit_pick_float(g, scales, KIT_NELEMS(scales)));
  if (nhwc || rng_chance(g->rng, 1, 4)) opgen_set_str(g, op, out, "layout", nhwc ? "NHWC" : "NCHW");
  if (align) {
    opgen_set_int(g, op, out, "sample_ratio", rng_range(g->rng, -1, 2));
    opgen_set_str(g, op, out, "mode", rng_chance(g->rng, 1, 2) ? "avg" : "max");
  }
  out->result = t;
  return true;
}

static bool roi_align_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return roi_solve(g, op, t, out, true);
}

static bool roi_pool_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return roi_solve(g, op, t, out, false);
}

static const OpAttrSpec roi_align_attrs[] = {
    {"pooled_size", AT_INTS, "None"}, {"spatial_scale", AT_FLOAT, "None"},
    {"sample_ratio", AT_INT, "-1"},   {"layout", AT_STR, "\"NCHW\""},
    {"mode", AT_STR, "\"avg\""},      {"attrs_type_key", AT_STR, "None"}};

static const OpAttrSpec roi_pool_attrs[] = {{"pooled_size", AT_INTS, "None"},
                                            {"spatial_scale", AT_FLOAT, "None"},
                                            {"layout", AT_STR, "\"NCHW\""},
                                            {"attrs_type_key", AT_STR, "None"}};

static const OpDef roi_ops[] = {
    /* rcnn_op.cc */
    KIT_OP("vision.roi_align", 2, roi_align_attrs, roi_align_rel,
           KIT_GEN(OPDT_FLOAT, kit_rank4, roi_align_solve, rank4_sample)),
    KIT_OP("vision.roi_pool", 2, roi_pool_attrs, roi_pool_rel,
           KIT_GEN(OPDT_FLOAT, kit_rank4, roi_pool_solve, rank4_sample)),
};
OP_REGISTER(roi_ops);

/* ------------------------------------------------------------------ vision.proposal */

/* ProposalRel: cls_prob (B, 2A, H, W), bbox_pred (B, 4A, H, W), im_info (B, 3) give
   (B * rpn_post_nms_top_n, 5) in cls_prob's dtype. */
static const Type *proposal_rel(OpCall *c) {
  if (!kit_keyed_attrs(c, "relay.attrs.ProposalAttrs", true)) return NULL;
  const Type *cls = op_tensor_arg(c, 0), *bbox = cls ? op_tensor_arg(c, 1) : NULL,
             *info = bbox ? op_tensor_arg(c, 2) : NULL;
  if (!info) return NULL;
  if (cls->ndims != 4)
    return op_fail(c, 0, "The dimension of class probability should be 4, but received %u", cls->ndims);
  if (bbox->ndims != 4)
    return op_fail(c, 1, "The dimension of box prediction should be 4, but received %u", bbox->ndims);
  if (info->ndims != 2)
    return op_fail(c, 2, "The dimension of image info should be 2, but received %u", info->ndims);
  if (!kit_dim_match(info->dims[1], 3))
    return op_fail(c, 2, "%s: Check failed: reporter->AssertEQ(im_info->shape[1], 3) (got %lld)", c->op->name,
                   (long long)info->dims[1]);
  int64_t post = op_int(c, "rpn_post_nms_top_n"), batch = cls->dims[0], o[2] = {0, 5};
  if (post < 0 && batch != 0 && batch != KIT_ANY)
    return op_fail(c, -1, "%s: rpn_post_nms_top_n %lld would make a negative dimension", c->op->name,
                   (long long)post);
  if (batch == KIT_ANY)
    o[0] = post == 0 ? 0 : KIT_ANY;
  else
    o[0] = kit_dim_mul_folded(batch, post);
  if (o[0] == KIT_ANY && batch != KIT_ANY)
    return op_fail(c, -1, "%s: batch * rpn_post_nms_top_n overflows int64", c->op->name);
  return ty_tensor(c->types, cls->dtype, o, 2);
}

/* proposal: (B * post, 5); A = len(scales) * len(ratios) anchors per position. */
static bool proposal_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 2, 2) && t->dims[1] == 5;
}

static bool proposal_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  static const double scales[] = {2, 4, 8, 16, 32}, ratios[] = {0.5, 1, 2};
  int64_t b = kit_divisor_of(g, t->dims[0], t->dims[0]), post = t->dims[0] / b;
  int64_t ns = rng_range(g->rng, 1, 4), nr = rng_range(g->rng, 1, 3), budget = kit_budget(g, t) / b;
  if (budget / (6 * ns * nr) < 1) ns = nr = 1;
  int64_t a = ns * nr, hw[2];
  opgen_dims(g, 2, budget / (6 * a), hw);
  opgen_plan_init(g, op, out);
  int64_t cd[4] = {b, 2 * a, hw[0], hw[1]}, bd[4] = {b, 4 * a, hw[0], hw[1]}, id[2] = {b, 3};
  kit_arg(out, kit_tensor(g, t->dtype, cd, 4));
  kit_arg(out, kit_tensor(g, t->dtype, bd, 4));
  kit_arg(out, kit_tensor(g, t->dtype, id, 2));
  set_key(g, op, out, "relay.attrs.ProposalAttrs");
  double v[5];
  for (int64_t i = 0; i < ns; i++)
    v[i] = scales[i + rng_range(g->rng, 0, 1)];
  kit_set_floats(g, op, out, "scales", v, (size_t)ns);
  for (int64_t i = 0; i < nr; i++)
    v[i] = ratios[i];
  kit_set_floats(g, op, out, "ratios", v, (size_t)nr);
  static const int64_t strides[] = {4, 8, 16, 32};
  opgen_set_int(g, op, out, "feature_stride", strides[rng_index(g->rng, 4)]);
  opgen_set_float(g, op, out, "threshold", rng_chance(g->rng, 1, 2) ? 0.7 : 0.5);
  opgen_set_int(g, op, out, "rpn_pre_nms_top_n", post + rng_range(g->rng, 0, 16));
  opgen_set_int(g, op, out, "rpn_post_nms_top_n", post);
  opgen_set_int(g, op, out, "rpn_min_size", rng_range(g->rng, 0, 16));
  opgen_set_bool(g, op, out, "iou_loss", rng_chance(g->rng, 1, 4));
  out->result = t;
  return true;
}

static bool proposal_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[2] = {rng_range(g->rng, 1, g->policy->max_dim * 4), 5};
  return proposal_solve(g, op, kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 2), out);
}

static const OpAttrSpec proposal_attrs[] = {
    {"scales", AT_ANY, "[4f, 8f, 16f, 32f]"}, {"ratios", AT_ANY, "[0.5f, 1f, 2f]"},
    {"feature_stride", AT_INT, "16"},         {"threshold", AT_FLOAT, "0.7f"},
    {"rpn_pre_nms_top_n", AT_INT, "6000"},    {"rpn_post_nms_top_n", AT_INT, "300"},
    {"rpn_min_size", AT_INT, "16"},           {"iou_loss", AT_BOOL, "False"},
    {"attrs_type_key", AT_STR, "None"}};

static const OpDef proposal_ops[] = {
    KIT_OP("vision.proposal", 3, proposal_attrs, proposal_rel,
           KIT_GEN(OPDT_FLOAT, proposal_recognize, proposal_solve, proposal_sample)),
};
OP_REGISTER(proposal_ops);

/* ------------------------------------------------------------------ vision.yolo_reorg */

/* YoloReorgRel: (B, C, H, W) becomes (B, C*s*s, H/s, W/s) (floor division), s = stride. */
static const Type *yolo_reorg_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims != 4) return op_fail(c, 0, "Yolo reorg supports only 4 dimension.");
  int64_t s = op_int(c, "stride");
  if (s <= 0) return op_fail(c, -1, "%s: stride must be positive, got %lld", c->op->name, (long long)s);
  int64_t o[4] = {data->dims[0], kit_dim_mul_folded(kit_dim_mul_folded(data->dims[1], s), s), kit_dim_floordiv(data->dims[2], s),
                  kit_dim_floordiv(data->dims[3], s)};
  return ty_tensor(c->types, data->dtype, o, 4);
}

/* yolo_reorg: a stride s with s*s dividing C; the input (B, C/(s*s), H*s, W*s) holds as many
   elements as the result. */
static bool yolo_reorg_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  int64_t s = 1;
  for (int tries = 0; tries < 4; tries++) {
    int64_t k = rng_range(g->rng, 1, 3);
    if (t->dims[1] % (k * k) == 0) {
      s = k;
      break;
    }
  }
  opgen_plan_init(g, op, out);
  int64_t d[4] = {t->dims[0], t->dims[1] / (s * s), t->dims[2] * s, t->dims[3] * s};
  kit_arg(out, kit_tensor(g, t->dtype, d, 4));
  if (s != 1 || rng_chance(g->rng, 1, 4)) opgen_set_int(g, op, out, "stride", s);
  out->result = t;
  return true;
}

static const OpAttrSpec yolo_reorg_attrs[] = {{"stride", AT_INT, "1"}};

static const OpDef yolo_reorg_ops[] = {
    /* yolo.cc: a reshuffle, any number type */
    KIT_OP("vision.yolo_reorg", 1, yolo_reorg_attrs, yolo_reorg_rel,
           KIT_GEN(OPDT_NUMERIC, kit_rank4, yolo_reorg_solve, rank4_sample)),
};
OP_REGISTER(yolo_reorg_ops);
