/* The mutator table, built from mutators.def (see mutate.h). */
#include <string.h>

#include "mutate.h"

const Mutator mut_mutators[MUT_NMUTATORS] = {
#define MUTATOR(name, function, weight, description) {name, description, weight, function},
#include "mutators.def"
#undef MUTATOR
};

const Mutator *mut_find(const char *name) {
  for (size_t i = 0; i < MUT_NMUTATORS; i++)
    if (!strcmp(mut_mutators[i].name, name)) return &mut_mutators[i];
  return NULL;
}
