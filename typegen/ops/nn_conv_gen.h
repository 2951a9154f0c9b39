/* The generators of ops/nn_conv.c's entries (defined in nn_conv_gen.c), as OpDef fields. */
#ifndef RELAYKIT_OPS_NN_CONV_GEN_H
#define RELAYKIT_OPS_NN_CONV_GEN_H

#include "ops.h"

#define NNCONV_GEN_DECL(name)                                                    \
  bool nnconv_##name##_recognize(const OpDef *op, const Type *t);                \
  bool nnconv_##name##_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out); \
  bool nnconv_##name##_sample(OpGen *g, const OpDef *op, OpPlan *out)
#define NNCONV_GEN(cls, name)                                                                     \
  .gen_dtypes = (cls), .recognize = nnconv_##name##_recognize, .solve = nnconv_##name##_solve, \
  .sample = nnconv_##name##_sample

NNCONV_GEN_DECL(conv3d_transpose);
NNCONV_GEN_DECL(winograd2d);
NNCONV_GEN_DECL(winograd3d);
NNCONV_GEN_DECL(winograd_wt2d);
NNCONV_GEN_DECL(winograd_wt3d);
NNCONV_GEN_DECL(nnpack_wt);
NNCONV_GEN_DECL(gemm);
NNCONV_GEN_DECL(gemm_wt);
NNCONV_GEN_DECL(depthwise_nchwc);
NNCONV_GEN_DECL(deformable);
NNCONV_GEN_DECL(bitpack);
NNCONV_GEN_DECL(bitserial_conv2d);
NNCONV_GEN_DECL(bitserial_dense);
NNCONV_GEN_DECL(correlation);

#define CONV3D_TRANSPOSE_GEN NNCONV_GEN(OPDT_FLOAT, conv3d_transpose)
#define WINOGRAD2D_GEN NNCONV_GEN(OPDT_FLOAT, winograd2d)
#define WINOGRAD3D_GEN NNCONV_GEN(OPDT_FLOAT, winograd3d)
#define WINOGRAD_WT2D_GEN NNCONV_GEN(OPDT_FLOAT, winograd_wt2d)
#define WINOGRAD_WT3D_GEN NNCONV_GEN(OPDT_FLOAT, winograd_wt3d)
#define NNPACK_WT_GEN NNCONV_GEN(OPDT_FLOAT, nnpack_wt)
#define GEMM_GEN NNCONV_GEN(OPDT_FLOAT, gemm)
#define GEMM_WT_GEN NNCONV_GEN(OPDT_NUMERIC, gemm_wt)
#define DEPTHWISE_NCHWC_GEN NNCONV_GEN(OPDT_FLOAT, depthwise_nchwc)
#define DEFORMABLE_GEN NNCONV_GEN(OPDT_FLOAT, deformable)
#define BITPACK_GEN NNCONV_GEN(OPDT_INT, bitpack)
#define BITSERIAL_CONV2D_GEN NNCONV_GEN(OPDT_INT, bitserial_conv2d)
#define BITSERIAL_DENSE_GEN NNCONV_GEN(OPDT_INT, bitserial_dense)
#define CORRELATION_GEN NNCONV_GEN(OPDT_FLOAT, correlation)

#endif
