/*
 * The dynamic detour (GEN_DYNAMIC): a value of a static type t computed through one whose sizes
 * are `?`, the way HirGen's programs and models imported with dynamic shapes reach TVM's dynamic
 * paths (DynamicToStatic, the VM's shape functions and memory planning), which programs of static
 * types never enter:
 *
 *   %1 = shape_of(%y, dtype="int64");          the sizes of a value of t's shape, read, not made up
 *   %2 = dyn.reshape(%x, %1, newshape=[]);     t's values, typed Tensor[(?, ?), float32]
 *   %3 = exp(%2);                              sometimes: an op on the `?`-shaped value
 *   %4 = add(%z, %3);                          a broadcast whose static side gives back t
 *
 * The shape comes from shape_of of a value with t's sizes, so the program is valid whatever its
 * inputs; a random shape tensor would make most programs fail at run time, or at compile time once
 * DynamicToStatic folds it. The graph executor cannot allocate a `?`-shaped value (TVM's documented
 * limit: use the VM), so rfuzz checks programs that make one on the VM.
 *
 * Planned here, each call checked with its op's relation; gen.c binds the calls.
 */
#include "gen.h"

#include <string.h>

/* The detour's plumbing (shape_of, dyn.reshape, dyn.broadcast_to) follows the forward adapters'
   rule (gen_plumbing): used even when allow_ops leaves it out, never when deny_ops names it. */
static const OpDef *plumbing(const Gen *g, const char *name) {
  const OpDef *op = gen_plumbing(g, name);
  return op && op->solve ? op : NULL;
}

/* Whether running op's relation on the plan gives exactly `want` (types are interned). */
static bool gives(Gen *g, const OpDef *op, const OpPlan *plan, const Type *want) {
  OpCall c;
  return opgen_run(&g->og, op, plan, &c) == want;
}

/* t with every size `?`. */
static const Type *all_any(Gen *g, const Type *t) {
  int64_t dims[64];
  for (uint32_t i = 0; i < t->ndims; i++) dims[i] = TY_DIM_ANY;
  return ty_tensor(g->types, t->dtype, dims, t->ndims);
}

/* shape_of(a value with t's sizes: t itself, or t in another dtype). */
static bool plan_shape(Gen *g, const Type *t, GenDetour *d) {
  const OpDef *op = plumbing(g, "shape_of");
  if (!op) return false;
  const Type *src = t;
  if (rng_chance(&g->rng, 1, 3)) {
    DType other = opgen_dtype(&g->og, g->policy->float_only ? OPDT_FLOAT : OPDT_NUMERIC);
    src = opgen_with_dtype(&g->og, t, other);
  }
  opgen_plan_init(&g->og, op, &d->shape);
  opgen_set_str(&g->og, op, &d->shape, "dtype", rng_chance(&g->rng, 1, 2) ? "int64" : "int32");
  d->shape.args[0] = src;
  d->shape.nargs = 1;
  int64_t rank = t->ndims;
  OpCall c;
  d->shape.result = opgen_run(&g->og, op, &d->shape, &c);
  d->shape_of = op;
  return d->shape.result && d->shape.result->kind == TY_TENSOR && d->shape.result->ndims == 1 &&
         d->shape.result->dims[0] == rank;
}

/* dyn.reshape or dyn.broadcast_to of a value of type t to the shape read. */
static bool plan_dyn(Gen *g, const Type *t, GenDetour *d) {
  const char *names[2] = {"dyn.reshape", "dyn.broadcast_to"};
  size_t first = rng_index(&g->rng, 2);
  for (size_t k = 0; k < 2; k++) {
    const OpDef *op = plumbing(g, names[(first + k) % 2]);
    if (!op) continue;
    opgen_plan_init(&g->og, op, &d->dyn);
    d->dyn.args[0] = t;
    d->dyn.args[1] = d->shape.result;
    d->dyn.nargs = 2;
    d->dyn.result = d->any;
    if (gives(g, op, &d->dyn, d->any)) {
      d->dyn_op = op;
      return true;
    }
  }
  return false;
}

/* One time in four, an op of the policy's on the `?`-shaped value itself (where the VM needs the
   op's shape function): one whose plan for that type takes it alone and keeps it. Not more often:
   most unary ops of TVM v0.13 have no shape function ("cannot find ShapeFunc for asin"), a
   failure each op meets once and then again and again. */
static void plan_on_dynamic(Gen *g, GenDetour *d) {
  d->on_dyn = NULL;
  if (!rng_chance(&g->rng, 1, 4)) return;
  const OpDef *cands[256];
  size_t n = gen_ops_for(g, d->any, cands, 256);
  for (int tries = 0; tries < 8 && n > 0; tries++) {
    const OpDef *op = cands[rng_index(&g->rng, n)];
    if (op->min_args > 1 || !op->solve(&g->og, op, d->any, &d->on_dyn_plan)) continue;
    if (d->on_dyn_plan.nargs != 1 || d->on_dyn_plan.args[0] != d->any || !gives(g, op, &d->on_dyn_plan, d->any))
      continue;
    d->on_dyn = op;
    return;
  }
}

/* A broadcasting op of the policy's that takes (t, the `?` value), either way round, back to t,
   and (t, t) to t: an elementwise op, for which the `?` value's sizes (t's, at run time) fit. A
   relation lax about `?` alone (matrix_set_diag's diagonal) would let a wrong shape through to
   run time. */
static bool plan_combine(Gen *g, const Type *t, GenDetour *d) {
  size_t count;
  const OpDef *const *ops = op_all(&count);
  const OpDef *cands[64];
  size_t n = 0;
  for (size_t i = 0; i < count && n < 64; i++) {
    const OpDef *op = ops[i];
    if (op->min_args > 2 || (op->max_args >= 0 && op->max_args < 2) || !gen_policy_allows(g->policy, op) ||
        !op->recognize(op, t))
      continue;
    OpPlan p;
    opgen_plan_init(&g->og, op, &p);
    p.args[0] = p.args[1] = t;
    p.nargs = 2;
    if (!gives(g, op, &p, t)) continue; /* elementwise: (t, t) -> t, so the `?` side is t's shape */
    p.args[1] = d->any;
    if (gives(g, op, &p, t)) cands[n++] = op;
  }
  if (n == 0) return false;
  d->combine_op = cands[rng_index(&g->rng, n)];
  d->dyn_at = rng_index(&g->rng, 2);
  opgen_plan_init(&g->og, d->combine_op, &d->combine);
  d->combine.args[d->dyn_at] = d->any;
  d->combine.args[1 - d->dyn_at] = t;
  d->combine.nargs = 2;
  d->combine.result = t;
  return gives(g, d->combine_op, &d->combine, t);
}

bool gen_dynamic_plan(Gen *g, const Type *t, GenDetour *out) {
  if (t->kind != TY_TENSOR || t->ndims == 0 || t->ndims > 64 || !g->block) return false;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] < 0) return false;
  memset(out, 0, sizeof *out);
  out->any = all_any(g, t);
  if (!plan_shape(g, t, out) || !plan_dyn(g, t, out) || !plan_combine(g, t, out)) return false;
  plan_on_dynamic(g, out);
  return true;
}
