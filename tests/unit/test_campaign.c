/* rfuzz's pieces (campaign/): the features its feedback counts, pass sequences and their
   mutation, the round kinds (their checks, what an oracle answer means), group keys, the check
   that reproduces a failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../campaign/campaign.h"
#include "../../mutate/driver.h"
#include "../../support/fileio.h"
#include "../../typegen/gen.h"
#include "../../typegen/policy.h"

static void collect(void *ctx, const char *key) {
  StrBuf *sb = ctx;
  sb_puts(sb, key);
  sb_putc(sb, '\n');
}

static char *tree_features(const AstModule *m, bool typed) {
  StrBuf sb;
  sb_init(&sb);
  fuzz_features(m, typed, collect, &sb);
  return sb.data ? sb_take(&sb) : xstrdup("");
}

static char *text_features(const char *text) {
  StrBuf sb;
  sb_init(&sb);
  fuzz_text_features(text, collect, &sb);
  return sb.data ? sb_take(&sb) : xstrdup("");
}

static AstModule *parse(const char *text) {
  Diag d;
  diag_init(&d, "test.relay", text, strlen(text));
  AstModule *m = ast_parse(text, strlen(text), &d);
  diag_free(&d);
  return m;
}

/* The features of a program's text, as parsed. */
static char *features(const char *text) {
  AstModule *m = parse(text);
  assert_non_null(m);
  char *f = tree_features(m, false);
  ast_free(m);
  return f;
}

static void test_features_edges_through_bindings(void **state) {
  (void)state;
  char *f = features("#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(2), float32] /* ty=Tensor[(2), float32] */) {\n"
                     "  %0 = nn.relu(%x) /* ty=Tensor[(2), float32] */;\n"
                     "  %1 = add(%0, %x) /* ty=Tensor[(2), float32] */;\n"
                     "  %2 = exp(nn.leaky_relu(%1, alpha=0.1f));\n"
                     "  %3 = (%2, %0);\n"
                     "  %3.0\n"
                     "}\n");
  assert_non_null(strstr(f, "op:nn.relu\n"));
  assert_non_null(strstr(f, "op:add\n"));
  assert_non_null(strstr(f, "edge:nn.relu>add\n"));          /* %0 read by add */
  assert_non_null(strstr(f, "edge:add>exp\n"));              /* %1 read inside exp(...) */
  assert_non_null(strstr(f, "edge:nn.leaky_relu>exp\n"));    /* nested call */
  assert_null(strstr(f, "op:Tensor"));                       /* types in comments are no calls */
  assert_null(strstr(f, "op:fn"));
  assert_null(strstr(f, "edge:nn.relu>nn.relu"));
  free(f);
}

static void test_features_scope_per_function(void **state) {
  (void)state;
  /* %0 of @f is not %0 of @main: graph numbers restart in each definition */
  char *f = features("def @f(%y) {\n  %0 = sigmoid(%y);\n  %0\n}\n"
                     "def @main(%x) {\n  %0 = tanh(%x);\n  %1 = negative(%0);\n  %1\n}\n");
  assert_non_null(strstr(f, "edge:tanh>negative\n"));
  assert_null(strstr(f, "edge:sigmoid>negative"));
  free(f);
}

/* ------------------------------------------------------------------ features: tree against text */

typedef struct Compared {
  unsigned programs, differ;
} Compared;

/* text with every comment on one line: the old lexer read the inner lines of a comment as code,
   which the tree does not (a comment is not code) */
static char *one_line_comments(const char *text) {
  char *t = xstrdup(text);
  unsigned depth = 0;
  for (char *p = t; *p; p++) {
    if (p[0] == '/' && p[1] == '*') depth++, p++;
    else if (depth && p[0] == '*' && p[1] == '/') depth--, p++;
    else if (depth && *p == '\n') *p = ' ';
  }
  return t;
}

/* The features read off `text` by the old lexer against those of the tree it prints from. */
static void compare(Compared *n, const char *what, const char *text, const AstModule *m, bool typed) {
  char *flat = one_line_comments(text);
  char *a = text_features(flat), *b = tree_features(m, typed);
  free(flat);
  n->programs++;
  if (strcmp(a, b)) {
    n->differ++;
    print_message("%s: the features differ\n--- from the text\n%.2000s--- from the tree\n%.2000s", what, a, b);
  }
  free(a);
  free(b);
}

static char *type_text(const Type *t) { return ty_str(t); }

/* Every corpus file as the printer writes it (rfuzz's pool, its generated programs) and as rmutate
   prints it typed (its mutants), and generated programs and mutants themselves. */
static void test_features_same_as_text(void **state) {
  (void)state;
  Compared printed = {0}, typed = {0}, raw = {0}, generated = {0}, mutants = {0};
  FILE *list = popen("find ../shared/corpus -name '*.relay' -size -2M | sort", "r");
  assert_non_null(list);
  char path[4096];
  while (fgets(path, sizeof path, list)) {
    path[strcspn(path, "\n")] = 0;
    size_t len;
    char *text = file_read_text(path, &len);
    AstModule *m = text ? parse(text) : NULL;
    if (m) {
      char *again = ast_print(m, NULL);
      compare(&printed, path, again, m, false);
      if (!strcmp(again, text)) compare(&raw, path, text, m, false); /* the corpus as TVM printed it */
      else { /* laid out by hand: the features are those of its printing, no longer of its layout */
        char *a = text_features(text), *b = tree_features(m, false);
        if (strcmp(a, b)) print_message("%s: laid out by hand; its features are now those of its printing\n", path);
        free(a);
        free(b);
      }
      free(again);
      Program p;
      if (prog_load(&p, path, text, false, NULL, 0)) {
        AstPrintOptions o = {.type_text = type_text};
        char *t = ast_print(p.m, &o);
        compare(&typed, path, t, p.m, true);
        free(t);
        MutOptions mo;
        mut_options_init(&mo);
        mo.seed_name = "seed.relay";
        GenPolicy policy;
        gen_policy_default(&policy);
        mo.policy = &policy;
        for (uint64_t k = 0; k < 3 && len < 200000; k++) {
          MutResult r;
          char err[256];
          if (!mut_make(&p, &mo, k, 0, &r, err, sizeof err)) continue;
          compare(&mutants, path, r.text, r.program.m, true);
          mut_result_free(&r);
        }
        prog_free(&p);
      }
      ast_free(m);
    }
    free(text);
  }
  pclose(list);
  GenPolicy policy;
  gen_policy_default(&policy);
  for (int forward = 0; forward < 2; forward++) {
    policy.forward = forward;
    for (uint64_t i = 0; i < 300; i++) {
      char err[256];
      AstModule *m = gen_module(&policy, 1, i, NULL, NULL, NULL, err, sizeof err);
      if (!m) continue;
      char *t = ast_print(m, NULL);
      compare(&generated, "generated", t, m, false);
      free(t);
      ast_free(m);
    }
  }
  print_message("features compared: printed %u/%u differ, typed %u/%u, as found %u/%u, generated %u/%u, mutants %u/%u\n",
                printed.differ, printed.programs, typed.differ, typed.programs, raw.differ, raw.programs,
                generated.differ, generated.programs, mutants.differ, mutants.programs);
  assert_true(printed.programs > 500 && typed.programs > 300 && generated.programs > 500 && mutants.programs > 300);
  assert_int_equal(printed.differ + typed.differ + raw.differ + generated.differ + mutants.differ, 0);
}

static size_t count_passes(const char *seq) {
  if (!*seq) return 0;
  size_t n = 1;
  for (; *seq; seq++) n += *seq == ';';
  return n;
}

static void test_pass_sequences(void **state) {
  (void)state;
  FuzzPassSet all;
  fuzz_pass_set_all(&all);
  Rng rng = rng_seed(7, 0);
  bool saw_empty = false, saw_long = false;
  for (int i = 0; i < 200; i++) {
    char *s = fuzz_passes_random(&rng, &all);
    assert_true(fuzz_passes_valid(s));
    assert_true(count_passes(s) <= 4);
    saw_empty |= !*s;
    saw_long |= count_passes(s) >= 3;
    /* each mutation changes the length by at most one and stays valid */
    char *m = fuzz_passes_mutate(&rng, s, &all);
    assert_true(fuzz_passes_valid(m));
    long d = (long)count_passes(m) - (long)count_passes(s);
    assert_true(d >= -1 && d <= 1);
    free(m);
    free(s);
  }
  assert_true(saw_empty && saw_long);
  assert_false(fuzz_passes_valid("FoldConstant;NoSuchPass"));
  /* an empty sequence can only grow; a mutation of a full one never grows past the cap */
  char *m = fuzz_passes_mutate(&rng, "", &all);
  assert_int_equal(count_passes(m), 1);
  free(m);
  const char *full = "FoldConstant;FuseOps;FoldConstant;FuseOps;FoldConstant;FuseOps;FoldConstant;FuseOps";
  for (int i = 0; i < 50; i++) {
    m = fuzz_passes_mutate(&rng, full, &all);
    assert_true(count_passes(m) <= FUZZ_MAX_PASSES);
    free(m);
  }
}

static void test_pass_set_parse(void **state) {
  (void)state;
  FuzzPassSet v;
  char err[200];
  assert_true(fuzz_pass_set_parse(&v, "FuseOps,CombineParallelDense", err, sizeof err));
  assert_int_equal(v.n, 2);
  assert_string_equal(v.names[1], "CombineParallelDense(min_num_branches=2)"); /* by name */
  Rng rng = rng_seed(1, 1);
  for (int i = 0; i < 50; i++) { /* only these two are drawn */
    char *s = fuzz_passes_random(&rng, &v);
    for (char *p = strtok(s, ";"); p; p = strtok(NULL, ";"))
      assert_true(!strcmp(p, "FuseOps") || !strcmp(p, v.names[1]));
    free(s);
  }
  free((void *)v.names);
  assert_false(fuzz_pass_set_parse(&v, "FuseOps,Fuse", err, sizeof err)); /* no prefixes */
  assert_non_null(strstr(err, "unknown pass 'Fuse'"));
}

static void test_verdicts(void **state) {
  (void)state;
  const FuzzKind *build = fuzz_kind("build"), *ill = fuzz_kind("ill-typed");
  assert_int_equal(fuzz_verdict(build, 1, false, ""), FV_PASS);
  assert_int_equal(fuzz_verdict(build, 0, false, "Check failed: x"), FV_FAIL);
  assert_int_equal(fuzz_verdict(build, 1, false, "error: parse"), FV_FAIL); /* an earlier stage */
  assert_int_equal(fuzz_verdict(build, 1, true, ""), FV_FAIL);              /* a hang */
  assert_int_equal(fuzz_verdict(build, 2, false, "bad arguments: x"), FV_ORACLE_ERROR);
  assert_int_equal(fuzz_verdict(ill, 0, false, "error: type mismatch"), FV_REJECTED);
  assert_int_equal(fuzz_verdict(ill, 0, false, "signal SIGSEGV"), FV_FAIL);
  assert_int_equal(fuzz_verdict(ill, 0, false, "timeout after 60 s"), FV_FAIL);
  assert_int_equal(fuzz_verdict(ill, 1, false, ""), FV_ACCEPTED);
}

static char *check_of(const char *kind, const char *passes, bool coin) {
  StrBuf sb;
  sb_init(&sb);
  fuzz_kind(kind)->check(&sb, passes, coin);
  return sb_take(&sb);
}

/* The table: the checks each kind writes, its stages, its pool rule, the plain kind first. */
static void test_kinds(void **state) {
  (void)state;
  assert_string_equal(fuzz_kinds[0].name, "build");
  assert_null(fuzz_kind("bogus"));
  const char *want[][4] = {
      {"build", "", "0", "build\n--opt-level\n3\n"},
      {"build", "FoldConstant;FuseOps", "1", "pass\n--build\n--opt-level\n3\nFoldConstant\nFuseOps\n"},
      {"diff", "FuseOps", "0", "diff\n--opt-levels\n0,3\n"},
      {"diff", "", "1", "diff\n--executors\ngraph,vm\n"},
      {"ill-typed", "FuseOps", "1", "typecheck\n"},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    char *args = check_of(want[i][0], want[i][1], want[i][2][0] == '1');
    assert_string_equal(args, want[i][3]);
    free(args);
  }
  assert_string_equal(fuzz_kind("build")->stage(0), "build");
  assert_string_equal(fuzz_kind("build")->stage(1), "frontend");
  assert_string_equal(fuzz_kind("diff")->stage(1), "diff-run");
  assert_string_equal(fuzz_kind("ill-typed")->stage(0), "ill-typed");
  assert_true(fuzz_kind("build")->joins_pool && fuzz_kind("diff")->joins_pool);
  assert_false(fuzz_kind("ill-typed")->joins_pool); /* mutation starts from well-typed programs only */
  assert_true(fuzz_kind("ill-typed")->ill_typed && !fuzz_kinds[0].ill_typed);
}

static void test_group_keys_and_repro_args(void **state) {
  (void)state;
  char *k1, *m1, *k2, *m2, *k3, *m3;
  fuzz_group_key("build", false, "Check failed: x at 0x7f0012345678, size 12", &k1, &m1);
  fuzz_group_key("build", false, "Check failed: x at 0x7f00deadbeef, size 7", &k2, &m2);
  fuzz_group_key("frontend", false, "Check failed: x at 0x7f00deadbeef, size 7", &k3, &m3);
  assert_string_equal(k1, k2); /* addresses and numbers masked: one group */
  assert_string_equal(k1, "build: Check failed: x at <addr>, size <n>");
  assert_string_equal(k3, "frontend: Check failed: x at <addr>, size <n>");
  assert_non_null(m1);
  free(k1), free(m1), free(k2), free(m2), free(k3), free(m3);
  fuzz_group_key("diff", true, "", &k1, &m1);
  assert_string_equal(k1, "diff: timeout");
  free(k1), free(m1);

  char *a = fuzz_repro_args("pass\n--build\nFoldConstant\n", 0);
  assert_string_equal(a, "pass\n--build\nFoldConstant\n");
  free(a);
  a = fuzz_repro_args("pass\n--build\nFoldConstant\n", 1); /* an earlier stage's failure is the bug */
  assert_string_equal(a, "pass\n--other-status\n0\n--build\nFoldConstant\n");
  free(a);
  char *o = fuzz_oracle_for_file("tvm-server --args-beside --timeout 60", "/c/it's/args");
  assert_string_equal(o, "tvm-server --args-from '/c/it'\\''s/args' --timeout 60");
  free(o);
  assert_null(fuzz_oracle_for_file("tvm-server build", "/x"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_features_edges_through_bindings), cmocka_unit_test(test_features_scope_per_function),
      cmocka_unit_test(test_features_same_as_text),
      cmocka_unit_test(test_pass_sequences),                  cmocka_unit_test(test_pass_set_parse),
      cmocka_unit_test(test_verdicts),                        cmocka_unit_test(test_kinds),
      cmocka_unit_test(test_group_keys_and_repro_args),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
