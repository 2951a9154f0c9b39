/* The table of passes (passes.def), in the order rreduce runs them. */
#include "reduce.h"

const RedPass *const red_passes[RED_NPASSES] = {
#define RED_PASS(name) &red_pass_##name,
#include "passes.def"
#undef RED_PASS
};
