/* Elementwise relations against TVM's results (types printed in ../shared/corpus). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

static void test_unary_keeps_type(void **state) {
  (void)state;
  assert_infers("nn.relu", "Tensor[(1, 64, 56, 56), float32]", "", "Tensor[(1, 64, 56, 56), float32]");
  assert_infers("sigmoid", "float16", "", "float16");
  assert_rejects("tanh", "(float32,)", "", "expects a tensor");
}

static void test_broadcasting(void **state) {
  (void)state;
  assert_infers("add", "Tensor[(1, 64, 56, 56), float32], Tensor[(64, 1, 1), float32]", "", "Tensor[(1, 64, 56, 56), float32]");
  assert_infers("multiply", "Tensor[(4, 1), float32], Tensor[(3), float32]", "", "Tensor[(4, 3), float32]");
  assert_infers("subtract", "Tensor[(?, 3), float32], Tensor[(5, 1), float32]", "", "Tensor[(5, 3), float32]");
  assert_infers("add", "int32, int32", "", "int32");
  assert_rejects("add", "Tensor[(2, 3), float32], Tensor[(4), float32]", "", "Incompatible broadcast type Tensor[(2, 3), float32] and Tensor[(4), float32]");
  assert_rejects("add", "Tensor[(2), float32], Tensor[(2), int32]", "", "data types float32 and int32");
  assert_rejects("add", "Tensor[(2), float32]", "", "expects 2 arguments");
}

static void test_comparisons_give_bool(void **state) {
  (void)state;
  assert_infers("equal", "int32, int32", "", "bool");
  assert_infers("greater", "Tensor[(2, 1), float32], Tensor[(3), float32]", "", "Tensor[(2, 3), bool]");
}

static void test_attributes(void **state) {
  (void)state;
  assert_infers("cast", "Tensor[(1, 56, 56, 128), int32]", "dtype=\"uint8\"", "Tensor[(1, 56, 56, 128), uint8]");
  assert_infers("clip", "Tensor[(3), float32]", "a_min=0f, a_max=6f", "Tensor[(3), float32]");
  assert_infers("nn.leaky_relu", "Tensor[(3), float32]", "alpha=0.1f", "Tensor[(3), float32]");
  assert_rejects("cast", "Tensor[(3), float32]", "dtype=3", "must be a dtype string");
  assert_rejects("clip", "Tensor[(3), float32]", "a_mn=0f", "has no attribute 'a_mn'");
  assert_infers("cast_like", "Tensor[(3), float32], Tensor[(1), int8]", "", "Tensor[(3), int8]");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unary_keeps_type),
      cmocka_unit_test(test_broadcasting),
      cmocka_unit_test(test_comparisons_give_bool),
      cmocka_unit_test(test_attributes),
  };
  return cmocka_run_group_tests_name("ops_elemwise", tests, NULL, NULL);
}
