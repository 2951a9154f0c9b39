/* The reduction passes: what each proposes on small programs, and that it is well-typed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "reduce_test.h"

static const char chain[] = RT_V
    "def @main(%x: Tensor[(2, 3), float32]) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = exp(%0);\n"
    "  negative(%1)\n"
    "}\n";

static void test_truncate_makes_a_binding_the_result(void **state) {
  (void)state;
  assert_int_equal(rt_count(&red_pass_truncate, chain), 2);
  char *c = rt_apply(&red_pass_truncate, chain, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "nn.relu(%x)"));
  assert_null(strstr(c, "exp("));
  free(c);
}

static void test_cut_turns_a_value_into_a_parameter(void **state) {
  (void)state;
  char *c = rt_apply(&red_pass_cut, chain, 0); /* the last binding first */
  assert_non_null(c);
  assert_non_null(strstr(c, "%cut0: Tensor[(2, 3), float32]"));
  assert_non_null(strstr(c, "negative(%cut0)"));
  free(c);
}

static void test_dce_deletes_unused_bindings_and_parameters(void **state) {
  (void)state;
  const char *p = RT_V
      "def @unused(%a: int32) { %a }\n"
      "def @main(%x: Tensor[(2), float32], %y: float32) {\n"
      "  %0 = exp(%x);\n"
      "  negative(%x)\n"
      "}\n";
  char *c = rt_apply(&red_pass_dce, p, 0);
  assert_non_null(c);
  assert_null(strstr(c, "exp("));
  assert_null(strstr(c, "@unused"));
  assert_null(strstr(c, "%y"));
  free(c);
  /* nothing left to delete: no proposal */
  const char *clean = RT_V "def @main(%x: float32) { negative(%x) }\n";
  assert_null(rt_apply(&red_pass_dce, clean, 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_truncate_makes_a_binding_the_result),
      cmocka_unit_test(test_cut_turns_a_value_into_a_parameter),
      cmocka_unit_test(test_dce_deletes_unused_bindings_and_parameters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
