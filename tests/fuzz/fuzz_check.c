/*
 * libFuzzer harness for the type checker: parse and check arbitrary bytes.  Ill-typed input must be
 * rejected with a message, never crash; a module that checks must print with its inferred types
 * (rcheck --annotate) and that printout must check again to the same printout.  Any violation
 * aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../typegen/infer/infer.h"

static char *type_text(const struct Type *t, size_t max) { return ty_str_upto(t, max); }

/* The module printed with its inferred types, or NULL when it does not check (message in *why). */
static char *annotated(const char *text, size_t len, char **why) {
  Diag d;
  diag_init(&d, "fuzz", text, len);
  AstModule *m;
  TyTable *types;
  char *out = NULL;
  if (check_text(text, len, false, &m, &types, &d)) {
    AstPrintOptions o = {.type_text = type_text};
    out = ast_print(m, &o);
    ast_free(m);
    ty_table_free(types);
  } else if (!d.out.data || !*d.out.data) {
    fprintf(stderr, "rejected without a message:\n%.*s\n", (int)len, text);
    abort();
  }
  *why = d.out.data ? strdup(d.out.data) : NULL;
  diag_free(&d);
  return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  char *why = NULL;
  char *once = annotated((const char *)data, size, &why);
  free(why);
  if (!once) return 0;
  char *twice = annotated(once, strlen(once), &why);
  if (!twice || strcmp(once, twice) != 0) {
    fprintf(stderr, "the annotated printout does not check to itself:\n--- once\n%s\n--- twice\n%s\n%s\n", once,
            twice ? twice : "(rejected)", why ? why : "");
    abort();
  }
  free(why);
  free(once);
  free(twice);
  return 0;
}
