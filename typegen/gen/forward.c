/*
 * The forward policy's leaves (GenCoG's way of growing a graph from its inputs).  The backward
 * generator ends every branch in a leaf; made from nothing (zeros(...), a literal) that leaf is a
 * constant, and TVM's FoldConstant folds whole subgraphs of constants away before fusion and
 * codegen ever see them.  Under policy->forward a tensor leaf is instead an earlier value adapted
 * to the type wanted, so every call the program makes consumes @main's inputs:
 *
 *   %v: Tensor[S, d]  --cast--> dtype e  --reshape / strided_slice / tile / broadcast_to-->  T
 *
 * Each adapter step is a plan whose result the op's own relation computes (opgen_run), so the
 * chain is well-typed by construction; a step the relation refuses drops the candidate.  This file
 * only plans the chain; gen.c binds its calls (gen_smallest), so the two do not need each other.
 */
#include <string.h>

#include "gen.h"

/* Recent values first: the graph grows from what was just computed, and while nothing is bound
   yet the candidates are the function's parameters (in @main, its inputs). */
enum { FWD_RECENT = 4 };


/* Adapters are plumbing, not what a policy's allow_ops is about (policy-gencog.json lists neither
   cast nor tile): they are used even when allow_ops leaves them out, but never when deny_ops names
   them, for a denied op may be one that crashes the compiler under test. */
const OpDef *gen_plumbing(const Gen *g, const char *name) {
  for (size_t i = 0; i < g->policy->ndeny; i++)
    if (!strcmp(g->policy->deny_ops[i], name)) return NULL;
  return op_lookup(name);
}

/* Dtypes cast converts between: numeric ones, and bool when the registry's cast accepts it. */
static bool castable(const Type *t) {
  DType d = t->dtype;
  if (d.lanes != 1) return false;
  if (d.code == DT_FLOAT || dtype_is_int(d)) return true;
  const OpDef *cast = op_lookup("cast");
  return dtype_is_bool(d) && cast && cast->recognize && cast->recognize(cast, t);
}

/* A plain static tensor: every size known, a castable dtype. */
static bool adaptable(const Type *t) {
  if (t->kind != TY_TENSOR || !castable(t)) return false;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] < 0) return false;
  return true;
}

static int64_t count(const Type *t) {
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++) n *= t->dims[i];
  return n;
}

static bool same_shape(const Type *a, const Type *b) {
  if (a->ndims != b->ndims) return false;
  for (uint32_t i = 0; i < a->ndims; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* Appends op(cur) with the plan's attributes, if the op's relation accepts it. */
static bool step(Gen *g, GenAdapter *c, const OpDef *op, OpPlan *plan) {
  if (c->n == GEN_ADAPTER_STEPS) return false;
  plan->args[0] = c->cur;
  plan->nargs = 1;
  OpCall call;
  const Type *r = opgen_run(&g->og, op, plan, &call);
  if (!r || !gen_type_fits(&g->limits, r)) return false; /* a flattened tensor may be too long */
  plan->result = r;
  c->steps[c->n++] = (GenAdapterStep){op, *plan};
  c->cur = r;
  return true;
}

/* op(cur, NAME=[v...]) */
static bool step_ints(Gen *g, GenAdapter *c, const char *op_name, const char *attr, const int64_t *v, size_t n) {
  const OpDef *op = gen_plumbing(g, op_name);
  if (!op) return false;
  OpPlan p;
  opgen_plan_init(&g->og, op, &p);
  opgen_set_ints(&g->og, op, &p, attr, v, n);
  return step(g, c, op, &p);
}

static bool cast_to(Gen *g, GenAdapter *c, DType d) {
  const OpDef *op = gen_plumbing(g, "cast");
  if (!op) return false;
  OpPlan p;
  opgen_plan_init(&g->og, op, &p);
  char buf[16];
  opgen_set_str(&g->og, op, &p, "dtype", dtype_str(d, buf));
  return step(g, c, op, &p);
}

/* strided_slice(cur, begin=[0, ...], end=END, strides=[1, ...]): the leading block of that size. */
static bool slice_to(Gen *g, GenAdapter *c, const int64_t *end, size_t n) {
  const OpDef *op = gen_plumbing(g, "strided_slice");
  if (!op) return false;
  int64_t zeros[8] = {0}, ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  if (n > 8) return false;
  OpPlan p;
  opgen_plan_init(&g->og, op, &p);
  opgen_set_ints(&g->og, op, &p, "begin", zeros, n);
  opgen_set_ints(&g->og, op, &p, "end", end, n);
  opgen_set_ints(&g->og, op, &p, "strides", ones, n);
  return step(g, c, op, &p);
}

/* A 1-D tensor of n elements repeated k times: tile, else repeat along axis 0. */
static bool grow_flat(Gen *g, GenAdapter *c, int64_t k) {
  if (step_ints(g, c, "tile", "reps", &k, 1)) return true;
  const OpDef *op = gen_plumbing(g, "repeat");
  if (!op) return false;
  OpPlan p;
  opgen_plan_init(&g->og, op, &p);
  opgen_set_int(&g->og, op, &p, "repeats", k);
  opgen_set_int(&g->og, op, &p, "axis", 0);
  return step(g, c, op, &p);
}

/* NumPy broadcasting of s to t (sizes aligned from the right, each 1 or equal). */
static bool broadcasts(const Type *s, const Type *t) {
  if (s->ndims > t->ndims) return false;
  for (uint32_t i = 0; i < s->ndims; i++) {
    int64_t a = s->dims[s->ndims - 1 - i], b = t->dims[t->ndims - 1 - i];
    if (a != 1 && a != b) return false;
  }
  return true;
}

/* Changes cur's shape to t's.  One call where one does (broadcast_to, a slice or a tile of the
   same rank, a reshape to as many elements), else: flatten, take the first M elements or tile
   until there are enough, reshape. */
static bool shape_to(Gen *g, GenAdapter *c, const Type *t) {
  const Type *s = c->cur;
  if (same_shape(s, t)) return true;
  if (broadcasts(s, t) && step_ints(g, c, "broadcast_to", "shape", t->dims, t->ndims)) return true;
  if (s->ndims == t->ndims) {
    bool larger = true, divides = true;
    int64_t reps[8];
    for (uint32_t i = 0; i < s->ndims && i < 8; i++) {
      larger &= s->dims[i] >= t->dims[i];
      divides &= s->dims[i] > 0 && t->dims[i] % s->dims[i] == 0;
      if (divides) reps[i] = t->dims[i] / s->dims[i];
    }
    if (s->ndims <= 8 && larger && slice_to(g, c, t->dims, t->ndims)) return true;
    if (s->ndims <= 8 && divides && step_ints(g, c, "tile", "reps", reps, s->ndims)) return true;
  }
  int64_t n = count(s), m = count(t), flat = -1;
  if (n == m) return step_ints(g, c, "reshape", "newshape", t->dims, t->ndims);
  if (n == 0) return false; /* nothing to tile */
  if (s->ndims != 1 && !step_ints(g, c, "reshape", "newshape", &flat, 1)) return false;
  if (n < m) {
    int64_t k = (m + n - 1) / n;
    if (!grow_flat(g, c, k)) return false;
    n *= k;
  }
  if (n > m && !slice_to(g, c, &m, 1)) return false;
  if (t->ndims != 1 && !step_ints(g, c, "reshape", "newshape", t->dims, t->ndims)) return false;
  return same_shape(c->cur, t);
}

/* Changes cur's shape to t's one axis at a time, never through a tensor larger than either (what
   shape_to's flattening cannot promise within max_dim): first to t's rank (extra leading axes
   sliced to 1 and dropped, missing ones added as 1s), then one slice to the sizes wanted, or to 1
   where a size must grow by a factor that does not divide it, a tile for the sizes that grow by
   whole factors, and a broadcast of the 1s. */
static bool shape_by_axes(Gen *g, GenAdapter *c, const Type *t) {
  const Type *s = c->cur;
  if (s->ndims > 8 || t->ndims > 8) return false;
  int64_t dims[8], end[8], reps[8];
  if (s->ndims > t->ndims) {
    size_t drop = s->ndims - t->ndims;
    for (size_t i = 0; i < s->ndims; i++)
      end[i] = i < drop ? 1 : s->dims[i];
    if (!slice_to(g, c, end, s->ndims)) return false;
    if (!step_ints(g, c, "reshape", "newshape", s->dims + drop, t->ndims)) return false;
  } else if (s->ndims < t->ndims) {
    size_t add = t->ndims - s->ndims;
    for (size_t i = 0; i < t->ndims; i++)
      dims[i] = i < add ? 1 : s->dims[i - add];
    if (!step_ints(g, c, "reshape", "newshape", dims, t->ndims)) return false;
  }
  s = c->cur;
  bool slice = false, tile = false, bcast = false;
  for (size_t i = 0; i < t->ndims; i++) {
    int64_t a = s->dims[i], b = t->dims[i];
    if (a <= 0 || b <= 0) return false; /* nothing to slice or tile */
    end[i] = a >= b ? b : b % a == 0 ? a : 1;
    reps[i] = a < b && b % a == 0 ? b / a : 1;
    slice |= end[i] != a;
    tile |= reps[i] != 1;
    bcast |= end[i] == 1 && b != 1;
  }
  if (slice && !slice_to(g, c, end, t->ndims)) return false;
  if (tile && !step_ints(g, c, "tile", "reps", reps, t->ndims)) return false;
  return !bcast || step_ints(g, c, "broadcast_to", "shape", t->dims, t->ndims);
}

/* Plans the adapter from a value of type s to type t; false when there is none.  Every step keeps
   the limits (step): when shape_to's way cannot, the axis by axis one. */
static bool plan_adapter(Gen *g, const Type *s, const Type *t, GenAdapter *c) {
  c->cur = s;
  c->n = 0;
  bool recast = !dtype_eq(s->dtype, t->dtype);
  bool cast_first = count(s) <= count(t); /* cast the smaller of the two tensors */
  if (recast && cast_first && !cast_to(g, c, t->dtype)) return false;
  const Type *from = c->cur;
  size_t n = c->n;
  if (!shape_to(g, c, t)) {
    c->cur = from;
    c->n = n;
    if (!shape_by_axes(g, c, t) || c->cur->ndims != t->ndims) return false;
  }
  if (recast && !cast_first && !cast_to(g, c, t->dtype)) return false;
  return c->cur == t; /* types are interned */
}

/* Shorter adapters are likelier (weight 1/steps^2): plumbing is not what the program is for. */
static int64_t weight(const GenAdapter *c) {
  int64_t n = c->n ? (int64_t)c->n : 1;
  return 3600 / (n * n);
}

bool gen_forward_plan(Gen *g, const Type *t, GenAdapter *out) {
  if (!g->block || !adaptable(t)) return false;
  GenAdapter chains[FWD_RECENT];
  size_t n = 0;
  for (size_t k = g->scope.len; k > 0 && n < FWD_RECENT; k--) {
    const GenVar *v = &g->scope.items[k - 1];
    if (adaptable(v->type) && plan_adapter(g, v->type, t, &chains[n])) chains[n++].from = v;
  }
  if (n == 0) return false;
  int64_t w[FWD_RECENT], total = 0;
  for (size_t i = 0; i < n; i++) total += w[i] = weight(&chains[i]);
  int64_t r = rng_range(&g->rng, 0, total - 1);
  size_t pick = 0;
  while (r >= w[pick]) r -= w[pick++];
  *out = chains[pick];
  return true;
}
