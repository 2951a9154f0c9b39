/*
 * Helpers shared by the vision, image, dyn and random families (ops/vision.c, image.c, dyn.c,
 * random.c): attribute reading, argument checks, tir::Layout conversion, the attributes of ops that
 * TVM registers without an attrs type, and small pieces of the generators.  tir::Layout itself is
 * ops/layout.h.
 */
#ifndef RELAYKIT_OPS_SPATIAL_UTIL_H
#define RELAYKIT_OPS_SPATIAL_UTIL_H

#include "ops.h"
#include "layout.h"

#define SU_ANY ((int64_t)TY_DIM_ANY)
#define SU_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

enum {
  SU_RANK_MAX = 16,   /* ranks the relations and generators handle */
};

/* Element counts stay far from int64 overflow when solvers multiply dimensions. */
#define SU_ELEMENTS_MAX ((int64_t)INT32_MAX)

/* ================================================================== relations */

/* TVM's spelling of a dtype in messages ("void" for the empty dtype); buf holds >= 16 bytes. */
const char *su_dtype_name(DType d, char *buf);

/* A field TVM declares without a default is spelled None in the schemas: None means "not given",
   which TVM's attribute initialisation rejects. */
bool su_required(OpCall *c, const char *name);

/* The constant integers of a list attribute (a single int counts as a list of one); the count, or
   -1 after failing when an item is not a constant integer or the value is not a list. */
long su_ints(OpCall *c, const char *name, int64_t *out, size_t max);
/* The number of items of a list attribute: 0 for None (an undefined Array has size 0), -1 after
   failing when the value is neither. */
long su_list_len(OpCall *c, const char *name);

/* Argument i as a tensor of exactly `rank` dimensions; otherwise fails with `msg` (TVM's ICHECK
   text, completed by the rank found). */
const Type *su_ranked(OpCall *c, size_t i, size_t rank, const char *msg);

/* reporter->Assign(types[i], want): the argument must unify with `want` (`?` matches anything). */
bool su_assign(OpCall *c, size_t i, const Type *want);

/* Arithmetic on dimensions where `?` absorbs everything (a product with `?` is not a constant, nor
   is one that overflows int64); a product with 0 is 0, as TVM's constant folding makes it. */
int64_t su_mul(int64_t a, int64_t b);
int64_t su_floordiv(int64_t a, int64_t b); /* b != 0 */
/* a + b and a * b, false when the result does not fit int64 (no `?` here). */
bool su_add_exact(int64_t a, int64_t b, int64_t *out);
bool su_mul_exact(int64_t a, int64_t b, int64_t *out);
/* Fails when one of n values that become dimensions is negative (a type here cannot hold one).  The
   values must not hold `?`: its sentinel is -1. */
bool su_nonneg(OpCall *c, const char *what, const int64_t *v, size_t n);

/* A tensor of `rank` unknown dimensions. */
const Type *su_all_any(OpCall *c, DType dt, size_t rank);

/* Ops TVM registers without set_attrs_type (vision.get_valid_counts, non_max_suppression, ...):
   its parser builds their attributes only from an explicit attrs_type_key="relay.attrs.X", and
   without attributes the call has none (attrs undefined), which the relations of the ops that read
   them cannot handle.  Checks the call's attrs_type_key against `key`; `reads_attrs` says whether
   the relation needs the attributes. */
bool su_keyed_attrs(OpCall *c, const char *key, bool reads_attrs);

/* ------------------------------------------------------------------ layouts (tir::Layout) */

/* The layout of attribute `attr`, which must convert to `canon` (written as e.g. "NCHW"); the
   failure message is fmt with the layout's name for its %s, or TVM's message for an undefined
   BijectiveLayout when fmt is NULL (the relations that skip the defined() check). */
bool su_layout_to(OpCall *c, const char *attr, const char *canon, const char *fmt, Layout *l, Layout *cl);
/* ================================================================== generators */

/* A static tensor of the class with rank in [lo, hi], every dimension >= 1, a bounded element count. */
bool su_static_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi);
/* A tensor of the class whose dimensions are all `?`, rank in [lo, hi]. */
bool su_all_any_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi);
/* The number of elements of a static tensor (of a tuple's fields, summed). */
int64_t su_elements(const Type *t);
/* The elements a solver may spend on one input: the policy's budget, or the result's size when that
   is bigger. */
int64_t su_budget(OpGen *g, const Type *result);
/* n random dimensions in [1, max_dim] whose product stays within budget. */
void su_rand_dims(OpGen *g, size_t n, int64_t budget, int64_t *dims);
const Type *su_rand_tensor(OpGen *g, DType dt, size_t rank, int64_t budget);
const Type *su_tensor(OpGen *g, DType dt, const int64_t *dims, size_t n);
const Type *su_scalar(OpGen *g, DType dt);
/* int32 or int64: the dtypes of shapes, indices and counts. */
DType su_index_dtype(OpGen *g);
/* A random divisor of n >= 1 that is at most max (>= 1). */
int64_t su_divisor(OpGen *g, int64_t n, int64_t max);
const char *su_pick(OpGen *g, const char *const *items, size_t n);
void su_arg(OpPlan *p, const Type *t);

/* Attribute setters beyond opgen_set_*: any value, lists of floats, dtypes. */
void su_set_attr(const OpDef *op, OpPlan *plan, const char *name, AttrVal v);
void su_set_floats(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const double *v, size_t n);
void su_set_dtype(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, DType d);

#endif
