/*
 * The parser's round trip, shared by the libFuzzer harnesses of the parser (fuzz_parse.c) and of
 * the inputs that made tree-sitter's nodes too wide (fuzz_comments.c): what parses must print,
 * the printout must parse again to the same AST, and printing must be idempotent.  Any
 * violation aborts.
 */
#ifndef RELAYKIT_FUZZ_ROUND_TRIP_H
#define RELAYKIT_FUZZ_ROUND_TRIP_H

#include "../../parser/ast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses `text`; NULL when it is rejected, which must come with a message. */
static AstModule *fuzz_parse(const char *text, size_t len) {
  Diag d;
  diag_init(&d, "fuzz", text, len);
  AstModule *m = ast_parse(text, len, &d);
  if (!m && d.errors == 0) {
    fprintf(stderr, "rejected without a message:\n%.2000s\n", text);
    abort();
  }
  diag_free(&d);
  return m;
}

/* Checks m's round trip and returns its printout (the caller frees it); *printed_ast gets the
   module the printout parses to (the caller frees it too). */
static char *fuzz_round_trip(AstModule *m, AstModule **printed_ast) {
  char *once = ast_print(m, NULL);
  AstModule *again = fuzz_parse(once, strlen(once));
  if (!again) {
    fprintf(stderr, "printed text does not parse:\n%.2000s\n", once);
    abort();
  }
  char *twice = ast_print(again, NULL);
  char *ast1 = ast_dump(m), *ast2 = ast_dump(again);
  if (strcmp(once, twice) != 0 || strcmp(ast1, ast2) != 0) {
    fprintf(stderr, "printing is not idempotent:\n--- once\n%.2000s\n--- twice\n%.2000s\n", once, twice);
    abort();
  }
  free(ast1);
  free(ast2);
  free(twice);
  *printed_ast = again;
  return once;
}

#endif
