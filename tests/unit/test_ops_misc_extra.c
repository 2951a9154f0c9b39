/*
 * ndarray_size, reinterpret, the layout transforms and fixed_point_multiply_per_axis
 * (typegen/ops/misc_extra.c) against TVM v0.13: tests/python/relay/test_op_level10.py
 * (test_ndarray_size: (2, 3, 5) -> a scalar), test_any.py (verify_any_ndarray_size, dtype int32),
 * test_op_level3.py (test_reinterpret: (1000, 4) float32 -> int32); the auto-scheduler layout
 * example from include/tvm/relay/attrs/transform.h ("1N2C112H112W16c").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

static void test_ndarray_size(void **state) {
  (void)state;
  assert_infers("ndarray_size", "Tensor[(2, 3, 5), float32]", "dtype=\"int32\"", "int32");
  assert_infers("ndarray_size", "Tensor[(?, 2), float32]", "dtype=\"int64\"", "int64");
  assert_rejects("ndarray_size", "(float32,)", "dtype=\"int32\"", "expects a tensor");
  assert_string_equal(op_lookup("ndarray_size")->attrs[0].def, "\"\"");
}

static void test_reinterpret(void **state) {
  (void)state;
  assert_infers("reinterpret", "Tensor[(1000, 4), float32]", "dtype=\"int32\"", "Tensor[(1000, 4), int32]");
  assert_rejects("reinterpret", "(Tensor[(4), float32],)", "dtype=\"int32\"", "cast: expect input type to be TensorType but get");
}

#define AST "auto_scheduler_layout_transform"

static void test_auto_scheduler_layout_transform(void **state) {
  (void)state;
  assert_infers(AST, "Tensor[(1, 32, 112, 112), float32]", "src_layout=\"1N32C112H112W\", dst_layout=\"1N2C112H112W16c\"",
                "Tensor[(1, 2, 112, 112, 16), float32]");
  /* a trailing number is not a dimension */
  assert_infers(AST, "Tensor[(4, 4), int8]", "src_layout=\"4A4B\", dst_layout=\"16A7\"", "Tensor[(16), int8]");
  assert_rejects(AST, "Tensor[(4, 4), int8]", "src_layout=\"4A4B\", dst_layout=\"4A-4B\"", "Invalid layout 4A-4B");
  assert_rejects(AST, "Tensor[(4, 4), int8]", "src_layout=\"4A4B\"", "Cannot find required field 'dst_layout'");
}

static void test_meta_schedule_layout_transform(void **state) {
  (void)state;
  assert_rejects("meta_schedule_layout_transform", "Tensor[(4, 4), float32]", "index_map=meta[IndexMap][0]",
                 "cannot be evaluated here");
}

#define FPM "fixed_point_multiply_per_axis"

static void test_fixed_point_multiply_per_axis(void **state) {
  (void)state;
  assert_infers(FPM, "Tensor[(1, 8, 4, 4), int32], Tensor[(8), int32], Tensor[(8), int32], Tensor[(8), int32]",
                "is_lshift_required=True, axes=[1]", "Tensor[(1, 8, 4, 4), int32]");
  assert_rejects(FPM, "Tensor[(1, 8), int32], Tensor[(8), int32], (int32,), Tensor[(8), int32]", "axes=[1]",
                 "FixedPointMultiplyPerAxis: expect input type to be TensorType but get (int32,)");
  assert_rejects(FPM, "Tensor[(1, 8), int32]", "axes=[1]", "expects 4 arguments");
  const OpDef *op = op_lookup(FPM);
  assert_string_equal(op->attrs[0].def, "False");
  assert_string_equal(op->attrs[2].name, "axes");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ndarray_size),
      cmocka_unit_test(test_reinterpret),
      cmocka_unit_test(test_auto_scheduler_layout_transform),
      cmocka_unit_test(test_meta_schedule_layout_transform),
      cmocka_unit_test(test_fixed_point_multiply_per_axis),
  };
  return cmocka_run_group_tests_name("ops_misc_extra", tests, NULL, NULL);
}
