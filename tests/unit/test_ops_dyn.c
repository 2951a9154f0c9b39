/* Dynamic relations against TVM's results: the types TVM v0.13's tests/python/relay/dyn/ expect
   (test_dynamic_op_level2.py: upsampling, upsampling3d, pad; level3: squeeze, expand_dims, tile,
   zeros/ones, full, sparse_to_dense; level5: resize2d; level6: topk; level10: one_hot), with the
   argument types those tests declare; symbolic sizes there are `?` here.  Messages are TVM's
   ICHECK texts (src/relay/op/dyn/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define EXPAND_KEY "attrs_type_key=\"relay.attrs.DynExpandDimsAttrs\""

static void test_expand_dims(void **state) {
  (void)state;
  /* verify_expand_dims((2, 2), dtype, ..., axis, num_newaxis) with an int64 scalar axis */
  assert_infers("dyn.expand_dims", "Tensor[(2, 2), float32], int64", EXPAND_KEY, "Tensor[(?, ?, ?), float32]");
  assert_infers("dyn.expand_dims", "Tensor[(2, 2), float16], int64", "num_newaxis=4, " EXPAND_KEY,
                "Tensor[(?, ?, ?, ?, ?, ?), float16]");
  assert_infers("dyn.expand_dims", "Tensor[(2, 2), float16], int64", "num_newaxis=0, " EXPAND_KEY,
                "Tensor[(?, ?), float16]");
  assert_rejects("dyn.expand_dims", "Tensor[(2, 2), float32], Tensor[(1), int64]", EXPAND_KEY,
                 "Axis should be a scalar got shape [1]");
  assert_rejects("dyn.expand_dims", "Tensor[(2, 2), float32], int64", "num_newaxis=-1, " EXPAND_KEY,
                 "num_newaxis: value -1 is smaller than the lower bound 0");
  /* TVM registers no attrs type: without attributes its relation has none to read */
  assert_rejects("dyn.expand_dims", "Tensor[(2, 2), float32], int64", "", "the call has no attributes");
  assert_rejects("dyn.expand_dims", "Tensor[(2, 2), float32], int64", "num_newaxis=2",
                 "unable to determine the 'attrs_type_key'");
  assert_rejects("dyn.expand_dims", "(float32,), int64", EXPAND_KEY,
                 "expand_dims: expect input type to be TensorType but get (float32,)");
}

static void test_creation(void **state) {
  (void)state;
  /* verify_full(4, (1, 3, 4, 4), "int32"), (4.0, (2, 50), "float32"): a scalar and an int64 shape */
  assert_infers("dyn.full", "int32, Tensor[(4), int64]", "dtype=\"int32\"", "Tensor[(?, ?, ?, ?), int32]");
  assert_infers("dyn.full", "float32, Tensor[(2), int64]", "", "Tensor[(?, ?), float32]");
  assert_infers("dyn.full", "float32, Tensor[(2), int64]", "dtype=\"int64\"", "Tensor[(?, ?), int64]");
  assert_rejects("dyn.full", "Tensor[(1), float32], Tensor[(2), int64]", "",
                 "Fill value should be a scalar but has dimension 1.");
  assert_rejects("dyn.full", "float32, Tensor[(?), int64]", "", "Parameter shape must have static rank");
  /* verify_zeros_ones((1, 3), "int64"), ((8, 9, 1, 2), "float32") */
  assert_infers("dyn.zeros", "Tensor[(2), int64]", "dtype=\"int64\"", "Tensor[(?, ?), int64]");
  assert_infers("dyn.ones", "Tensor[(4), int64]", "dtype=\"float32\"", "Tensor[(?, ?, ?, ?), float32]");
  /* InitOpRel takes the dtype as it is: void without one */
  assert_infers("dyn.zeros", "Tensor[(2), int64]", "", "Tensor[(?, ?), ]");
  assert_rejects("dyn.ones", "Tensor[(?), int64]", "dtype=\"float32\"", "Parameter shape must have static rank");
  assert_rejects("dyn.ones", "int64", "dtype=\"float32\"", "must be a 1-D tensor, got a scalar");
  assert_rejects("dyn.zeros", "(int64, int64)", "dtype=\"float32\"", "expects a tensor as argument 1");
  /* _verify((3,), 3, 1, 0, -1, "int32"), ((2, 2), 5, 2, -2, 0, ...), ((3, 2, 4, 5), 6, 1, 0, 1, ...) */
  assert_infers("dyn.one_hot", "Tensor[(3), int32], int32, int32, int32", "dtype=\"int32\"", "Tensor[(3, ?), int32]");
  assert_infers("dyn.one_hot", "Tensor[(2, 2), int32], float32, float32, int32", "axis=0, dtype=\"float32\"",
                "Tensor[(?, 2, 2), float32]");
  assert_infers("dyn.one_hot", "Tensor[(3, 2, 4, 5), int32], int32, int32, int32", "axis=1, dtype=\"int32\"",
                "Tensor[(3, ?, 2, 4, 5), int32]");
  assert_infers("dyn.one_hot", "Tensor[(2, 2), int32], int32, int32, int32", "axis=2, dtype=\"int32\"",
                "Tensor[(2, 2, ?), int32]");
  assert_rejects("dyn.one_hot", "Tensor[(2, 2), int32], int32, int32, int32", "axis=3, dtype=\"int32\"",
                 "axis 3 is out of range");
  assert_rejects("dyn.one_hot", "Tensor[(2, 2), int32], int32, int32, int32", "axis=-2, dtype=\"int32\"",
                 "axis -2 is out of range");
}

static void test_sparse_to_dense(void **state) {
  (void)state;
  /* verify_sparse_to_dense(1, 3, 0, [5], ...), ([[0, 0], [1, 2]], [1, 2], 0, [3, 4], ...): numpy's
     int64 arrays */
  assert_infers("dyn.sparse_to_dense", "int64, int64, int64, Tensor[(1), int64]", "", "Tensor[(?), int64]");
  assert_infers("dyn.sparse_to_dense", "Tensor[(2, 2), int64], Tensor[(2), int64], int64, Tensor[(2), int64]", "",
                "Tensor[(?, ?), int64]");
  assert_infers("dyn.sparse_to_dense", "Tensor[(2, 3), int32], Tensor[(2), float32], float32, Tensor[(3), int32]", "",
                "Tensor[(?, ?, ?), float32]");
  assert_rejects("dyn.sparse_to_dense", "Tensor[(2), float32], Tensor[(2), int64], int64, Tensor[(1), int64]", "",
                 "sparse_indices must be tensor of integers");
  assert_rejects("dyn.sparse_to_dense", "Tensor[(2), uint8], Tensor[(2), int64], int64, Tensor[(1), int64]", "",
                 "sparse_indices must be tensor of integers");
  assert_rejects("dyn.sparse_to_dense", "Tensor[(2), int64], Tensor[(2, 1, 1), int64], int64, Tensor[(1), int64]", "",
                 "sparse_values must be a tensor of either 0D, 1D");
  assert_rejects("dyn.sparse_to_dense", "Tensor[(2), int64], Tensor[(2), int64], Tensor[(1), int64], Tensor[(1), int64]",
                 "", "default_value should be a scalar");
  /* no attributes at all: TVM registers no attrs type and its Python API builds the call without */
  assert_rejects("dyn.sparse_to_dense", "int64, int64, int64, Tensor[(1), int64]", "axis=0", "has no attribute");
}

static void test_squeeze_tile(void **state) {
  (void)state;
  /* verify_squeeze((1, 3, 1), "float32", [0]), ((1, 2, 1, 2, 1), "float32", [0, 2]): int64 axes */
  assert_infers("dyn.squeeze", "Tensor[(1, 3, 1), float32], Tensor[(1), int64]", "", "Tensor[(?, ?), float32]");
  assert_infers("dyn.squeeze", "Tensor[(1, 2, 1, 2, 1), float32], Tensor[(2), int64]", "",
                "Tensor[(?, ?, ?), float32]");
  assert_rejects("dyn.squeeze", "Tensor[(1, 3, 1), float32], Tensor[(1, 1), int64]", "", "Got2expected 1");
  assert_rejects("dyn.squeeze", "Tensor[(1, 3, 1), float32], Tensor[(?), int64]", "", "axes expected to be static rank");
  assert_rejects("dyn.squeeze", "Tensor[(1, 3), float32], Tensor[(3), int64]", "", "negative rank");
  /* verify_tile((2, 3, 4), (3, 2, 1)), ((2, 3, 4), (1, 2)), ((2, 3), (3, 2, 1)): float32 reps */
  assert_infers("dyn.tile", "Tensor[(2, 3, 4), float32], Tensor[(3), float32]", "", "Tensor[(?, ?, ?), float32]");
  assert_infers("dyn.tile", "Tensor[(2, 3, 4), float32], Tensor[(2), float32]", "", "Tensor[(?, ?, ?), float32]");
  assert_infers("dyn.tile", "Tensor[(2, 3), float32], Tensor[(3), float32]", "", "Tensor[(?, ?, ?), float32]");
  assert_rejects("dyn.tile", "Tensor[(2, 3), float32], Tensor[(?), float32]", "", "Parameter reps must have static shape");
  assert_rejects("dyn.tile", "Tensor[(2, 3), float32], (int32, int32)", "",
                 "tile: expect input type to be TensorType but get (int32, int32)");
}

static void test_topk(void **state) {
  (void)state;
  /* verify_topk(k, axis, ret_type, is_ascend, dtype) on (20, 100) float32 with a (1) float32 k */
  const char *args = "Tensor[(20, 100), float32], Tensor[(1), float32]";
  assert_infers("dyn.topk", args, "axis=0, is_ascend=True, dtype=\"int64\"",
                "(Tensor[(?, 100), float32], Tensor[(?, 100), int64])");
  assert_infers("dyn.topk", args, "ret_type=\"values\", dtype=\"float32\"", "Tensor[(20, ?), float32]");
  assert_infers("dyn.topk", args, "axis=1, ret_type=\"indices\", dtype=\"float32\"", "Tensor[(20, ?), float32]");
  assert_infers("dyn.topk", "Tensor[(20, 100), float32], int32", "ret_type=\"indices\", dtype=\"int32\"",
                "Tensor[(20, ?), int32]");
  assert_rejects("dyn.topk", "Tensor[(20, 100), float32], Tensor[(2), int32]", "",
                 "Parameter k must be a Scalar or a Tensor of shape (1, )");
  assert_rejects("dyn.topk", "Tensor[(20, 100), float32], Tensor[(?), int32]", "", "Parameter k must have static shape");
  assert_rejects("dyn.topk", args, "ret_type=\"all\"", "Unsupported ret type: all");
  assert_rejects("dyn.topk", args, "axis=2", "axis >= 0 && axis < ndim");
}

static void test_pad(void **state) {
  (void)state;
  /* verify_pad((4, 10, 7, 7), ..., "int32"), ((2, 7), ..., "float64"): an int64 (ndim, 2) pad_width */
  assert_infers("dyn.nn.pad", "Tensor[(4, 10, 7, 7), int32], Tensor[(4, 2), int64], int32", "",
                "Tensor[(?, ?, ?, ?), int32]");
  assert_infers("dyn.nn.pad", "Tensor[(2, 7), float64], Tensor[(2, 2), int64], float64", "pad_mode=\"edge\"",
                "Tensor[(?, ?), float64]");
  assert_rejects("dyn.nn.pad", "Tensor[(2, 7), float64], Tensor[(4), int64], float64", "", "Pad width must be 2D");
  assert_rejects("dyn.nn.pad", "float64, Tensor[(0, 2), int64], float64", "", "Data shape must have static rank");
}

static void test_spatial(void **state) {
  (void)state;
  /* test_dyn_upsampling_infer_type_const: (n, c, h, w) int8, float32 scalar scales */
  assert_infers("dyn.nn.upsampling", "Tensor[(?, ?, 5, 6), int8], float32, float32", "", "Tensor[(?, ?, ?, ?), int8]");
  assert_infers("dyn.nn.upsampling", "Tensor[(1, 16, 32, 32), float32], float32, float32",
                "layout=\"NHWC\", method=\"bilinear\", align_corners=True", "Tensor[(1, ?, ?, 32), float32]");
  assert_infers("dyn.nn.upsampling", "Tensor[(1, 16, 32, 32), float32], float32, float32", "",
                "Tensor[(1, 16, ?, ?), float32]");
  assert_rejects("dyn.nn.upsampling", "Tensor[(1, 16, 32, 32), float32], Tensor[(1), float32], float32", "",
                 "scale_h->shape.size() == 0");
  /* TVM's parser cannot set a double to None ("Check failed: (expr.defined())"); its Python API
     writes 0f for the unused scales */
  assert_rejects("dyn.nn.upsampling", "Tensor[(1, 16, 32, 32), float32], float32, float32", "scale_h=None",
                 "attribute 'scale_h' of dyn.nn.upsampling must be a float");
  assert_infers("dyn.nn.upsampling", "Tensor[(1, 16, 32, 32), float32], float32, float32", "scale_h=0f, scale_w=0f",
                "Tensor[(1, 16, ?, ?), float32]");
  assert_rejects("dyn.nn.upsampling", "Tensor[(1, 16, 32), float32], float32, float32", "layout=\"NCW\"",
                 "UpSampling only supports input layouts that are convertible from NCHW. But got NCW");
  /* test_dyn_upsampling3d_infer_type_const and verify_upsampling3d((1, 20, 3, 4, 16), ..., "NDHWC") */
  assert_infers("dyn.nn.upsampling3d", "Tensor[(?, ?, 3, 4, 5), int8], float32, float32, float32",
                "method=\"trilinear\"", "Tensor[(?, ?, ?, ?, ?), int8]");
  assert_infers("dyn.nn.upsampling3d", "Tensor[(1, 20, 3, 4, 16), float32], float32, float32, float32",
                "layout=\"NDHWC\"", "Tensor[(1, ?, ?, ?, 16), float32]");
  assert_rejects("dyn.nn.upsampling3d", "Tensor[(1, 20, 3, 4, 16), float32], float32, float32, float32",
                 "layout=\"NCHW\"", "UpSampling3D only support input layouts that are convertible from NCDHW. But got NCHW");
  /* test_resize2d_infer_type: an int8 (2) size; the Python API makes roi a (4) float32 constant */
  assert_infers("dyn.image.resize2d", "Tensor[(?, ?, 5, 6), int8], Tensor[(2), int8], Tensor[(4), float32]", "",
                "Tensor[(?, ?, ?, ?), int8]");
  assert_infers("dyn.image.resize2d", "Tensor[(2, 17, 20, 8), float32], Tensor[(2), int64], Tensor[(4), float32]",
                "layout=\"NHWC\", method=\"nearest_neighbor\", coordinate_transformation_mode=\"asymmetric\"",
                "Tensor[(2, ?, ?, 8), float32]");
  assert_infers("dyn.image.resize2d", "Tensor[(2, 8, 17, 20), float32], Tensor[(2), int64], Tensor[(4), float32]",
                "out_dtype=\"float16\"", "Tensor[(2, 8, ?, ?), float16]");
  assert_rejects("dyn.image.resize2d", "Tensor[(2, 8, 17, 20), float32], Tensor[(2), int64], Tensor[(4), float32]",
                 "layout=\"NCDHW\"", "Resize only support input layouts that are convertible from NCHW. But got NCDHW");
  assert_rejects("dyn.image.resize2d", "Tensor[(2, 8, 17), float32], Tensor[(2), int64], Tensor[(4), float32]", "",
                 "Input shape size 3 mismatch with the expected shape size 4");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_expand_dims), cmocka_unit_test(test_creation), cmocka_unit_test(test_sparse_to_dense),
      cmocka_unit_test(test_squeeze_tile), cmocka_unit_test(test_topk),    cmocka_unit_test(test_pad),
      cmocka_unit_test(test_spatial),
  };
  return cmocka_run_group_tests_name("ops_dyn", tests, NULL, NULL);
}
