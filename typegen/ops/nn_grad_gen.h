/* The generators of ops/nn_grad.c's entries (defined in nn_grad_gen.c), as OpDef fields. */
#ifndef RELAYKIT_OPS_NN_GRAD_GEN_H
#define RELAYKIT_OPS_NN_GRAD_GEN_H

#include "ops.h"

bool nngrad_rank4_recognize(const OpDef *op, const Type *t);
bool nngrad_pool_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool nngrad_conv_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool nngrad_rank4_sample(OpGen *g, const OpDef *op, OpPlan *out);

#define MAX_POOL2D_GRAD_GEN \
  .gen_dtypes = OPDT_FLOAT, .recognize = nngrad_rank4_recognize, .solve = nngrad_pool_solve, .sample = nngrad_rank4_sample
#define AVG_POOL2D_GRAD_GEN MAX_POOL2D_GRAD_GEN
#define CONV2D_BACKWARD_WEIGHT_GEN \
  .gen_dtypes = OPDT_FLOAT, .recognize = nngrad_rank4_recognize, .solve = nngrad_conv_solve, .sample = nngrad_rank4_sample

#endif
