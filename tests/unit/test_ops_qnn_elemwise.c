/*
 * The quantized elementwise ops (typegen/ops/qnn_elemwise.c) against TVM v0.13.  Shapes from TVM's
 * tests: tests/python/relay/test_op_qnn_add.py, test_op_qnn_mul.py, test_op_qnn_subtract.py
 * ((1, 4) uint8 operands, scalar parameters), test_op_qnn_leaky_relu.py ((1, 4) uint8),
 * test_op_qnn_unary_elementwise.py (int8 / uint8 data, scalar parameters),
 * test_op_qnn_simulated_quantize.py and test_op_qnn_simulated_dequantize.py (float32 data, an
 * int32 dtype code, scale and zero point scalars or `?`-length vectors).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define PARAMS ", float32, int32, float32, int32"

static void test_unary(void **state) {
  (void)state;
  static const char *const ops[] = {"qnn.abs", "qnn.erf",     "qnn.exp",  "qnn.hardswish", "qnn.log",
                                    "qnn.rsqrt", "qnn.sigmoid", "qnn.sqrt", "qnn.tanh"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    assert_infers(ops[i], "Tensor[(1, 4), uint8]" PARAMS, "", "Tensor[(1, 4), uint8]");
    assert_infers(ops[i], "Tensor[(2, ?), int8]" PARAMS, "", "Tensor[(2, ?), int8]");
    assert_rejects(ops[i], "Tensor[(1, 4), int32]" PARAMS, "", "Expected quantized type(int8, uint8) for input but was int32");
    assert_rejects(ops[i], "Tensor[(1, 4), int8], Tensor[(4), float32], int32, float32, int32", "", "(scale) must be a scalar float32");
    assert_rejects(ops[i], "Tensor[(1, 4), int8], float32, int32, float32, int8", "", "(output_zero_point) must be a scalar int32");
    assert_rejects(ops[i], "Tensor[(1, 4), int8]", "", "expects 5 arguments");
  }
  assert_rejects("qnn.exp", "Tensor[(1, 4), int8], float32, int32, (float32,), int32", "",
                 "Only tensor type can be checked for scalar values. But got (float32,)");
}

static void test_leaky_relu_softmax(void **state) {
  (void)state;
  assert_infers("qnn.leaky_relu", "Tensor[(1, 4), uint8]" PARAMS, "alpha=0.9f", "Tensor[(1, 4), uint8]");
  assert_rejects("qnn.leaky_relu", "Tensor[(1, 4), float32]" PARAMS, "",
                 "Expected quantized leaky_relu type(int8, uint8) for input but was float32");
  assert_infers("qnn.softmax", "Tensor[(1, 10), int8]" PARAMS, "axis=1", "Tensor[(1, 10), int8]");
  assert_rejects("qnn.softmax", "Tensor[(1, 10), uint8]" PARAMS, "", "Expected quantized softmax type(int8) for input but was uint8");
  /* defaults: alpha 0.25, axis -1 (the printer leaves them out) */
  const OpDef *lr = op_lookup("qnn.leaky_relu"), *sm = op_lookup("qnn.softmax");
  assert_string_equal(lr->attrs[0].name, "alpha");
  assert_string_equal(lr->attrs[0].def, "0.25f");
  assert_string_equal(sm->attrs[0].def, "-1");
}

#define SCALARS ", float32, int32, float32, int32, float32, int32"

static void test_binary(void **state) {
  (void)state;
  static const char *const ops[] = {"qnn.add", "qnn.mul", "qnn.subtract"};
  for (size_t i = 0; i < 3; i++) {
    assert_infers(ops[i], "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8]" SCALARS, "", "Tensor[(1, 4), uint8]");
    assert_infers(ops[i], "Tensor[(2, 1, 4), int8], Tensor[(3, 1), int8]" SCALARS, "", "Tensor[(2, 3, 4), int8]");
    assert_rejects(ops[i], "Tensor[(1, 4), uint8], Tensor[(1, 4), int8]" SCALARS, "", "data types uint8 and int8 do not match in BroadcastRel");
    assert_rejects(ops[i], "Tensor[(1, 4), uint8], Tensor[(1, 3), uint8]" SCALARS, "", "Incompatible broadcast type");
    assert_rejects(ops[i], "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8]", "", "expects 8 arguments");
  }
  /* per-channel parameters along lhs_axis / rhs_axis (default -1: the last axis) */
  assert_infers("qnn.add", "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8], Tensor[(4), float32], Tensor[(4), int32], float32, int32, float32, int32",
                "", "Tensor[(1, 4), uint8]");
  assert_infers("qnn.mul", "Tensor[(2, 3, 4), int8], Tensor[(4), int8], float32, int32, Tensor[(4), float32], Tensor[(4), int32], float32, int32",
                "rhs_axis=0", "Tensor[(2, 3, 4), int8]");
  assert_infers("qnn.subtract", "Tensor[(2, 3, 4), int8], Tensor[(4), int8], Tensor[(3), float32], int32, float32, int32, float32, int32",
                "lhs_axis=1", "Tensor[(2, 3, 4), int8]");
  assert_rejects("qnn.add", "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8], Tensor[(3), float32], int32, float32, int32, float32, int32",
                 "", "requires a scalar or Tensor[(4), float32]");
  assert_rejects("qnn.add", "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8], Tensor[(4), float32], int32, float32, int32, float32, int32",
                 "lhs_axis=2", "lhs_axis 2 is out of range");
  assert_rejects("qnn.add", "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8]" SCALARS, "rhs_axis=-3", "IndexError: indexing -1 on an array of size 2");
  assert_rejects("qnn.add", "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8], float32, float32, float32, int32, float32, int32",
                 "", "argument 4: Expected type is int32 but received float32");
  assert_rejects("qnn.add", "Tensor[(1, 4), uint8], Tensor[(1, 4), uint8], float32, int32, float32, int32, Tensor[(1), float32], int32",
                 "", "(output_scale) must be a scalar float32");
}

static void test_simulated(void **state) {
  (void)state;
  assert_infers("qnn.simulated_quantize", "Tensor[(2, 5), float32], int32, float32, int32", "", "Tensor[(2, 5), float32]");
  assert_infers("qnn.simulated_quantize", "Tensor[(2, 5), float32], int32, Tensor[(?), float32], Tensor[(?), int32]", "axis=0",
                "Tensor[(2, 5), float32]");
  assert_infers("qnn.simulated_dequantize", "Tensor[(2, 5), float32], int32, float32, int32", "", "Tensor[(2, 5), float32]");
  assert_rejects("qnn.simulated_quantize", "Tensor[(2, 5), float32], (int32,), float32, int32", "", "expects a tensor as argument 2");
  assert_rejects("qnn.simulated_dequantize", "(float32,), int32, float32, int32", "", "expects a tensor as argument 1");
  assert_rejects("qnn.simulated_dequantize", "Tensor[(2, 5), float32], int32, float32", "", "expects 4 arguments");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unary),
      cmocka_unit_test(test_leaky_relu_softmax),
      cmocka_unit_test(test_binary),
      cmocka_unit_test(test_simulated),
  };
  return cmocka_run_group_tests_name("ops_qnn_elemwise", tests, NULL, NULL);
}
