/*
 * Throughput on whole files: parse + lower + print (default), or with --check parse + lower +
 * type inference (what rcheck does).  Prints one line per file:
 *   NAME BYTES CODE_BYTES SECONDS MB/s CODE_MB/s
 * CODE_BYTES excludes the #[metadata] section, which is one token and would flatter the number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../support/clock.h"
#include "../parser/ast.h"
#include "../support/fileio.h"
#include "../typegen/infer/infer.h"

int main(int argc, char **argv) {
  double min_seconds = 1.0; /* repeat each file until this much time has passed */
  bool check = argc > 1 && !strcmp(argv[1], "--check");
  for (int i = check ? 2 : 1; i < argc; i++) {
    size_t len;
    char *text = file_read(argv[i], &len);
    if (!text) return 2;
    const char *meta = strstr(text, "\n#[metadata]");
    size_t code = meta ? (size_t)(meta - text) : len;
    int reps = 0;
    double start = clock_seconds(), elapsed = 0;
    do {
      Diag d;
      diag_init(&d, argv[i], text, len);
      AstModule *m;
      TyTable *types = NULL;
      bool ok = check ? check_text(text, len, true, &m, &types, &d) : (m = ast_parse(text, len, &d)) != NULL;
      if (!ok) {
        fputs(d.out.data, stderr);
        return 1;
      }
      if (!check) free(ast_print(m, NULL));
      ty_table_free(types);
      ast_free(m);
      diag_free(&d);
      reps++;
      elapsed = clock_seconds() - start;
    } while (elapsed < min_seconds);
    double per = elapsed / reps;
    const char *name = strrchr(argv[i], '/');
    printf("%s %zu %zu %.6f %.1f %.1f\n", name ? name + 1 : argv[i], len, code, per, (double)len / per / 1e6,
           (double)code / per / 1e6);
    free(text);
  }
  return 0;
}
