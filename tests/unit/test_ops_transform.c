/* Transform relations against TVM's results: the types printed in ../shared/corpus (file named
   beside each case) and the shapes TVM v0.13's tests/python/relay/test_op_level3.py,
   test_op_level10.py and test_any.py expect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

static void test_reshape(void **state) {
  (void)state;
  /* attrs_ops.relay, resnet-18_NHWC / dcgan / test_pass_* */
  assert_infers("reshape", "Tensor[(1, 4, 14, 14), float32]", "newshape=[1, -1]",
                "Tensor[(1, 784), float32]");
  assert_infers("reshape", "Tensor[(1, 16384), float32]", "newshape=[-1, 1024, 4, 4]",
                "Tensor[(1, 1024, 4, 4), float32]");
  assert_infers("reshape", "Tensor[(1, 384, 384), float16]", "newshape=[-1, 384]",
                "Tensor[(384, 384), float16]");
  /* verify_reshape in test_op_level3.py: each special code */
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[4, 0, 2]", "Tensor[(4, 3, 2), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[2, 0, 0]", "Tensor[(2, 3, 4), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[0, -1]", "Tensor[(2, 12), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[-1, 0]", "Tensor[(8, 3), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[2, -2]", "Tensor[(2, 3, 4), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[-2, 1, 1]",
                "Tensor[(2, 3, 4, 1, 1), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[-3, 4]", "Tensor[(6, 4), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4, 5), float32]", "newshape=[-3, -3]", "Tensor[(6, 20), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[0, -3]", "Tensor[(2, 12), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[-3, -2]", "Tensor[(6, 4), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[-4, 1, 2, -2]",
                "Tensor[(1, 2, 3, 4), float32]");
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[2, -4, -1, 3, -2]",
                "Tensor[(2, 1, 3, 4), float32]");
  assert_infers("reshape", "Tensor[(1), float32]", "newshape=[]", "float32");
  /* unknown dimensions (test_any.py): -1 over a `?` stays unknown, the size check is skipped */
  assert_infers("reshape", "Tensor[(?, 3, 4), float32]", "newshape=[-1, 0]", "Tensor[(?, 3), float32]");
  assert_infers("reshape", "Tensor[(?, 3, 4), float32]", "newshape=[0, -3]", "Tensor[(?, 12), float32]");
  assert_infers("reshape", "Tensor[(2, ?, 4), float32]", "newshape=[-3, 4]", "Tensor[(?, 4), float32]");
  /* allowzero: 0 is a dimension, not a copy */
  assert_infers("reshape", "Tensor[(0, 3), float32]", "newshape=[0, 5], allowzero=True",
                "Tensor[(0, 5), float32]");
  assert_infers("reshape", "Tensor[(2, 3), float32]", "newshape=[0, 3]", "Tensor[(2, 3), float32]");
}

static void test_reshape_rejects(void **state) {
  (void)state;
  assert_rejects("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[5, -1]",
                 "Input tensor shape(2,3,4) and reshaped shape(5,4) are not compatible!");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "newshape=[0, 0, 0]",
                 "newshape[2] = 0 copies input dimension 2");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "newshape=[-1, -1]",
                 "One and only one dim can be inferred");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "newshape=[-2, 5]", "are not compatible!");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "newshape=[0, -3]",
                 "newshape[1] = -3 merges input dimensions");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "newshape=[-4, -1, -1, 3]",
                 "Split dims cannot both be -1.");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "newshape=[3, -4, 2]", "must be followed by");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "newshape=[-5, 6]", "Unsupported special value: -5");
  assert_rejects("reshape", "Tensor[(0, 3), float32]", "newshape=[0, -1], allowzero=True",
                 "division by a zero");
  assert_rejects("reshape", "Tensor[(2, 3), float32]", "", "newshape must be a list of integers");
  assert_rejects("reshape", "(Tensor[(2), float32],)", "newshape=[2]", "expects a tensor");
  /* TVM stores the inferred size at the -1's position in newshape, not in the result: after -2
     expanded to three dimensions it overwrites the 3 (and the size check then fails) */
  assert_rejects("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[-2, -1]", "reshaped shape(2,1,4,1)");
}

static void test_reshape_like_and_dynamic(void **state) {
  (void)state;
  /* test_pass_remove_standalone_reshapes__3 (printed) */
  assert_infers("reshape_like", "Tensor[(72, 12), float32], Tensor[(1, 3, 24, 12), float32]", "",
                "Tensor[(1, 3, 24, 12), float32]");
  /* the example in reshape_like's description */
  assert_infers("reshape_like", "Tensor[(1, 2, 3, 4), float32], Tensor[(6, 2, 2, 3), float32]",
                "lhs_begin=1, rhs_end=3", "Tensor[(1, 6, 2, 2), float32]");
  assert_rejects("reshape_like", "Tensor[(2, 3), float32], Tensor[(4, 2), float32]", "",
                 "Reshape inputs size should be compatible");
  /* dynamic_shapes.relay */
  assert_infers("dyn.reshape", "Tensor[(?, ?), float32], Tensor[(2), int64]", "newshape=[]",
                "Tensor[(?, ?), float32]");
  assert_infers("dyn.reshape", "Tensor[(2, 3), float32], Tensor[(3), int32]", "",
                "Tensor[(?, ?, ?), float32]");
  assert_rejects("dyn.reshape", "Tensor[(2, 3), float32], Tensor[(?), int32]", "",
                 "doesn't support Dynamic Rank");
}

static void test_transpose(void **state) {
  (void)state;
  /* attrs_ops.relay, test_sub_graph */
  assert_infers("transpose", "Tensor[(1, 32, 32, 8), float32]", "axes=[0, 3, 1, 2]",
                "Tensor[(1, 8, 32, 32), float32]");
  assert_infers("transpose", "Tensor[(50, 32, 12, 64), float32]", "axes=[0, 2, 1, 3]",
                "Tensor[(50, 12, 32, 64), float32]");
  assert_infers("transpose", "Tensor[(2, 3, ?), float32]", "", "Tensor[(?, 3, 2), float32]");
  assert_infers("transpose", "Tensor[(2, 3, 4), float32]", "axes=[-1, 0, 1]", "Tensor[(4, 2, 3), float32]");
  assert_rejects("transpose", "Tensor[(2, 3, 4), float32]", "axes=[0, 1]",
                 "Dimension mismatch: axes has 2 elements, but data.ndim = 3");
  assert_rejects("transpose", "Tensor[(2, 3, 4), float32]", "axes=[0, 1, 1]",
                 "Duplicate axes in transpose: 1");
  assert_rejects("transpose", "Tensor[(2, 3, 4), float32]", "axes=[0, 1, 3]",
                 "but got axis = 3, and data.ndim = 3");
}

static void test_squeeze_expand_dims(void **state) {
  (void)state;
  /* resnet-18.relay, mobilenet.relay */
  assert_infers("squeeze", "Tensor[(64, 1, 1), float32]", "axis=[1, 2]", "Tensor[(64), float32]");
  assert_infers("squeeze", "Tensor[(1, 3, 1, 4), float32]", "", "Tensor[(3, 4), float32]");
  assert_infers("squeeze", "Tensor[(1, 3, 1), float32]", "axis=[-1]", "Tensor[(1, 3), float32]");
  assert_infers("squeeze", "Tensor[(?, 3), float32]", "axis=[0]", "Tensor[(3), float32]");
  assert_rejects("squeeze", "Tensor[(1, 3), float32]", "axis=[1]",
                 "cannot squeeze axis with dimension not equal to 1");
  assert_rejects("squeeze", "Tensor[(?, 1), float32]", "", "axis needs to be defined for dynamic input.");
  assert_rejects("squeeze", "Tensor[(1, 1), float32]", "axis=[2]", "out of range");
  /* dynamic_shapes.relay, resnet-18.relay */
  assert_infers("expand_dims", "int64", "axis=0", "Tensor[(1), int64]");
  assert_infers("expand_dims", "Tensor[(16), float32]", "axis=1, num_newaxis=2",
                "Tensor[(16, 1, 1), float32]");
  assert_infers("expand_dims", "Tensor[(2, 3), float32]", "axis=-1", "Tensor[(2, 3, 1), float32]");
  assert_infers("expand_dims", "Tensor[(2, 3), float32]", "axis=-3", "Tensor[(1, 2, 3), float32]");
  assert_rejects("expand_dims", "Tensor[(2, 3), float32]", "axis=3",
                 "only accepts `axis` in [-data.ndim - 1, data.ndim]");
  assert_rejects("expand_dims", "Tensor[(2, 3), float32]", "axis=0, num_newaxis=-1",
                 "only accepts `num_newaxis >= 0`");
  assert_rejects("expand_dims", "Tensor[(2, 3), float32]", "", "attribute 'axis' must be given");
}

static void test_concatenate_stack(void **state) {
  (void)state;
  /* tuples.relay, squeezenet_v1.0.relay, dynamic_shapes.relay, test_pass_* */
  assert_infers("concatenate", "(Tensor[(4, 2), float32], Tensor[(4, 2), float32], Tensor[(4, 2), float32])",
                "axis=1", "Tensor[(4, 6), float32]");
  assert_infers("concatenate", "(Tensor[(1), int64], Tensor[(1), int64])", "", "Tensor[(2), int64]");
  assert_infers("concatenate", "(Tensor[(?), int32], Tensor[(1), int32])", "", "Tensor[(?), int32]");
  /* the two cases in ConcatenateRel's comment */
  assert_infers("concatenate", "(Tensor[(?, 3), float32], Tensor[(?, ?), float32])", "",
                "Tensor[(?, 3), float32]");
  assert_infers("concatenate", "(Tensor[(1, 3), float32], Tensor[(1, ?), float32])", "",
                "Tensor[(2, ?), float32]");
  assert_infers("concatenate", "(Tensor[(2, 3), float32], Tensor[(2, 5), float32])", "axis=-1",
                "Tensor[(2, 8), float32]");
  assert_rejects("concatenate", "(Tensor[(2, 3), float32], Tensor[(2, 3), int32])", "",
                 "requires all tensors have the same dtype");
  assert_rejects("concatenate", "(Tensor[(2, 3), float32], Tensor[(2), float32])", "",
                 "requires all tensors have the same ndim");
  assert_rejects("concatenate", "(Tensor[(2, 3), float32], Tensor[(2, 4), float32])", "",
                 "requires all tensors have the same shape on non-concatenating axes");
  assert_rejects("concatenate", "(Tensor[(2, 3), float32], Tensor[(2, 3), float32])", "axis=2",
                 "concatenate only accepts `axis` in [-ndim, ndim), but got axis = 2, and ndim = 2");
  assert_rejects(
      "concatenate", "Tensor[(2, 3), float32]", "",
      "concatenate requires a tuple of tensors as the first argument, found Tensor[(2, 3), float32]");
  /* verify_stack in test_op_level3.py */
  assert_infers("stack", "(Tensor[(2), float32], Tensor[(2), float32], Tensor[(2), float32])", "axis=-1",
                "Tensor[(2, 3), float32]");
  assert_infers("stack", "(Tensor[(2, 2, 3, 4), float32], Tensor[(2, 2, 3, 4), float32])", "axis=4",
                "Tensor[(2, 2, 3, 4, 2), float32]");
  assert_infers("stack", "(Tensor[(2, 3), float32], Tensor[(2, 3), float32])", "",
                "Tensor[(2, 2, 3), float32]");
  assert_rejects("stack", "(Tensor[(2, 3), float32], Tensor[(2, 4), float32])", "",
                 "requires all tensors have the same shape on non-stacking axes");
  assert_rejects("stack", "(Tensor[(2, 3), float32], Tensor[(2, 3), float32])", "axis=3",
                 "stack only accepts `axis`");
}

static void test_split(void **state) {
  (void)state;
  /* tuples.relay, lstm.relay, test_pass_collage_partition */
  assert_infers("split", "Tensor[(4, 6), float32]", "indices_or_sections=3, axis=1",
                "(Tensor[(4, 2), float32], Tensor[(4, 2), float32], Tensor[(4, 2), float32])");
  assert_infers(
      "split", "Tensor[(50, 32, 2304), float32]", "indices_or_sections=[768, 1536], axis=2",
      "(Tensor[(50, 32, 768), float32], Tensor[(50, 32, 768), float32], Tensor[(50, 32, 768), float32])");
  assert_infers("split", "Tensor[(3, 3, 4), float32]", "indices_or_sections=3",
                "(Tensor[(1, 3, 4), float32], Tensor[(1, 3, 4), float32], Tensor[(1, 3, 4), float32])");
  assert_infers("split", "Tensor[(?, 6), float32]", "indices_or_sections=2",
                "(Tensor[(?, 6), float32], Tensor[(?, 6), float32])");
  assert_infers("split", "Tensor[(?, 6), float32]", "indices_or_sections=[2]",
                "(Tensor[(2, 6), float32], Tensor[(?, 6), float32])");
  assert_infers("split", "Tensor[(5, 4), float32]", "indices_or_sections=[1, 3], axis=-2",
                "(Tensor[(1, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])");
  assert_rejects("split", "Tensor[(4, 6), float32]", "indices_or_sections=4, axis=1",
                 "need to be able to divide input.shape[axis]");
  assert_rejects("split", "Tensor[(4, 6), float32]", "indices_or_sections=[3, 2], axis=1",
                 "need to be a sorted ascending list");
  assert_rejects("split", "Tensor[(4, 6), float32]", "indices_or_sections=[2, 6], axis=1",
                 "The sum of sections must match");
  assert_rejects("split", "Tensor[(4, 6), float32]", "indices_or_sections=2, axis=2",
                 "axis should be within the input dimension range");
  assert_rejects("split", "float32", "indices_or_sections=2", "Input shape cannot be empty");
}

static void test_strided_slice(void **state) {
  (void)state;
  /* attrs_ops.relay, test_sub_graph, test_compiler_function_utils */
  assert_infers("strided_slice", "Tensor[(1, 8, 18, 20), float32]",
                "begin=[0, 0, 1, 1], end=[1, 8, 15, 15], strides=[1, 2, 1, 1], axes=None",
                "Tensor[(1, 4, 14, 14), float32]");
  assert_infers("strided_slice", "Tensor[(1, 50, 50, 3), float32]",
                "begin=[0, 20, 0, 0], end=[1, 45, 50, 3], strides=[1]", "Tensor[(1, 25, 50, 3), float32]");
  assert_infers("strided_slice", "Tensor[(1, 384, 128), float16]",
                "begin=[0, 0, 0], end=[1, -1, 128], strides=[1, 1, 1]", "Tensor[(1, 383, 128), float16]");
  /* verify in test_strided_slice (test_op_level3.py) */
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]",
                "begin=[0, 0, 0], end=[4, -5, 4], strides=[1, -1, 2]", "Tensor[(3, 1, 2), float32]");
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]",
                "begin=[1, -1, 0], end=[4, -5, 3], strides=[2, -1, 1]", "Tensor[(1, 4, 3), float32]");
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]",
                "begin=[1, 1, 0], end=[4, 1000, 3], strides=[1]", "Tensor[(2, 3, 3), float32]");
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]", "begin=[1, 1], end=[4, 4, 3], strides=[1]",
                "Tensor[(2, 3, 3), float32]");
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]",
                "begin=[-1, -1, -1], end=[-5, -5, -5], strides=[-1, -1, -1]", "Tensor[(3, 4, 3), float32]");
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]",
                "begin=[1, 0, 0], end=[3, -1, 3], strides=[1, 1, 1], slice_mode=\"size\"",
                "Tensor[(2, 4, 3), float32]");
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]",
                "begin=[1, 0, 0], end=[-1, 2, 3], strides=[1, 1, 1], slice_mode=\"size\"",
                "Tensor[(2, 2, 3), float32]");
  assert_infers("strided_slice", "Tensor[(3, 4, 3), float32]", "begin=[1], end=[4], strides=[1], axes=[1]",
                "Tensor[(3, 3, 3), float32]");
  /* an unknown dimension stays unknown */
  assert_infers("strided_slice", "Tensor[(?, 4), float32]", "begin=[0, 1], end=[2, 3], strides=[1]",
                "Tensor[(?, 2), float32]");
  assert_rejects("strided_slice", "Tensor[(3), float32]", "begin=[2], end=[1], strides=[1]",
                 "Input [Begin=2, End=1] is invalid for axis=0");
  assert_rejects("strided_slice", "Tensor[(3), float32]", "begin=None, end=[1], strides=[1]",
                 "received invalid begin");
  assert_rejects("strided_slice", "Tensor[(3, 3), float32]", "begin=[0], end=[1, 2], strides=[1], axes=[0]",
                 "axes, begin, end, and strides must have the same length");
  assert_rejects("strided_slice", "Tensor[(3), float32]", "begin=[0, 0], end=[1, 1], strides=[1]",
                 "more entries");
  /* dynamic_shapes.relay */
  assert_infers("dyn.strided_slice",
                "Tensor[(?, 4), float32], Tensor[(2), int32], Tensor[(2), int64], Tensor[(2), int32]",
                "begin=None, end=None, strides=None, axes=None", "Tensor[(?, ?), float32]");
  assert_infers("dyn.strided_slice",
                "Tensor[(3, 4, 5), float32], Tensor[(1), int64], Tensor[(1), int64], Tensor[(1), int64]", "",
                "Tensor[(?, 4, 5), float32]");
}

static void test_slice_like(void **state) {
  (void)state;
  /* dynamic_shapes.relay */
  assert_infers("slice_like", "Tensor[(2), int32], Tensor[(2), int32]", "axes=None", "Tensor[(2), int32]");
  /* verify_slice_like in test_op_level10.py */
  assert_infers("slice_like", "Tensor[(3, 4, 5), float32], Tensor[(1, 2, 3), float32]", "",
                "Tensor[(1, 2, 3), float32]");
  assert_infers("slice_like", "Tensor[(3, 4, 5), float32], Tensor[(1, 2), float32]", "",
                "Tensor[(1, 2, 5), float32]");
  assert_infers("slice_like", "Tensor[(3, 4, 5), float32], Tensor[(1, 2, 3), float32]", "axes=[1, 2]",
                "Tensor[(3, 2, 3), float32]");
  assert_infers("slice_like", "Tensor[(3, 4, 5), float32], Tensor[(1, 2, 3), float32]", "axes=[-1, -3]",
                "Tensor[(1, 4, 3), float32]");
  assert_rejects("slice_like", "Tensor[(3, 4), float32], Tensor[(5, 2), float32]", "",
                 "End index of axis 0 exceeds input shape: 5 vs 3");
  assert_rejects("slice_like", "Tensor[(3, 4), float32], Tensor[(1, 2), float32]", "axes=[]",
                 "Axes cannot be empty.");
}

static void test_take_gather(void **state) {
  (void)state;
  /* constants_metadata.relay, test_pass_collage_partition */
  assert_infers("take", "Tensor[(2, 3), float32], Tensor[(2), int64]", "axis=0", "Tensor[(2, 3), float32]");
  assert_infers("take", "Tensor[(2016, 128), float16], Tensor[(1, 384), int32]", "axis=0",
                "Tensor[(1, 384, 128), float16]");
  /* verify_take in test_op_level3.py */
  assert_infers("take", "Tensor[(3, 4), float32], Tensor[(2, 5), int32]", "", "Tensor[(2, 5), float32]");
  assert_infers("take", "Tensor[(3, 4, 5), float32], Tensor[(2, 6), int32]", "axis=-2",
                "Tensor[(3, 2, 6, 5), float32]");
  assert_infers("take", "Tensor[(2, 3, 4), float32], Tensor[(2, 5), int32]", "axis=1, batch_dims=1",
                "Tensor[(2, 5, 4), float32]");
  assert_infers("take", "Tensor[(4), float32], Tensor[(?), uint8]", "axis=0, mode=\"wrap\"",
                "Tensor[(?), float32]");
  assert_rejects("take", "Tensor[(3, 4), float32], Tensor[(2), float32]", "axis=0",
                 "indices of take must be tensor of integer");
  assert_rejects("take", "Tensor[(3, 4), float32], Tensor[(2), int32]", "axis=3",
                 "axis should be with in data shape");
  assert_rejects("take", "Tensor[(3, 4), float32], Tensor[(2), int32]", "axis=0, batch_dims=1",
                 "batch_dims should be less than or equal to axis");
  assert_rejects("take", "Tensor[(3, 4), float32], Tensor[(2), int32]", "axis=1, batch_dims=2",
                 "batch_dims should be with in indices shape");
  /* verify_gather in test_op_level3.py */
  assert_infers("gather", "Tensor[(3), float32], Tensor[(2), int32]", "axis=0", "Tensor[(2), float32]");
  assert_infers("gather", "Tensor[(4, 2), float32], Tensor[(4, 1), int64]", "axis=1",
                "Tensor[(4, 1), float32]");
  assert_infers("gather", "Tensor[(2, 2), float32], Tensor[(3, 2), int32]", "axis=-2",
                "Tensor[(3, 2), float32]");
  assert_rejects("gather", "Tensor[(4, 2), float32], Tensor[(3, 1), int32]", "axis=1", "does not match");
  /* verify_gather_nd */
  assert_infers("gather_nd", "Tensor[(2, 2), float32], Tensor[(2, 3), int32]", "", "Tensor[(3), float32]");
  assert_infers("gather_nd", "Tensor[(3, 2, 2, 3, 4), float32], Tensor[(3, 3, 2), int32]", "",
                "Tensor[(3, 2, 3, 4), float32]");
  assert_infers("gather_nd", "Tensor[(2, 2, 2), float32], Tensor[(1, 2), int32]", "batch_dims=1",
                "Tensor[(2, 2), float32]");
  assert_rejects("gather_nd", "Tensor[(2, 2), float32], Tensor[(?, 3), int32]", "",
                 "GatherND needs a static shape for the first axis of indices, got [?, 3]");
}

static void test_repetition(void **state) {
  (void)state;
  /* verify_tile, verify_repeat, verify_reverse in test_op_level3.py */
  assert_infers("tile", "Tensor[(2, 3, 4), float32]", "reps=[3, 2, 1]", "Tensor[(6, 6, 4), float32]");
  assert_infers("tile", "Tensor[(2, 3, 4), float32]", "reps=[1, 2]", "Tensor[(2, 3, 8), float32]");
  assert_infers("tile", "Tensor[(2, 3), float32]", "reps=[3, 2, 1]", "Tensor[(3, 4, 3), float32]");
  assert_infers("tile", "Tensor[(?, 3), float32]", "reps=[2, 2]", "Tensor[(?, 6), float32]");
  assert_rejects("tile", "Tensor[(2, 3), float32]", "reps=[0, 2]",
                 "Tile reps value should always be larger than 0");
  assert_infers("repeat", "Tensor[(3), float32]", "repeats=2, axis=0", "Tensor[(6), float32]");
  assert_infers("repeat", "Tensor[(3, 10), float32]", "repeats=2, axis=-1", "Tensor[(3, 20), float32]");
  assert_infers("repeat", "Tensor[(3, 2, 4), float32]", "repeats=3, axis=1", "Tensor[(3, 6, 4), float32]");
  assert_rejects("repeat", "Tensor[(3), float32]", "repeats=0, axis=0", "repeat only accepts `repeats >= 1`");
  assert_infers("reverse", "Tensor[(2, 3), float32]", "axis=1", "Tensor[(2, 3), float32]");
  assert_rejects("reverse", "Tensor[(2, 3), float32]", "axis=2",
                 "reverse only accepts `axis` in [-data.ndim, data.ndim - 1]");
}

static void test_broadcasting(void **state) {
  (void)state;
  /* test_op_grad_level2 / gradient corpora */
  assert_infers("broadcast_to_like", "Tensor[(1), float32], Tensor[(3), float32]", "",
                "Tensor[(3), float32]");
  assert_infers("collapse_sum_like", "Tensor[(3), float32], Tensor[(3), float32]", "",
                "Tensor[(3), float32]");
  assert_infers("collapse_sum_like", "Tensor[(4, 3), float32], Tensor[(3), float32]", "",
                "Tensor[(3), float32]");
  assert_rejects("collapse_sum_like", "Tensor[(3), float32], Tensor[(4, 3), float32]", "", "unable to unify");
  assert_infers("broadcast_to", "Tensor[(3, 1), float32]", "shape=[2, 3, 4]", "Tensor[(2, 3, 4), float32]");
  assert_rejects("broadcast_to", "Tensor[(3, 4), float32]", "shape=[1, 4]", "unable to unify");
  assert_rejects("broadcast_to", "Tensor[(3, 5), float32]", "shape=[3, 4]", "Incompatible broadcast type");
  /* constants_metadata.relay, dynamic_shapes.relay */
  assert_infers("where", "Tensor[(2, 3), bool], Tensor[(2, 3), float32], float32", "",
                "Tensor[(2, 3), float32]");
  assert_infers("where", "Tensor[(2), bool], Tensor[(2), int32], Tensor[(2), int32]", "",
                "Tensor[(2), int32]");
  assert_infers("where", "Tensor[(3, 1), bool], Tensor[(4), float32], float32", "",
                "Tensor[(3, 4), float32]");
  assert_rejects("where", "Tensor[(2), bool], Tensor[(2), int32], Tensor[(2), float32]", "",
                 "x and y must have the same dtype: int32 vs float32");
}

static void test_creation(void **state) {
  (void)state;
  /* lstm.fused.relay */
  assert_infers("zeros", "", "shape=[1, 128], dtype=\"float32\"", "Tensor[(1, 128), float32]");
  assert_infers("ones", "", "shape=[2], dtype=\"int8\"", "Tensor[(2), int8]");
  assert_infers("ones", "", "shape=[], dtype=\"float32\"", "float32");
  /* FullRel: a void dtype takes the fill value's */
  assert_infers("full", "float32", "shape=[2, 3], dtype=\"\"", "Tensor[(2, 3), float32]");
  assert_infers("full", "float32", "shape=[2, 3], dtype=\"int8\"", "Tensor[(2, 3), int8]");
  assert_rejects("full", "Tensor[(1), float32]", "shape=[2]",
                 "Fill value should be a scalar but has dimension 1.");
  assert_rejects("full", "float32", "shape=[2, -1]", "shape dimension -1 is negative");
  assert_infers("full_like", "Tensor[(2, 3), float32], float32", "", "Tensor[(2, 3), float32]");
  assert_rejects("full_like", "Tensor[(2, 3), float32], Tensor[(1), float32]", "",
                 "The fill value should be a scalar");
  /* arange sees only types: the length is unknown */
  assert_infers("arange", "float32, float32, float32", "dtype=\"float32\"", "Tensor[(?), float32]");
  assert_rejects("arange", "float32, int32, float32", "dtype=\"float32\"",
                 "start, stop and step must have type float32");
  /* verify_one_hot in test_op_level10.py */
  assert_infers("one_hot", "Tensor[(3), int32], int32, int32", "depth=3, axis=-1, dtype=\"int32\"",
                "Tensor[(3, 3), int32]");
  assert_infers("one_hot", "Tensor[(2, 2), int32], float32, float32", "depth=5, axis=1, dtype=\"float32\"",
                "Tensor[(2, 5, 2), float32]");
  assert_infers("one_hot", "Tensor[(3, 2, 4, 5), int32], int32, int32", "depth=6, axis=0, dtype=\"int32\"",
                "Tensor[(6, 3, 2, 4, 5), int32]");
}

static void test_shapes(void **state) {
  (void)state;
  /* dynamic_shapes.relay; partition_rule_test__2 prints shape_of without dtype as Tensor[(2), ]:
     TVM's default dtype is void, not the Python API's "int32" */
  assert_infers("shape_of", "Tensor[(?, 4), float32]", "dtype=\"int32\"", "Tensor[(2), int32]");
  assert_infers("shape_of", "Tensor[(10, 10), float32]", "", "Tensor[(2), ]");
  assert_infers("shape_of", "float32", "dtype=\"int64\"", "int64");
  assert_infers("argwhere", "Tensor[(?, 4), bool]", "", "Tensor[(?, 2), int32]");
  assert_infers("argwhere", "Tensor[(2, 3, 4), int32]", "", "Tensor[(?, 3), int32]");
}

static void test_layout_transform(void **state) {
  (void)state;
  /* attrs_ops.relay, test_pass_lower_te, test_sub_graph, test_legacy_tuning */
  assert_infers("layout_transform", "Tensor[(1, 8, 16, 16), float32]",
                "src_layout=\"NCHW\", dst_layout=\"NHWC\"", "Tensor[(1, 16, 16, 8), float32]");
  assert_infers("layout_transform", "Tensor[(1, 32, 40, 40), float32]",
                "src_layout=\"NCHW\", dst_layout=\"NCHW4c\"", "Tensor[(1, 8, 40, 40, 4), float32]");
  assert_infers("layout_transform", "Tensor[(1, 8, 40, 40, 4), float32]",
                "src_layout=\"NCHW4c\", dst_layout=\"NCHW\"", "Tensor[(1, 32, 40, 40), float32]");
  assert_infers("layout_transform", "Tensor[(4, 4, 3, 3), float32]",
                "src_layout=\"OIHW\", dst_layout=\"OIHW4i4o\"", "Tensor[(1, 1, 3, 3, 4, 4), float32]");
  assert_infers("layout_transform", "Tensor[(32, 16, 3, 3), float16]",
                "src_layout=\"OIHW\", dst_layout=\"OHWI\"", "Tensor[(32, 3, 3, 16), float16]");
  /* re-splitting, a channel count the factor does not divide (shapediv rounds up), and `?` */
  assert_infers("layout_transform", "Tensor[(1, 2, 8, 8, 16), float32]",
                "src_layout=\"NCHW16c\", dst_layout=\"NCHW4c\"", "Tensor[(1, 8, 8, 8, 4), float32]");
  assert_infers("layout_transform", "Tensor[(1, 30, 8, 8), float32]",
                "src_layout=\"NCHW\", dst_layout=\"NCHW16c\"", "Tensor[(1, 2, 8, 8, 16), float32]");
  assert_infers("layout_transform", "Tensor[(?, 3, 8, 8), float32]",
                "src_layout=\"NCHW\", dst_layout=\"NHWC\"", "Tensor[(?, 8, 8, 3), float32]");
  assert_rejects("layout_transform", "Tensor[(1, 3, 8, 8), float32]",
                 "src_layout=\"NCHW\", dst_layout=\"NCDHW\"", "cannot convert from NCHW to NCDHW");
  assert_rejects("layout_transform", "Tensor[(1, 3, 8), float32]", "src_layout=\"NCHW\", dst_layout=\"NHWC\"",
                 "Input shape size 3 mismatch with the expected shape size 4");
  assert_rejects("layout_transform", "Tensor[(1, 2, 8, 8, 8), float32]",
                 "src_layout=\"NCHW4c\", dst_layout=\"NCHW\"",
                 "Input shape mismatch at index 4. Expected 4, get 8");
  assert_rejects("layout_transform", "Tensor[(1, 3, 8, 8), float32]",
                 "src_layout=\"NCHWc\", dst_layout=\"NCHW\"", "invalid factor size 0 for dimension c");
  assert_rejects("layout_transform", "Tensor[(1, 3, 8, 8), float32]", "src_layout=\"\", dst_layout=\"NCHW\"",
                 "cannot convert from/to undefined layout");
}

static void test_sorting(void **state) {
  (void)state;
  /* attrs_ops.relay */
  assert_infers("topk", "Tensor[(1, 2048), float32]", "k=5, dtype=\"int32\"",
                "(Tensor[(1, 5), float32], Tensor[(1, 5), int32])");
  assert_infers("topk", "Tensor[(3, 4), float32]", "k=2, axis=0, ret_type=\"values\"",
                "Tensor[(2, 4), float32]");
  assert_infers("topk", "Tensor[(3, 4), float32]", "k=0, ret_type=\"indices\", dtype=\"int64\"",
                "Tensor[(3, 4), int64]");
  /* no dtype: TVM's default is void */
  assert_infers("topk", "Tensor[(3, 4), float32]", "k=1", "(Tensor[(3, 1), float32], Tensor[(3, 1), ])");
  assert_rejects("topk", "Tensor[(3, 4), float32]", "k=1, ret_type=\"all\"", "Unsupported ret type: all");
  assert_rejects("topk", "Tensor[(3, 4), float32]", "k=1, axis=2", "out of range");
  assert_infers("sort", "Tensor[(3, 4), float32]", "axis=0, is_ascend=False", "Tensor[(3, 4), float32]");
  assert_infers("argsort", "Tensor[(3, 4), float32]", "axis=1, dtype=\"int32\"", "Tensor[(3, 4), int32]");
  assert_infers("argsort", "Tensor[(3, 4), float32]", "dtype=\"int64\"", "Tensor[(3, 4), int64]");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reshape),
      cmocka_unit_test(test_reshape_rejects),
      cmocka_unit_test(test_reshape_like_and_dynamic),
      cmocka_unit_test(test_transpose),
      cmocka_unit_test(test_squeeze_expand_dims),
      cmocka_unit_test(test_concatenate_stack),
      cmocka_unit_test(test_split),
      cmocka_unit_test(test_strided_slice),
      cmocka_unit_test(test_slice_like),
      cmocka_unit_test(test_take_gather),
      cmocka_unit_test(test_repetition),
      cmocka_unit_test(test_broadcasting),
      cmocka_unit_test(test_creation),
      cmocka_unit_test(test_shapes),
      cmocka_unit_test(test_layout_transform),
      cmocka_unit_test(test_sorting),
  };
  return cmocka_run_group_tests_name("ops_transform", tests, NULL, NULL);
}
