/* rmutate --ill-typed (mutate/illtyped.c): every kind makes a program our checker rejects, with
   the message the kind promises, at the place it changed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../mutate/driver.h"
#include "../../support/fileio.h"
#include "../../typegen/infer/infer.h"

#define V "#[version = \"0.0.5\"]\n"

/* Parses and types text; the checker's message (or "" when it accepts) goes to msg. */
static bool load(Program *l, const char *text, char *msg, size_t msglen) {
  bool ok = prog_load(l, "mutant", text, false, msg, msglen);
  if (ok && msg) msg[0] = 0;
  return ok;
}

/* One ill-typed mutant of text, as the driver makes it. */
typedef struct Mutant {
  bool applied;      /* mut_ill_typed found something to do */
  bool rejected;     /* our checker rejects the printed mutant */
  char kind[32];     /* "wrong-rank", ... */
  char what[512];
  char msg[1024];    /* the checker's message */
  unsigned line;     /* the changed node's line in the printed mutant (0: not found) */
} Mutant;

static unsigned marked_line(const char *text) {
  const char *at = strstr(text, "ill-typed-mark */");
  if (!at) return 0;
  unsigned line = 1;
  for (const char *p = text; p < at; p++) line += *p == '\n';
  return line;
}

static Mutant mutate(const char *text, uint64_t seed) {
  Mutant r = {0};
  Program l;
  char msg[1024];
  if (!load(&l, text, msg, sizeof msg)) fail_msg("the seed program is rejected: %s", msg);
  Rng rng = rng_seed(seed, 0);
  GenPolicy policy;
  gen_policy_default(&policy);
  StrBuf what;
  sb_init(&what);
  MutContext c = {l.m, l.types, &rng, &policy, NULL, 10, NULL, 0, "seed.relay", 0, &what, {0}, NULL};
  r.applied = mut_ill_typed(&c);
  if (r.applied) {
    snprintf(r.what, sizeof r.what, "%s", what.data ? what.data : "");
    sscanf(r.what, "ill-typed %31s", r.kind);
    assert_non_null(c.marked);
    AstComment *mark = arena_alloc(&l.m->arena, sizeof *mark);
    mark->text = "/* span=seed.relay:1:1 ill-typed-mark */";
    mark->next = c.marked->comments;
    c.marked->comments = mark;
    AstPrintOptions po = {.strip_types = true, .keep_spans = true};
    char *out = ast_print(l.m, &po);
    r.line = marked_line(out);
    Program check;
    r.rejected = !load(&check, out, r.msg, sizeof r.msg);
    prog_free(&check);
    free(out);
  }
  sb_free(&what);
  prog_free(&l);
  return r;
}

/* Whether the message points at the change: its line, or a name the description gives (the op,
   the callee, the unbound variable). */
static bool mentions_change(const Mutant *r) {
  char at[32];
  snprintf(at, sizeof at, "mutant:%u:", r->line);
  if (r->line && strstr(r->msg, at)) return true;
  if (strstr(r->what, "'s result annotated") && strstr(r->msg, "the function's result")) return true;
  char words[512];
  snprintf(words, sizeof words, "%s", r->what);
  for (char *w = strtok(words, " :'(),="); w; w = strtok(NULL, " :'(),=")) {
    if (strlen(w) < 3 || !strcmp(w, "ill-typed") || strchr(w, '[')) continue;
    bool name = (op_lookup(w) != NULL) || !strncmp(w, "%undefined_", 11) || w[0] == '@';
    if (name && strstr(r->msg, w)) return true;
  }
  return false;
}

/* ------------------------------------------------------------------ real models */
static const char *const kind_names[] = {"wrong-rank", "wrong-dtype", "bad-attr", "unbound", "wrong-arity",
                                         "wrong-annotation"};
enum { NKIND = 6, SEEDS = 200 };
static unsigned kind_seen[NKIND];

static void model(const char *name) {
  char path[256];
  snprintf(path, sizeof path, "../shared/corpus/models/%s.relay", name);
  size_t len;
  char *text = file_read(path, &len);
  if (!text) fail_msg("cannot read %s (tests run from the repository root)", path);
  unsigned rejected = 0, located = 0, applied = 0, kinds[NKIND] = {0};
  for (uint64_t seed = 0; seed < SEEDS; seed++) {
    Mutant r = mutate(text, seed);
    if (!r.applied) continue;
    applied++;
    for (int k = 0; k < NKIND; k++)
      if (!strcmp(r.kind, kind_names[k])) kinds[k]++, kind_seen[k]++;
    if (!r.rejected) {
      fprintf(stderr, "  %s seed %llu: accepted: %s\n", name, (unsigned long long)seed, r.what);
      continue;
    }
    rejected++;
    if (getenv("ILL_VERBOSE")) fprintf(stderr, "  %s seed %llu: %s\n    -> %s", name, (unsigned long long)seed, r.what, r.msg);
    if (mentions_change(&r))
      located++;
    else
      fprintf(stderr, "  %s seed %llu: %s\n    -> %s", name, (unsigned long long)seed, r.what, r.msg);
  }
  fprintf(stderr, "%s: %u/%d applied, %u rejected, %u located; kinds", name, applied, SEEDS, rejected, located);
  for (int k = 0; k < NKIND; k++) fprintf(stderr, " %s=%u", kind_names[k], kinds[k]);
  fprintf(stderr, "\n");
  free(text);
  assert_int_equal(applied, SEEDS);
  assert_true(rejected >= 190);
  assert_true(located * 10 >= rejected * 9);
}

static void test_resnet18(void **state) { (void)state, model("resnet-18"); }
static void test_mobilenet(void **state) { (void)state, model("mobilenet"); }
static void test_lstm(void **state) { (void)state, model("lstm"); }
static void test_mlp(void **state) { (void)state, model("mlp"); }

static void test_kinds_used(void **state) {
  (void)state;
  unsigned used = 0;
  for (int k = 0; k < NKIND; k++) used += kind_seen[k] > 0;
  assert_true(used >= 5);
}

/* The driver's --ill-typed path: one step, described, with the checker's message as the expected error. */
static void test_driver_records_the_error(void **state) {
  (void)state;
  size_t len;
  char *text = file_read("../shared/corpus/models/mlp.relay", &len);
  assert_non_null(text);
  GenPolicy policy;
  gen_policy_default(&policy);
  MutOptions o = {.seed = 7, .policy = &policy, .fuel = 10, .ill_typed = true, .seed_name = "mlp.relay"};
  Program seed;
  char err[256];
  assert_true(prog_load(&seed, "mlp.relay", text, false, err, sizeof err));
  for (uint64_t k = 0; k < 20; k++) {
    MutResult r;
    if (!mut_make(&seed, &o, k, 0, &r, err, sizeof err)) fail_msg("mutant %llu: %s", (unsigned long long)k, err);
    assert_int_equal(r.nsteps, 1);
    assert_non_null(r.expected_error);
    assert_non_null(strstr(r.expected_error, "error: "));
    assert_non_null(strstr(r.steps[0].what, "ill-typed "));
    assert_non_null(strstr(r.text, "rmutate-step-0"));
    Program l;
    char msg[1024];
    assert_false(load(&l, r.text, msg, sizeof msg));
    assert_string_equal(msg, r.expected_error);
    prog_free(&l);
    mut_result_free(&r);
  }
  prog_free(&seed);
  free(text);
}

/* ------------------------------------------------------------------ each kind on a small program */
static const char small[] = V
    "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], %b: Tensor[(4), float32]) "
    "-> Tensor[(1, 4, 6, 6), float32] {\n"
    "  %0 = nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3]);\n"
    "  %1 = nn.bias_add(%0, %b);\n"
    "  let %y: Tensor[(1, 4, 6, 6), float32] = nn.relu(%1);\n"
    "  add(%y, %y)\n"
    "}\n";

static const char adt[] = V
    "type List[A] { Cons(A, List[A]), Nil }\n"
    "def @main(%x: int32) {\n"
    "  Cons(%x, Nil)\n"
    "}\n";

/* The first mutant of `text` of the given kind: rejected, with one of the expected messages. */
static void expect_kind(const char *text, const char *kind, const char *const *expected) {
  for (uint64_t seed = 0; seed < 400; seed++) {
    Mutant r = mutate(text, seed);
    if (!r.applied || strcmp(r.kind, kind)) continue;
    if (!r.rejected) fail_msg("%s: accepted: %s", kind, r.what);
    for (const char *const *e = expected; *e; e++)
      if (strstr(r.msg, *e)) return;
    fail_msg("%s: %s\n  unexpected message: %s", kind, r.what, r.msg);
  }
  fail_msg("no mutant of kind %s", kind);
}

static void test_wrong_rank(void **state) {
  (void)state;
  const char *const want[] = {"nn.conv2d: argument 1 has rank", "nn.conv2d: argument 2 has rank",
                              "nn.bias_add: argument 2 has type", NULL};
  expect_kind(small, "wrong-rank", want);
}

static void test_wrong_dtype(void **state) {
  (void)state;
  const char *const want[] = {"do not match", "same dtype", "nn.conv2d: ", "nn.bias_add: ", NULL};
  expect_kind(small, "wrong-dtype", want);
}

static void test_bad_attr(void **state) {
  (void)state;
  const char *const want[] = {"nn.conv2d: ", "nn.bias_add: ", NULL};
  expect_kind(small, "bad-attr", want);
}

static void test_unbound(void **state) {
  (void)state;
  const char *const want[] = {"error: unbound variable %undefined_", NULL};
  expect_kind(small, "unbound", want);
  expect_kind(adt, "unbound", want);
}

static void test_wrong_arity(void **state) {
  (void)state;
  const char *const ops[] = {"expects 2 arguments, got 1", "expects 2 arguments, got 3", "expects 1 argument, got 2",
                             "expects 1 argument, got 0", NULL};
  expect_kind(small, "wrong-arity", ops);
  const char *const ctor[] = {"constructor Cons expects 2 arguments, got", NULL};
  expect_kind(adt, "wrong-arity", ctor);
}

static void test_wrong_annotation(void **state) {
  (void)state;
  const char *const want[] = {"type mismatch in a let binding", "type mismatch in the function's result",
                              "nn.conv2d: ", "nn.bias_add: ", NULL};
  expect_kind(small, "wrong-annotation", want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wrong_rank),       cmocka_unit_test(test_wrong_dtype),
      cmocka_unit_test(test_bad_attr),         cmocka_unit_test(test_unbound),
      cmocka_unit_test(test_wrong_arity),      cmocka_unit_test(test_wrong_annotation),
      cmocka_unit_test(test_resnet18),         cmocka_unit_test(test_mobilenet),
      cmocka_unit_test(test_lstm),             cmocka_unit_test(test_mlp),
      cmocka_unit_test(test_kinds_used),       cmocka_unit_test(test_driver_records_the_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
