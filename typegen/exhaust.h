/* Exhaustiveness of `match` (TVM's UnmatchedCases): does every value of the scrutinee's type
   match some arm?  `match?` skips the check. */
#ifndef RELAYKIT_EXHAUST_H
#define RELAYKIT_EXHAUST_H

#include <stdbool.h>

#include "../parser/ast.h"
#include "type.h"

/* What the check needs to know of the program's ADTs. */
typedef struct AdtInfo {
  /* The constructors of ADT `adt` (in definition order) and their field types, or 0 if unknown. */
  size_t (*ctors)(void *ctx, const char *adt, const char *const **names, const Type *const *const **fields,
                  const size_t **nfields);
  void *ctx;
} AdtInfo;

/* True if the arms' patterns cover every value of `scrutinee`.  When they do not, writes an
   example of an unmatched value (like "Cons(_, Nil)") to `missing`. */
bool match_is_exhaustive(AstMatchArm *const *arms, size_t narms, const Type *scrutinee, const AdtInfo *adts,
                         char *missing, size_t missing_len);

#endif
