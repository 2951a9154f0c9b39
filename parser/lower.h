/* Lowering: tree-sitter's concrete tree to the AST of ast.h.  Internal to the parser library. */
#ifndef RELAYKIT_LOWER_H
#define RELAYKIT_LOWER_H

#include <tree_sitter/api.h>

#include "ast.h"

const TSLanguage *tree_sitter_relay(void);

/* Every node the lowering made, in creation order (children before parents); comments.c uses it. */
typedef struct AstNodeList {
  AstNode **items;
  size_t len, cap;
} AstNodeList;

/* Deeper nesting than this is rejected: the lowering and the printer recurse. */
enum { AST_MAX_DEPTH = 2000 };

/* How long reading a text may take (parse.c): tree-sitter's parse, the lowering and the comments
   together.  Each step looks at the clock now and then and, past the deadline, stops with an
   error rather than run on: a step that is slow on some input must not become a hang. */
typedef struct ReadBudget {
  double deadline; /* on clock_seconds() */
  double seconds;  /* the whole budget, for the message */
  size_t len;      /* the text's length, for the message */
  unsigned ticks;  /* calls since the clock was last read */
  bool over;       /* the deadline has passed (reported once) */
} ReadBudget;

/* Whether the deadline has passed; the first time it is seen, an error at byte `at` says so.
   Cheap enough to call for every node: the clock is read once in a few thousand calls. */
bool read_budget_over(ReadBudget *b, Diag *diag, size_t at);

/* Fills `m` from the error-free tree of `src`; returns false after reporting to `diag`. */
bool lower_module(AstModule *m, TSNode root, const char *src, size_t len, Diag *diag, AstNodeList *nodes,
                  ReadBudget *budget);

/* Length of the block comment starting at `src` (which begins with the opening slash-star), up to
   and including its matching close; 0 when it is never closed.  Comments nest (§2.2), so a text
   that merely ends in star-slash may still be open: the close it ends with can be an inner one. */
size_t block_comment_length(const char *src, size_t len);

/* Attaches the comments of the tree to the nodes they follow (comments.c). */
bool attach_comments(AstModule *m, TSNode root, const char *src, Diag *diag, AstNodeList *nodes,
                     ReadBudget *budget);

#endif
