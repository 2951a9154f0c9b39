#include "types.h"

#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"

void ty_subst_init(TySubst *s, TyTable *types) {
  s->types = types;
  s->solution = NULL;
  s->cap = 0;
}

void ty_subst_free(TySubst *s) {
  free(s->solution);
  s->solution = NULL;
  s->cap = 0;
}

static const Type *solution_of(const TySubst *s, const Type *t) {
  return t->id < s->cap ? s->solution[t->id] : NULL;
}

static void solve(TySubst *s, const Type *unknown, const Type *t) {
  if (unknown->id >= s->cap) {
    size_t cap = s->cap ? s->cap : 64;
    while (cap <= unknown->id) cap *= 2;
    s->solution = xrealloc(s->solution, cap * sizeof *s->solution);
    memset(s->solution + s->cap, 0, (cap - s->cap) * sizeof *s->solution);
    s->cap = cap;
  }
  s->solution[unknown->id] = t;
}

const Type *ty_map_children(TyTable *types, const Type *t, TyMapFn f, void *ctx) {
  if (t->nargs == 0 && !t->ret) return t;
  const Type *stack[16];
  const Type **args = t->nargs <= 16 ? stack : xmalloc(t->nargs * sizeof *args);
  bool changed = false;
  for (uint32_t i = 0; i < t->nargs; i++) {
    args[i] = f(ctx, t->args[i]);
    changed |= args[i] != t->args[i];
  }
  const Type *ret = t->ret ? f(ctx, t->ret) : NULL;
  changed |= ret != t->ret;
  const Type *out = t;
  if (changed) {
    switch (t->kind) {
    case TY_TUPLE: out = ty_tuple(types, args, t->nargs); break;
    case TY_FUNC: out = ty_func(types, args, t->nargs, ret, t->tparams, t->ntparams); break;
    case TY_REF: out = ty_ref(types, args[0]); break;
    case TY_CALL: out = ty_call(types, t->name, args, t->nargs); break;
    default: break;
    }
  }
  if (args != stack) free(args);
  return out;
}

static const Type *resolve_one(void *ctx, const Type *t) { return ty_subst_resolve(ctx, t); }

/* What an unknown stands for now: the end of its chain of solutions (an unsolved unknown or
   another type), which each unknown on the way then points to directly. */
static const Type *representative(TySubst *s, const Type *t) {
  const Type *end = t;
  while (end->kind == TY_INCOMPLETE && solution_of(s, end)) end = solution_of(s, end);
  while (t != end && t->kind == TY_INCOMPLETE) {
    const Type *next = solution_of(s, t);
    if (next != end) s->solution[t->id] = end;
    t = next;
  }
  return end;
}

const Type *ty_subst_resolve(TySubst *s, const Type *t) {
  t = representative(s, t);
  if (!t->incomplete) return t; /* nothing to replace: a known type is never walked */
  return ty_map_children(s->types, t, resolve_one, s);
}

bool ty_has_incomplete(const Type *t) { return t->incomplete; }

/* Whether `unknown` occurs in t, a resolved type (its unknowns are unsolved ones). */
static bool occurs(const Type *unknown, const Type *t) {
  if (t == unknown) return true;
  if (!t->incomplete) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (occurs(unknown, t->args[i])) return true;
  return t->ret && occurs(unknown, t->ret);
}

bool ty_unify(TySubst *s, const Type *a, const Type *b) {
  a = representative(s, a);
  b = representative(s, b);
  if (a == b) return true;
  if (a->kind == TY_INCOMPLETE) {
    /* Solved by b as it is resolved now: a later resolution of `a` then has no chain of unknowns
       to walk again (nested closures, each returning the next, cost the depth squared at every
       level otherwise). */
    b = ty_subst_resolve(s, b);
    if (occurs(a, b)) return false;
    solve(s, a, b);
    return true;
  }
  if (b->kind == TY_INCOMPLETE) return ty_unify(s, b, a);
  /* A polymorphic function is used at a monomorphic type: instantiate its type parameters. */
  if (a->kind == TY_FUNC && b->kind == TY_FUNC && (a->ntparams == 0) != (b->ntparams == 0)) {
    const Type *poly = a->ntparams ? a : b, *mono = a->ntparams ? b : a;
    const Type *fresh[16];
    size_t n = poly->ntparams < 16 ? poly->ntparams : 16;
    for (size_t i = 0; i < n; i++) fresh[i] = ty_incomplete(s->types);
    const Type *bare = ty_func(s->types, poly->args, poly->nargs, poly->ret, NULL, 0);
    return ty_unify(s, ty_substitute_vars(s->types, bare, poly->tparams, fresh, n), mono);
  }
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_TENSOR:
    if (!dtype_eq(a->dtype, b->dtype) || a->ndims != b->ndims) return false;
    for (uint32_t i = 0; i < a->ndims; i++)
      if (a->dims[i] != b->dims[i] && a->dims[i] != TY_DIM_ANY && b->dims[i] != TY_DIM_ANY) return false;
    return true;
  case TY_VAR: return !strcmp(a->name, b->name);
  case TY_CALL:
    if (strcmp(a->name, b->name) != 0) return false;
    __attribute__((fallthrough)); /* then compare the arguments */
  case TY_TUPLE:
  case TY_REF:
  case TY_FUNC:
    if (a->nargs != b->nargs || a->ntparams != b->ntparams) return false;
    for (uint32_t i = 0; i < a->nargs; i++)
      if (!ty_unify(s, a->args[i], b->args[i])) return false;
    return !a->ret || ty_unify(s, a->ret, b->ret);
  default: return false;
  }
}

typedef struct VarMap {
  TyTable *types;
  const Type *const *vars, *const *with;
  size_t n;
} VarMap;

static const Type *substitute_one(void *ctx, const Type *t) {
  VarMap *m = ctx;
  if (!t->has_vars) return t;
  if (t->kind == TY_VAR) {
    for (size_t i = 0; i < m->n; i++)
      if (m->vars[i] == t) return m->with[i];
    return t;
  }
  return ty_map_children(m->types, t, substitute_one, m);
}

const Type *ty_substitute_vars(TyTable *types, const Type *t, const Type *const *vars, const Type *const *with,
                               size_t n) {
  VarMap m = {types, vars, with, n};
  return substitute_one(&m, t);
}
