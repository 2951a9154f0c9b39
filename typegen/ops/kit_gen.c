/* The kit's generator helpers (see kit.h). */
#include "kit.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ recognizing */

/* The test behind kit_gen_ok and kit_gen_ok_dims: `bounded` adds the rank and element bounds. */
static bool static_tensor(const Type *t, OpDtypes cls, unsigned lo, unsigned hi, int64_t min_dim,
                          bool bounded) {
  if (t->kind != TY_TENSOR || t->ndims < lo || t->ndims > hi || (bounded && t->ndims > KIT_RANK_MAX) ||
      !opgen_dtype_in_class(cls, t->dtype))
    return false;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++) {
    if (t->dims[i] == KIT_ANY || t->dims[i] < min_dim) return false;
    if (!bounded) continue;
    if (t->dims[i] > KIT_ELEMENTS_MAX) return false;
    n *= t->dims[i];
    if (n > KIT_ELEMENTS_MAX) return false;
  }
  return true;
}

bool kit_gen_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi) {
  return static_tensor(t, cls, lo, hi, 1, true);
}

bool kit_gen_ok_dims(const OpDef *op, const Type *t, unsigned lo, unsigned hi, int64_t min_dim) {
  return static_tensor(t, (OpDtypes)op->gen_dtypes, lo, hi, min_dim, false);
}

bool kit_static_any(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 0, KIT_RANK_MAX);
}
bool kit_static_ranked(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX);
}
bool kit_static_matrix(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 2, KIT_RANK_MAX);
}

bool kit_rank3(const OpDef *op, const Type *t) { return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 3, 3); }
bool kit_rank4(const OpDef *op, const Type *t) { return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 4, 4); }
bool kit_rank5(const OpDef *op, const Type *t) { return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 5, 5); }
bool kit_nn_rank3(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 3, 3, 1); }
bool kit_nn_rank4(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 4, 4, 1); }
bool kit_nn_rank5(const OpDef *op, const Type *t) { return kit_gen_ok_dims(op, t, 5, 5, 1); }

bool kit_all_any_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi) {
  if (t->kind != TY_TENSOR || t->ndims < lo || t->ndims > hi || t->ndims > KIT_RANK_MAX ||
      !opgen_dtype_in_class(cls, t->dtype))
    return false;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] != KIT_ANY) return false;
  return true;
}

bool kit_static_in(const Type *t, const DType *set, size_t n) {
  if (t->kind != TY_TENSOR || !kit_dtype_in(t->dtype, set, n)) return false;
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] == KIT_ANY) return false;
  return true;
}

/* ------------------------------------------------------------------ random shapes */

/* The number of elements of a static tensor (of a tuple's fields, summed). */
static int64_t elements(const Type *t) {
  if (t->kind == TY_TUPLE) {
    int64_t n = 0;
    for (uint32_t i = 0; i < t->nargs; i++)
      n += elements(t->args[i]);
    return n;
  }
  if (t->kind != TY_TENSOR) return 1;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] > 0) n *= t->dims[i];
  return n;
}

int64_t kit_budget(OpGen *g, const Type *result) {
  int64_t n = elements(result);
  return n > g->policy->max_elements ? n : g->policy->max_elements;
}

int64_t kit_derived_budget(const OpGen *g) { return 2 * g->policy->max_elements; }

const Type *kit_rand_tensor(OpGen *g, DType dt, size_t rank, int64_t budget) {
  int64_t dims[KIT_RANK_MAX];
  if (rank > KIT_RANK_MAX) rank = KIT_RANK_MAX;
  opgen_dims(g, rank, budget, dims);
  return ty_tensor(g->types, dt, dims, rank);
}

const Type *kit_tensor(OpGen *g, DType dt, const int64_t *dims, size_t n) {
  return ty_tensor(g->types, dt, dims, n);
}

const Type *kit_scalar(OpGen *g, DType dt) { return ty_scalar(g->types, dt); }

const Type *kit_vec(OpGen *g, DType dt, int64_t n) { return ty_tensor(g->types, dt, &n, 1); }

void kit_factors(OpGen *g, int64_t total, size_t n, int64_t *out) {
  size_t last = rng_index(g->rng, n);
  for (size_t i = 0; i < n; i++) {
    if (i == last) continue;
    out[i] = kit_divisor(g, total, g->policy->max_dim);
    total /= out[i];
  }
  out[last] = total;
}

int64_t kit_divisor(OpGen *g, int64_t n, int64_t cap) {
  int64_t pick = 1, seen = 0;
  for (int64_t i = 1; i <= n / i; i++) {
    if (n % i) continue;
    int64_t pair[2] = {i, n / i};
    for (int k = 0; k < (i == n / i ? 1 : 2); k++)
      if (pair[k] <= cap && rng_index(g->rng, (size_t)++seen) == 0) pick = pair[k];
  }
  return pick;
}

int64_t kit_divisor_of(OpGen *g, int64_t n, int64_t max) {
  int64_t divs[64];
  size_t k = 0;
  for (int64_t d = 1; d * d <= n && d <= max && k < 62; d++)
    if (n % d == 0) {
      divs[k++] = d;
      if (d != n / d && n / d <= max) divs[k++] = n / d;
    }
  return divs[rng_index(g->rng, k)];
}

int64_t kit_divisor_from(OpGen *g, int64_t n, int64_t lo) {
  int64_t found[64];
  size_t nf = 0;
  for (int64_t d = 1; d * d <= n && nf < 62; d++)
    if (n % d == 0) {
      if (d >= lo) found[nf++] = d;
      if (n / d != d && n / d >= lo) found[nf++] = n / d;
    }
  return nf ? found[rng_index(g->rng, nf)] : 0;
}

int64_t kit_prod(const int64_t *v, size_t n) {
  int64_t p = 1;
  for (size_t i = 0; i < n; i++)
    p *= v[i];
  return p;
}

void kit_permute(const char *from, const int64_t *src, const char *to, int64_t *dst) {
  for (size_t j = 0; to[j]; j++)
    dst[j] = src[strchr(from, to[j]) - from];
}

/* ------------------------------------------------------------------ random choices */

DType kit_index_dtype(OpGen *g) { return rng_chance(g->rng, 1, 2) ? dt_int32 : dt_int64; }

const char *kit_pick_str(OpGen *g, const char *const *items, size_t n) { return items[rng_index(g->rng, n)]; }

double kit_pick_float(OpGen *g, const double *v, size_t n) { return v[rng_index(g->rng, n)]; }

DType kit_pick_dtype(OpGen *g, const DType *set, size_t n) { return set[rng_index(g->rng, n)]; }

/* ------------------------------------------------------------------ samplers */

bool kit_sample_rank(OpGen *g, const OpDef *op, OpPlan *out, size_t rank) {
  for (int tries = 0; tries < 64; tries++) {
    const Type *t =
        kit_rand_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), rank, g->policy->max_elements);
    if (op->recognize(op, t) && op->solve(g, op, t, out)) return true;
  }
  return false;
}

bool kit_sample_ranked(OpGen *g, const OpDef *op, OpPlan *out, unsigned lo, unsigned hi, DType fixed) {
  if (hi > g->policy->max_rank) hi = g->policy->max_rank > lo ? g->policy->max_rank : lo;
  for (int tries = 0; tries < 64; tries++) {
    DType dt = fixed.code == DT_VOID ? opgen_dtype(g, (OpDtypes)op->gen_dtypes) : fixed;
    size_t rank = (size_t)rng_range(g->rng, lo, hi);
    /* these samplers have always stopped at rank 8 (the policy's own limit) */
    const Type *t = kit_rand_tensor(g, dt, rank > 8 ? 8 : rank, g->policy->max_elements);
    if (op->recognize(op, t) && op->solve(g, op, t, out)) return true;
  }
  return false;
}

static const Type *tensor_of_rank(OpGen *g, DType d, unsigned rank) { return opgen_tensor(g, d, rank, rank); }

bool kit_sample_in(OpGen *g, const OpDef *op, OpPlan *out, const DType *set, size_t n, unsigned lo,
                   unsigned hi) {
  if (hi > g->policy->max_rank) hi = g->policy->max_rank;
  for (int tries = 0; tries < 64; tries++) {
    /* both arguments draw random numbers: kept in one call, as they have always been drawn */
    const Type *t = tensor_of_rank(g, kit_pick_dtype(g, set, n), (unsigned)rng_range(g->rng, lo, hi));
    if (op->recognize(op, t) && op->solve(g, op, t, out)) return true;
  }
  return false;
}

/* ------------------------------------------------------------------ plans */

void kit_set_dtype(OpGen *g, const OpDef *op, OpPlan *p, const char *name, DType d) {
  char buf[16];
  opgen_set_str(g, op, p, name, dtype_str(d, buf));
}

void kit_set_floats(OpGen *g, const OpDef *op, OpPlan *p, const char *name, const double *v, size_t n) {
  AttrVal *items = arena_alloc(g->arena, (n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++)
    items[i] = (AttrVal){.kind = ATTR_FLOAT, .f = v[i]};
  opgen_set_attr(op, p, name, (AttrVal){.kind = ATTR_LIST, .items = items, .n = n});
}

void kit_set_pairs(OpGen *g, const OpDef *op, OpPlan *p, const char *name, const int64_t (*pairs)[2],
                   size_t n) {
  AttrVal *items = arena_alloc(g->arena, (n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++) {
    AttrVal *two = arena_alloc(g->arena, 2 * sizeof *two);
    for (int k = 0; k < 2; k++)
      two[k] = (AttrVal){.kind = ATTR_INT, .i = pairs[i][k], .f = (double)pairs[i][k]};
    items[i] = (AttrVal){.kind = ATTR_LIST, .items = two, .n = 2};
  }
  opgen_set_attr(op, p, name, (AttrVal){.kind = ATTR_LIST, .items = items, .n = n});
}

void kit_maybe_out_dtype(OpGen *g, const OpDef *op, OpPlan *plan, DType d) {
  if (rng_chance(g->rng, 1, 4)) kit_set_dtype(g, op, plan, "out_dtype", d);
}

OpDef kit_any_dtype(const char *name) {
  OpDef d = *op_lookup(name);
  d.gen_dtypes = OPDT_ANY;
  return d;
}

void kit_copy_attrs(const OpDef *src, const OpPlan *from, const OpDef *dst, OpPlan *to) {
  for (size_t k = 0; k < dst->nattrs; k++)
    for (size_t j = 0; j < src->nattrs; j++)
      if (!strcmp(dst->attrs[k].name, src->attrs[j].name)) to->attrs[k] = from->attrs[j];
}

/* ------------------------------------------------------------------ sliding windows */

bool kit_window_solve(OpGen *g, int kind, size_t nd, const int64_t *o, bool minimal, bool ceil_mode,
                      bool full_pad, KitWindow *w) {
  memset(w, 0, sizeof *w);
  w->nd = nd;
  w->pad_form = full_pad ? KIT_PAD_FULL : (int)rng_range(g->rng, KIT_PAD_ONE, KIT_PAD_FULL);
  int64_t bound[3], common = 2;
  for (size_t i = 0; i < nd; i++) {
    w->k[i] = minimal ? 1 : rng_range(g->rng, 1, 3);
    w->s[i] = minimal ? 1 : rng_range(g->rng, 1, 2);
    /* topi's transposed convolutions take no dilation */
    w->dil[i] = !minimal && kind != KIT_WIN_CONV_T && rng_chance(g->rng, 1, 4) ? 2 : 1;
    /* Padding stays inside the window: topi pads a transposed convolution's input by dk - 1 - pad
       (negative fails), and a pool window lying wholly in padding has nothing to reduce. */
    int64_t dk = (w->k[i] - 1) * w->dil[i] + 1;
    bound[i] = kind == KIT_WIN_POOL ? w->k[i] - 1 : dk - 1;
    if (bound[i] > 2) bound[i] = 2;
    if (minimal) bound[i] = 0;
    if (bound[i] < common) common = bound[i];
  }
  int64_t p = rng_range(g->rng, 0, common);
  for (size_t i = 0; i < nd; i++) {
    switch (w->pad_form) {
    case KIT_PAD_ONE:
      w->pb[i] = w->pa[i] = p;
      break;
    case KIT_PAD_PER_AXIS:
      w->pb[i] = w->pa[i] = rng_range(g->rng, 0, bound[i]);
      break;
    default:
      w->pb[i] = rng_range(g->rng, 0, bound[i]);
      w->pa[i] = rng_range(g->rng, 0, bound[i]);
    }
    int64_t dk = (w->k[i] - 1) * w->dil[i] + 1, pad = w->pb[i] + w->pa[i], s = w->s[i];
    if (kind == KIT_WIN_CONV_T) {
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

void kit_set_window(OpGen *g, const OpDef *op, OpPlan *out, const KitWindow *w) {
  int64_t pad[6];
  size_t n = 0, nd = w->nd;
  opgen_set_ints(g, op, out, "strides", w->s, nd);
  opgen_set_ints(g, op, out, "dilation", w->dil, nd);
  if (w->pad_form == KIT_PAD_ONE) {
    pad[n++] = w->pb[0];
  } else {
    for (size_t i = 0; i < nd; i++)
      pad[n++] = w->pb[i];
    if (w->pad_form == KIT_PAD_FULL)
      for (size_t i = 0; i < nd; i++)
        pad[n++] = w->pa[i];
  }
  opgen_set_ints(g, op, out, "padding", pad, n);
}
