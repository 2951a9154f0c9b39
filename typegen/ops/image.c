/*
 * Image operators: resize1d and resize3d (resize2d is in nn.c, with upsampling), crop_and_resize, dilation2d,
 * affine_grid and grid_sample.  Facts from TVM v0.13 src/relay/op/image/{resize.cc, dilation2d.cc,
 * grid_sample.cc}, src/relay/op/op_common.h (GetPaddingHeightWidth), src/tir/ir/data_layout.cc
 * (BijectiveLayout) and the attribute structs in include/tvm/relay/attrs/image.h.
 *
 * Departures from TVM, deliberate: where TVM would read past the end of a list or a shape (a crash)
 * or build a negative dimension, the relation rejects the call with a message; where TVM's relation
 * returns false for good (grid_sample on data that is neither 4-D nor 5-D) it rejects it too.  The
 * size lists hold constants only (TVM's Python API also takes symbolic sizes, which text cannot).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(image);

/* ================================================================== helpers the blocks below share */

/* Array::operator[] past the end. */
static const Type *index_error(OpCall *c, const char *attr, long i, long n) {
  return op_fail(c, -1, "%s: IndexError: indexing %ld on an array of size %ld (%s)", c->op->name, i, n, attr);
}

static bool rank3_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_rank(g, op, out, 3); }

static bool rank4_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_rank(g, op, out, 4); }

static bool rank5_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_rank(g, op, out, 5); }

/* ------------------------------------------------------------------ image.resize1d, image.resize3d */

/* Resize1DRel / Resize3DRel: the spatial axes of the canonical layout (NCW, NCDHW) become size;
   size must hold nd values and roi 2*nd. */
static const Type *resize_nd(OpCall *c, size_t nd, const char *canon, const char *fmt) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const AttrVal *size = op_attr(c, "size"), *roi = op_attr(c, "roi");
  if (size->kind != ATTR_LIST || size->n != nd)
    return op_fail(c, -1, "%s: size must have %zu value%s (Check failed: param->size.size() == %zu)",
                   c->op->name, nd, nd == 1 ? "" : "s", nd);
  if (roi->kind != ATTR_LIST || roi->n != 2 * nd)
    return op_fail(c, -1, "%s: roi must have %zu values (Check failed: param->roi.size() == %zu)",
                   c->op->name, 2 * nd, 2 * nd);
  int64_t sz[3];
  if (kit_ints_opt(c, "size", sz, 3) < 0 || !kit_nonneg_as(c, "size", sz, nd)) return NULL;
  KitLayout l, cl;
  int64_t s[KIT_LAYOUT_MAX], o[KIT_LAYOUT_MAX];
  if (!kit_layout_to(c, "layout", canon, fmt, &l, &cl) ||
      !kit_layout_convert(c, 0, &l, data->dims, data->ndims, &cl, s))
    return NULL;
  for (size_t i = 0; i < nd; i++)
    s[2 + i] = sz[i];
  if (!kit_layout_convert(c, -1, &cl, s, cl.ndim, &l, o)) return NULL;
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), o, l.ndim);
}

static const Type *resize1d_rel(OpCall *c) {
  return resize_nd(c, 1, "NCW",
                   "Resize only support input layouts that are convertible from NCW. But got %s");
}

static const Type *resize3d_rel(OpCall *c) {
  return resize_nd(c, 3, "NCDHW",
                   "Resize3d only support input layouts that are convertible from NCDHW. But got %s");
}

/* resize1d / resize3d: size is the result's spatial extent, the input's is free; roi is zeros (as
   the Python API passes it). */
static bool resize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, size_t nd) {
  static const char *const layouts1[] = {"NCW", "NWC"}, *const layouts3[] = {"NCDHW", "NDHWC"};
  static const char *const methods[] = {"nearest_neighbor", "linear", "cubic"};
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric"};
  static const char *const roundings[] = {"round", "floor", "ceil"};
  bool last = rng_chance(g->rng, 1, 3); /* channels last */
  const char *layout = (nd == 1 ? layouts1 : layouts3)[last];
  size_t first = last ? 1 : 2, c_axis = last ? nd + 1 : 1;
  int64_t size[3], in[5], budget = kit_budget(g, t) / (t->dims[0] * t->dims[c_axis]);
  opgen_dims(g, nd, budget, size); /* the input's spatial extent */
  memcpy(in, t->dims, (nd + 2) * sizeof *in);
  for (size_t i = 0; i < nd; i++) {
    in[first + i] = size[i];
    size[i] = t->dims[first + i];
  }
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_tensor(g, t->dtype, in, nd + 2));
  opgen_set_ints(g, op, out, "size", size, nd);
  double roi[6] = {0};
  kit_set_floats(g, op, out, "roi", roi, 2 * nd);
  if (last || rng_chance(g->rng, 1, 4)) opgen_set_str(g, op, out, "layout", layout);
  const char *method = kit_pick_str(g, methods, KIT_NELEMS(methods));
  opgen_set_str(g, op, out, "method", method);
  opgen_set_str(g, op, out, "coordinate_transformation_mode", kit_pick_str(g, modes, KIT_NELEMS(modes)));
  if (!strcmp(method, "nearest_neighbor"))
    opgen_set_str(g, op, out, "rounding_method", kit_pick_str(g, roundings, KIT_NELEMS(roundings)));
  if (!strcmp(method, "cubic") && rng_chance(g->rng, 1, 2)) opgen_set_float(g, op, out, "cubic_alpha", -0.75);
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static bool resize1d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return resize_solve(g, op, t, out, 1);
}

static bool resize3d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return resize_solve(g, op, t, out, 3);
}

/* include/tvm/relay/attrs/image.h, fields in declaration order; roi holds floats, hence AT_ANY. */
/* clang-format off */
#define RESIZE_ATTRS(layout)                                                                       \
  {"size", AT_INTS, "None"}, {"roi", AT_ANY, "None"}, {"layout", AT_STR, layout},                \
  {"method", AT_STR, "\"linear\""}, {"coordinate_transformation_mode", AT_STR, "\"half_pixel\""}, \
  {"rounding_method", AT_STR, "\"round\""}, {"cubic_alpha", AT_FLOAT, "-0.5f"},                   \
  {"cubic_exclude", AT_INT, "0"}, {"extrapolation_value", AT_FLOAT, "0f"},                        \
  {"out_dtype", AT_DTYPE, "\"\""}

/* clang-format on */
static const OpAttrSpec resize1d_attrs[] = {RESIZE_ATTRS("\"NCW\"")};

static const OpAttrSpec resize3d_attrs[] = {RESIZE_ATTRS("\"NCDHW\"")};

static const OpDef resize_ops[] = {
    /* resize.cc */
    KIT_OP("image.resize1d", 1, resize1d_attrs, resize1d_rel,
           KIT_GEN(OPDT_FLOAT, kit_rank3, resize1d_solve, rank3_sample)),
    KIT_OP("image.resize3d", 1, resize3d_attrs, resize3d_rel,
           KIT_GEN(OPDT_FLOAT, kit_rank5, resize3d_solve, rank5_sample)),
};
OP_REGISTER(resize_ops);

/* ------------------------------------------------------------------ image.crop_and_resize */

/* CropAndResizeRel: in NCHW terms (boxes[0], C, crop_size[0], crop_size[1]).  TVM skips the
   defined() check on the layout conversion (ForwardShape fails instead). */
static const Type *crop_and_resize_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *boxes = data ? op_tensor_arg(c, 1) : NULL;
  if (!boxes || !op_tensor_arg(c, 2)) return NULL;
  KitLayout l, cl;
  int64_t s[KIT_LAYOUT_MAX], o[KIT_LAYOUT_MAX], crop[2];
  if (!kit_layout_to(c, "layout", "NCHW", NULL, &l, &cl) ||
      !kit_layout_convert(c, 0, &l, data->dims, data->ndims, &cl, s))
    return NULL;
  if (boxes->ndims == 0)
    return op_fail(c, 1, "%s: IndexError: indexing 0 on an array of size 0 (the boxes' shape)", c->op->name);
  long n = kit_ints_opt(c, "crop_size", crop, 2);
  if (n < 0) return NULL;
  if (n < 2) return index_error(c, "crop_size", n, n);
  if (!kit_nonneg_as(c, "crop_size", crop, 2)) return NULL;
  s[0] = boxes->dims[0];
  s[2] = crop[0];
  s[3] = crop[1];
  if (!kit_layout_convert(c, -1, &cl, s, 4, &l, o)) return NULL;
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), o, l.ndim);
}

/* crop_and_resize: boxes (num_boxes, 4) float32, box_indices (num_boxes) int32, crop_size the
   result's H and W. */
static bool crop_and_resize_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  bool nhwc = rng_chance(g->rng, 1, 3);
  int64_t nb = t->dims[0], ch = nhwc ? t->dims[3] : t->dims[1];
  int64_t crop[2] = {nhwc ? t->dims[1] : t->dims[2], nhwc ? t->dims[2] : t->dims[3]}, bhw[3];
  opgen_dims(g, 3, kit_budget(g, t) / ch, bhw);
  int64_t d[4] = {bhw[0], ch, bhw[1], bhw[2]}, bd[2] = {nb, 4};
  if (nhwc) d[1] = bhw[1], d[2] = bhw[2], d[3] = ch;
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_tensor(g, t->dtype, d, 4));
  kit_arg(out, kit_tensor(g, dt_float32, bd, 2));
  kit_arg(out, kit_tensor(g, dt_int32, &nb, 1));
  opgen_set_ints(g, op, out, "crop_size", crop, 2);
  if (nhwc || rng_chance(g->rng, 1, 4)) opgen_set_str(g, op, out, "layout", nhwc ? "NHWC" : "NCHW");
  opgen_set_str(g, op, out, "method", rng_chance(g->rng, 1, 2) ? "bilinear" : "nearest_neighbor");
  if (rng_chance(g->rng, 1, 3)) opgen_set_float(g, op, out, "extrapolation_value", 0.5);
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static const OpAttrSpec crop_and_resize_attrs[] = {{"crop_size", AT_INTS, "None"},
                                                   {"layout", AT_STR, "\"NCHW\""},
                                                   {"method", AT_STR, "\"bilinear\""},
                                                   {"extrapolation_value", AT_FLOAT, "0f"},
                                                   {"out_dtype", AT_DTYPE, "\"\""}};

static const OpDef crop_and_resize_ops[] = {
    KIT_OP("image.crop_and_resize", 3, crop_and_resize_attrs, crop_and_resize_rel,
           KIT_GEN(OPDT_FLOAT, kit_rank4, crop_and_resize_solve, rank4_sample)),
};
OP_REGISTER(crop_and_resize_ops);

/* ------------------------------------------------------------------ image.dilation2d */

/* Dilation2DRel: data in data_layout (as NCHW), weight in kernel_layout (as IHW); the result has
   weight's I channels and, per spatial axis, (x + pad - (1 + (k - 1) * dilation)) / stride + 1
   (floor division; `?` stays `?`), in data_layout. */
static const Type *dilation2d_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  KitLayout in, cin, kl, ckl, out, cout;
  if (!kit_layout_to(c, "data_layout", "NCHW",
                    "Dilation2D only support input layouts that are convertible from NCHW. But got %s", &in,
                    &cin) ||
      !kit_layout_to(c, "kernel_layout", "IHW",
                    "Dilation2D only support kernel layouts that are convertible from OIHW. But got %s", &kl,
                    &ckl) ||
      !kit_layout_to(c, "data_layout", "NCHW",
                    "Dilation2D only support output layouts that are convertible from NCHW. But got %s", &out,
                    &cout))
    return NULL;
  int64_t d[KIT_LAYOUT_MAX], w[KIT_LAYOUT_MAX], o[KIT_LAYOUT_MAX];
  if (!kit_layout_convert(c, 0, &in, data->dims, data->ndims, &cin, d)) return NULL;
  const Type *weight = op_tensor_arg(c, 1);
  if (!weight || !kit_layout_convert(c, 1, &kl, weight->dims, weight->ndims, &ckl, w)) return NULL;
  int64_t dil[2], strides[2], pad[4];
  long nd = kit_ints_opt(c, "dilations", dil, 2), ns = nd < 0 ? -1 : kit_ints_opt(c, "strides", strides, 2);
  if (ns < 0) return NULL;
  if (nd < 2) return index_error(c, "dilations", nd, nd);
  long np = kit_ints_opt(c, "padding", pad, 4);
  if (np < 0) return NULL;
  /* GetPaddingHeightWidth: one value pads all sides, two pad both sides of H and W, four are
     top, left, bottom, right. */
  int64_t pads[2], ks[2];
  bool exact = true;
  if (np == 1)
    exact = kit_mul_exact(pad[0], 2, &pads[0]) && kit_mul_exact(pad[0], 2, &pads[1]);
  else if (np == 2)
    exact = kit_mul_exact(pad[0], 2, &pads[0]) && kit_mul_exact(pad[1], 2, &pads[1]);
  else if (np == 4)
    exact = kit_add_exact(pad[0], pad[2], &pads[0]) && kit_add_exact(pad[1], pad[3], &pads[1]);
  else
    return op_fail(c, -1, "%s:  Padding size should be 1, 2 or 4, but got %ld", c->op->name, np);
  /* the dilated kernel extent, 1 + (k - 1) * dilation */
  for (size_t i = 0; exact && i < 2; i++)
    exact = w[1 + i] == KIT_ANY || (kit_mul_exact(w[1 + i] - 1, dil[i], &ks[i]) && kit_add_exact(ks[i], 1, &ks[i]));
  if (!exact) return op_fail(c, -1, "%s: the window arithmetic overflows int64", c->op->name);
  for (size_t i = 0; i < 2; i++)
    if (w[1 + i] == KIT_ANY) ks[i] = KIT_ANY;
  o[0] = d[0];
  o[1] = w[0];
  for (size_t i = 0; i < 2; i++) {
    int64_t x = d[2 + i];
    if (x == KIT_ANY) {
      o[2 + i] = KIT_ANY;
      continue;
    }
    if (ns < (long)i + 1) return index_error(c, "strides", (long)i, ns);
    if (strides[i] == 0) return op_fail(c, -1, "%s: strides must not be 0 (a division by zero)", c->op->name);
    if (ks[i] == KIT_ANY) {
      o[2 + i] = KIT_ANY;
      continue;
    }
    int64_t v;
    if (!kit_add_exact(x, pads[i], &v) || ks[i] == INT64_MIN || !kit_add_exact(v, -ks[i], &v) ||
        (v == INT64_MIN && strides[i] == -1) || !kit_add_exact(kit_dim_floordiv(v, strides[i]), 1, &o[2 + i]))
      return op_fail(c, -1, "%s: the window arithmetic overflows int64", c->op->name);
    if (!kit_nonneg_as(c, "the window", &o[2 + i], 1)) return NULL;
  }
  int64_t r[KIT_LAYOUT_MAX];
  if (!kit_layout_convert(c, -1, &cout, o, 4, &out, r)) return NULL;
  return ty_tensor(c->types, kit_out_dtype(c, data->dtype), r, out.ndim);
}

/* dilation2d: per spatial axis a stride, dilation, kernel extent and padding, and an input extent
   that the relation's floor division takes back to the result's.  Falls back to the identity
   window when the input would not fit the budget. */
static bool dilation2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  bool nhwc = rng_chance(g->rng, 1, 3);
  int64_t b = t->dims[0], ch = nhwc ? t->dims[3] : t->dims[1];
  int64_t oh[2] = {nhwc ? t->dims[1] : t->dims[2], nhwc ? t->dims[2] : t->dims[3]};
  int64_t s[2], dl[2], k[2], pad[4], in[2];
  bool four = rng_chance(g->rng, 1, 3);
  for (int attempt = 0; attempt < 2; attempt++) {
    for (size_t i = 0; i < 2; i++) {
      s[i] = attempt ? 1 : rng_range(g->rng, 1, 2);
      dl[i] = attempt ? 1 : rng_range(g->rng, 1, 2);
      k[i] = attempt ? 1 : rng_range(g->rng, 1, 3);
      pad[i] = attempt ? 0 : rng_range(g->rng, 0, 1);
      pad[i + 2] = four ? (attempt ? 0 : rng_range(g->rng, 0, 1)) : pad[i];
    }
    for (size_t i = 0; i < 2; i++) {
      int64_t total = pad[i] + pad[i + 2], dk = 1 + (k[i] - 1) * dl[i];
      in[i] = (oh[i] - 1) * s[i] + dk - total + rng_range(g->rng, 0, s[i] - 1);
      if (in[i] < 1) { /* padding that would leave no input: drop it */
        pad[i] = pad[i + 2] = 0;
        in[i] = (oh[i] - 1) * s[i] + dk;
      }
    }
    if (b * ch * in[0] * in[1] <= kit_budget(g, t)) break;
  }
  opgen_plan_init(g, op, out);
  int64_t d[4] = {b, ch, in[0], in[1]}, w[3] = {ch, k[0], k[1]};
  if (nhwc) d[1] = in[0], d[2] = in[1], d[3] = ch, w[0] = k[0], w[1] = k[1], w[2] = ch;
  kit_arg(out, kit_tensor(g, t->dtype, d, 4));
  kit_arg(out, kit_tensor(g, t->dtype, w, 3));
  opgen_set_ints(g, op, out, "strides", s, 2);
  opgen_set_ints(g, op, out, "dilations", dl, 2);
  opgen_set_ints(g, op, out, "padding", pad, four ? 4 : 2); /* two values pad both sides alike */
  if (nhwc) {
    opgen_set_str(g, op, out, "data_layout", "NHWC");
    opgen_set_str(g, op, out, "kernel_layout", "HWI");
  }
  kit_maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

static const OpAttrSpec dilation2d_attrs[] = {
    {"strides", AT_INTS, "[1, 1]"},       {"padding", AT_INTS, "[0, 0]"},
    {"dilations", AT_INTS, "[1, 1]"},     {"data_layout", AT_STR, "\"NCHW\""},
    {"kernel_layout", AT_STR, "\"IHW\""}, {"out_dtype", AT_DTYPE, "\"\""}};

static const OpDef dilation2d_ops[] = {
    /* dilation2d.cc */
    KIT_OP("image.dilation2d", 2, dilation2d_attrs, dilation2d_rel,
           KIT_GEN(OPDT_FLOAT, kit_rank4, dilation2d_solve, rank4_sample)),
};
OP_REGISTER(dilation2d_ops);

/* ------------------------------------------------------------------ image.affine_grid */

/* AffineGridRel: data (B, 2, 3) gives (B, 2, target_shape[0], target_shape[1]). */
static const Type *affine_grid_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims != 3 || (data->dims[1] != 2 && data->dims[1] != KIT_ANY) ||
      (data->dims[2] != 3 && data->dims[2] != KIT_ANY))
    return op_fail(c, 0, "data should be anaffine matrix with shape [batch_size, 2, 3]");
  int64_t ts[2];
  long n = kit_ints_opt(c, "target_shape", ts, 2);
  if (n < 0) return NULL;
  if (n != 2) return op_fail(c, -1, "target_shape should be 2D");
  if (!kit_nonneg_as(c, "target_shape", ts, 2)) return NULL;
  int64_t o[4] = {data->dims[0], 2, ts[0], ts[1]};
  return ty_tensor(c->types, data->dtype, o, 4);
}

/* affine_grid: (B, 2, H, W) from a (B, 2, 3) matrix. */
static bool affine_grid_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 4, 4) && t->dims[1] == 2;
}

static bool affine_grid_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t d[3] = {t->dims[0], 2, 3};
  kit_arg(out, kit_tensor(g, t->dtype, d, 3));
  opgen_set_ints(g, op, out, "target_shape", t->dims + 2, 2);
  out->result = t;
  return true;
}

static bool affine_grid_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[4];
  opgen_dims(g, 4, g->policy->max_elements / 2, d);
  d[1] = 2;
  return affine_grid_solve(g, op, kit_tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 4), out);
}

static const OpAttrSpec affine_grid_attrs[] = {{"target_shape", AT_INTS, "None"}};

static const OpDef affine_grid_ops[] = {
    /* grid_sample.cc */
    KIT_OP("image.affine_grid", 1, affine_grid_attrs, affine_grid_rel,
           KIT_GEN(OPDT_FLOAT, affine_grid_recognize, affine_grid_solve, affine_grid_sample)),
};
OP_REGISTER(affine_grid_ops);

/* ------------------------------------------------------------------ image.grid_sample */

/* GridSampleRel: 4-D data in layout (as NCHW) takes grid's dimensions 2 and 3 as its H and W;
   5-D data (as NCDHW) grid's 2, 3, 4.  The dtype is the data's. */
static const Type *grid_sample_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *grid = data ? op_tensor_arg(c, 1) : NULL;
  if (!grid) return NULL;
  size_t rank = data->ndims;
  if (rank != 4 && rank != 5)
    return op_fail(c, 0, "%s: the data must be 4-D or 5-D (the relation cannot be solved for rank %zu)",
                   c->op->name, rank);
  KitLayout l, cl;
  int64_t s[KIT_LAYOUT_MAX], o[KIT_LAYOUT_MAX];
  if (!kit_layout_to(c, "layout", rank == 4 ? "NCHW" : "NCDHW", NULL, &l, &cl) ||
      !kit_layout_convert(c, 0, &l, data->dims, rank, &cl, s))
    return NULL;
  for (size_t i = 2; i < rank; i++) {
    if (i >= grid->ndims)
      return op_fail(c, 1, "%s: IndexError: indexing %zu on an array of size %u (the grid's shape)",
                     c->op->name, i, grid->ndims);
    s[i] = grid->dims[i];
  }
  if (!kit_layout_convert(c, -1, &cl, s, rank, &l, o)) return NULL;
  return ty_tensor(c->types, data->dtype, o, l.ndim);
}

/* grid_sample: 4-D NCHW or 5-D NCDHW; the grid (N, 2, H, W) or (N, 3, D, H, W) gives the result's
   spatial extent, the data's is free. */
static bool grid_sample_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 4, 5);
}

static bool grid_sample_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  size_t rank = t->ndims, nd = rank - 2;
  int64_t d[5], gd[5], sp[3];
  opgen_dims(g, nd, kit_budget(g, t) / (t->dims[0] * t->dims[1]), sp);
  d[0] = gd[0] = t->dims[0];
  d[1] = t->dims[1];
  gd[1] = (int64_t)nd;
  for (size_t i = 0; i < nd; i++) {
    d[2 + i] = sp[i];
    gd[2 + i] = t->dims[2 + i];
  }
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_tensor(g, t->dtype, d, rank));
  kit_arg(out, kit_tensor(g, t->dtype, gd, rank));
  static const char *const methods[] = {"bilinear", "nearest", "bicubic"};
  static const char *const paddings[] = {"zeros", "border", "reflection"};
  if (rank == 5) opgen_set_str(g, op, out, "layout", "NCDHW");
  opgen_set_str(g, op, out, "method", kit_pick_str(g, methods, rank == 4 ? 3 : 2));
  opgen_set_str(g, op, out, "padding_mode", kit_pick_str(g, paddings, KIT_NELEMS(paddings)));
  opgen_set_bool(g, op, out, "align_corners", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static bool grid_sample_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_rank(g, op, out, rng_chance(g->rng, 1, 3) ? 5 : 4);
}

static const OpAttrSpec grid_sample_attrs[] = {{"method", AT_STR, "\"bilinear\""},
                                               {"layout", AT_STR, "\"NCHW\""},
                                               {"padding_mode", AT_STR, "\"zeros\""},
                                               {"align_corners", AT_BOOL, "True"}};

static const OpDef grid_sample_ops[] = {
    KIT_OP("image.grid_sample", 2, grid_sample_attrs, grid_sample_rel,
           KIT_GEN(OPDT_FLOAT, grid_sample_recognize, grid_sample_solve, grid_sample_sample)),
};
OP_REGISTER(grid_sample_ops);
