/*
 * The RFC's generative half of the operator registry ("Type-Directed Relay Fuzzing Library"):
 * for each op, a recognizer (can this op produce type T?), a solver (argument types and attribute
 * values that produce T) and a sampler (a random valid call).  Their invariants, tested for every
 * op over many seeds (tests/unit/test_opgen.c):
 *
 *   sample() = plan   =>  relation(plan.args, plan.attrs) == plan.result  and  recognize(plan.result)
 *   recognize(T)      =>  solve(T) = plan  with  relation(plan.args, plan.attrs) == T
 *
 *   opgen.c  plans, random types within a policy, attribute setters, the generic generators
 *            that whole op families share (unary, broadcasting binary, comparison, reduction)
 */
#ifndef RELAYKIT_OPGEN_H
#define RELAYKIT_OPGEN_H

#include "../support/rng.h"
#include "op.h"

/* What generated types may look like (the generator's policy narrows these further). */
typedef struct OpGenPolicy {
  unsigned max_rank;        /* tensors have rank 0..max_rank */
  int64_t max_dim;          /* every dimension in 1..max_dim */
  int64_t max_elements;     /* a bound on any tensor's element count */
  const DType *float_dtypes; /* the float dtypes to draw from */
  size_t nfloat_dtypes;
  const DType *int_dtypes;   /* the integer dtypes to draw from */
  size_t nint_dtypes;
} OpGenPolicy;

extern const OpGenPolicy opgen_default_policy;

typedef struct OpGen {
  TyTable *types;
  Rng *rng;
  Arena *arena;              /* owns attribute values of plans */
  const OpGenPolicy *policy;
} OpGen;

enum { OP_MAX_ARGS = 8 };

/* A call the solver or sampler proposes: argument types, attribute values, and the result. */
typedef struct OpPlan {
  const Type *args[OP_MAX_ARGS];
  size_t nargs;
  AttrVal *attrs;     /* one per schema entry, defaults where the plan chose nothing */
  const Type *result;
} OpPlan;

/* Which dtypes an op's generators use: what TVM's compute accepts, beyond what the relation checks. */
typedef enum OpDtypes { OPDT_ANY, OPDT_FLOAT, OPDT_NUMERIC, OPDT_INT, OPDT_BOOL } OpDtypes;

/* ------------------------------------------------------------------ plans */
/* A plan for `op` with every attribute at its default and no arguments. */
void opgen_plan_init(OpGen *g, const OpDef *op, OpPlan *plan);
void opgen_set_int(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, int64_t v);
void opgen_set_float(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, double v);
void opgen_set_bool(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, bool v);
void opgen_set_str(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const char *v);
void opgen_set_ints(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const int64_t *v, size_t n);
/* Runs the op's relation on a plan; the result type, or NULL (c->err says why). */
const Type *opgen_run(OpGen *g, const OpDef *op, const OpPlan *plan, OpCall *c);

/* ------------------------------------------------------------------ random types */
/* Whether d belongs to a dtype class (recognizers use this; the policy narrows only generation). */
bool opgen_dtype_in_class(OpDtypes cls, DType d);
DType opgen_dtype(OpGen *g, OpDtypes cls);
/* A random tensor type of the given dtype with rank in [min_rank, max_rank] within the policy. */
const Type *opgen_tensor(OpGen *g, DType dtype, unsigned min_rank, unsigned max_rank);
/* The same shape with another dtype. */
const Type *opgen_with_dtype(OpGen *g, const Type *t, DType dtype);

/* ------------------------------------------------------------------ shared generators */
/* One tensor argument, result of the same type (IdentityRel ops): dtype class in op->gen_dtypes. */
bool opgen_unary_recognize(const OpDef *op, const Type *t);
bool opgen_unary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool opgen_unary_sample(OpGen *g, const OpDef *op, OpPlan *out);
/* Two tensors broadcasting to the result (BroadcastRel ops). */
bool opgen_binary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool opgen_binary_sample(OpGen *g, const OpDef *op, OpPlan *out);
/* Two tensors of one numeric dtype broadcasting to a bool result (BroadcastCompRel ops). */
bool opgen_compare_recognize(const OpDef *op, const Type *t);
bool opgen_compare_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool opgen_compare_sample(OpGen *g, const OpDef *op, OpPlan *out);
/* Any sampler built from a solver: draws a type the recognizer accepts, then solves it. */
bool opgen_sample_by_solving(OpGen *g, const OpDef *op, OpPlan *out);

#endif
