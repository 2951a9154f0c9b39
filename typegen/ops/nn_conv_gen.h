/* The generators of ops/nn_conv.c's entries (defined in nn_conv_gen.c), as OpDef fields. */
#ifndef RELAYKIT_OPS_NN_CONV_GEN_H
#define RELAYKIT_OPS_NN_CONV_GEN_H

#include "../opgen.h"

#define CONV3D_TRANSPOSE_GEN
#define WINOGRAD2D_GEN
#define WINOGRAD3D_GEN
#define WINOGRAD_WT2D_GEN
#define WINOGRAD_WT3D_GEN
#define NNPACK_WT_GEN
#define GEMM_GEN
#define GEMM_WT_GEN
#define DEPTHWISE_NCHWC_GEN
#define DEFORMABLE_GEN
#define BITPACK_GEN
#define BITSERIAL_CONV2D_GEN
#define BITSERIAL_DENSE_GEN
#define CORRELATION_GEN

#endif
