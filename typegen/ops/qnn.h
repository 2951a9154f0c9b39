/*
 * Helpers shared by the QNN families (ops/qnn.c: the quantized counterparts of nn ops; ops/qnn_elemwise.c:
 * the quantized elementwise and broadcasting ops).  Defined in ops/qnn.c.
 */
#ifndef RELAYKIT_OPS_QNN_H
#define RELAYKIT_OPS_QNN_H

#include "ops.h"

#define QOP_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* int8 / uint8: what most QNN relations accept as quantized data. */
extern const DType qop_q8[2];

/* TVM's spelling of a dtype in messages ("void" for the empty dtype); buf holds >= 16 bytes. */
const char *qop_dt_name(DType d, char *buf);
bool qop_dtype_in(DType d, const DType *set, size_t n);

/* The data argument's dtype must be one of `set`; otherwise fails with TVM's ICHECK text
   "Expected <what> for <role> but was <dtype>" (what: "quantized softmax type(int8)", ...). */
bool qop_data_dtype(OpCall *c, size_t i, const DType *set, size_t n, const char *what, const char *role);

/* IsScalarType (src/relay/qnn/utils.h): argument i is a rank-0 tensor of `dtype`. */
bool qop_scalar(OpCall *c, size_t i, DType dtype, const char *what);
/* AssignType (src/relay/qnn/utils.h): argument i has `dtype` and is a scalar or a vector of `len`
   elements (`?` matches any length). */
bool qop_assign(OpCall *c, size_t i, DType dtype, int64_t len);

/* Runs the relation of op `target` (an nn / transform op whose attribute schema the QNN op shares)
   on the arguments `which` of this call, with this call's attributes (matched by name) and this
   op's name in messages.  A failure's argument index is mapped back to this call's. */
const Type *qop_delegate(OpCall *c, const char *target, const size_t *which, size_t n);

/* ---------------------------------------------------------------- generators */
/* A static tensor type (no `?`) whose dtype is in `set`. */
bool qop_static_in(const Type *t, const DType *set, size_t n);
/* `op` with its generators' dtype class widened to every dtype: lets an nn op's recognizer and
   solver plan the shape of a quantized call whose dtypes the QNN generator then chooses. */
OpDef qop_any_dtype(const char *name);
/* Copies the attribute values of plan `from` (of op `src`) into plan `to` (of op `dst`), by name. */
void qop_copy_attrs(const OpDef *src, const OpPlan *from, const OpDef *dst, OpPlan *to);
/* A dtype attribute set to d. */
void qop_set_dtype(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, DType d);
DType qop_pick(OpGen *g, const DType *set, size_t n);
/* A random tensor type of exactly rank `rank` and dtype d within the policy. */
const Type *qop_tensor(OpGen *g, DType d, unsigned rank);
/* Sampling for QNN generators: draws result types (a dtype of `set`, rank in [lo, hi]) until the
   op's recognizer accepts one that its solver solves. */
bool qop_sample(OpGen *g, const OpDef *op, OpPlan *out, const DType *set, size_t n, unsigned lo, unsigned hi);

#endif
