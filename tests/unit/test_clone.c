/* ast_module_clone: a copy prints as the original did, with the original's types, after the
   original is freed (run under ASan too: nothing of the copy may point into the original's arena). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../parser/ast.h"
#include "../../support/fileio.h"
#include "../../typegen/infer/infer.h"

static char *type_text(const struct Type *t, size_t max) { return ty_str_upto(t, max); }

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Clones every .relay file of dir that parses; returns how many were typed. */
static size_t check_dir(const char *dir, size_t *parsed) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  char *names[1024];
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d)) && n < 1024;) {
    size_t len = strlen(e->d_name);
    if (len > 6 && !strcmp(e->d_name + len - 6, ".relay")) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, by_name);
  size_t typed = 0;
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    size_t len;
    char *text = file_read(path, &len);
    assert_non_null(text);
    Diag diag;
    diag_init(&diag, path, text, len);
    AstModule *m = ast_parse(text, len, &diag);
    TyTable *types = ty_table_new();
    bool ok = m && !m->body && infer_module(m, types, &diag);
    diag_free(&diag);
    if (m) {
      ++*parsed;
      typed += ok;
      AstPrintOptions plain = {0}, annotated = {.type_text = type_text};
      char *want = ast_print(m, &plain);
      char *want_typed = ok ? ast_print(m, &annotated) : NULL;
      char *want_dump = ast_dump(m);
      AstModule *c = ast_module_clone(m);
      ast_free(m);
      char *got = ast_print(c, &plain);
      if (strcmp(got, want)) fail_msg("%s: the clone prints differently", path);
      if (ok) {
        char *got_typed = ast_print(c, &annotated);
        if (strcmp(got_typed, want_typed)) fail_msg("%s: the clone's types differ", path);
        free(got_typed);
      }
      char *got_dump = ast_dump(c);
      if (strcmp(got_dump, want_dump)) fail_msg("%s: the clone's tree differs", path);
      free(got_dump);
      free(want_dump);
      free(got);
      free(want);
      free(want_typed);
      ast_free(c);
    }
    ty_table_free(types); /* last: the clone's types pointed into it */
    free(text);
    free(names[i]);
  }
  return typed;
}

static void test_models(void **state) {
  (void)state;
  size_t parsed = 0, typed = check_dir("../shared/corpus/models", &parsed);
  assert_true(parsed >= 10);
  assert_true(typed >= 10);
}

static void test_features(void **state) {
  (void)state;
  size_t parsed = 0;
  check_dir("../shared/corpus/features", &parsed);
  assert_true(parsed >= 10);
}

/* A clone is independent: changing it leaves the original as it was. */
static void test_independent(void **state) {
  (void)state;
  const char *text = "#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(1, 2), float32]) -> Tensor[(1, 2), float32] {\n"
                     "  add(%x, %x) /* a comment */\n"
                     "}\n";
  Diag diag;
  diag_init(&diag, "t.relay", text, strlen(text));
  AstModule *m = ast_parse(text, strlen(text), &diag);
  diag_free(&diag);
  assert_non_null(m);
  AstPrintOptions o = {0};
  char *before = ast_print(m, &o);
  AstModule *c = ast_module_clone(m);
  AstExpr *body = c->defs[0]->fn->body;
  assert_int_equal(body->kind, AST_CALL);
  body->items[1] = ast_new_atom(c, AST_FLOAT, "1f");
  c->defs[0]->fn->params[0]->name = "y";
  char *after = ast_print(m, &o);
  assert_string_equal(before, after);
  char *changed = ast_print(c, &o);
  assert_non_null(strstr(changed, "add(%x, 1f)"));
  free(before);
  free(after);
  free(changed);
  ast_free(c);
  ast_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_models),
      cmocka_unit_test(test_features),
      cmocka_unit_test(test_independent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
