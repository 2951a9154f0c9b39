/*
 * The driver's contract, pinned on every pass (reduce.h, RedPass.apply): a pass builds its
 * candidate in the driver's clone of the program, so proposing (or refusing) never changes the
 * current program, and what it proposes is text that parses.  Checked for every opportunity of
 * every pass on corpus programs that exercise closures, ADTs, tuples, metadata, fused functions
 * and a real model, and on programs that do not type-check (reduced under a weaker guard, with
 * only some types known); rt_propose aborts on a violation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../support/fileio.h"
#include "reduce_test.h"

enum { MAX_PER_PASS = 120 }; /* opportunities per pass and program, spread over the range */

static const char *const programs[] = {
    "models/mlp.relay",
    "models/resnet-18.fused.relay",
    "features/closures.relay",
    "features/adt_list_match.relay",
    "features/tuples.relay",
    "features/constants_metadata.relay",
    "features/if_else.relay",
    "features/let_manual.relay",
    "features/fused_primitive_functions.relay",
    "features/user_adt_tree.relay",
};

/* Reads and types corpus program `name` into *p; returns its text (free it after p). */
static char *load_program(const char *name, Program *p) {
  char path[512];
  snprintf(path, sizeof path, "../shared/corpus/%s", name);
  size_t len;
  char *text = file_read(path, &len);
  if (!text) fail_msg("cannot read %s (keep ../shared beside the project)", path);
  char err[2048];
  if (!prog_load(p, path, text, true, err, sizeof err)) fail_msg("%s", err);
  return text;
}

/* Every opportunity of every pass on p: the contract holds (rt_propose aborts otherwise). */
static void propose_all(const Program *p, size_t *proposals, size_t *refusals, size_t *rejected) {
  for (size_t pi = 0; pi < RED_NPASSES; pi++) {
    const RedPass *pass = red_passes[pi];
    if (!pass->count) continue; /* a pipeline pass: the program is not its to change */
    size_t n = pass->count(p);
    for (size_t s = 0; s < n && s < MAX_PER_PASS; s++) {
      size_t i = n <= MAX_PER_PASS ? s : s * n / MAX_PER_PASS;
      char *raw = red_propose(p, pass, i);
      char *checked = rt_propose(pass, p, i); /* aborts if the contract is broken */
      *proposals += raw != NULL;
      *refusals += raw == NULL;
      *rejected += raw && !checked;
      free(raw);
      free(checked);
    }
  }
}

static void test_every_pass_leaves_the_program_alone(void **state) {
  (void)state;
  size_t proposals = 0, refusals = 0, ill_typed = 0;
  for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
    Program p;
    char *text = load_program(programs[k], &p);
    propose_all(&p, &proposals, &refusals, &ill_typed);
    prog_free(&p);
    free(text);
  }
  print_message("%zu proposals (%zu refused by the type checker), %zu opportunities declined\n", proposals, ill_typed,
                refusals);
  assert_true(proposals > 100); /* the programs above give every kind of pass work */
}

/* Programs that do not type-check: a shape that breaks nn.dense (types known up to the error, none
   after it), an unbound name (only "it parses" holds), and a mistyped closure. */
static void test_untyped_programs(void **state) {
  (void)state;
  size_t len;
  char *mlp = file_read("../shared/corpus/models/mlp.relay", &len);
  if (!mlp) fail_msg("cannot read mlp.relay (keep ../shared beside the project)");
  char *wide = strstr(mlp, "Tensor[(1, 1, 28, 28)");
  assert_non_null(wide);
  wide[11] = '3'; /* %data: Tensor[(1, 3, 28, 28), ...]: 2352 features for a 784-wide weight */
  const char *const texts[] = {
      mlp,
      RT_V "def @main(%x: Tensor[(4, 4), float32], %w: Tensor[(4, 4), float32]) {\n  %0 = nn.relu(%x);\n"
           "  %1 = tanh(%0);\n  %2 = nn.dense(%1, %w);\n  add(%2, %nowhere)\n}\n",
      RT_V "def @main(%x: Tensor[(2, 3), float32]) {\n  let %f = fn (%y: Tensor[(3, 2), float32]) { nn.relu(%y) };\n"
           "  let %z = sigmoid(%x);\n  %f(%z)\n}\n",
  };
  const ProgGuard want[] = {PROG_SCOPED, PROG_PARSED, PROG_SCOPED};
  size_t proposals = 0, refusals = 0, rejected = 0;
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
    Program p;
    char err[2048];
    assert_false(prog_load(&p, "test", texts[k], true, NULL, 0));
    if (!prog_load_as(&p, "test", texts[k], PROG_PARSED, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(p.guard, want[k]);
    propose_all(&p, &proposals, &refusals, &rejected);
    prog_free(&p);
  }
  free(mlp);
  print_message("untyped: %zu proposals, %zu opportunities declined\n", proposals, refusals);
  assert_true(proposals > 20);
}

/* RED_CHUNKS passes: every chunk (all, halves, quarters, ... as the driver makes them) leaves the
   program alone and parses; a pass's apply_range gives exactly the program its opportunities
   applied one by one would. */
static void test_chunks(void **state) {
  (void)state;
  size_t chunks = 0, ranged = 0;
  for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
    Program p;
    char *text = load_program(programs[k], &p);
    for (size_t pi = 0; pi < RED_NPASSES; pi++) {
      const RedPass *pass = red_passes[pi];
      if (!pass->count) continue; /* a pipeline pass */
      size_t n = pass->count(&p);
      if (pass->search != RED_CHUNKS || n < 2) continue;
      for (size_t size = n;; size = (size + 1) / 2) {
        for (size_t lo = 0; lo < n; lo += size) {
          size_t hi = lo + size < n ? lo + size : n;
          bool proposed = rt_check_chunk(pass, &p, lo, hi, true); /* aborts on a violation */
          chunks++;
          ranged += proposed && pass->apply_range && hi - lo > 1;
        }
        if (size == 1) break;
      }
    }
    prog_free(&p);
    free(text);
  }
  print_message("%zu chunks, %zu compared with one by one\n", chunks, ranged);
  assert_true(ranged > 10);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_pass_leaves_the_program_alone),
                                     cmocka_unit_test(test_untyped_programs), cmocka_unit_test(test_chunks)};
  return cmocka_run_group_tests_name("reduce contract", tests, NULL, NULL);
}
