/* Plans, random types and the generators that whole op families share (see ops.h). */
#include "ops.h"

#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"

static const DType default_floats[] = {{DT_FLOAT, 32, 1}, {DT_FLOAT, 16, 1}, {DT_FLOAT, 64, 1}};
static const DType default_ints[] = {{DT_INT, 32, 1}, {DT_INT, 64, 1}, {DT_INT, 8, 1}, {DT_UINT, 8, 1}};

/* Small tensors: generated programs must stay cheap to compile and run. */
const OpGenPolicy opgen_default_policy = {
    .max_rank = 4, .max_dim = 8, .max_elements = 4096,
    .float_dtypes = default_floats, .nfloat_dtypes = 3,
    .int_dtypes = default_ints, .nint_dtypes = 4,
};

/* ------------------------------------------------------------------ plans */

void opgen_plan_init(OpGen *g, const OpDef *op, OpPlan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->attrs = op_default_attrs(op, g->arena);
}

static AttrVal *slot(const OpDef *op, OpPlan *plan, const char *name) {
  for (size_t k = 0; k < op->nattrs; k++)
    if (!strcmp(op->attrs[k].name, name)) return &plan->attrs[k];
  abort(); /* a generator names an attribute its own schema lacks: a bug in the table */
}

void opgen_set_attr(const OpDef *op, OpPlan *plan, const char *name, AttrVal v) { *slot(op, plan, name) = v; }

void opgen_set_int(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, int64_t v) {
  (void)g;
  *slot(op, plan, name) = (AttrVal){.kind = ATTR_INT, .i = v, .f = (double)v};
}

void opgen_set_float(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, double v) {
  (void)g;
  *slot(op, plan, name) = (AttrVal){.kind = ATTR_FLOAT, .f = v};
}

void opgen_set_bool(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, bool v) {
  (void)g;
  *slot(op, plan, name) = (AttrVal){.kind = ATTR_BOOL, .i = v};
}

void opgen_set_str(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const char *v) {
  *slot(op, plan, name) = (AttrVal){.kind = ATTR_STR, .s = arena_strdup(g->arena, v)};
}

void opgen_set_ints(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const int64_t *v, size_t n) {
  AttrVal *items = arena_alloc(g->arena, (n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++) items[i] = (AttrVal){.kind = ATTR_INT, .i = v[i], .f = (double)v[i]};
  *slot(op, plan, name) = (AttrVal){.kind = ATTR_LIST, .items = items, .n = n};
}

const Type *opgen_run(OpGen *g, const OpDef *op, const OpPlan *plan, OpCall *c) {
  memset(c, 0, sizeof *c);
  c->types = g->types;
  c->op = op;
  c->args = plan->args;
  c->nargs = plan->nargs;
  c->attrs = plan->attrs;
  c->bad_arg = -1;
  if ((int)plan->nargs < op->min_args || (op->max_args >= 0 && (int)plan->nargs > op->max_args))
    return op_fail(c, -1, "%s: the plan has %zu arguments", op->name, plan->nargs);
  return op->relation(c);
}

/* ------------------------------------------------------------------ random types */

bool opgen_dtype_in_class(OpDtypes cls, DType d) {
  if (d.lanes != 1) return false;
  switch (cls) {
  case OPDT_FLOAT: return d.code == DT_FLOAT;
  case OPDT_INT: return dtype_is_int(d);
  case OPDT_NUMERIC: return d.code == DT_FLOAT || dtype_is_int(d);
  case OPDT_BOOL: return dtype_is_bool(d);
  case OPDT_ANY: return d.code != DT_VOID;
  }
  return false;
}

DType opgen_dtype(OpGen *g, OpDtypes cls) {
  const OpGenPolicy *p = g->policy;
  switch (cls) {
  case OPDT_FLOAT: return p->float_dtypes[rng_index(g->rng, p->nfloat_dtypes)];
  case OPDT_INT: return p->int_dtypes[rng_index(g->rng, p->nint_dtypes)];
  case OPDT_BOOL: return dt_bool;
  case OPDT_NUMERIC:
  case OPDT_ANY: {
    size_t n = p->nfloat_dtypes + p->nint_dtypes + (cls == OPDT_ANY);
    size_t k = rng_index(g->rng, n);
    if (k < p->nfloat_dtypes) return p->float_dtypes[k];
    k -= p->nfloat_dtypes;
    return k < p->nint_dtypes ? p->int_dtypes[k] : dt_bool;
  }
  }
  return dt_float32;
}

/* A rank in [lo, hi] drawn by how many shapes it has within the limits (max_dim^r, or max_elements
   when that is smaller), so that each shape is about as likely as any other; plus an eighth of
   max_elements each, so that the low ranks some operators need (dense: 2, conv1d: 3) stay in
   reach. */
static size_t shaped_rank(OpGen *g, unsigned lo, unsigned hi) {
  int64_t w[17], total = 0, e = g->policy->max_elements;
  if (hi > 16) hi = 16;
  for (unsigned r = lo; r <= hi; r++) {
    int64_t n = 1;
    for (unsigned i = 0; i < r && n < e; i++)
      n *= g->policy->max_dim;
    total += w[r] = (n < e ? n : e) + e / 8;
  }
  int64_t x = rng_range(g->rng, 0, total - 1);
  unsigned r = lo;
  while (r < hi && x >= w[r])
    x -= w[r++];
  return r;
}

const Type *opgen_tensor(OpGen *g, DType dtype, unsigned min_rank, unsigned max_rank) {
  const OpGenPolicy *p = g->policy;
  if (max_rank > p->max_rank) max_rank = p->max_rank;
  if (min_rank > max_rank) min_rank = max_rank;
  size_t rank =
      p->uniform_shapes ? shaped_rank(g, min_rank, max_rank) : (size_t)rng_range(g->rng, min_rank, max_rank);
  int64_t dims[16];
  if (rank > 16) rank = 16;
  opgen_dims(g, rank, p->max_elements, dims);
  return ty_tensor(g->types, dtype, dims, rank);
}

void opgen_dims(OpGen *g, size_t n, int64_t budget, int64_t *dims) {
  int64_t el = 1;
  for (size_t i = 0; i < n; i++) {
    /* Keep the budget: each dimension takes at most what the rest of it allows. */
    int64_t cap = budget / el;
    if (cap > g->policy->max_dim) cap = g->policy->max_dim;
    if (cap < 1) cap = 1;
    dims[i] = rng_range(g->rng, 1, cap);
    el *= dims[i];
  }
}

const Type *opgen_with_dtype(OpGen *g, const Type *t, DType dtype) {
  return ty_tensor(g->types, dtype, t->dims, t->ndims);
}

/* ------------------------------------------------------------------ unary */

bool opgen_unary_recognize(const OpDef *op, const Type *t) {
  return t->kind == TY_TENSOR && opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype);
}

bool opgen_unary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  out->nargs = 1;
  out->result = t;
  return true;
}

bool opgen_sample_by_solving(OpGen *g, const OpDef *op, OpPlan *out) {
  /* Rejection sampling over random tensor types; recognizers accept a large share of them. */
  for (int tries = 0; tries < 64; tries++) {
    OpDtypes cls = (OpDtypes)op->gen_dtypes;
    const Type *t = opgen_tensor(g, opgen_dtype(g, cls), 0, g->policy->max_rank);
    if (op->recognize(op, t) && op->solve(g, op, t, out)) return true;
  }
  return false;
}

bool opgen_unary_sample(OpGen *g, const OpDef *op, OpPlan *out) { return opgen_sample_by_solving(g, op, out); }

/* ------------------------------------------------------------------ broadcasting */

const Type *opgen_partner(OpGen *g, const Type *t, DType dtype) {
  int64_t dims[16];
  size_t drop = t->ndims && rng_chance(g->rng, 1, 3) ? (size_t)rng_range(g->rng, 0, t->ndims) : 0;
  size_t n = 0;
  for (size_t i = drop; i < t->ndims && n < 16; i++) dims[n++] = rng_chance(g->rng, 1, 3) ? 1 : t->dims[i];
  return ty_tensor(g->types, dtype, dims, n);
}

/* Either argument may be the full one; the other broadcasts to it. */
static void broadcast_pair(OpGen *g, const Type *full, DType dtype, OpPlan *out) {
  const Type *a = opgen_with_dtype(g, full, dtype), *b = opgen_partner(g, full, dtype);
  bool swap = rng_chance(g->rng, 1, 2);
  out->args[0] = swap ? b : a;
  out->args[1] = swap ? a : b;
  out->nargs = 2;
}

bool opgen_binary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  broadcast_pair(g, t, t->dtype, out);
  out->result = t;
  return true;
}

bool opgen_binary_sample(OpGen *g, const OpDef *op, OpPlan *out) { return opgen_sample_by_solving(g, op, out); }

bool opgen_compare_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return t->kind == TY_TENSOR && dtype_is_bool(t->dtype);
}

bool opgen_compare_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  broadcast_pair(g, t, opgen_dtype(g, OPDT_NUMERIC), out);
  out->result = t;
  return true;
}

bool opgen_compare_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const Type *full = opgen_tensor(g, opgen_dtype(g, OPDT_NUMERIC), 0, g->policy->max_rank);
  broadcast_pair(g, full, full->dtype, out);
  out->result = opgen_with_dtype(g, full, dt_bool);
  return true;
}
