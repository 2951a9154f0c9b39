/* The nn_extra family (ops/nn_extra.c).  Accepted cases come from TVM v0.13's tests where they
   exist: tests/python/relay/test_op_level5.py (depth_to_space, space_to_depth, space_to_batch_nd,
   batch_to_space_nd), test_any.py (mirror_pad, dilate), test_op_level10.py (nll_loss),
   test_op_grad_level10.py (cross_entropy), topi/python/test_fifo_buffer.py (fifo_buffer shapes);
   the others follow the relations in src/relay/op/nn/nn.cc and pad.cc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_schema_test.h"
#include "op_test.h"

/* include/tvm/relay/attrs/nn.h: SubPixelAttrs, SpaceToBatchNDAttrs, BatchToSpaceNDAttrs,
   MirrorPadAttrs, DilateAttrs, FIFOBufferAttrs, SoftmaxAttrs, NLLLossAttrs. */
static void test_schemas(void **state) {
  (void)state;
  assert_schema("nn.depth_to_space", "block_size=1, layout=\"NCHW\", mode=\"DCR\"");
  assert_schema("nn.space_to_depth", "block_size=1, layout=\"NCHW\", mode=\"DCR\"");
  assert_schema("nn.space_to_batch_nd", "block_shape=[1, 1], paddings=None, pad_value=0f");
  assert_schema("nn.batch_to_space_nd", "block_shape=[1, 1], crops=None");
  assert_schema("nn.mirror_pad", "mode=\"SYMMETRIC\", pad_width=None");
  assert_schema("nn.dilate", "strides=[1, 1], dilation_value=0f");
  assert_schema("nn.fifo_buffer", "axis=0");
  assert_schema("nn.fast_softmax", "axis=-1");
  assert_schema("nn.nll_loss", "reduction=\"mean\", ignore_index=None");
  assert_schema("nn.cross_entropy", "");
  assert_schema("nn.cross_entropy_with_logits", "");
}

/* test_depth_to_space / test_space_to_depth: (1, 4, 4, 4), block 2, NCHW and NHWC. */
static void test_subpixel(void **state) {
  (void)state;
  assert_infers("nn.depth_to_space", "Tensor[(1, 4, 4, 4), float32]", "block_size=2",
                "Tensor[(1, 1, 8, 8), float32]");
  assert_infers("nn.depth_to_space", "Tensor[(1, 4, 4, 4), float32]",
                "block_size=2, layout=\"NHWC\", mode=\"CDR\"", "Tensor[(1, 8, 8, 1), float32]");
  assert_infers("nn.space_to_depth", "Tensor[(1, 4, 4, 4), float32]", "block_size=2",
                "Tensor[(1, 16, 2, 2), float32]");
  assert_infers("nn.space_to_depth", "Tensor[(1, 4, 4, 4), float32]", "block_size=2, layout=\"NHWC\"",
                "Tensor[(1, 2, 2, 16), float32]");
  /* the default block size 1 changes nothing; `?` stays `?`; divisions round down */
  assert_infers("nn.depth_to_space", "Tensor[(2, 3, 5, 7), int8]", "", "Tensor[(2, 3, 5, 7), int8]");
  assert_infers("nn.space_to_depth", "Tensor[(?, 3, ?, 7), float32]", "block_size=2",
                "Tensor[(?, 12, ?, 3), float32]");
  /* a layout with a sub-axis goes through NCHW and back (BijectiveLayout, shapediv rounding up) */
  assert_infers("nn.depth_to_space", "Tensor[(1, 2, 4, 4, 4), float32]", "block_size=2, layout=\"NCHW4c\"",
                "Tensor[(1, 1, 8, 8, 4), float32]");
  assert_rejects("nn.depth_to_space", "Tensor[(1, 4, 4, 4, 4), float32]", "block_size=2, layout=\"NCDHW\"",
                 "DepthToSpace only support input layouts that are convertible from NCHW");
  assert_rejects("nn.space_to_depth", "Tensor[(4, 4, 4), float32]", "block_size=2",
                 "Input shape size 3 mismatch");
  assert_rejects("nn.space_to_depth", "Tensor[(1, 4, 4, 4), float32]", "block_size=0", "Divide by zero");
  assert_rejects("nn.depth_to_space", "Tensor[(1, 2, 4, 4, 3), float32]", "layout=\"NCHW4c\"",
                 "Input shape mismatch at index 4");
}

/* test_space_to_batch_nd / test_batch_to_space_nd. */
static void test_space_batch(void **state) {
  (void)state;
  assert_infers("nn.space_to_batch_nd", "Tensor[(3, 3, 2, 1), float32]", "block_shape=[3], paddings=[[0, 0]]",
                "Tensor[(9, 1, 2, 1), float32]");
  assert_infers("nn.space_to_batch_nd", "Tensor[(2, 2, 4, 1), float32]",
                "block_shape=[2, 2], paddings=[[0, 0], [2, 0]]", "Tensor[(8, 1, 3, 1), float32]");
  assert_infers("nn.space_to_batch_nd", "Tensor[(?, 2, ?, 1), float32]",
                "block_shape=[2, 2], paddings=[[0, 0], [2, 0]]", "Tensor[(?, 1, ?, 1), float32]");
  assert_infers("nn.batch_to_space_nd", "Tensor[(4, 1, 1, 3), float32]",
                "block_shape=[2, 2], crops=[[0, 0], [0, 0]]", "Tensor[(1, 2, 2, 3), float32]");
  assert_infers("nn.batch_to_space_nd", "Tensor[(8, 1, 3, 1), float32]",
                "block_shape=[2, 2], crops=[[0, 0], [2, 0]]", "Tensor[(2, 2, 4, 1), float32]");
  assert_rejects("nn.space_to_batch_nd", "Tensor[(3, 3, 2, 1), float32]",
                 "block_shape=[3, 1], paddings=[[0, 0]]", "Paddings must be provided for each spatial dim");
  assert_rejects("nn.space_to_batch_nd", "Tensor[(3, 3, 2, 1), float32]", "block_shape=[3]",
                 "Cannot find required field 'paddings'");
  assert_rejects("nn.space_to_batch_nd", "Tensor[(3), float32]", "block_shape=[1], paddings=[[0, 0]]",
                 "at least 2 dimensions");
  assert_rejects("nn.batch_to_space_nd", "Tensor[(4, 1, 1, 3), float32]",
                 "block_shape=[2, 2], crops=[[0, 0]]", "crops must be provided for each spatial dim");
  assert_rejects("nn.batch_to_space_nd", "Tensor[(4, 1), float32]",
                 "block_shape=[2, 2], crops=[[0, 0], [0, 0]]", "block_shape must be less than input shape");
  assert_rejects("nn.batch_to_space_nd", "Tensor[(4, 1, 1, 3), float32]",
                 "block_shape=[2, 2], crops=[[0, 3], [0, 0]]", "negative dimension");
}

/* test_any_mirror_pad: (1, 256, 232, 232) padded by 1 on both spatial axes. */
static void test_mirror_pad(void **state) {
  (void)state;
  assert_infers("nn.mirror_pad", "Tensor[(1, 256, 232, 232), float32]",
                "pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]]", "Tensor[(1, 256, 234, 234), float32]");
  assert_infers("nn.mirror_pad", "Tensor[(?, 3), float32]", "mode=\"REFLECT\", pad_width=[[1, 1], [2, 0]]",
                "Tensor[(?, 5), float32]");
  assert_rejects("nn.mirror_pad", "Tensor[(2, 3), float32]", "pad_width=[[1, 1]]",
                 "There should be as many pad width pairs as shape dimensions");
  assert_rejects("nn.mirror_pad", "Tensor[(2, 3), float32]", "pad_width=[[1, 1], [0, -1]]",
                 "Param width elements should be positive");
  assert_rejects("nn.mirror_pad", "Tensor[(2, 3), float32]", "pad_width=[[1, 1], [0, 1, 2]]",
                 "Each pad width element should be a pair but at index 1 there are 3 elements.");
  assert_rejects("nn.mirror_pad", "Tensor[(2, 3), float32]", "", "Cannot find required field 'pad_width'");
}

/* test_any_dilate: strides (3, 7, 5) on (1, 2, 3) give (1, 8, 11). */
static void test_dilate(void **state) {
  (void)state;
  assert_infers("nn.dilate", "Tensor[(1, 2, 3), float32]", "strides=[3, 7, 5]",
                "Tensor[(1, 8, 11), float32]");
  assert_infers("nn.dilate", "Tensor[(1, 2, 3, 4), float32]", "strides=[3, 7, 1, 5], dilation_value=1f",
                "Tensor[(1, 8, 3, 16), float32]");
  assert_infers("nn.dilate", "Tensor[(?, 4), float32]", "", "Tensor[(?, 4), float32]");
  assert_rejects("nn.dilate", "Tensor[(1, 2, 3), float32]", "", "x->shape.size() == param->strides.size()");
  assert_rejects("nn.dilate", "Tensor[(0), float32]", "strides=[2]", "negative dimension");
}

/* test_fifo_buffer.py: buffer of 7s, data 2 on the axis. */
static void test_fifo_buffer(void **state) {
  (void)state;
  assert_infers("nn.fifo_buffer", "Tensor[(7, 2, 7), float32], Tensor[(7, 7, 7), float32]", "axis=1",
                "Tensor[(7, 7, 7), float32]");
  assert_infers("nn.fifo_buffer", "Tensor[(2, 7), float32], Tensor[(7, 7), float32]", "",
                "Tensor[(7, 7), float32]");
  /* TVM ignores the assertions on the other dimensions and the dtypes */
  assert_infers("nn.fifo_buffer", "Tensor[(9, 3), int32], Tensor[(7, 7), float32]", "axis=-1",
                "Tensor[(7, 7), float32]");
  assert_rejects("nn.fifo_buffer", "Tensor[(2), float32], Tensor[(7, 7), float32]", "",
                 "input->shape.size() == buffer->shape.size()");
  assert_rejects("nn.fifo_buffer", "Tensor[(2, 7), float32], Tensor[(7, 7), float32]", "axis=2",
                 "out of range");
}

/* SoftmaxRel, as for nn.softmax. */
static void test_fast_softmax(void **state) {
  (void)state;
  assert_infers("nn.fast_softmax", "Tensor[(10, 4), float32]", "", "Tensor[(10, 4), float32]");
  assert_infers("nn.fast_softmax", "Tensor[(10, 4), float16]", "axis=0", "Tensor[(10, 4), float16]");
  assert_rejects("nn.fast_softmax", "Tensor[(10, 4), float32]", "axis=2",
                 "Wrong axis (2) not in expected range: [-2, 2)");
  assert_rejects("nn.fast_softmax", "float32", "", "Wrong axis (-1) not in expected range: [0, 0)");
}

/* test_cross_entropy_grad: x, y (2, 5); test_nll_loss: predictions (10, 5) and (10, 5, 2, 2). */
static void test_losses(void **state) {
  (void)state;
  assert_infers("nn.cross_entropy", "Tensor[(2, 5), float32], Tensor[(2, 5), float32]", "", "float32");
  assert_infers("nn.cross_entropy_with_logits", "Tensor[(2, 5), float64], Tensor[(2, ?), float64]", "",
                "float64");
  assert_rejects("nn.cross_entropy", "Tensor[(2, 5), float32], Tensor[(3, 5), float32]", "",
                 "CrossEntropy: shapes of x and y is inconsistent, x shape = [2, 5], y shape = [3, 5]");
  assert_rejects("nn.cross_entropy_with_logits", "Tensor[(5), float32], Tensor[(5), float32]", "",
                 "CrossEntropy: shapes of x and y is inconsistent");
  assert_infers("nn.nll_loss", "Tensor[(10, 5), float32], Tensor[(10), int32], Tensor[(5), float32]",
                "ignore_index=-100", "float32");
  assert_infers("nn.nll_loss",
                "Tensor[(10, 5, 2, 2), float32], Tensor[(10, 2, 2), int32], Tensor[(5), float32]",
                "ignore_index=-100", "float32");
  assert_infers("nn.nll_loss", "Tensor[(10, 5), float64], Tensor[(10), int32], Tensor[(5), float64]",
                "reduction=\"sum\", ignore_index=3", "float64");
  assert_infers("nn.nll_loss",
                "Tensor[(10, 5, 2, 2), float32], Tensor[(10, 2, 2), int32], Tensor[(5), float32]",
                "reduction=\"none\", ignore_index=-100", "Tensor[(10, 2, 2), float32]");
  assert_rejects("nn.nll_loss", "Tensor[(10, 5), float32], Tensor[(10), int32], Tensor[(5), float32]", "",
                 "Cannot find required field 'ignore_index'");
  assert_rejects("nn.nll_loss", "Tensor[(10, 5), float32], Tensor[(10, 1), int32], Tensor[(5), float32]",
                 "ignore_index=-100", "predictions should be one dimension larger than targets");
  assert_rejects("nn.nll_loss", "Tensor[(10, 5), float32], Tensor[(10), int32], Tensor[(6), float32]",
                 "ignore_index=-100", "the second dimension of predictions should be the number of classes");
  assert_rejects("nn.nll_loss", "Tensor[(10, 5), int32], Tensor[(10), int32], Tensor[(5), int32]",
                 "ignore_index=-100", "predictions and weights should be of the same floating type");
  assert_rejects("nn.nll_loss", "Tensor[(10, 5), float32], Tensor[(10), uint8], Tensor[(5), float32]",
                 "ignore_index=-100", "targets should be of int type");
  assert_rejects("nn.nll_loss", "Tensor[(10, 5), float32], Tensor[(10), int32], Tensor[(5, 1), float32]",
                 "ignore_index=-100", "weights should be a one dimension Tensor");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_schemas),      cmocka_unit_test(test_subpixel),
      cmocka_unit_test(test_space_batch),  cmocka_unit_test(test_mirror_pad),
      cmocka_unit_test(test_dilate),       cmocka_unit_test(test_fifo_buffer),
      cmocka_unit_test(test_fast_softmax), cmocka_unit_test(test_losses),
  };
  return cmocka_run_group_tests_name("ops_nn_extra", tests, NULL, NULL);
}
