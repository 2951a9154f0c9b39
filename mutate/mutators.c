/* Every mutator, in the order rmutate lists them, with its default weight (see mutate.h). */
#include "mutate.h"

const Mutator *const mut_mutators[MUT_NMUTATORS] = {&mut_regenerate, &mut_opswap, &mut_attrs,   &mut_insert,
                                                    &mut_share,      &mut_shape,  &mut_crossover};
const unsigned mut_default_weights[MUT_NMUTATORS] = {4, 3, 2, 3, 2, 1, 2};
