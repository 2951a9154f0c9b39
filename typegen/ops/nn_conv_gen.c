/*
 * The RFC's generators (recognizer, solver, sampler) for ops/nn_conv.c's entries.  As in nn.c,
 * they keep to what TVM's computes (topi) take, which is narrower than what the relations accept:
 * the layouts topi implements, groups of 1 (depthwise for the packed depthwise op), Winograd with
 * 3x3 kernels and stride 1, bitserial ops on 8-bit data, padding no wider than the window, static
 * shapes with positive extents.  nn.contrib_dense_pack has none (TVM's parser cannot read it back;
 * see nn_conv.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_common.h"
#include "nn_conv_gen.h"

static const Type *tensor(OpGen *g, DType dt, const int64_t *d, size_t n) { return ty_tensor(g->types, dt, d, n); }

/* A forward window (the convolution's formula) whose outputs are o[0..nd): tries random windows
   whose input, times `other` (batch x channels), stays within the budget, then the identity window.
   `no_dil` keeps the dilation at 1 (for ops without one). */
static void fwd_window(OpGen *g, size_t nd, const int64_t *o, int64_t other, bool no_dil, Window *w) {
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    if (!window_solve(g, WIN_CONV, nd, o, minimal, false, false, w)) continue;
    if (minimal) return;
    bool ok = other * prod(w->in, nd) <= derived_budget(g);
    for (size_t i = 0; i < nd && no_dil; i++) ok &= w->dil[i] == 1;
    if (ok) return;
  }
}

/* strides and padding as the window chose them, for ops without a dilation attribute. */
static void set_strides_padding(OpGen *g, const OpDef *op, OpPlan *out, const Window *w) {
  int64_t pad[6];
  size_t n = 0;
  opgen_set_ints(g, op, out, "strides", w->s, w->nd);
  if (w->pad_form == PAD_ONE) {
    pad[n++] = w->pb[0];
  } else {
    for (size_t i = 0; i < w->nd; i++) pad[n++] = w->pb[i];
    if (w->pad_form == PAD_FULL)
      for (size_t i = 0; i < w->nd; i++) pad[n++] = w->pa[i];
  }
  opgen_set_ints(g, op, out, "padding", pad, n);
}

static DType pick_dtype(OpGen *g, const DType *v, size_t n) { return v[rng_index(g->rng, n)]; }

static const DType q8[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}};

/* ------------------------------------------------------------------ conv3d_transpose */

bool nnconv_conv3d_transpose_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 5, 5, 1); }

/* NCDHW / IODHW (topi's only layout), groups 1; channels and kernel_size always written, so the
   relation reads the kernel from them (its weight-shape path swaps the kernel's height and width). */
bool nnconv_conv3d_transpose_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cout = o[1], budget = derived_budget(g);
  int64_t cin = 1;
  Window w;
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    cin = minimal ? 1 : rng_range(g->rng, 1, 4);
    if (!window_solve(g, WIN_CONV_T, 3, o + 2, minimal, false, false, &w)) continue;
    if (minimal || (n * cin * prod(w.in, 3) <= budget && cin * cout * prod(w.k, 3) <= budget)) break;
  }
  opgen_plan_init(g, op, out);
  int64_t d[5] = {n, cin, w.in[0], w.in[1], w.in[2]}, k[5] = {cin, cout, w.k[0], w.k[1], w.k[2]};
  out->args[0] = tensor(g, t->dtype, d, 5);
  out->args[1] = tensor(g, t->dtype, k, 5);
  out->nargs = 2;
  set_window(g, op, out, &w);
  opgen_set_ints(g, op, out, "output_padding", w.opad, 3);
  opgen_set_int(g, op, out, "channels", cout);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 3);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

bool nnconv_conv3d_transpose_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 5, 5, dt_void);
}

/* ------------------------------------------------------------------ Winograd convolutions */

bool nnconv_winograd2d_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }
bool nnconv_winograd3d_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 5, 5, 1); }

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
  if (n * cin * prod(in, nd) > derived_budget(g)) {
    cin = 1;
    for (size_t i = 0; i < nd; i++) pad[i] = 1, in[i] = o[2 + i];
  }
  int64_t tile = rng_chance(g->rng, 1, 2) ? 2 : 4, alpha = tile + 2;
  int64_t d[5] = {n, cin, in[0], in[1], in[2]}, k[5] = {alpha, alpha, alpha, alpha, alpha};
  k[nd] = cout;
  k[nd + 1] = cin;
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, t->dtype, d, nd + 2);
  out->args[1] = tensor(g, t->dtype, k, nd + 2);
  out->nargs = 2;
  opgen_set_int(g, op, out, "tile_size", tile);
  opgen_set_ints(g, op, out, "padding", pad, nd);
  opgen_set_int(g, op, out, "channels", cout);
  opgen_set_ints(g, op, out, "kernel_size", ks, nd);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

bool nnconv_winograd2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return winograd_solve(g, op, t, out, 2);
}
bool nnconv_winograd3d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  return winograd_solve(g, op, t, out, 3);
}
bool nnconv_winograd2d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 4, 4, dt_void); }
bool nnconv_winograd3d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 5, 5, dt_void); }

/* ------------------------------------------------------------------ weight transforms */

/* A tile size t <= lim (lim >= 1): 2 or 4 where they fit, else 1. */
static int64_t pick_tile(OpGen *g, int64_t lim) {
  int64_t c[2];
  size_t n = 0;
  if (lim >= 2) c[n++] = 2;
  if (lim >= 4) c[n++] = 4;
  return n ? c[rng_index(g->rng, n)] : 1;
}

bool nnconv_winograd_wt2d_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }

/* (t + kh - 1, t + kw - 1, O, I) from an OIHW weight. */
bool nnconv_winograd_wt2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims;
  int64_t tile = pick_tile(g, o[0] < o[1] ? o[0] : o[1]);
  int64_t w[4] = {o[2], o[3], o[0] - tile + 1, o[1] - tile + 1};
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, t->dtype, w, 4);
  out->nargs = 1;
  opgen_set_int(g, op, out, "tile_size", tile);
  out->result = t;
  return true;
}

bool nnconv_winograd_wt2d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 4, 4, dt_void); }

/* The 3-D transform keeps a kernel depth outside 3..7 and transforms one inside it. */
static bool wt3d_keeps_depth(const Type *t) { return t->dims[2] <= 2 || t->dims[2] >= 8; }
static void wt3d_depth_tiles(const Type *t, int64_t *lo, int64_t *hi) {
  int64_t a = t->dims[0], b = t->dims[1], c = t->dims[2];
  *lo = a - 6 > 1 ? a - 6 : 1;
  *hi = a - 2;
  if (b < *hi) *hi = b;
  if (c < *hi) *hi = c;
}

bool nnconv_winograd_wt3d_recognize(const OpDef *op, const Type *t) {
  if (!gen_tensor_ok(op, t, 5, 5, 1)) return false;
  int64_t lo, hi;
  wt3d_depth_tiles(t, &lo, &hi);
  return wt3d_keeps_depth(t) || lo <= hi;
}

bool nnconv_winograd_wt3d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
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
  out->args[0] = tensor(g, t->dtype, w, 5);
  out->nargs = 1;
  opgen_set_int(g, op, out, "tile_size", tile);
  out->result = t;
  return true;
}

bool nnconv_winograd_wt3d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 5, 5, dt_void); }

/* NNPACK's transform: (O, I, 8, 8) from any OIHW weight; convolution_algorithm 3 is WT_8x8. */
bool nnconv_nnpack_wt_recognize(const OpDef *op, const Type *t) {
  return gen_tensor_ok(op, t, 4, 4, 1) && t->dims[2] == 8 && t->dims[3] == 8;
}

bool nnconv_nnpack_wt_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  int64_t w[4] = {t->dims[0], t->dims[1], 3, 3};
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, t->dtype, w, 4);
  out->nargs = 1;
  opgen_set_int(g, op, out, "convolution_algorithm", 3);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

bool nnconv_nnpack_wt_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[4] = {rng_range(g->rng, 1, g->policy->max_dim), rng_range(g->rng, 1, g->policy->max_dim), 8, 8};
  return op->solve(g, op, tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 4), out);
}

/* GEMM's transform of an HWIO weight: (ceil(O / rows), ceil(H * W * I / cols), rows, cols). */
bool nnconv_gemm_wt_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }

bool nnconv_gemm_wt_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, rows = o[2], cols = o[3];
  int64_t N = (o[0] - 1) * rows + rng_range(g->rng, 1, rows), K = (o[1] - 1) * cols + rng_range(g->rng, 1, cols);
  int64_t h = pick_divisor(g, K, 1), rest = K / h, w = pick_divisor(g, rest, 1);
  int64_t d[4] = {h, w, rest / w, N};
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, t->dtype, d, 4);
  out->nargs = 1;
  opgen_set_int(g, op, out, "tile_rows", rows);
  opgen_set_int(g, op, out, "tile_cols", cols);
  out->result = t;
  return true;
}

bool nnconv_gemm_wt_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 4, 4, dt_void); }

/* ------------------------------------------------------------------ GEMM convolution */

bool nnconv_gemm_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }

/* NHWC / HWIO (topi's GEMM convolution is NHWC only); the weight as the GEMM transform with tiles
   of 4 x 16 leaves it. */
bool nnconv_gemm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cout = o[3];
  int64_t cin = rng_range(g->rng, 1, 4), oc[2] = {o[1], o[2]};
  Window w;
  fwd_window(g, 2, oc, n * cin, false, &w);
  int64_t K = w.k[0] * w.k[1] * cin;
  int64_t d[4] = {n, w.in[0], w.in[1], cin}, k[4] = {(cout + 3) / 4, (K + 15) / 16, 4, 16};
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, t->dtype, d, 4);
  out->args[1] = tensor(g, t->dtype, k, 4);
  out->nargs = 2;
  set_window(g, op, out, &w);
  opgen_set_int(g, op, out, "channels", cout);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  opgen_set_str(g, op, out, "data_layout", "NHWC");
  opgen_set_str(g, op, out, "kernel_layout", "HWIO");
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

bool nnconv_gemm_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 4, 4, dt_void); }

/* ------------------------------------------------------------------ packed depthwise */

bool nnconv_depthwise_nchwc_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 5, 5, 1); }

/* (N, C / bn, H, W, bn) data, (C / bn, 1, kh, kw, 1, bn) kernel, groups = channels = C. */
bool nnconv_depthwise_nchwc_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cb = o[1], bn = o[4], c = cb * bn;
  Window w;
  fwd_window(g, 2, o + 2, n * c, false, &w);
  int64_t d[5] = {n, cb, w.in[0], w.in[1], bn}, k[6] = {cb, 1, w.k[0], w.k[1], 1, bn};
  char dl[32], kl[32];
  snprintf(dl, sizeof dl, "NCHW%lldc", (long long)bn);
  snprintf(kl, sizeof kl, "OIHW1i%lldo", (long long)bn);
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, t->dtype, d, 5);
  out->args[1] = tensor(g, t->dtype, k, 6);
  out->nargs = 2;
  set_window(g, op, out, &w);
  opgen_set_int(g, op, out, "groups", c);
  opgen_set_int(g, op, out, "channels", c);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  opgen_set_str(g, op, out, "data_layout", dl);
  opgen_set_str(g, op, out, "kernel_layout", kl);
  opgen_set_str(g, op, out, "out_layout", dl);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

bool nnconv_depthwise_nchwc_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 5, 5, dt_void);
}

/* ------------------------------------------------------------------ deformable */

bool nnconv_deformable_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }

/* NCHW / OIHW, groups 1, deformable groups dividing the input channels (topi's requirement). */
bool nnconv_deformable_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  const int64_t *o = t->dims, n = o[0], cout = o[1], budget = derived_budget(g);
  int64_t cin = 1, dg = 1;
  Window w;
  for (int attempt = 0;; attempt++) {
    bool minimal = attempt >= 7;
    cin = minimal ? 1 : rng_range(g->rng, 1, 4);
    dg = minimal ? 1 : pick_divisor(g, cin, 1);
    if (!window_solve(g, WIN_CONV, 2, o + 2, minimal, false, false, &w)) continue;
    int64_t offset = n * 2 * w.k[0] * w.k[1] * dg * o[2] * o[3];
    if (minimal || (n * cin * prod(w.in, 2) <= budget && offset <= budget)) break;
  }
  int64_t d[4] = {n, cin, w.in[0], w.in[1]}, off[4] = {n, 2 * w.k[0] * w.k[1] * dg, o[2], o[3]};
  int64_t k[4] = {cout, cin, w.k[0], w.k[1]};
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, t->dtype, d, 4);
  out->args[1] = tensor(g, t->dtype, off, 4);
  out->args[2] = tensor(g, t->dtype, k, 4);
  out->nargs = 3;
  set_window(g, op, out, &w);
  if (dg > 1) opgen_set_int(g, op, out, "deformable_groups", dg);
  if (rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "channels", cout);
  if (rng_chance(g->rng, 1, 2)) opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  maybe_out_dtype(g, op, out, t->dtype);
  out->result = t;
  return true;
}

bool nnconv_deformable_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 4, 4, dt_void); }

/* ------------------------------------------------------------------ bitserial */

/* bitpack's result: packed into uint8/16/32 words, with a bit axis (so rank >= 2). */
bool nnconv_bitpack_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (t->kind != TY_TENSOR || t->ndims < 2 || t->ndims > LAYOUT_MAX || t->dtype.code != DT_UINT || t->dtype.lanes != 1 ||
      (t->dtype.bits != 8 && t->dtype.bits != 16 && t->dtype.bits != 32))
    return false;
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] < 1) return false;
  return true;
}

/* The bit axis is some axis j of the result (bits = its extent); the data is the rest, with one
   axis p (the pack axis) widened by the word's bits. */
bool nnconv_bitpack_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  size_t r = t->ndims, j = rng_index(g->rng, r), p = rng_index(g->rng, r - 1);
  int64_t d[LAYOUT_MAX];
  size_t n = 0;
  for (size_t i = 0; i < r; i++)
    if (i != j) d[n++] = t->dims[i];
  d[p] *= t->dtype.bits;
  char buf[16];
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, opgen_dtype(g, OPDT_INT), d, n);
  out->nargs = 1;
  opgen_set_int(g, op, out, "bits", t->dims[j]);
  opgen_set_int(g, op, out, "pack_axis", (int64_t)p);
  opgen_set_int(g, op, out, "bit_axis", (int64_t)j);
  opgen_set_str(g, op, out, "pack_type", dtype_str(t->dtype, buf));
  out->result = t;
  return true;
}

bool nnconv_bitpack_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  static const DType words[] = {{DT_UINT, 8, 1}, {DT_UINT, 16, 1}, {DT_UINT, 32, 1}};
  return sample_ranked(g, op, out, 2, g->policy->max_rank, pick_dtype(g, words, 3));
}

bool nnconv_bitserial_conv2d_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 4, 4, 1); }

/* NCHW / OIHW or NHWC / HWIO, 8-bit data and weight, pack_dtype uint32, out_dtype the result's. */
bool nnconv_bitserial_conv2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  static const char *const layouts[2][2] = {{"NCHW", "OIHW"}, {"NHWC", "HWIO"}};
  int li = rng_chance(g->rng, 1, 3) ? 1 : 0;
  int64_t oc[4];
  permute(layouts[li][0], t->dims, "NCHW", oc);
  int64_t n = oc[0], cout = oc[1], cin = rng_range(g->rng, 1, 4);
  Window w;
  fwd_window(g, 2, oc + 2, n * cin, true, &w);
  int64_t dc[4] = {n, cin, w.in[0], w.in[1]}, kc[4] = {cout, cin, w.k[0], w.k[1]}, d[4], k[4];
  permute("NCHW", dc, layouts[li][0], d);
  permute("OIHW", kc, layouts[li][1], k);
  DType dt = pick_dtype(g, q8, 2);
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, dt, d, 4);
  out->args[1] = tensor(g, dt, k, 4);
  out->nargs = 2;
  set_strides_padding(g, op, out, &w);
  opgen_set_ints(g, op, out, "kernel_size", w.k, 2);
  opgen_set_int(g, op, out, "channels", cout);
  if (li) {
    opgen_set_str(g, op, out, "data_layout", layouts[li][0]);
    opgen_set_str(g, op, out, "kernel_layout", layouts[li][1]);
  }
  opgen_set_str(g, op, out, "pack_dtype", "uint32");
  set_dtype_attr(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}

bool nnconv_bitserial_conv2d_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return sample_ranked(g, op, out, 4, 4, dt_void);
}

bool nnconv_bitserial_dense_recognize(const OpDef *op, const Type *t) { return gen_tensor_ok(op, t, 2, 2, 1); }

/* (M, K) x (units, K) on 8-bit data. */
bool nnconv_bitserial_dense_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  int64_t kdim = rng_range(g->rng, 1, g->policy->max_dim), d[2] = {t->dims[0], kdim}, w[2] = {t->dims[1], kdim};
  DType dt = pick_dtype(g, q8, 2);
  opgen_plan_init(g, op, out);
  out->args[0] = tensor(g, dt, d, 2);
  out->args[1] = tensor(g, dt, w, 2);
  out->nargs = 2;
  opgen_set_int(g, op, out, "units", t->dims[1]);
  opgen_set_str(g, op, out, "pack_dtype", "uint32");
  if (!dtype_eq(dt, t->dtype) || rng_chance(g->rng, 1, 2)) set_dtype_attr(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}

bool nnconv_bitserial_dense_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_ranked(g, op, out, 2, 2, dt_void); }

/* ------------------------------------------------------------------ correlation */

/* The channels are (2 * (max_displacement / stride2) + 1)^2: an odd square. */
static int64_t odd_root(int64_t c) {
  for (int64_t r = 1; r * r <= c; r += 2)
    if (r * r == c) return r;
  return 0;
}

bool nnconv_correlation_recognize(const OpDef *op, const Type *t) {
  return gen_tensor_ok(op, t, 4, 4, 1) && odd_root(t->dims[1]) > 0;
}

/* out = floor((extent + 2 * pad - 2 * border + stride1 - 1) / stride1), border = max_displacement +
   (kernel_size - 1) / 2: pick the parameters, then the extents that give the result. */
bool nnconv_correlation_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  int64_t dr = (odd_root(t->dims[1]) - 1) / 2, s2 = rng_range(g->rng, 1, 2), maxd = dr * s2 + rng_range(g->rng, 0, s2 - 1);
  int64_t k = rng_chance(g->rng, 1, 2) ? 1 : 3, border = maxd + (k - 1) / 2, s1 = rng_range(g->rng, 1, 2);
  int64_t p = rng_range(g->rng, 0, border), d[4] = {t->dims[0], rng_range(g->rng, 1, 3)};
  for (int i = 0; i < 2; i++) d[2 + i] = t->dims[2 + i] * s1 + rng_range(g->rng, 0, s1 - 1) - 2 * p + 2 * border - s1 + 1;
  int64_t pad[2] = {p, p};
  opgen_plan_init(g, op, out);
  out->args[0] = out->args[1] = tensor(g, t->dtype, d, 4);
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

bool nnconv_correlation_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[4] = {rng_range(g->rng, 1, 4), rng_chance(g->rng, 1, 2) ? 1 : 9, rng_range(g->rng, 1, g->policy->max_dim),
                  rng_range(g->rng, 1, g->policy->max_dim)};
  return op->solve(g, op, tensor(g, opgen_dtype(g, OPDT_FLOAT), d, 4), out);
}
