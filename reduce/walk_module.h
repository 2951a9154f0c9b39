/* red_walk over a whole module, for the passes that look at every expression (meta, attrs,
   literals).  Kept out of reduce.h, which every pass branch edits. */
#ifndef RELAYKIT_WALK_MODULE_H
#define RELAYKIT_WALK_MODULE_H

#include "reduce.h"

/* Every definition's body, then the body of an expression-mode file, in order. */
static inline void red_walk_module(AstModule *m, RedSlotFn f, void *ctx) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) red_walk(&m->defs[i]->fn->body, f, ctx);
  if (m->body) red_walk(&m->body, f, ctx);
}

#endif
