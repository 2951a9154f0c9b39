/*
 * TVM's InferNewShape (src/relay/op/tensor/transform.cc), shared by reshape (ops/transform.c, which
 * owns it) and contrib_reverse_reshape (ops/transform_extra.c).
 */
#ifndef RELAYKIT_OPS_RESHAPE_H
#define RELAYKIT_OPS_RESHAPE_H

#include "ops.h"

/* The shape `newshape` (ns[0..nn), with reshape's special codes 0, -1, -2, -3, -4 and allowzero)
   gives for `data`, as a malloc'd array *out of *nout dimensions.  False after op_fail. */
bool op_reshape_infer(OpCall *c, const Type *data, const int64_t *ns, size_t nn, bool allowzero,
                      int64_t **out, size_t *nout);

#endif
