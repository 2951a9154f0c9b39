/* The generators of ops/nn_grad.c's entries (defined in nn_grad_gen.c), as OpDef fields. */
#ifndef RELAYKIT_OPS_NN_GRAD_GEN_H
#define RELAYKIT_OPS_NN_GRAD_GEN_H

#include "../opgen.h"

#define MAX_POOL2D_GRAD_GEN
#define AVG_POOL2D_GRAD_GEN
#define CONV2D_BACKWARD_WEIGHT_GEN

#endif
