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
#include <unistd.h>

#include <cmocka.h>

#include "../../campaign/campaign.h"
#include "../../interestingness/tvms.h"
#include "../../program/program.h"
#include "../../support/fileio.h"

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

/* A binding's value is its line's first call: a closure's inner %0 stands for the outer %0 from
   where it is printed on; a let binds when printed bare, not with a type; a tuple or a projection
   is no call, so no edge goes through it. */
static void test_features_lets_tuples_closures(void **state) {
  (void)state;
  char *f = features("#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(2), float32]) {\n"
                     "  %0 = tanh(%x);\n"
                     "  %1 = fn (%p: Tensor[(2), float32]) {\n"
                     "    %0 = sigmoid(%p);\n"
                     "    %0\n"
                     "  };\n"
                     "  %2 = negative(%0);\n"
                     "  let %a = exp(%2);\n"
                     "  let %b: Tensor[(2), float32] = log(%2);\n"
                     "  %3 = (%a, %b);\n"
                     "  %4 = %3.0;\n"
                     "  %5 = add(%a, %b);\n"
                     "  %6 = abs(%4);\n"
                     "  %7 = %1(%6);\n"
                     "  sqrt(%7)\n"
                     "}\n");
  assert_non_null(strstr(f, "edge:sigmoid>negative\n")); /* the closure's %0, printed last */
  assert_null(strstr(f, "edge:tanh>negative"));
  assert_non_null(strstr(f, "edge:negative>exp\n"));
  assert_non_null(strstr(f, "edge:exp>add\n"));  /* let %a = exp(...) binds %a */
  assert_null(strstr(f, "edge:log>add"));         /* let %b: T = log(...) does not */
  assert_null(strstr(f, "edge:exp>abs"));         /* %4 is a projection of a tuple */
  assert_null(strstr(f, ">sqrt"));                /* %7 calls a closure: no operator */
  assert_non_null(strstr(f, "op:sqrt\n"));
  free(f);
}

/* Printed with its inferred types (an rmutate mutant), a let's variable carries a ty= comment, so
   it no longer binds; a comment is not code, however many lines it has. */
static void test_features_typed_and_comments(void **state) {
  (void)state;
  const char *text = "#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(2), float32]) {\n"
                     "  /* a note: relu(%x) =\n"
                     "     softmax(%x) */\n"
                     "  let %a = exp(%x);\n"
                     "  add(%a, %x)\n"
                     "}\n";
  Program p;
  char err[256];
  assert_true(prog_load(&p, "t.relay", text, false, err, sizeof err));
  char *plain = tree_features(p.m, false), *typed = tree_features(p.m, true);
  assert_non_null(strstr(plain, "edge:exp>add\n"));
  assert_null(strstr(typed, "edge:exp>add"));
  assert_non_null(strstr(typed, "op:add\n"));
  assert_null(strstr(plain, "relu"));
  assert_null(strstr(plain, "softmax"));
  free(plain);
  free(typed);
  prog_free(&p);
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The distinct lines of `lines`, sorted, each followed by a space (in place). */
static const char *distinct(char *lines) {
  VEC(char *) keys = {0};
  for (char *k = strtok(lines, "\n"); k; k = strtok(NULL, "\n")) VEC_PUSH(keys, k);
  qsort(keys.items, keys.len, sizeof *keys.items, by_text);
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < keys.len; i++)
    if (!i || strcmp(keys.items[i], keys.items[i - 1])) sb_printf(&sb, "%s ", keys.items[i]);
  free(keys.items);
  strcpy(lines, sb.data ? sb.data : ""); /* no longer than the lines it came from */
  sb_free(&sb);
  return lines;
}

/* Models of the corpus, with the features the campaign has always counted for them (read off their
   printing by the lexer features.c replaced): a plain one, one with fused closures, an LSTM. */
static void test_features_of_models(void **state) {
  (void)state;
  static const char *const want[][2] = {
      {"mlp", "edge:nn.batch_flatten>nn.dense edge:nn.bias_add>nn.relu edge:nn.bias_add>nn.softmax "
              "edge:nn.dense>nn.bias_add edge:nn.relu>nn.dense op:nn.batch_flatten op:nn.bias_add op:nn.dense "
              "op:nn.relu op:nn.softmax "},
      {"resnet-18.fused",
       "edge:add>expand_dims edge:add>multiply edge:add>nn.relu edge:add>rsqrt edge:divide>add "
       "edge:expand_dims>add edge:expand_dims>divide edge:expand_dims>multiply edge:expand_dims>squeeze "
       "edge:multiply>add edge:multiply>expand_dims edge:multiply>multiply edge:negative>multiply "
       "edge:nn.conv2d>add edge:nn.dense>nn.bias_add edge:nn.max_pool2d>multiply edge:rsqrt>multiply "
       "edge:squeeze>expand_dims op:add op:divide op:expand_dims op:multiply op:negative "
       "op:nn.batch_flatten op:nn.bias_add op:nn.conv2d op:nn.dense op:nn.global_avg_pool2d "
       "op:nn.max_pool2d op:nn.relu op:nn.softmax op:rsqrt op:squeeze "},
      {"lstm", "edge:multiply>add edge:nn.dense>nn.bias_add edge:tanh>multiply op:add op:multiply "
               "op:nn.bias_add op:nn.dense op:sigmoid op:split op:tanh op:zeros "},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    char path[256];
    snprintf(path, sizeof path, "../shared/corpus/models/%s.relay", want[i][0]);
    size_t len;
    char *text = file_read_text(path, &len);
    AstModule *m = text ? parse(text) : NULL;
    assert_non_null(m);
    char *f = tree_features(m, false);
    assert_string_equal(distinct(f), want[i][1]);
    free(f);
    ast_free(m);
    free(text);
  }
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

static char *check_of(const char *kind, const char *passes, bool coin, unsigned shape) {
  StrBuf sb;
  sb_init(&sb);
  fuzz_kind(kind)->check(&sb, passes, coin, shape);
  return sb_take(&sb);
}

/* The table: the checks each kind writes, its pool rule, the plain kind first. */
static void test_kinds(void **state) {
  (void)state;
  assert_string_equal(fuzz_kinds[0].name, "build");
  assert_null(fuzz_kind("bogus"));
  /* kind, passes, the coin and the program's shape ("1" then FUZZ_SHAPE_*: "11" is the coin and a
     dyn.* call, "02" no coin and a helper global), the check */
  const char *want[][4] = {
      {"build", "", "00", "build\n--opt-level\n3\n"},
      {"build", "FoldConstant;FuseOps", "10", "pass\n--build\n--opt-level\n3\nFoldConstant\nFuseOps\n"},
      {"diff", "FuseOps", "00", "diff\n--opt-levels\n0,3\n"},
      {"diff", "", "10", "diff\n--executors\ngraph,vm\n"},
      {"ill-typed", "FuseOps", "10", "typecheck\n"},
      /* a `?`-shaped value: the VM, which can allocate it; on the coin DynamicToStatic first, once */
      {"build", "", "01", "build\n--executor\nvm\n--opt-level\n3\n"},
      {"build", "", "11", "pass\n--build\n--executor\nvm\n--opt-level\n3\nDynamicToStatic\n"},
      {"build", "FuseOps", "11", "pass\n--build\n--executor\nvm\n--opt-level\n3\nDynamicToStatic\nFuseOps\n"},
      {"build", "DynamicToStatic", "11", "pass\n--build\n--executor\nvm\n--opt-level\n3\nDynamicToStatic\n"},
      {"diff", "", "11", "diff\n--opt-levels\n0,3\n"},
      {"ill-typed", "", "11", "typecheck\n"},
      /* a helper global: the VM too, and no DynamicToStatic without a dyn.* call */
      {"build", "", "12", "build\n--executor\nvm\n--opt-level\n3\n"},
      {"build", "FuseOps", "02", "pass\n--build\n--executor\nvm\n--opt-level\n3\nFuseOps\n"},
      {"diff", "", "12", "diff\n--opt-levels\n0,3\n"},
      {"build", "", "13", "pass\n--build\n--executor\nvm\n--opt-level\n3\nDynamicToStatic\n"},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    char *args = check_of(want[i][0], want[i][1], want[i][2][0] == '1', (unsigned)(want[i][2][1] - '0'));
    assert_string_equal(args, want[i][3]);
    free(args);
  }
  assert_true(fuzz_kind("build")->joins_pool && fuzz_kind("diff")->joins_pool);
  assert_false(fuzz_kind("ill-typed")->joins_pool); /* mutation starts from well-typed programs only */
  assert_true(fuzz_kind("ill-typed")->ill_typed && !fuzz_kinds[0].ill_typed);
}

/* A known bug's words match its failures whatever numbers they hold, and nothing else. */
static void test_known_words(void **state) {
  (void)state;
  const char *w = "the function is provided too many arguments expected 1, found 7";
  assert_true(fuzz_words_found("error: the function is provided too many arguments expected 1, found 7", w));
  assert_true(fuzz_words_found("x: the function is provided too many arguments expected 1, found 23\n", w));
  assert_true(fuzz_words_found("the function is provided too many arguments expected 10, found 2", w));
  assert_false(fuzz_words_found("the function is provided too many arguments expected x, found 2", w));
  assert_false(fuzz_words_found("the function is provided too few arguments expected 1, found 0", w));
  assert_false(fuzz_words_found("the function is provided too many arguments expected 1, found", w));
  assert_true(fuzz_words_found("uint64 not handled", "uint64 not handled"));
  assert_true(fuzz_words_found("Divide by zero", "Divide by zero"));
  /* a number stands for a number, not for a letter or nothing */
  assert_true(fuzz_words_found("int64", "int32"));
  assert_false(fuzz_words_found("intx", "int32"));
  assert_false(fuzz_words_found("(vs. 0)", "(0 vs. 0)"));
  assert_false(fuzz_words_found(NULL, w));
  assert_false(fuzz_words_found("anything", ""));
}

static void test_group_keys_and_repro_args(void **state) {
  (void)state;
  char *k1, *m1, *k2, *m2, *k3, *m3;
  /* a plain oracle (no outcome): the signature alone, numbers and addresses masked */
  fail_group_key(NULL, false, "Check failed: x at 0x7f0012345678, size 12", &k1, &m1);
  fail_group_key(NULL, false, "Check failed: x at 0x7f00deadbeef, size 7", &k2, &m2);
  assert_string_equal(k1, k2);
  assert_string_equal(k1, "Check failed: x at <addr>, size <n>");
  assert_non_null(m1);
  free(k1), free(m1), free(k2), free(m2);
  /* with the oracle's outcome: the stage that failed and TVM's innermost frame, whichever round met it */
  Outcome build, frontend, framed;
  outcome_read(&build, "{\"stage\": \"build\", \"kind\": \"check\"}");
  outcome_read(&frontend, "{\"stage\": \"frontend\", \"kind\": \"check\"}");
  outcome_read(&framed, "{\"stage\": \"build\", \"frames\": [\"tvm::relay::Foo\", \"tvm::relay::Bar\"]}");
  fail_group_key(&build, false, "Check failed: x at 0x7f0012345678, size 12", &k1, &m1);
  fail_group_key(&frontend, false, "Check failed: x at 0x7f00deadbeef, size 7", &k2, &m2);
  fail_group_key(&framed, false, "Check failed: x at 0x7f00deadbeef, size 7", &k3, &m3);
  assert_string_equal(k1, "build: Check failed: x at <addr>, size <n>");
  assert_string_equal(k2, "frontend: Check failed: x at <addr>, size <n>");
  assert_string_equal(k3, "build: Check failed: x at <addr>, size <n> @ tvm::relay::Foo");
  free(k1), free(m1), free(k2), free(m2), free(k3), free(m3);
  /* one check, two programs: generated names of different lengths and another loop variable were
     two groups when the message was cut before the names were masked */
  const char *short_name = "Check failed: undefined.size() == 0 (1 vs. 0) : In PrimFunc tvmgen_default_fused_add "
                           "variables [i1] are used, but are not passed in as API arguments";
  const char *long_name = "Check failed: undefined.size() == 0 (1 vs. 0) : In PrimFunc "
                          "tvmgen_default_fused_nn_conv2d_add_nn_relu_cast_multiply_add_right_shift_cast_clip_subtract_"
                          "transpose_reshape_sum_compute_ variables [i3, ax0] are used, but are not passed in as API "
                          "arguments";
  fail_group_key(&framed, false, short_name, &k1, &m1);
  fail_group_key(&framed, false, long_name, &k2, &m2);
  assert_string_equal(k1, k2);
  assert_non_null(strstr(k1, "In PrimFunc <fn> variables [<vars>] are used, but are not passed in"));
  assert_non_null(m2);
  free(k1), free(m1), free(k2), free(m2);
  fail_group_key(&build, false, "Check failed: dtypes [int8, float32] of loop [ax0]", &k1, &m1);
  assert_string_equal(k1, "build: Check failed: dtypes [<dtype>, <dtype>] of loop [<vars>]");
  free(k1), free(m1);
  /* the masked words are cut at FAIL_KEY_WORDS_MAX, the frame kept after them */
  char lengthy[700];
  memset(lengthy, 'x', sizeof lengthy - 1);
  memcpy(lengthy, "Check failed: ", 14);
  lengthy[sizeof lengthy - 1] = 0;
  for (size_t i = 20; i + 1 < sizeof lengthy; i += 10) lengthy[i] = ' ';
  fail_group_key(&framed, false, lengthy, &k1, &m1);
  assert_int_equal(strlen(k1), strlen("build: ") + FAIL_KEY_WORDS_MAX + strlen(" @ tvm::relay::Foo"));
  free(k1), free(m1);
  fail_group_key(&build, true, "", &k1, &m1);
  assert_string_equal(k1, "build: timeout");
  free(k1), free(m1);
  outcome_free(&build), outcome_free(&frontend), outcome_free(&framed);
  Outcome none;
  assert_false(outcome_read(&none, "not json"));
  assert_string_equal(none.stage, "");
  outcome_free(&none);

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

/* Classes: the user's rules, then the shipped ones (a limitation only where TVM points elsewhere),
   then the evidence: a failure inside a pass is a bug, TVM refusing a program relaykit accepts is a
   disagreement; each decision with the rule that made it; bad files located. */
static void test_classes(void **state) {
  (void)state;
  FailRules c;
  fail_rules_init(&c);
  char err[256], *rule;
  assert_true(fail_rules_add(&c, "# mine\nbug-like  \nlimitation  planted limit\n", "mine.txt", err, sizeof err) == false);
  assert_non_null(strstr(err, "mine.txt:2:"));
  fail_rules_free(&c);
  fail_rules_init(&c);
  assert_false(fail_rules_add(&c, "limitation (unclosed\n", "bad.txt", err, sizeof err));
  assert_non_null(strstr(err, "bad.txt:1:"));
  fail_rules_free(&c);
  fail_rules_init(&c);
  assert_true(fail_rules_add(&c, "# Hexagon is out of scope here\nrejected  only supported with Hexagon\n", "mine.txt",
                             err, sizeof err));
  assert_true(fail_rules_shipped(&c, err, sizeof err));
  Outcome build, frontend, crash, in_pass, in_build_pass, lowering;
  outcome_read(&build, "{\"stage\": \"compile\", \"step\": \"build\", \"kind\": \"check\"}");
  outcome_read(&frontend, "{\"stage\": \"frontend\", \"step\": \"typecheck\", \"kind\": \"check\"}");
  outcome_read(&crash, "{\"stage\": \"frontend\", \"kind\": \"crash\"}");
  outcome_read(&in_pass, "{\"stage\": \"compile\", \"step\": \"pass ToMixedPrecision\", \"kind\": \"check\"}");
  outcome_read(&in_build_pass, "{\"stage\": \"compile\", \"step\": \"build pass FuseOps\", \"kind\": \"check\"}");
  outcome_read(&lowering, "{\"stage\": \"compile\", \"step\": \"build after FuseOps\", \"kind\": \"check\"}");
  /* the user's rule came first, shown with its file, line and comment */
  assert_int_equal(fail_classify(&c, "Check failed: (x) is false: qnn.tanh is currently only supported with Hexagon",
                                 &build, ACCEPTED_YES, &rule),
                   FAIL_REJECTED);
  assert_string_equal(rule, "mine.txt:2: rejected only supported with Hexagon (Hexagon is out of scope here)");
  free(rule);
  /* TVM points elsewhere: a limitation, even inside a pass */
  assert_int_equal(fail_classify(&c, "qnn.add: Please run QNN Canonicalize pass to decompose this op", &in_build_pass,
                                 ACCEPTED_YES, &rule),
                   FAIL_LIMITATION);
  assert_non_null(strstr(rule, "tvm-limitations.txt:"));
  assert_non_null(strstr(rule, "Please run QNN Canonicalize"));
  free(rule);
  assert_int_equal(fail_classify(&c, "Attribute TOpPattern has not been registered for qnn.exp", &in_build_pass,
                                 ACCEPTED_YES, NULL),
                   FAIL_LIMITATION);
  /* an op only a contrib library implements, on a TVM built without it: TVM says to build it in */
  assert_int_equal(fail_classify(&c,
                                 "Check failed: (f != nullptr) is false: Cannot find function "
                                 "tvm.contrib.nnpack.convolution_inference_weight_transform in the imported modules or "
                                 "global registry. If this involves ops from a contrib library like cuDNN, ensure TVM "
                                 "was built with the relevant library.",
                                 &build, ACCEPTED_YES, NULL),
                   FAIL_LIMITATION);
  /* each rule shows the comment block right above it, not an earlier block's */
  assert_int_equal(fail_classify(&c, "Cannot allocate memory symbolic tensor shape [?, 4]", &build, ACCEPTED_YES, &rule),
                   FAIL_LIMITATION);
  assert_non_null(strstr(rule, "what only the VM can run"));
  assert_null(strstr(rule, "another target"));
  free(rule);
  /* the graph executor's storage planner refusing control flow: what only the VM runs */
  assert_int_equal(fail_classify(&c, "TVMError: if is not supported.", &lowering, ACCEPTED_YES, NULL), FAIL_LIMITATION);
  assert_int_equal(fail_classify(&c, "Check failed: x: the motif is not supported.", &lowering, ACCEPTED_YES, NULL), FAIL_BUG);
  /* "not supported" inside a pass is how a pass's bug reads (TVM PR 15533) */
  assert_int_equal(fail_classify(&c, "Algebraic Data Types (ADT) are not supported yet for mixed precision pass.",
                                 &in_pass, ACCEPTED_YES, &rule),
                   FAIL_BUG);
  assert_non_null(strstr(rule, "inside the optimization pass ToMixedPrecision"));
  free(rule);
  assert_int_equal(fail_classify(&c, "Attribute TOpPattern has not been registered for nn.layer_norm", &in_build_pass,
                                 ACCEPTED_YES, &rule),
                   FAIL_BUG);
  assert_non_null(strstr(rule, "pass FuseOps"));
  free(rule);
  /* codegen on a dtype the relation accepted: a bug, said to be the relation's */
  assert_int_equal(fail_classify(&c, "Check failed: (f) is false: Cannot find intrinsic declaration, possible type "
                                     "mismatch: llvm.sqrt",
                                 &lowering, ACCEPTED_YES, &rule),
                   FAIL_BUG);
  assert_non_null(strstr(rule, "type relation"));
  free(rule);
  assert_int_equal(fail_classify(&c, "Check failed: fb->value != 0 (0 vs. 0) : Divide by zero", &build, ACCEPTED_YES, NULL),
                   FAIL_BUG);
  /* on_device without a device plan is outside what relay.build takes; the same words from the
     VM's memory planning, on a program with no annotation, are TVM's own invariant failing */
  assert_int_equal(fail_classify(&c,
                                 "Check failed: ((!constrain_result && !constrain_body) || "
                                 "!virtual_device->IsFullyUnconstrained()) is false:",
                                 &frontend, ACCEPTED_YES, NULL),
                   FAIL_REJECTED);
  assert_int_equal(fail_classify(&c, "Check failed: (!src_virtual_device->IsFullyUnconstrained()) is false:", &build,
                                 ACCEPTED_YES, NULL),
                   FAIL_REJECTED);
  assert_int_equal(fail_classify(&c, "Check failed: (!arg_virtual_device->IsFullyUnconstrained()) is false:", &build,
                                 ACCEPTED_YES, &rule),
                   FAIL_BUG);
  assert_null(strstr(rule, "tvm-limitations.txt"));
  free(rule);
  /* TVM's type checker refusing what relaykit's accepts is a disagreement, not a rejected input */
  assert_int_equal(fail_classify(&c, "IndexError: indexing 0 on an array of size 0", &frontend, ACCEPTED_YES, &rule),
                   FAIL_BUG);
  assert_non_null(strstr(rule, "disagreement"));
  free(rule);
  assert_int_equal(fail_classify(&c, "error: the function is provided too many arguments", &frontend, ACCEPTED_NO, &rule),
                   FAIL_REJECTED);
  assert_non_null(strstr(rule, "relaykit's checker refuses it too"));
  free(rule);
  assert_int_equal(fail_classify(&c, "error: x", &frontend, ACCEPTED_UNKNOWN, NULL), FAIL_REJECTED);
  assert_int_equal(fail_classify(&c, "signal SIGSEGV", &crash, ACCEPTED_NO, NULL), FAIL_BUG); /* a crash: a bug anywhere */
  assert_int_equal(fail_classify(&c, "Check failed: x", NULL, ACCEPTED_UNKNOWN, &rule), FAIL_BUG);
  assert_string_equal(rule, "no rule names it a limitation or a rejected input");
  free(rule);
  /* the old generic words no longer make a limitation */
  assert_int_equal(fail_classify(&c, "Check failed: x: not implemented for float16", &build, ACCEPTED_YES, NULL), FAIL_BUG);
  outcome_free(&build), outcome_free(&frontend), outcome_free(&crash);
  outcome_free(&in_pass), outcome_free(&in_build_pass), outcome_free(&lowering);
  fail_rules_free(&c);
}

/* Root causes: the keys of one cause met through different programs are one (generated function
   names, dtypes, shapes masked); skeletons of programs equal up to names, dtypes and shapes. */
static void test_root_cause_keys(void **state) {
  (void)state;
  char *k1, *m1, *k2, *m2;
  Outcome build;
  outcome_read(&build, "{\"stage\": \"compile\", \"kind\": \"check\"}");
  fail_group_key(&build, false, "Check failed: x in tvmgen_default_fused_trilu_3 of TensorType([1, 3, 224], float32)",
                 &k1, &m1);
  fail_group_key(&build, false, "Check failed: x in tvmgen_default_fused_trilu_add of TensorType([7], int8)", &k2, &m2);
  assert_string_equal(k1, "compile: Check failed: x in <fn> of TensorType(<shape>, <dtype>)");
  assert_string_equal(k1, k2);
  free(k1), free(m1), free(k2), free(m2);
  /* a symbolic shape is a shape at every rank */
  fail_group_key(&build, false, "Check failed: (pval != nullptr) is false: Cannot allocate memory symbolic tensor shape [T.Any(), T.Any()]",
                 &k1, &m1);
  fail_group_key(&build, false, "Check failed: (pval != nullptr) is false: Cannot allocate memory symbolic tensor shape [T.Any(), <n>, T.Any()]",
                 &k2, &m2);
  assert_string_equal(k1, "compile: Check failed: (pval != nullptr) is false: Cannot allocate memory symbolic tensor shape <shape>");
  assert_string_equal(k1, k2);
  free(k1), free(m1), free(k2), free(m2);
  /* what names the cause stays: an op name, a message's own number word */
  fail_group_key(&build, false, "ValueError: too many values to unpack (expected 2) in nn.conv2d", &k1, &m1);
  assert_string_equal(k1, "compile: ValueError: too many values to unpack (expected <n>) in nn.conv2d");
  free(k1), free(m1);
  outcome_free(&build);

  const char *a = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 3), float32] /* ty=Tensor[(1, 3), float32] */) {\n"
                  "  %0 = nn.relu(%x);\n  cast(%0, dtype=\"int8\")\n}\n";
  const char *b = "#[version = \"0.0.5\"]\ndef @main(%inp: Tensor[(8), float16]) {\n"
                  "  %y = nn.relu(%inp);\n  cast(%y, dtype=\"uint8\")\n}\n";
  const char *unset = "def @main(%a: Tensor[(2, 2), int8]) {\n  %b = nn.relu(%a);\n  cast(%b, dtype=\"int8\", units=None)\n}\n";
  char *su = fuzz_skeleton(unset), *sa0 = fuzz_skeleton(strchr(a, '\n') + 1);
  assert_string_equal(su, sa0); /* units=None: an attribute left unset */
  free(su), free(sa0);
  const char *other = "#[version = \"0.0.5\"]\ndef @main(%inp: Tensor[(8), float16]) {\n"
                      "  %y = nn.softmax(%inp);\n  cast(%y, dtype=\"uint8\")\n}\n";
  char *sa = fuzz_skeleton(a), *sb = fuzz_skeleton(b), *so = fuzz_skeleton(other);
  assert_string_equal(sa, sb);
  assert_string_not_equal(sa, so);
  assert_null(strstr(sa, "float32"));
  free(sa), free(sb), free(so);
}

/* The coverage extension's edge sets (PROTOCOL.md, "coverage"): base64 of LEB128 gaps, decoded
   exactly, anything else refused; a campaign's union saved and loaded unchanged. */
/* Sibling operators: an operator the reduced program calls is masked in its key; an operator it
   does not call, and words that are no operator, are not; the expression kind a Python error names. */
static void test_family_keys(void **state) {
  (void)state;
  const char *asin = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2), float16]) {\n  asin(%x)\n}\n";
  const char *atanh = "#[version = \"0.0.5\"]\ndef @main(%y: Tensor[(3), float16]) {\n  atanh(%y)\n}\n";
  char *a = fuzz_family_key("compile: TVMError: unknown intrinsic Op(tir.asin) @ tvm::codegen::CodeGenLLVM::CreateIntrinsic", asin);
  char *b = fuzz_family_key("compile: TVMError: unknown intrinsic Op(tir.atanh) @ tvm::codegen::CodeGenLLVM::CreateIntrinsic", atanh);
  assert_string_equal(a, "compile: TVMError: unknown intrinsic Op(tir.<op>) @ tvm::codegen::CodeGenLLVM::CreateIntrinsic");
  assert_string_equal(a, b);
  free(b);
  /* named but not called: kept (the message is about another operator) */
  b = fuzz_family_key("compile: unknown intrinsic Op(tir.atanh)", asin);
  assert_string_equal(b, "compile: unknown intrinsic Op(tir.atanh)");
  free(b);
  free(a);
  const char *ln = "def @main(%x: Tensor[(2, 4), float32], %g: Tensor[(4), float32]) {\n  nn.layer_norm(%x, %g, %g)\n}\n";
  const char *qs = "def @main(%x: Tensor[(2), int8]) {\n  qnn.sqrt(%x, 1f, 0, 1f, 0)\n}\n";
  a = fuzz_family_key("compile: TOpPattern has not been registered for nn.layer_norm @ f", ln);
  b = fuzz_family_key("compile: TOpPattern has not been registered for qnn.sqrt @ f", qs);
  assert_string_equal(a, "compile: TOpPattern has not been registered for <op> @ f");
  assert_string_equal(b, a); /* their classes tell them apart (fuzz_one_cause) */
  free(a);
  free(b);
  /* "x" and "main" are no operators; "data" is a word, not a call */
  a = fuzz_family_key("run: x main data(", ln);
  assert_string_equal(a, "run: x main data(");
  free(a);
  a = fuzz_family_key("compile: AttributeError: <class 'tvm.relay.expr.Var'> has no attribute data", ln);
  assert_string_equal(a, "compile: AttributeError: <class 'tvm.relay.expr.<expr>'> has no attribute data");
  free(a);
}

/* QNN's constant scales: three operators, three wordings, one precondition; not without the
   program's evidence (a constant scale) or the words (another failure of a qnn op) */
static void test_precondition(void **state) {
  (void)state;
  const char *req = "def @main(%s: float32, %z: int32) {\n  qnn.requantize(%z, %s, %z, %s, %z, out_dtype=\"int32\")\n}\n";
  const char *log = "def @main(%x: uint8, %z: int32, %f: float32) {\n  %0 = reshape(%f, newshape=[]);\n  qnn.log(%x, %0, %z, %0, %z)\n}\n";
  const char *sm = "def @main(%x: int8, %s: float32, %z: int32) {\n  qnn.softmax(%x, %s, %z, %s, %z)\n}\n";
  const char *a = fuzz_precondition("compile: Check failed: (n) is false: Expr must be a constant expr @ f", req);
  const char *b = fuzz_precondition("compile: AttributeError: <class 'tvm.relay.expr.Call'> has no attribute data @ g", log);
  const char *c = fuzz_precondition("compile: Check failed: (const_input_scale) is false: Input scale should be constant. @ h", sm);
  assert_non_null(a);
  assert_string_equal(a, b);
  assert_string_equal(a, c);
  /* constants after the data: not this precondition, whatever the words */
  const char *consts = "def @main(%x: int8) {\n  qnn.softmax(%x, 1f, 0, meta[relay.Constant][0], 0)\n}\n";
  assert_null(fuzz_precondition("compile: Input scale should be constant.", consts));
  /* a non-constant scale failing in other words: not this precondition */
  assert_null(fuzz_precondition("compile: TOpPattern has not been registered for qnn.softmax", sm));
  /* no qnn operator */
  assert_null(fuzz_precondition("compile: must be a constant", "def @main(%x: float32) {\n  nn.relu(%x)\n}\n"));
}

/* another release's verdict: the same message with another frame, or none, is the same failure */
static void test_same_failure(void **state) {
  (void)state;
  assert_true(tvm_same_failure("compile: TypeError: begin should be <dtype>",
                               "compile: TypeError: begin should be <dtype> @ tvm::relay::OpImplementation::Compute"));
  assert_true(tvm_same_failure("compile: X @ f", "compile: X @ g"));
  assert_false(tvm_same_failure("compile: TVMError: std: :bad_alloc", "compile: Check failed: fv.size() == <n> @ f"));
  assert_false(tvm_same_failure("compile: X", "run: X"));
}

static void test_coverage_edges(void **state) {
  (void)state;
  uint32_t *e;
  size_t n;
  assert_true(fuzz_edges_decode("AAAAf52MBg==", &e, &n)); /* 0, 1, 2, 130, 100000 */
  assert_int_equal(n, 5);
  assert_int_equal(e[0], 0), assert_int_equal(e[2], 2), assert_int_equal(e[3], 130), assert_int_equal(e[4], 100000);
  free(e);
  assert_true(fuzz_edges_decode("////fw", &e, &n)); /* unpadded; 2^28 - 1, the largest */
  assert_int_equal(n, 1), assert_int_equal(e[0], (1u << 28) - 1);
  free(e);
  assert_true(fuzz_edges_decode("", &e, &n));
  assert_int_equal(n, 0);
  free(e);
  const char *bad[] = {"gICAgAE=", /* 2^28 */ "gA==", /* a number cut short */ "@@@", "AA A=",
                       "//////////8B" /* a gap of more than 35 bits */};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_false(fuzz_edges_decode(bad[i], &e, &n));
    assert_null(e);
  }
  FuzzCoverage cov;
  assert_true(fuzz_coverage_read("{\"status\": 1}", &cov));
  assert_false(cov.present);
  assert_true(fuzz_coverage_read("not json", &cov));
  assert_false(cov.present);
  assert_false(fuzz_coverage_read("{\"coverage\": 5}", &cov));
  assert_false(fuzz_coverage_read("{\"coverage\": {\"edges\": 1}}", &cov)); /* no set */
  assert_true(fuzz_coverage_read("{\"coverage\": {\"set\": \"AAAAf52MBg==\", \"total\": 200000}}", &cov));
  assert_true(cov.present);
  assert_int_equal(cov.n, 5), assert_int_equal(cov.total, 200000);
  FuzzEdges seen = {0};
  assert_true(fuzz_edges_add(&seen, 130));
  assert_false(fuzz_edges_add(&seen, 130));
  assert_int_equal(fuzz_coverage_new(&seen, &cov), 4);
  assert_int_equal(fuzz_coverage_add(&seen, &cov), 4);
  assert_int_equal(fuzz_coverage_add(&seen, &cov), 0);
  assert_int_equal(seen.count, 5);
  assert_true(fuzz_edges_has(&seen, 100000) && !fuzz_edges_has(&seen, 99999) && !fuzz_edges_has(&seen, 1u << 27));
  fuzz_coverage_free(&cov);
  char dir[] = "/tmp/test_campaign.XXXXXX", path[64], err[256];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/c.edges", dir);
  assert_true(fuzz_edges_save(&seen, path, err, sizeof err));
  FuzzEdges back = {0};
  assert_true(fuzz_edges_load(&back, path, err, sizeof err));
  assert_int_equal(back.count, 5);
  for (uint32_t i = 0; i <= 100000; i++) assert_int_equal(fuzz_edges_has(&back, i), fuzz_edges_has(&seen, i));
  fuzz_edges_free(&back);
  FILE *f = fopen(path, "wb");
  fputc(0x80, f); /* cut short */
  fclose(f);
  assert_false(fuzz_edges_load(&back, path, err, sizeof err));
  assert_non_null(strstr(err, "c.edges"));
  fuzz_edges_free(&back);
  unlink(path);
  rmdir(dir);
  fuzz_edges_free(&seen);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_features_edges_through_bindings), cmocka_unit_test(test_features_scope_per_function),
      cmocka_unit_test(test_features_lets_tuples_closures),   cmocka_unit_test(test_features_typed_and_comments),
      cmocka_unit_test(test_features_of_models),
      cmocka_unit_test(test_pass_sequences),                  cmocka_unit_test(test_pass_set_parse),
      cmocka_unit_test(test_verdicts),                        cmocka_unit_test(test_kinds),
      cmocka_unit_test(test_known_words),
      cmocka_unit_test(test_group_keys_and_repro_args), cmocka_unit_test(test_classes),
      cmocka_unit_test(test_root_cause_keys), cmocka_unit_test(test_family_keys),
      cmocka_unit_test(test_precondition),
      cmocka_unit_test(test_same_failure),
      cmocka_unit_test(test_coverage_edges),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
