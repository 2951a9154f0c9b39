/* Where a chain's changes were in the seed (--depth K): each step mutates the previous step's
   mutant, parsed from its text, so its nodes' spans are places in that text, not in the seed.  A
   table per printed mutant maps the byte offset where each node starts to its place in the seed:
   a node that came through unchanged keeps its seed place, one a step made takes the seed place of
   that step's change.  The printer reports every node's start (AstPrintOptions.every_node), so no
   second parse is needed. */
#ifndef RELAYKIT_MUTATE_ORIGINS_H
#define RELAYKIT_MUTATE_ORIGINS_H

#include "../parser/ast.h"
#include "../support/xalloc.h"

typedef struct MutOrigin {
  uint32_t offset;    /* where a node starts in the printed text */
  uint32_t line, col; /* its place in the seed */
} MutOrigin;
typedef VEC(MutOrigin) MutOrigins; /* in print order: offsets never decrease */

/* The seed place of a node of a step's starting program: its own span for the seed itself
   (from == NULL), else what the table says for the offset where it starts (the nearest node
   before it when none starts exactly there). */
MutOrigin mut_origin_of(const MutOrigins *from, const AstSpan *span);

/* The nodes of a program as the printer reports them (expressions, statements, binders), sorted
   by address: what a step found, as opposed to what its mutator made. */
typedef VEC(const AstNode *) MutNodes;
void mut_nodes(const AstModule *m, MutNodes *out);
bool mut_nodes_has(const MutNodes *nodes, const AstNode *n);

/* Appends (offset, origin) unless a node already starts at that offset (the outermost one wins). */
void mut_origins_add(MutOrigins *t, size_t offset, MutOrigin origin);

#endif
