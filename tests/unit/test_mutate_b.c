/* The insert, share and crossover mutators: mutants type-check and differ from their seed, a
   mutator that declines leaves the program as it was, and each finds work on real models. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../mutate/mutate.h"
#include "../../support/xalloc.h"
#include "../../typegen/infer/infer.h"

#define MODELS "../shared/corpus/models/"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s (tests run from the repository root)", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = xmalloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

static char *print(const AstModule *m) {
  AstPrintOptions po = {.strip_types = true, .keep_spans = true};
  return ast_print(m, &po);
}

typedef struct Outcome {
  bool applied;
  char *text;  /* the mutant (applied) */
  char *what;
} Outcome;

static void outcome_free(Outcome *o) {
  free(o->text);
  free(o->what);
}

/* Runs mu once on a fresh load of text and checks the contract: a mutant type-checks and differs
   from the seed; a refusal leaves the program byte-identical. */
static Outcome run(const Mutator *mu, const char *text, uint64_t seed, const MutDonor *donors, size_t ndonors) {
  Program p;
  char msg[1024];
  if (!prog_load(&p, "test", text, false, msg, sizeof msg)) fail_msg("seed program rejected: %s", msg);
  char *before = print(p.m), *full_before = ast_print(p.m, NULL);
  GenPolicy policy;
  gen_policy_default(&policy);
  Rng rng = rng_seed(seed, 7);
  StrBuf what;
  sb_init(&what);
  MutContext c = {p.m, p.types, &rng, &policy, NULL, 3, donors, ndonors, "seed.relay", 0, &what, {0}, NULL};
  Outcome o = {mu->apply(&c), NULL, NULL};
  if (o.applied) {
    o.text = print(p.m);
    o.what = what.data ? what.data : xstrdup("");
    if (!strcmp(o.text, before)) fail_msg("%s (seed %llu) returned true but changed nothing", mu->name, (unsigned long long)seed);
    Program q;
    if (!prog_load(&q, "test", o.text, false, msg, sizeof msg))
      fail_msg("%s (seed %llu, %s) made an ill-typed program:\n%s\n%.4000s", mu->name, (unsigned long long)seed, o.what, msg,
               o.text);
    prog_free(&q);
  } else {
    char *after = ast_print(p.m, NULL);
    if (strcmp(after, full_before)) fail_msg("%s (seed %llu) returned false but changed the program", mu->name, (unsigned long long)seed);
    free(after);
    free(what.data);
  }
  free(before);
  free(full_before);
  prog_free(&p);
  return o;
}

static const char *const small_programs[] = {
    "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {\n"
    "  %0 = add(%x, %y);\n  %1 = nn.relu(%0);\n  multiply(%1, %0)\n}\n",
    "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4), int32]) {\n  let %a = add(%x, %x);\n  let %b = (%a, %x);\n"
    "  subtract(%b.0, %b.1)\n}\n",
    "#[version = \"0.0.5\"]\ndef @f(%p: Tensor[(1, 8), float32]) -> Tensor[(1, 8), float32] {\n  tanh(%p)\n}\n\n"
    "def @main(%x: Tensor[(1, 8), float32]) {\n  %0 = @f(%x);\n  %1 = fn (%q: Tensor[(1, 8), float32]) {\n"
    "    sigmoid(%q)\n  };\n  %2 = %1(%0);\n  if (True) {\n    %2\n  } else {\n    %0\n  }\n}\n",
    "#[version = \"0.0.5\"]\ndef @main(%x: float32) {\n  %x\n}\n",
};
#define NSMALL (sizeof small_programs / sizeof *small_programs)

/* Runs mu on every small program over `seeds` seeds; returns how many applied. */
static unsigned run_small(const Mutator *mu, unsigned seeds) {
  unsigned applied = 0;
  for (size_t i = 0; i < NSMALL; i++)
    for (uint64_t s = 0; s < seeds; s++) {
      Outcome o = run(mu, small_programs[i], s, NULL, 0);
      applied += o.applied;
      outcome_free(&o);
    }
  return applied;
}

static void test_insert_small(void **state) {
  (void)state;
  assert_true(run_small(mut_find("insert"), 40) >= NSMALL * 40 / 2);
}

static void test_share_small(void **state) {
  (void)state;
  assert_true(run_small(mut_find("share"), 40) > 0);
  /* nothing to share in `%x`: the program stays as it was (run checks it) */
  Outcome o = run(mut_find("share"), small_programs[NSMALL - 1], 1, NULL, 0);
  assert_false(o.applied);
  outcome_free(&o);
}

/* Values TVM writes no type for (an `if`, whose type is its branches'): without operator calls
   they are the only places to change.  The second program's branch shadows %x with another type,
   so a site typed from the wrong %x would make an ill-typed mutant (run fails on it). */
static const char *const branch_programs[] = {
    "#[version = \"0.0.5\"]\ndef @main(%c: bool, %x: Tensor[(2), float32]) {\n"
    "  if (%c) {\n    let %y = %x;\n    if (%c) { %y } else { %x }\n  } else {\n    %x\n  }\n}\n",
    "#[version = \"0.0.5\"]\ndef @main(%c: bool, %x: Tensor[(2), float32]) {\n"
    "  %0 = if (%c) { let %x = (%x, %x); %x } else { (%x, %x) };\n  %0.0\n}\n",
};

static void test_branches_are_values(void **state) {
  (void)state;
  const char *names[] = {"regenerate", "insert", "share"};
  for (size_t m = 0; m < 3; m++)
    for (size_t i = 0; i < 2; i++) {
      unsigned applied = 0;
      for (uint64_t seed = 0; seed < 20; seed++) {
        Outcome o = run(mut_find(names[m]), branch_programs[i], seed, NULL, 0);
        applied += o.applied;
        outcome_free(&o);
      }
      if (applied < (m == 2 && i == 1 ? 1u : 20u))
        fail_msg("%s changed branch program %zu in %u of 20 seeds", names[m], i, applied);
    }
}

/* Whether dyn.reshape's shape in text is a variable bound to a shape_of call, directly or through
   aliases (share makes a twin of a binding: a copy of its value or `let %md0 = %0;`). */
static bool shape_is_read(const char *text) {
  const char *at = strstr(text, "dyn.reshape(%y, %");
  if (!at) return false;
  char name[40];
  size_t n = strcspn(at + 17, ",)");
  if (n == 0 || n >= 30) return false;
  snprintf(name, sizeof name, "%.*s", (int)n, at + 17);
  for (int hop = 0; hop < 8; hop++) {
    char bound[64];
    snprintf(bound, sizeof bound, "%%%s = ", name);
    const char *b = strstr(text, bound);
    if (!b) return false;
    b += strlen(bound);
    if (!strncmp(b, "shape_of(", 9)) return true;
    if (*b != '%') return false;
    n = strcspn(b + 1, ";");
    if (n == 0 || n >= 30) return false;
    snprintf(name, sizeof name, "%.*s", (int)n, b + 1);
  }
  return false;
}

/* A dyn.* op's sizes come from its operands' values, which the generator's detour reads off a
   value with shape_of: no mutator may put another value there (a shape made up from data, which
   TVM refuses at run time for most inputs).  Every other value stays a site, and every mutator
   keeps the read. */
static void test_read_shapes_stay(void **state) {
  (void)state;
  const char *text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2, 3), float32], %y: Tensor[(6), float32]) {\n"
                       "  %0 = shape_of(%x, dtype=\"int64\");\n  %1 = dyn.reshape(%y, %0, newshape=[]);\n"
                       "  %2 = negative(%x);\n  add(%1, %2)\n}\n";
  Program p;
  char msg[1024];
  if (!prog_load(&p, "test", text, false, msg, sizeof msg)) fail_msg("%s", msg);
  MutSites sites = {0};
  mut_sites(p.m, &sites);
  size_t calls = 0;
  for (size_t i = 0; i < sites.len; i++) {
    const AstExpr *e = *sites.items[i].slot;
    if (prog_calls_op(e, "shape_of")) fail_msg("the shape_of call is a mutation site");
    calls += e->kind == AST_CALL;
    if (e->kind == AST_GRAPH && !strcmp(e->text, "0")) fail_msg("the use of %%0, dyn.reshape's shape, is a site");
  }
  assert_int_equal(calls, 3); /* dyn.reshape, negative, add */
  free(sites.items);
  prog_free(&p);
  const char *names[] = {"regenerate", "insert", "share", "opswap"};
  for (size_t m = 0; m < 4; m++)
    for (uint64_t seed = 0; seed < 30; seed++) {
      Outcome o = run(mut_find(names[m]), text, seed, NULL, 0);
      if (o.applied && !strstr(o.text, "shape_of(%x, dtype=\"int64\")"))
        fail_msg("%s (seed %llu) changed the shape read:\n%s", names[m], (unsigned long long)seed, o.text);
      if (o.applied && !shape_is_read(o.text))
        fail_msg("%s (seed %llu) changed dyn.reshape's shape:\n%s", names[m], (unsigned long long)seed, o.text);
      outcome_free(&o);
    }
}

static void test_insert_resnet(void **state) {
  (void)state;
  char *text = slurp(MODELS "resnet-18.relay");
  const char *forms[] = {"let", "if", "tuple", "closure", "identity", "reshape-pair", "transpose-pair", "expand-squeeze",
                         "cast-pair"};
  bool seen[9] = {0};
  unsigned applied = 0;
  for (uint64_t s = 0; s < 200; s++) {
    Outcome o = run(mut_find("insert"), text, s, NULL, 0);
    if (o.applied) {
      applied++;
      assert_true(!strncmp(o.what, "insert ", 7));
      for (size_t f = 0; f < 9; f++) {
        size_t n = strlen(forms[f]);
        if (!strncmp(o.what + 7, forms[f], n) && o.what[7 + n] == ' ') seen[f] = true;
      }
    }
    outcome_free(&o);
  }
  unsigned nforms = 0;
  for (size_t f = 0; f < 9; f++) nforms += seen[f];
  assert_int_equal(applied, 200);
  assert_true(nforms >= 4);
  free(text);
}

static void test_share_resnet(void **state) {
  (void)state;
  char *text = slurp(MODELS "resnet-18.relay");
  unsigned applied = 0, replaced = 0, duplicated = 0;
  for (uint64_t s = 0; s < 200; s++) {
    Outcome o = run(mut_find("share"), text, s, NULL, 0);
    if (o.applied) {
      applied++;
      replaced += strstr(o.what, "for the expression") != NULL;
      duplicated += strstr(o.what, " as %") != NULL;
    }
    outcome_free(&o);
  }
  assert_int_equal(applied, 200);
  if (!replaced || !duplicated) fail_msg("replaced %u, duplicated %u", replaced, duplicated);
  free(text);
}

static void test_crossover_needs_donors(void **state) {
  (void)state;
  for (uint64_t s = 0; s < 10; s++) {
    Outcome o = run(mut_find("crossover"), small_programs[0], s, NULL, 0);
    assert_false(o.applied);
    outcome_free(&o);
  }
}

/* A donor whose operators the seed lacks: whatever moves over shows up by name. */
static void test_crossover_small_donor(void **state) {
  (void)state;
  Program donor;
  const char *text = "#[version = \"0.0.5\"]\ndef @main(%a: Tensor[(2, 3), float32]) {\n  %0 = sigmoid(%a);\n  tanh(%0)\n}\n";
  assert_true(prog_load(&donor, "test", text, false, NULL, 0));
  MutDonor d = {donor, "dir/donor.relay"};
  unsigned applied = 0;
  for (uint64_t s = 0; s < 40; s++) {
    Outcome o = run(mut_find("crossover"), small_programs[0], s, &d, 1);
    if (o.applied) {
      applied++;
      assert_true(!strncmp(o.what, "crossover from donor.relay ", 27));
      assert_true(strstr(o.text, "sigmoid(") || strstr(o.text, "tanh("));
    }
    outcome_free(&o);
  }
  assert_true(applied >= 20);
  prog_free(&donor);
}

static void test_crossover_mobilenet_into_resnet(void **state) {
  (void)state;
  char *seed = slurp(MODELS "resnet-18.relay"), *dtext = slurp(MODELS "mobilenet.relay");
  Program donor;
  assert_true(prog_load(&donor, "test", dtext, false, NULL, 0));
  MutDonor d = {donor, MODELS "mobilenet.relay"};
  assert_null(strstr(seed, "groups="));
  unsigned applied = 0, depthwise = 0;
  for (uint64_t s = 0; s < 100; s++) {
    Outcome o = run(mut_find("crossover"), seed, s, &d, 1);
    if (o.applied) {
      applied++;
      assert_true(!strncmp(o.what, "crossover from mobilenet.relay ", 31));
      depthwise += strstr(o.text, "groups=") != NULL; /* mobilenet's depthwise convolutions */
    }
    outcome_free(&o);
  }
  if (applied < 50 || depthwise == 0) fail_msg("applied %u, depthwise %u", applied, depthwise);
  prog_free(&donor);
  free(seed);
  free(dtext);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_insert_small),
      cmocka_unit_test(test_share_small),
      cmocka_unit_test(test_branches_are_values),
      cmocka_unit_test(test_read_shapes_stay),
      cmocka_unit_test(test_insert_resnet),
      cmocka_unit_test(test_share_resnet),
      cmocka_unit_test(test_crossover_needs_donors),
      cmocka_unit_test(test_crossover_small_donor),
      cmocka_unit_test(test_crossover_mobilenet_into_resnet),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
