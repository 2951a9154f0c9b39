/*
 * The Ethos-U operators (typegen/ops/ethosu.c) against TVM v0.13's
 * tests/python/contrib/test_ethosu/test_type_inference.py: conv2d (1, 56, 72, 55) -> (1, 54, 38, 122)
 * with kernel (3, 2), padding (0, 1, 2, 3), strides (1, 2), dilation (2, 1) (NHCWB16:
 * (1, 56, 4, 72, 16) -> (1, 54, 8, 38, 16)); depthwise (1, 46, 71, 55) -> (1, 44, 37, 55); pooling
 * (1, 56, 72, 55) -> (1, 56, 38, 55); binary and unary elementwise (1, 4, 5, 33) (NHCWB16
 * (1, 4, 3, 5, 16)); identity of any rank up to 4; and the invalid-dtype / invalid-type cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define Q "ifm_scale=0.5f, ifm_zero_point=10, ofm_scale=0.25f, ofm_zero_point=12"
#define CONV_W "Tensor[(122, 3, 2, 55), int8], Tensor[(122, 10), uint8], Tensor[(0), int8]"
#define CONV_ATTRS Q ", weight_zero_point=12, kernel_shape=[3, 2], ofm_channels=122, strides=[1, 2], padding=[0, 1, 2, 3], dilation=[2, 1]"

static void test_conv2d(void **state) {
  (void)state;
  assert_infers("contrib.ethosu.conv2d", "Tensor[(1, 56, 72, 55), int8], " CONV_W, CONV_ATTRS, "Tensor[(1, 54, 38, 122), int8]");
  assert_infers("contrib.ethosu.conv2d", "Tensor[(1, 56, 4, 72, 16), int8], " CONV_W,
                CONV_ATTRS ", ifm_layout=\"NHCWB16\", ofm_layout=\"NHCWB16\"", "Tensor[(1, 54, 8, 38, 16), int8]");
  /* upscaling doubles H and W: (112 + 2 - 5) + 1, (144 + 4 - 2) / 2 + 1 */
  assert_infers("contrib.ethosu.conv2d", "Tensor[(1, 56, 72, 55), uint8], " CONV_W, CONV_ATTRS ", upscale=\"NEAREST\"",
                "Tensor[(1, 110, 74, 122), uint8]");
  assert_rejects("contrib.ethosu.conv2d", "Tensor[(1, 56, 72, 55), int16], " CONV_W, CONV_ATTRS,
                 "Invalid operator: expected ethosu_conv2d to have type in {uint8, int8} for ifm but was int16.");
  assert_rejects("contrib.ethosu.conv2d", "Tensor[(1, 56, 72, 55), int8], Tensor[(122, 3, 2, 55), int8], Tensor[(122, 10), int8], Tensor[(0), int8]",
                 CONV_ATTRS, "to have type in {uint8} for scale bias but was int8.");
  assert_rejects("contrib.ethosu.conv2d", "Tensor[(1, 56, 72, 55), int8], " CONV_W, CONV_ATTRS ", upscale=\"FOO\"",
                 "Invalid operator: expected ethosu_conv2d to have upscale method in {NONE, ZEROS, NEAREST} but was FOO.");
  assert_rejects("contrib.ethosu.conv2d", "Tensor[(1, 56, 72, 55), int8], Tensor[(122, 3, 3, 55), int8], Tensor[(122, 10), uint8], Tensor[(0), int8]",
                 CONV_ATTRS, "argument 2 has type Tensor[(122, 3, 3, 55), int8], but the relation requires Tensor[(122, 3, 2, 55), int8]");
}

#define DW_ARGS(ifm) ifm ", Tensor[(55, 3, 2, 1), int8], Tensor[(55, 10), uint8], Tensor[(0), int8]"
#define DW_ATTRS Q ", weight_zero_point=12, kernel_shape=[3, 2], ofm_channels=55, strides=[1, 2], padding=[0, 1, 2, 3], dilation=[2, 1]"

static void test_depthwise(void **state) {
  (void)state;
  assert_infers("contrib.ethosu.depthwise_conv2d", DW_ARGS("Tensor[(1, 46, 71, 55), int8]"), DW_ATTRS,
                "Tensor[(1, 44, 37, 55), int8]");
  assert_infers("contrib.ethosu.depthwise_conv2d", DW_ARGS("Tensor[(1, 46, 4, 71, 16), int8]"),
                DW_ATTRS ", ifm_layout=\"NHCWB16\", ofm_layout=\"NHCWB16\", ofm_dtype=\"int32\"", "Tensor[(1, 44, 4, 37, 16), int32]");
  assert_rejects("contrib.ethosu.depthwise_conv2d", DW_ARGS("Tensor[(1, 46, 71, 55), int8]"), DW_ATTRS ", ofm_dtype=\"float32\"",
                 "expected ethosu_depthwise_conv2d to have type in {uint8, int8, int16, int32} for ofm but was float32.");
  assert_rejects("contrib.ethosu.depthwise_conv2d", DW_ARGS("Tensor[(1, 46, 71, 55), int8]"), Q ", ofm_channels=55",
                 "Cannot find required field 'kernel_shape'");
}

#define POOL_ATTRS(type, dtype) \
  "pooling_type=\"" type "\", " Q ", pool_shape=[3, 2], ofm_channels=55, ofm_dtype=\"" dtype "\", strides=[1, 2], padding=[0, 1, 2, 3]"

static void test_pooling(void **state) {
  (void)state;
  assert_infers("contrib.ethosu.pooling", "Tensor[(1, 56, 72, 55), int8], Tensor[(0), int8]", POOL_ATTRS("AVG", "int8"),
                "Tensor[(1, 56, 38, 55), int8]");
  assert_infers("contrib.ethosu.pooling", "Tensor[(1, 56, 4, 72, 16), int8], Tensor[(0), int8]",
                POOL_ATTRS("MAX", "int8") ", ifm_layout=\"NHCWB16\", ofm_layout=\"NHCWB16\"", "Tensor[(1, 56, 4, 38, 16), int8]");
  assert_infers("contrib.ethosu.pooling", "Tensor[(1, 56, 72, 55), int32], Tensor[(0), int8]", POOL_ATTRS("SUM", "int32"),
                "Tensor[(1, 56, 38, 55), int32]");
  assert_rejects("contrib.ethosu.pooling", "Tensor[(1, 56, 72, 55), int8], Tensor[(0), int8]", POOL_ATTRS("MIN", "int8"),
                 "Invalid operator: expected ethosu_pooling type 'AVG', 'MAX', or 'SUM' but was MIN");
  assert_rejects("contrib.ethosu.pooling", "Tensor[(1, 56, 72, 55), int32], Tensor[(0), int8]", POOL_ATTRS("AVG", "int8"),
                 "expected ethosu_pooling AVG to have type in {uint8, int8, int16} for ifm but was int32.");
  assert_rejects("contrib.ethosu.pooling", "Tensor[(1, 56, 72, 55), int8], Tensor[(0), int8]", POOL_ATTRS("AVG", "uint8"),
                 "data types for ifm and ofm to match, but was uint8 and int8");
}

#define BIN_ATTRS(type, dtype) \
  "operator_type=\"" type "\", ifm_scale=1f, ifm_zero_point=0, ifm2_scale=1f, ifm2_zero_point=0, ofm_scale=1f, " \
  "ofm_zero_point=0, ifm_channels=33, ifm2_channels=33, ofm_dtype=\"" dtype "\""

static void test_binary_elementwise(void **state) {
  (void)state;
  assert_infers("contrib.ethosu.binary_elementwise", "Tensor[(1, 4, 5, 33), int8], Tensor[(1, 4, 5, 33), int8], Tensor[(0), int8]",
                BIN_ATTRS("ADD", "int8"), "Tensor[(1, 4, 5, 33), int8]");
  assert_infers("contrib.ethosu.binary_elementwise",
                "Tensor[(1, 4, 3, 5, 16), int8], Tensor[(1, 4, 3, 5, 16), int8], Tensor[(0), int8]",
                BIN_ATTRS("MUL", "int32") ", ifm_layout=\"NHCWB16\", ofm_layout=\"NHCWB16\"", "Tensor[(1, 4, 3, 5, 16), int32]");
  assert_rejects("contrib.ethosu.binary_elementwise", "Tensor[(1, 4, 5, 33), int8], Tensor[(1, 4, 5, 33), int8], Tensor[(0), int8]",
                 BIN_ATTRS("AND", "int8"), "'ADD' or 'SUB' or 'MUL' or 'MIN' or 'MAX' or 'SHR' or 'SHL' for operator_type but was AND");
  assert_rejects("contrib.ethosu.binary_elementwise", "Tensor[(1, 4, 5, 33), int8], Tensor[(1, 4, 5, 33), int16], Tensor[(0), int8]",
                 BIN_ATTRS("ADD", "int8"), "expected ethosu_binary_elementwise ADD data types for ifm and ifm2 to match, but was int8 and int16");
  assert_rejects("contrib.ethosu.binary_elementwise", "Tensor[(1, 4, 5, 33), int32], Tensor[(1, 4, 5, 33), int32], Tensor[(0), int8]",
                 BIN_ATTRS("MAX", "int32"), "expected ethosu_binary_elementwise MAX to have type in {int8, uint8} for ifm but was int32.");
  assert_rejects("contrib.ethosu.binary_elementwise", "Tensor[(1, 4, 5, 33), int8], Tensor[(1, 4, 5, 33), int8], Tensor[(0), int8]",
                 BIN_ATTRS("SHL", "int32"), "SHL to have type in {int32} for ifm but was int8.");
}

static void test_identity(void **state) {
  (void)state;
  assert_infers("contrib.ethosu.identity", "Tensor[(241, 7, 755), int8], Tensor[(0), int8]", Q, "Tensor[(241, 7, 755), int8]");
  assert_infers("contrib.ethosu.identity", "Tensor[(5003), uint8], Tensor[(0), int8]", Q, "Tensor[(5003), uint8]");
  assert_rejects("contrib.ethosu.identity", "Tensor[(1, 2, 3, 4, 5), int8], Tensor[(0), int8]", Q,
                 "Invalid operator: Input Feature Map should be at most 4 dimensional, but was [1, 2, 3, 4, 5]");
  assert_rejects("contrib.ethosu.identity", "Tensor[(6000), int32], Tensor[(0), int8]", Q,
                 "expected ethosu_identity to have type in {uint8, int8} for ifm but was int32.");
}

#define UN_ATTRS(type) "operator_type=\"" type "\", " Q ", ofm_channels=33"

static void test_unary_elementwise(void **state) {
  (void)state;
  assert_infers("contrib.ethosu.unary_elementwise", "Tensor[(1, 4, 5, 33), int8], Tensor[(0), int8]", UN_ATTRS("ABS"),
                "Tensor[(1, 4, 5, 33), int8]");
  assert_infers("contrib.ethosu.unary_elementwise", "Tensor[(1, 4, 3, 5, 16), int32], Tensor[(0), int8]",
                UN_ATTRS("CLZ") ", ifm_layout=\"NHCWB16\", ofm_layout=\"NHCWB16\"", "Tensor[(1, 4, 3, 5, 16), int32]");
  assert_rejects("contrib.ethosu.unary_elementwise", "Tensor[(1, 3, 7, 12), int8], Tensor[(0), int8]", UN_ATTRS("ABBBS"),
                 "'ABS' or 'CLZ' for operator_type but wasABBBS");
  assert_rejects("contrib.ethosu.unary_elementwise", "Tensor[(1, 5, 15, 25), int32], Tensor[(0), int8]", UN_ATTRS("ABS"),
                 "ABS to have type in {uint8, int8} for ifm but was int32.");
  assert_rejects("contrib.ethosu.unary_elementwise", "Tensor[(1, 5, 15, 25), int8], Tensor[(0), int8]",
                 "operator_type=\"ABS\", " Q, "Cannot find required field 'ofm_channels'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv2d),   cmocka_unit_test(test_depthwise), cmocka_unit_test(test_pooling),
      cmocka_unit_test(test_binary_elementwise), cmocka_unit_test(test_identity), cmocka_unit_test(test_unary_elementwise),
  };
  /* TVM v0.13.0's operators (v0.19.0 removed them: test_tvm_versions.c) */
  return cmocka_run_group_tests_name("ops_ethosu", tests, op_test_v0_13, NULL);
}
