/*
 * The driver's contract, pinned on every pass (reduce.h, RedPass.apply): a pass builds its
 * candidate in the driver's clone of the program, so proposing (or refusing) never changes the
 * current program, and what it proposes is text that parses.  Checked for every opportunity of
 * every pass on corpus programs that exercise closures, ADTs, tuples, metadata, fused functions
 * and a real model; rt_propose aborts on a violation.
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

static void test_every_pass_leaves_the_program_alone(void **state) {
  (void)state;
  size_t proposals = 0, refusals = 0, ill_typed = 0;
  for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
    char path[512];
    snprintf(path, sizeof path, "../shared/corpus/%s", programs[k]);
    size_t len;
    char *text = file_read(path, &len);
    if (!text) fail_msg("cannot read %s (keep ../shared beside the project)", path);
    Program p;
    char err[2048];
    if (!prog_load(&p, path, text, true, err, sizeof err)) fail_msg("%s", err);
    for (size_t pi = 0; pi < RED_NPASSES; pi++) {
      const RedPass *pass = red_passes[pi];
      size_t n = pass->count(&p);
      for (size_t s = 0; s < n && s < MAX_PER_PASS; s++) {
        size_t i = n <= MAX_PER_PASS ? s : s * n / MAX_PER_PASS;
        char *raw = red_propose(&p, pass, i);
        char *typed = rt_propose(pass, &p, i); /* aborts if the contract is broken */
        proposals += raw != NULL;
        refusals += raw == NULL;
        ill_typed += raw && !typed;
        free(raw);
        free(typed);
      }
    }
    prog_free(&p);
    free(text);
  }
  print_message("%zu proposals (%zu refused by the type checker), %zu opportunities declined\n", proposals, ill_typed,
                refusals);
  assert_true(proposals > 100); /* the programs above give every kind of pass work */
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_pass_leaves_the_program_alone)};
  return cmocka_run_group_tests_name("reduce contract", tests, NULL, NULL);
}
