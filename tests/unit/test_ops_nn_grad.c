/* Gradient relations (typegen/ops/nn_grad.c) against TVM v0.13's Pool2DGradRel and
   Conv2DBackwardWeightRel.  Cases marked "TVM test" take their shapes from
   tests/python/relay/test_op_grad_level2.py (test_max_pool2d_grad, test_avg_pool2d_grad,
   test_conv2d_backward_weight: the weight gradient has the weight's shape); the attributes are
   what the Python API writes (grad_layout -> data_layout, data_layout -> kernel_layout,
   kernel_layout -> out_layout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

static void test_pool_grads(void **state) {
  (void)state;
  static const char *const ops[] = {"nn.max_pool2d_grad", "nn.avg_pool2d_grad"};
  for (int k = 0; k < 2; k++) {
    /* TVM test: data (1, 4, 16, 16), pool (2, 2), strides (2, 2) */
    assert_infers(ops[k], "Tensor[(1, 4, 8, 8), float32], Tensor[(1, 4, 16, 16), float32]",
                  "pool_size=[2, 2], strides=[2, 2], padding=[0, 0]", "Tensor[(1, 4, 16, 16), float32]");
    /* TVM test: (1, 4, 16, 16), pool (4, 4), strides (4, 4), ceil_mode */
    assert_infers(ops[k], "Tensor[(1, 4, 4, 4), float32], Tensor[(1, 4, 16, 16), float32]",
                  "pool_size=[4, 4], strides=[4, 4], padding=[1, 1], ceil_mode=True", "Tensor[(1, 4, 16, 16), float32]");
    /* the output gradient is not looked at */
    assert_infers(ops[k], "(int32, int32), Tensor[(2, ?, 5), float64]", "pool_size=[1, 1]", "Tensor[(2, ?, 5), float64]");
    assert_rejects(ops[k], "Tensor[(1, 4, 8, 8), float32], Tensor[(1, 4, 16, 16), float32]", "strides=[2, 2]",
                   "Cannot find required field 'pool_size'");
    assert_rejects(ops[k], "Tensor[(1, 4, 8, 8), float32], (float32,)", "pool_size=[2, 2]", "expects a tensor as argument 2");
  }
  assert_infers("nn.avg_pool2d_grad", "Tensor[(1, 4, 8, 8), float32], Tensor[(1, 4, 16, 16), float32]",
                "pool_size=[2, 2], strides=[2, 2], count_include_pad=True", "Tensor[(1, 4, 16, 16), float32]");
  assert_rejects("nn.max_pool2d_grad", "Tensor[(1, 4, 8, 8), float32], Tensor[(1, 4, 16, 16), float32]",
                 "pool_size=[2, 2], count_include_pad=True", "has no attribute 'count_include_pad'");
}

static void test_conv2d_backward_weight(void **state) {
  (void)state;
  /* TVM test: dy (2, 8, 32, 32), x (2, 4, 32, 32), kernel (3, 3), stride 1, padding 1 */
  assert_infers("nn.conv2d_backward_weight", "Tensor[(2, 8, 32, 32), float32], Tensor[(2, 4, 32, 32), float32]",
                "padding=[1, 1], channels=8, kernel_size=[3, 3], kernel_layout=\"NCHW\", out_layout=\"OIHW\"",
                "Tensor[(8, 4, 3, 3), float32]");
  /* TVM test: dy (2, 16, 15, 15), x (2, 3, 32, 32), stride 2, no padding */
  assert_infers("nn.conv2d_backward_weight", "Tensor[(2, 16, 15, 15), float32], Tensor[(2, 3, 32, 32), float32]",
                "strides=[2, 2], padding=[0, 0], channels=16, kernel_size=[3, 3], kernel_layout=\"NCHW\", out_layout=\"OIHW\"",
                "Tensor[(16, 3, 3, 3), float32]");
  /* TVM test: depthwise, groups 16 */
  assert_infers("nn.conv2d_backward_weight", "Tensor[(1, 16, 32, 32), float32], Tensor[(1, 16, 32, 32), float32]",
                "padding=[1, 1], groups=16, channels=16, kernel_size=[3, 3], kernel_layout=\"NCHW\", out_layout=\"OIHW\"",
                "Tensor[(16, 1, 3, 3), float32]");
  /* NHWC gradient and data, HWIO weight, out_dtype; `?` batch and spatial axes do not matter */
  assert_infers("nn.conv2d_backward_weight", "Tensor[(?, ?, ?, 8), float16], Tensor[(?, 32, 32, 4), float16]",
                "kernel_size=[5, 5], data_layout=\"NHWC\", kernel_layout=\"NHWC\", out_layout=\"HWIO\", out_dtype=\"float32\"",
                "Tensor[(5, 5, 4, 8), float32]");
  /* Conv2DAttrs' defaults: the data's layout would be OIHW, the weight's undefined */
  assert_rejects("nn.conv2d_backward_weight", "Tensor[(2, 8, 32, 32), float32], Tensor[(2, 4, 32, 32), float32]",
                 "kernel_size=[3, 3]", "Cannot operate on an undefined bijective layout");
  assert_rejects("nn.conv2d_backward_weight", "Tensor[(2, 8, 32, 32), float32], Tensor[(2, 4, 32, 32), float32]",
                 "kernel_layout=\"NCHW\", out_layout=\"OIHW\"", "kernel_size attribute needs to be specified");
  assert_rejects("nn.conv2d_backward_weight", "Tensor[(1, 16, 32, 32), float32], Tensor[(1, 16, 32, 32), float32]",
                 "groups=16, kernel_size=[3, 3], kernel_layout=\"NCHW\", out_layout=\"OIHW\"",
                 "out_channels attribute not specified for depth wise conv2d.");
  assert_rejects("nn.conv2d_backward_weight", "Tensor[(2, 8, 32, 32), float32], Tensor[(2, ?, 32, 32), float32]",
                 "kernel_size=[3, 3], kernel_layout=\"NCHW\", out_layout=\"OIHW\"", "in_channels_intimm");
}

static void test_schemas(void **state) {
  (void)state;
  const OpDef *mp = op_lookup("nn.max_pool2d_grad"), *ap = op_lookup("nn.avg_pool2d_grad");
  assert_int_equal(mp->nattrs, 7);
  assert_int_equal(ap->nattrs, 8);
  assert_string_equal(mp->attrs[0].name, "pool_size");
  assert_string_equal(mp->attrs[2].name, "dilation"); /* declared before padding */
  assert_string_equal(ap->attrs[7].name, "count_include_pad");
  const OpDef *bw = op_lookup("nn.conv2d_backward_weight");
  assert_int_equal(bw->nattrs, 10);
  assert_string_equal(bw->attrs[6].name, "data_layout");
  assert_string_equal(bw->attrs[7].def, "\"OIHW\"");
  assert_string_equal(bw->attrs[8].def, "\"\"");
  assert_int_equal(op_family_size("nn_grad"), 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pool_grads),
      cmocka_unit_test(test_conv2d_backward_weight),
      cmocka_unit_test(test_schemas),
  };
  return cmocka_run_group_tests_name("ops_nn_grad", tests, NULL, NULL);
}
