/*
 * Joining modules (rfmt --join): one module whose @main takes every input's @main parameters
 * and returns the tuple of their results.  What it is for: growing a bug's repro into a large
 * program (the repro beside a whole model) to measure a reducer on, and putting several
 * programs through one compilation.
 */
#ifndef RELAYKIT_JOIN_H
#define RELAYKIT_JOIN_H

#include <stddef.h>

#include "ast.h"

/* A new module (ast_free it) built from mods[0..n), which must outlive it: their global
   functions, renamed `name_K` when an earlier input has the name (K: the input's index), their
   type definitions (one copy of a type several inputs define alike), and an @main whose
   parameters are theirs in order (locals of input K renamed `name_K` where an earlier @main has
   the name; graph bindings renumbered) and whose body binds what each body binds, in order, then
   returns (result_0, ..., result_n-1).  Annotations (ty=, span=) are dropped.  NULL with a
   message in err when an input has no @main, two inputs define a type differently, or more than
   one has a #[metadata] section. */
AstModule *ast_join(AstModule *const *mods, size_t n, char *err, size_t errlen);

#endif
