/*
 * The quantized nn ops (typegen/ops/qnn.c) against TVM v0.13.  Shapes from TVM's tests:
 * tests/python/relay/test_op_qnn_dense.py ((2, 10) x (3, 10) -> (2, 3), units=3, int8, int32),
 * test_op_qnn_batch_matmul.py ((b, 4, 5) x (b, 3, 5) -> (b, 4, 3)), test_op_qnn_conv2_transpose.py
 * ((2, 1, 2, 4) x (1, 3, 2, 2) IOHW, kernel 2x2 -> (2, 3, 3, 5)), test_op_qnn_concatenate.py
 * ((1, 64) and (1, 64), axis 0 -> (2, 64)); the avg_pool2d shape follows Pool2DRel's arithmetic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define DENSE_ARGS(data, weight, kscale) data ", " weight ", int32, int32, float32, " kscale

static void test_dense(void **state) {
  (void)state;
  assert_infers("qnn.dense", DENSE_ARGS("Tensor[(2, 10), int8]", "Tensor[(3, 10), int8]", "float32"),
                "units=3, out_dtype=\"int32\"", "Tensor[(2, 3), int32]");
  /* per-channel kernel scale of `units` elements (test_op_qnn_dense.py's per-channel case) */
  assert_infers("qnn.dense", DENSE_ARGS("Tensor[(2, 10), uint8]", "Tensor[(3, 10), int8]", "Tensor[(3), float32]"),
                "units=3, out_dtype=\"int32\"", "Tensor[(2, 3), int32]");
  assert_infers("qnn.dense", DENSE_ARGS("Tensor[(2, 10), int16]", "Tensor[(3, 10), uint8]", "float32"),
                "units=None, out_dtype=\"int64\"", "Tensor[(2, 3), int64]");
  /* the kernel zero point is not checked */
  assert_infers("qnn.dense", "Tensor[(2, 10), int8], Tensor[(3, 10), int8], int32, Tensor[(3), float32], float32, float32",
                "units=3, out_dtype=\"int32\"", "Tensor[(2, 3), int32]");
  assert_rejects("qnn.dense", DENSE_ARGS("Tensor[(2, 10), float32]", "Tensor[(3, 10), int8]", "float32"),
                 "units=3, out_dtype=\"int32\"", "Expected quantized dense type(int8, uint8, int16, uint16) for input but was float32");
  assert_rejects("qnn.dense", DENSE_ARGS("Tensor[(2, 10), int8]", "Tensor[(3, 10), int16]", "float32"),
                 "units=3, out_dtype=\"int32\"", "Expected quantized dense type(int8, uint8) for weight but was int16");
  /* out_dtype defaults to void, which fails the output check */
  assert_rejects("qnn.dense", DENSE_ARGS("Tensor[(2, 10), int8]", "Tensor[(3, 10), int8]", "float32"), "units=3",
                 "Expected quantized dense type(int32, int64) for output but was void");
  assert_rejects("qnn.dense", "Tensor[(2, 10), int8], Tensor[(3, 10), int8], Tensor[(1), int32], int32, float32, float32",
                 "units=3, out_dtype=\"int32\"", "input_zero_point");
  assert_rejects("qnn.dense", DENSE_ARGS("Tensor[(2, 10), int8]", "Tensor[(3, 10), int8]", "Tensor[(4), float32]"),
                 "units=3, out_dtype=\"int32\"", "requires a scalar or Tensor[(3), float32]");
  assert_rejects("qnn.dense", DENSE_ARGS("Tensor[(2, 10), int8]", "Tensor[(3, 10), int8]", "Tensor[(3), float32]"),
                 "out_dtype=\"int32\"", "needs the units attribute");
  assert_rejects("qnn.dense", DENSE_ARGS("Tensor[(2, 10), int8]", "Tensor[(3, 10), int8]", "float32"),
                 "units=4, out_dtype=\"int32\"", "qnn.dense: argument 2 has type Tensor[(3, 10), int8]");
  assert_rejects("qnn.dense", "Tensor[(2, 10), int8], Tensor[(3, 10), int8]", "", "expects 6 arguments");
}

static void test_dense_pack(void **state) {
  (void)state;
  /* (M, K) data, (N / n, K, n, ...) packed weight: N = w[0] * w[2] */
  assert_infers("qnn.contrib_dense_pack", "Tensor[(2, 16), uint8], Tensor[(2, 4, 8, 4), int8], int32, int32, float32, float32",
                "units=None, out_dtype=\"int32\", weight_layout=\"NC8n4c\"", "Tensor[(2, 16), int32]");
  assert_rejects("qnn.contrib_dense_pack", "Tensor[(1, 2, 16), uint8], Tensor[(2, 4, 8, 4), int8], int32, int32, float32, float32",
                 "out_dtype=\"int32\"", "Only 2D data is supported");
  assert_rejects("qnn.contrib_dense_pack", "Tensor[(2, 16), uint8], Tensor[(16, 16), int8], int32, int32, float32, float32",
                 "out_dtype=\"int32\"", "Expect weight to be 4D tensor");
  assert_rejects("qnn.contrib_dense_pack", "Tensor[(2, 16), uint8], Tensor[(2, 4, 8, 4), int8], int32, int32, float32, float32",
                 "", "Output dtype bits should be greater than 0.");
}

#define BMM_ARGS(x, y) x ", " y ", int32, int32, float32, float32"

static void test_batch_matmul(void **state) {
  (void)state;
  assert_infers("qnn.batch_matmul", BMM_ARGS("Tensor[(1, 4, 5), int8]", "Tensor[(1, 3, 5), int8]"),
                "out_dtype=\"int32\", transpose_b=True", "Tensor[(1, 4, 3), int32]");
  assert_infers("qnn.batch_matmul", BMM_ARGS("Tensor[(2, 4, 5), uint8]", "Tensor[(2, 5, 3), int8]"),
                "out_dtype=\"int32\"", "Tensor[(2, 4, 3), int32]");
  assert_rejects("qnn.batch_matmul", BMM_ARGS("Tensor[(1, 4, 5), int8]", "Tensor[(1, 3, 5), int8]"), "transpose_b=True",
                 "Expected quantized batch_matmul type(int32) for output but was void");
  assert_rejects("qnn.batch_matmul", BMM_ARGS("Tensor[(1, 4, 5), int16]", "Tensor[(1, 3, 5), int8]"),
                 "out_dtype=\"int32\", transpose_b=True", "batch_matmul type(int8, uint8) for input but was int16");
  assert_rejects("qnn.batch_matmul", "Tensor[(1, 4, 5), int8], Tensor[(1, 3, 5), int8], int32, int32, float32, Tensor[(3), float32]",
                 "out_dtype=\"int32\", transpose_b=True", "y_scale");
  assert_rejects("qnn.batch_matmul", BMM_ARGS("Tensor[(1, 4, 5), int8]", "Tensor[(1, 3, 6), int8]"),
                 "out_dtype=\"int32\", transpose_b=True", "qnn.batch_matmul: BatchDot: shapes of x and y is inconsistent");
}

#define CONVT_ARGS(kzp, kscale) "Tensor[(2, 1, 2, 4), uint8], Tensor[(1, 3, 2, 2), int8], int32, " kzp ", float32, " kscale
#define CONVT_ATTRS "channels=3, kernel_size=[2, 2], out_dtype=\"int32\""

static void test_conv2d_transpose(void **state) {
  (void)state;
  assert_infers("qnn.conv2d_transpose", CONVT_ARGS("int32", "float32"), CONVT_ATTRS, "Tensor[(2, 3, 3, 5), int32]");
  /* per-channel kernel scale along O (IOHW: dimension 1); a vector kernel zero point; one-element
     input parameters */
  assert_infers("qnn.conv2d_transpose", CONVT_ARGS("Tensor[(3), int32]", "Tensor[(3), float32]"), CONVT_ATTRS,
                "Tensor[(2, 3, 3, 5), int32]");
  assert_infers("qnn.conv2d_transpose",
                "Tensor[(2, 1, 2, 4), uint8], Tensor[(1, 3, 2, 2), int8], Tensor[(1), int32], int32, Tensor[(1), float32], float32",
                CONVT_ATTRS, "Tensor[(2, 3, 3, 5), int32]");
  assert_rejects("qnn.conv2d_transpose", CONVT_ARGS("int32", "Tensor[(1), float32]"), CONVT_ATTRS,
                 "requires a scalar or Tensor[(3), float32]");
  assert_rejects("qnn.conv2d_transpose",
                 "Tensor[(2, 1, 2, 4), int32], Tensor[(1, 3, 2, 2), int8], int32, int32, float32, float32", CONVT_ATTRS,
                 "Expected qnn conv2d type(int8, uint8, int16) for input but was int32");
  assert_rejects("qnn.conv2d_transpose", CONVT_ARGS("int8", "float32"), CONVT_ATTRS, "weight_zp_type->dtype == DataType::Int(32)");
  assert_rejects("qnn.conv2d_transpose",
                 "Tensor[(2, 1, 2, 4), uint8], Tensor[(1, 3, 2, 2), int8], Tensor[(2), int32], int32, float32, float32",
                 CONVT_ATTRS, "Zero point or scale should be scalar or a vector with one element.");
  assert_rejects("qnn.conv2d_transpose", CONVT_ARGS("int32", "float32"), "channels=3, kernel_size=[2, 2], out_dtype=\"int8\"",
                 "Expected qnn conv2d type(int16, int32, int64) for output but was int8");
  assert_rejects("qnn.conv2d_transpose", CONVT_ARGS("int32", "float32"),
                 "channels=3, kernel_size=[2, 2], out_dtype=\"int32\", kernel_layout=\"IXHW\"", "Kernel layout attribute is not defined");
}

#define POOL_ARGS(data) data ", float32, int32, float32, int32"

static void test_avg_pool2d(void **state) {
  (void)state;
  assert_infers("qnn.avg_pool2d", POOL_ARGS("Tensor[(1, 3, 8, 8), uint8]"), "pool_size=[2, 2], strides=[2, 2]",
                "Tensor[(1, 3, 4, 4), uint8]");
  assert_infers("qnn.avg_pool2d", POOL_ARGS("Tensor[(1, 7, 7, 16), int8]"), "pool_size=[3, 3], padding=[1, 1], layout=\"NHWC\"",
                "Tensor[(1, 7, 7, 16), int8]");
  assert_rejects("qnn.avg_pool2d", POOL_ARGS("Tensor[(1, 3, 8, 8), int32]"), "pool_size=[2, 2]",
                 "Expected quantized avg_pool2d type(int8, uint8) for input but was int32");
  assert_rejects("qnn.avg_pool2d", POOL_ARGS("Tensor[(1, 3, 8, 8), int8]"), "pool_size=[2, 2], layout=\"NCHW4h\"",
                 "qnn_avg_pool2d inut layout must have H and W");
  assert_rejects("qnn.avg_pool2d", POOL_ARGS("Tensor[(1, 3, 8, 8), int8]"), "", "Cannot find required field 'pool_size'");
  assert_rejects("qnn.avg_pool2d", "Tensor[(1, 3, 8, 8), int8], Tensor[(3), float32], int32, float32, int32", "pool_size=[2, 2]",
                 "input_scale");
}

#define CONCAT_TAIL ", float32, int32"

static void test_concatenate(void **state) {
  (void)state;
  assert_infers("qnn.concatenate",
                "(Tensor[(1, 64), int32], Tensor[(1, 64), int32]), (float32, float32), (int32, int32)" CONCAT_TAIL, "",
                "Tensor[(2, 64), int32]");
  assert_infers("qnn.concatenate",
                "(Tensor[(1, 64), uint8], Tensor[(1, 32), uint8]), (float32, float32), (int32, int32)" CONCAT_TAIL, "axis=1",
                "Tensor[(1, 96), uint8]");
  assert_rejects("qnn.concatenate", "(Tensor[(1, 64), int32], Tensor[(1, 64), int32]), float32, (int32, int32)" CONCAT_TAIL, "",
                 "qnn concatenate requires a tuple of scales as the second argument, found float32");
  assert_rejects("qnn.concatenate",
                 "(Tensor[(1, 64), int32], Tensor[(1, 64), int32]), (float32, float32), int32" CONCAT_TAIL, "",
                 "qnn concatenate requires a tuple of zero_points as the third argument, found int32");
  assert_rejects("qnn.concatenate",
                 "(Tensor[(1, 64), int32], Tensor[(1, 64), int32]), (float32, int32), (int32, int32)" CONCAT_TAIL, "",
                 "field 1 of the scales must be a scalar float32");
  assert_rejects("qnn.concatenate",
                 "(Tensor[(1, 64), int32], Tensor[(1, 32), int32]), (float32, float32), (int32, int32)" CONCAT_TAIL, "",
                 "relay.concatenate requires all tensors have the same shape on non-concatenating axes");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dense),        cmocka_unit_test(test_dense_pack), cmocka_unit_test(test_batch_matmul),
      cmocka_unit_test(test_conv2d_transpose), cmocka_unit_test(test_avg_pool2d), cmocka_unit_test(test_concatenate),
  };
  return cmocka_run_group_tests_name("ops_qnn", tests, NULL, NULL);
}
