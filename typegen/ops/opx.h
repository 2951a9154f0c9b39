/*
 * Helpers shared by the families added for issue 12 (ops/algorithm.c, ops/transform_extra.c,
 * ops/transform_sparse.c, ops/nn_extra.c): reading attributes the way their relations need them,
 * building shapes, the unification check TVM's reporter->Assign implies for an argument, and the
 * small pieces their generators share.  Prefix opx_.
 */
#ifndef RELAYKIT_OPX_H
#define RELAYKIT_OPX_H

#include "ops.h"

#define OPX_ANY ((int64_t)TY_DIM_ANY)

enum {
  OPX_RANK_MAX = 16, /* ranks the helpers and generators handle (bounds local arrays) */
};

/* Element counts stay far from int64 overflow when solvers multiply dimensions. */
#define OPX_ELEMENTS_MAX ((int64_t)INT32_MAX)

/* ------------------------------------------------------------------ relations */

/* TVM stops on a field declared without a default that the call does not give; the schemas spell
   those defaults None, so None means "missing". */
bool opx_required(OpCall *c, const char *name);

/* The integers of a list attribute (a single integer counts as a list of one), at most `max` of
   them into out; the count, or -1 after failing when the value is None, is not a list, holds
   anything but constant integers or is longer than `max`. */
long opx_ints(OpCall *c, const char *name, int64_t *out, size_t max);

/* A list of (a, b) pairs of constant integers (pad_width, paddings, crops), at most `max` pairs;
   the count, or -1 after failing.  `pair_msg` formats the message for an item that is not a pair
   (arguments: the index and its length). */
long opx_pairs(OpCall *c, const char *name, int64_t (*out)[2], size_t max, const char *pair_msg);

/* A shape as TVM prints an Array<PrimExpr> in messages: "[1, ?, 3]".  Writes into buf. */
const char *opx_dims_str(const int64_t *dims, size_t n, char *buf, size_t cap);

/* TVM's spelling of a dtype in messages. */
const char *opx_dt(DType d, char *buf);

/* reporter->Assign(args[i], Tensor[dims, dtype]): argument i must unify with that type, where a `?`
   on either side matches any dimension. */
bool opx_assign(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n);

/* Whether two dimensions can be the same (a `?` matches anything). */
static inline bool opx_dim_match(int64_t a, int64_t b) { return a == b || a == OPX_ANY || b == OPX_ANY; }

/* The product of two dimensions, with `?` absorbing (TVM builds a non-constant expression there,
   which a relaykit type can only hold as `?`). */
static inline int64_t opx_dim_mul(int64_t a, int64_t b) {
  return a == OPX_ANY || b == OPX_ANY ? OPX_ANY : a * b;
}
/* A dimension times / plus a constant k (any integer, -1 included), `?` staying `?`. */
static inline int64_t opx_dim_times(int64_t d, int64_t k) { return d == OPX_ANY ? OPX_ANY : d * k; }
static inline int64_t opx_dim_plus(int64_t d, int64_t k) { return d == OPX_ANY ? OPX_ANY : d + k; }

/* tvm::floordiv (indexdiv) on constants; b != 0. */
int64_t opx_floordiv(int64_t a, int64_t b);

/* A result dimension TVM computes must not be negative (a relaykit type cannot hold one, and -1
   would read as `?`; TVM would build a type with a negative extent).  opx_nonneg checks constants
   only (an attribute's list, never dimensions holding `?`); opx_dim_ok one computed value.  False
   after failing. */
bool opx_nonneg(OpCall *c, const int64_t *dims, size_t n);
bool opx_dim_ok(OpCall *c, int64_t v);

/* ------------------------------------------------------------------ generators */

/* A type a solver can take apart: a static tensor with dimensions >= 1, rank in [lo, hi] (hi at
   most OPX_RANK_MAX), dtype in the class, element count bounded. */
bool opx_gen_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi);

/* n random dimensions within max_dim, spending at most `budget` elements (the rest become 1). */
void opx_gen_dims(OpGen *g, size_t n, int64_t budget, int64_t *dims);
/* A uniformly chosen divisor of n (n >= 1) that is at most cap (1 always qualifies). */
int64_t opx_gen_divisor(OpGen *g, int64_t n, int64_t cap);
/* n factors of total (n >= 1) into out, most within max_dim where the divisors allow. */
void opx_gen_factors(OpGen *g, int64_t total, size_t n, int64_t *out);
/* A shape broadcasting with t to exactly t: leading dimensions maybe dropped, others maybe 1. */
const Type *opx_gen_partner(OpGen *g, const Type *t, DType dt);
/* int32 or int64, the index dtypes TVM's computes take. */
DType opx_gen_index_dtype(OpGen *g);
/* A tensor of the given dims. */
const Type *opx_gen_tensor(OpGen *g, DType dt, const int64_t *dims, size_t n);
/* A vector Tensor[(n), dt]. */
const Type *opx_gen_vec(OpGen *g, DType dt, int64_t n);
/* Attribute setters the opgen_set_* family lacks: a dtype (as its string), a list of pairs, and a
   list given as a literal value. */
void opx_set_dtype(OpGen *g, const OpDef *op, OpPlan *p, const char *name, DType d);
void opx_set_pairs(OpGen *g, const OpDef *op, OpPlan *p, const char *name, const int64_t (*pairs)[2],
                   size_t n);
/* Appends an argument. */
static inline void opx_arg(OpPlan *p, const Type *t) { p->args[p->nargs++] = t; }
/* An axis attribute for position a of a rank-nd range, sometimes spelled from the end. */
static inline int64_t opx_gen_axis(OpGen *g, int64_t a, int64_t nd) {
  return rng_chance(g->rng, 1, 3) ? a - nd : a;
}

#endif
