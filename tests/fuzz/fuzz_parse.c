/*
 * libFuzzer harness: parse arbitrary bytes; whatever parses must print, the printout must parse
 * again to the same AST, and printing must be idempotent.  Any violation aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parser/ast.h"

static AstModule *parse(const char *text, size_t len) {
  Diag d;
  diag_init(&d, "fuzz", text, len);
  AstModule *m = ast_parse(text, len, &d);
  diag_free(&d);
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  AstModule *m = parse((const char *)data, size);
  if (!m) return 0;
  char *once = ast_print(m, NULL);
  AstModule *again = parse(once, strlen(once));
  if (!again) {
    fprintf(stderr, "printed text does not parse:\n%s\n", once);
    abort();
  }
  char *twice = ast_print(again, NULL);
  char *ast1 = ast_dump(m), *ast2 = ast_dump(again);
  if (strcmp(once, twice) != 0 || strcmp(ast1, ast2) != 0) {
    fprintf(stderr, "printing is not idempotent:\n--- once\n%s\n--- twice\n%s\n", once, twice);
    abort();
  }
  free(ast1);
  free(ast2);
  free(twice);
  free(once);
  ast_free(again);
  ast_free(m);
  return 0;
}
