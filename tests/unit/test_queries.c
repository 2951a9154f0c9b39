/* The editor queries in parser/queries (highlights, locals, folds, indents): each loads with the
   tree-sitter runtime against the grammar, and captures what an editor needs on real programs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tree_sitter/api.h>

#include "../../support/fileio.h"

const TSLanguage *tree_sitter_relay(void);

/* The captures of query file `name` over `text`, as "capture=source-text" lines (malloc'd). */
static char *captures(const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "parser/queries/%s.scm", name);
  size_t qlen;
  char *source = file_read(path, &qlen);
  if (!source) fail_msg("cannot read %s", path);
  uint32_t at;
  TSQueryError error;
  TSQuery *q = ts_query_new(tree_sitter_relay(), source, (uint32_t)qlen, &at, &error);
  if (!q) fail_msg("%s does not load: error %d at byte %u: %.40s", path, (int)error, at, source + at);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_relay());
  TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)strlen(text));
  assert_false(ts_node_has_error(ts_tree_root_node(tree)));
  TSQueryCursor *cur = ts_query_cursor_new();
  ts_query_cursor_exec(cur, q, ts_tree_root_node(tree));
  size_t cap = 4096, len = 0;
  char *out = malloc(cap);
  out[0] = '\0';
  TSQueryMatch m;
  uint32_t index;
  while (ts_query_cursor_next_capture(cur, &m, &index)) {
    const TSQueryCapture *c = &m.captures[index];
    uint32_t nlen;
    const char *cname = ts_query_capture_name_for_id(q, c->index, &nlen);
    uint32_t s = ts_node_start_byte(c->node), e = ts_node_end_byte(c->node);
    uint32_t shown = e - s > 40 ? 40 : e - s;
    while (len + nlen + shown + 4 > cap) out = realloc(out, cap *= 2);
    len += (size_t)sprintf(out + len, "%.*s=%.*s\n", (int)nlen, cname, (int)shown, text + s);
  }
  ts_query_cursor_delete(cur);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  ts_query_delete(q);
  free(source);
  return out;
}

static void assert_has(const char *all, const char *line) {
  char want[256];
  snprintf(want, sizeof want, "%s\n", line);
  if (!strstr(all, want)) fail_msg("no capture \"%s\" among:\n%s", line, all);
}

static size_t count(const char *all, const char *prefix) {
  size_t n = 0;
  for (const char *p = all; (p = strstr(p, prefix)); p++) n += p == all || p[-1] == '\n';
  return n;
}

static const char program[] =
    "#[version = \"0.0.5\"]\n"
    "type Box[A] {\n  Wrap(A),\n}\n"
    "def @f(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
    "  let %y = add(%x, %x);\n"
    "  %0 = fn (%z) {\n    %z\n  };\n"
    "  match (Wrap(%y)) {\n    Wrap(%w) => %w,\n  }\n"
    "}\n";

static void test_every_query_loads_and_runs_on_every_model(void **state) {
  (void)state;
  const char *names[] = {"highlights", "locals", "folds", "indents"};
  const char *models[] = {"../shared/corpus/models/resnet-18.relay", "../shared/corpus/models/lstm.relay",
                          "../shared/corpus/models/synthetic.bound.relay"};
  for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
    size_t len;
    char *text = file_read(models[m], &len);
    if (!text) fail_msg("cannot read %s", models[m]);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
      char *got = captures(names[i], text);
      if (!*got) fail_msg("%s captures nothing on %s", names[i], models[m]);
      free(got);
    }
    free(text);
  }
}

static void test_locals_define_and_reference_names(void **state) {
  (void)state;
  char *got = captures("locals", program);
  assert_has(got, "local.definition.function=@f");
  assert_has(got, "local.definition.parameter=%x");
  assert_has(got, "local.definition.var=%y");
  assert_has(got, "local.definition.var=%0");
  assert_has(got, "local.definition.parameter=%z");
  assert_has(got, "local.definition.var=%w");
  assert_has(got, "local.definition.type=Box");
  assert_has(got, "local.definition.constructor=Wrap");
  assert_int_equal(count(got, "local.scope="), 4); /* the type, @f, the closure, the arm */
  assert_true(count(got, "local.reference=%x") >= 2);  /* add(%x, %x) */
  free(got);
}

static void test_folds_and_indents_cover_the_blocks(void **state) {
  (void)state;
  char *folds = captures("folds", program);
  assert_has(folds, "fold=fn (%z) {\n    %z\n  }");
  assert_true(count(folds, "fold=def @f") == 1);
  assert_true(count(folds, "fold=match (Wrap(%y))") == 1);
  free(folds);
  char *indents = captures("indents", program);
  assert_true(count(indents, "indent.begin=") >= 5);
  assert_true(count(indents, "indent.end=}") >= 3);
  free(indents);
  char *hl = captures("highlights", program);
  assert_has(hl, "keyword=def");
  assert_has(hl, "function=@f");
  assert_has(hl, "variable.parameter=%x");
  free(hl);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_query_loads_and_runs_on_every_model),
      cmocka_unit_test(test_locals_define_and_reference_names),
      cmocka_unit_test(test_folds_and_indents_cover_the_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
