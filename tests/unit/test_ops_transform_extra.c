/* The transform_extra family (ops/transform_extra.c).  Accepted cases come from TVM v0.13's tests
   where they exist: tests/python/relay/test_op_level10.py (collapse_sum_to, reverse_reshape,
   sequence_mask, matrix_set_diag), test_op_level3.py (sliding_window, meshgrid, reverse_sequence,
   trilu), test_op_level4.py (strided_set), tests/python/topi/python/test_topi_einsum.py and
   test_pass_merge_composite.py (einsum). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_schema_test.h"
#include "op_test.h"

/* include/tvm/relay/attrs/transform.h: InitOpAttrs, ReshapeAttrs, EinsumAttrs, MatrixSetDiagAttrs,
   MeshgridAttrs, ReverseSequenceAttrs, SequenceMaskAttrs, SlidingWindowAttrs, TriluAttrs. */
static void test_schemas(void **state) {
  (void)state;
  assert_schema("collapse_sum_to", "shape=None, dtype=\"\"");
  assert_schema("contrib_reverse_reshape", "newshape=None, allowzero=False");
  assert_schema("einsum", "equation=None");
  assert_schema("matrix_set_diag", "k1=0, k2=0, super_diag_right_align=True, sub_diag_right_align=False");
  assert_schema("meshgrid", "indexing=\"ij\"");
  assert_schema("reverse_sequence", "seq_axis=1, batch_axis=0");
  assert_schema("sequence_mask", "mask_value=0f, axis=0");
  assert_schema("sliding_window", "axis=None, window_shape=None, strides=None");
  assert_schema("trilu", "upper=True");
  assert_schema("invert_permutation", "");
  assert_schema("strided_set", "");
}

/* test_collapse_sum_to: (3, 4, 5, 6) to (4, 5, 6). */
static void test_collapse_sum_to(void **state) {
  (void)state;
  assert_infers("collapse_sum_to", "Tensor[(3, 4, 5, 6), float32], Tensor[(3), int64]", "shape=[4, 5, 6]",
                "Tensor[(4, 5, 6), float32]");
  assert_infers("collapse_sum_to", "Tensor[(3, 4, 5, 6), float32], Tensor[(4), int64]", "shape=[3, 1, 5, 1]",
                "Tensor[(3, 1, 5, 1), float32]");
  /* without a constant shape: `?` per element of the shape argument */
  assert_infers("collapse_sum_to", "Tensor[(3, 4), float32], Tensor[(2), int64]", "shape=None",
                "Tensor[(?, ?), float32]");
  assert_rejects("collapse_sum_to", "Tensor[(3, 4, 5, 6), float32], Tensor[(3), int64]", "shape=[4, 5, 7]",
                 "Incompatible broadcast type");
  assert_rejects("collapse_sum_to", "Tensor[(4, 1), float32], Tensor[(2), int64]", "shape=[4, 3]",
                 "unable to unify");
  assert_rejects("collapse_sum_to", "Tensor[(4, 1), float32], int64", "shape=[4, 1]",
                 "Parameter must have static rank");
}

/* test_reverse_reshape: (2, 3, 4) with the special values read from the right. */
static void test_reverse_reshape(void **state) {
  (void)state;
  assert_infers("contrib_reverse_reshape", "Tensor[(2, 3, 4), float32]", "newshape=[4, 0, 2]",
                "Tensor[(4, 3, 2), float32]");
  assert_infers("contrib_reverse_reshape", "Tensor[(2, 3, 4), float32]", "newshape=[2, 0, 0]",
                "Tensor[(2, 3, 4), float32]");
  assert_infers("contrib_reverse_reshape", "Tensor[(2, 3, 4), float32]", "newshape=[0, -1]",
                "Tensor[(3, 8), float32]");
  assert_infers("contrib_reverse_reshape", "Tensor[(2, 3, 4), float32]", "newshape=[-1, 0]",
                "Tensor[(6, 4), float32]");
  assert_infers("contrib_reverse_reshape", "Tensor[(2, 3, 4), float32]", "newshape=[0, -3]",
                "Tensor[(2, 12), float32]");
  /* reshape itself differs on the first: from the left, 0 copies the 2 */
  assert_infers("reshape", "Tensor[(2, 3, 4), float32]", "newshape=[0, -1]", "Tensor[(2, 12), float32]");
  assert_rejects("contrib_reverse_reshape", "Tensor[(2, 3, 4), float32]", "newshape=[5, -1]",
                 "not compatible");
  assert_rejects("contrib_reverse_reshape", "Tensor[(2, 3, 4), float32]", "",
                 "newshape must be a list of integers");
}

/* test_topi_einsum.py's equations with their numpy shapes, and the merge_composite one. */
static void test_einsum(void **state) {
  (void)state;
  assert_infers("einsum", "(Tensor[(5, 5), float32],)", "equation=\"ii\"", "float32");
  assert_infers("einsum", "(Tensor[(5, 5), float32],)", "equation=\"ii->i\"", "Tensor[(5), float32]");
  assert_infers("einsum", "(Tensor[(5, 5), float32],)", "equation=\"ij->i\"", "Tensor[(5), float32]");
  assert_infers("einsum", "(Tensor[(5, 5), float32],)", "equation=\"...j->...\"", "Tensor[(5), float32]");
  assert_infers("einsum", "(Tensor[(5, 5), float32], Tensor[(5), float32])", "equation=\"...j, j\"",
                "Tensor[(5), float32]");
  assert_infers("einsum", "(float32, Tensor[(2, 3), float32])", "equation=\"..., ...\"",
                "Tensor[(2, 3), float32]");
  assert_infers("einsum", "(Tensor[(3, 4, 5), float32], Tensor[(4, 3, 2), float32])",
                "equation=\"ijk, jil->kl\"", "Tensor[(5, 2), float32]");
  assert_infers("einsum", "(Tensor[(1, 4), float32], Tensor[(2, 4), float32])", "equation=\"ij, ij -> i\"",
                "Tensor[(2), float32]");
  assert_infers("einsum", "(Tensor[(1, 4), float32], Tensor[(4, 2), float32])",
                "equation=\"...ij, ...jk -> ...ik\"", "Tensor[(1, 2), float32]");
  assert_infers("einsum", "(Tensor[(1, 1, 1, 4), float32], Tensor[(1, 1, 1, 3), float32])",
                "equation=\"...ij, ...ik -> ...jk\"", "Tensor[(1, 1, 4, 3), float32]");
  assert_infers(
      "einsum",
      "(Tensor[(3, 4, 4), float32], Tensor[(1, 5, 3, 8, 4), float32], Tensor[(2, 5, 3, 6, 4), float32])",
      "equation=\"...ik, ...jk, ...hk -> i...jh\"", "Tensor[(4, 2, 5, 3, 8, 6), float32]");
  assert_infers("einsum", "(Tensor[(2, 3), float32], Tensor[(3, 4), float32], Tensor[(4, 5), float32])",
                "equation=\"ij,jk,km->im\"", "Tensor[(2, 5), float32]");
  assert_infers("einsum", "(Tensor[(20, 5), float32], Tensor[(20, 5), float32])",
                "equation=\"...ab,...cb->...ac\"", "Tensor[(20, 20), float32]");
  /* test_einsum_symblic_shape: a symbolic extent against 1 stays symbolic */
  assert_infers("einsum", "(Tensor[(2, ?), float32], Tensor[(1, ?), float32])", "equation=\"ij,jk->ik\"",
                "Tensor[(2, ?), float32]");
  /* implicit output: labels used once, sorted (upper case first) */
  assert_infers("einsum", "(Tensor[(2, 3), int32],)", "equation=\"ba\"", "Tensor[(3, 2), int32]");
  assert_infers("einsum", "(Tensor[(2, 3), int32],)", "equation=\"aB\"", "Tensor[(3, 2), int32]");
  assert_rejects("einsum", "(Tensor[(2, 3), float32], Tensor[(4, 5), float32])", "equation=\"ij,jk->ik\"",
                 "Cannot broadcast extents 3 and 4");
  assert_rejects("einsum", "(Tensor[(2, 3), float32],)", "equation=\"ij,jk->ik\"",
                 "Number of operands does not match");
  assert_rejects("einsum", "(Tensor[(2, 3), float32],)", "equation=\"i1->i\"", "invalid character 1");
  assert_rejects("einsum", "(Tensor[(2, 3), float32],)", "equation=\"ij->k\"", "output label 'k'");
  assert_rejects("einsum", "(Tensor[(2, 3), float32],)", "equation=\"ij->i->j\"", "only have one arrow");
  assert_rejects("einsum", "(Tensor[(2, 3), float32],)", "equation=\"ijk\"", "fewer than the labels");
  assert_rejects("einsum", "(Tensor[(2, 3), float32],)", "equation=\"i\"", "current_dim");
  assert_rejects("einsum", "(Tensor[(2, 3), float32], Tensor[(3), int32])", "equation=\"ij,j\"",
                 "requires all tensors have the same dtype");
  assert_rejects("einsum", "(Tensor[(2, 3), float32],)", "", "Cannot find required field 'equation'");
  assert_rejects("einsum", "Tensor[(2, 3), float32]", "equation=\"ij\"", "requires a tuple of tensors");
}

/* test_matrix_set_diag. */
static void test_matrix_set_diag(void **state) {
  (void)state;
  assert_infers("matrix_set_diag", "Tensor[(2, 2), float32], Tensor[(2), float32]", "",
                "Tensor[(2, 2), float32]");
  assert_infers("matrix_set_diag", "Tensor[(4, 3, 3), int32], Tensor[(4, 3), int32]", "",
                "Tensor[(4, 3, 3), int32]");
  assert_infers("matrix_set_diag", "Tensor[(2, 3, 4), float32], Tensor[(2, 3), float32]", "k1=1, k2=1",
                "Tensor[(2, 3, 4), float32]");
  assert_infers("matrix_set_diag", "Tensor[(2, 3, 4), int32], Tensor[(2, 4, 3), int32]",
                "k1=-1, k2=2, super_diag_right_align=False, sub_diag_right_align=True",
                "Tensor[(2, 3, 4), int32]");
  /* TVM ignores its shape assertions */
  assert_infers("matrix_set_diag", "Tensor[(2, 3, 4), int32], Tensor[(7), int32]", "",
                "Tensor[(2, 3, 4), int32]");
  assert_rejects("matrix_set_diag", "Tensor[(2, 3, 4), int32], Tensor[(2, 4, 3), int32]", "k1=2, k2=1",
                 "param->k2 >= param->k1");
  assert_rejects("matrix_set_diag", "Tensor[(4), int32], Tensor[(4), int32]", "", "at least 2 dimensions");
  assert_rejects("matrix_set_diag", "Tensor[(3, 3), int32], Tensor[(3), int32]", "k1=-1, k2=1",
                 "at least 2 dimensions");
}

/* TestMeshgrid: lengths [3, 5] ij, [4, 2] xy, [3, 5, 2] ij, [3, 1, 5] xy, [3, 5, scalar] ij. */
static void test_meshgrid(void **state) {
  (void)state;
  assert_infers("meshgrid", "(Tensor[(3), float32], Tensor[(5), float32])", "",
                "(Tensor[(3, 5), float32], Tensor[(3, 5), float32])");
  assert_infers("meshgrid", "(Tensor[(4), float32], Tensor[(2), float32])", "indexing=\"xy\"",
                "(Tensor[(2, 4), float32], Tensor[(2, 4), float32])");
  assert_infers("meshgrid", "(Tensor[(3), float32], Tensor[(5), float32], Tensor[(2), float32])", "",
                "(Tensor[(3, 5, 2), float32], Tensor[(3, 5, 2), float32], Tensor[(3, 5, 2), float32])");
  assert_infers("meshgrid", "(Tensor[(3), float32], Tensor[(1), float32], Tensor[(5), float32])",
                "indexing=\"xy\"",
                "(Tensor[(1, 3, 5), float32], Tensor[(1, 3, 5), float32], Tensor[(1, 3, 5), float32])");
  assert_infers("meshgrid", "(Tensor[(3), float32], Tensor[(5), float32], float32)", "",
                "(Tensor[(3, 5, 1), float32], Tensor[(3, 5, 1), float32], Tensor[(3, 5, 1), float32])");
  assert_infers("meshgrid", "(Tensor[(7), int8],)", "indexing=\"xy\"", "(Tensor[(7), int8],)");
  assert_rejects("meshgrid", "(Tensor[(3), float32], Tensor[(5), int32])", "",
                 "requires all tensors have the same dtype");
  assert_rejects("meshgrid", "(Tensor[(3, 2), float32],)", "", "either scalars or 1-D vectors");
  assert_rejects("meshgrid", "Tensor[(3), float32]", "", "meshgrid requires a tuple of tensors");
}

/* test_reverse_sequence: (4, 4) with seq_lengths [1, 2, 3, 4]; (2, 3, 3, 3) with batch_axis 2. */
static void test_reverse_sequence(void **state) {
  (void)state;
  assert_infers("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(4), int32]", "seq_axis=1, batch_axis=0",
                "Tensor[(4, 4), int32]");
  assert_infers("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(4), int32]", "seq_axis=-1",
                "Tensor[(4, 4), int32]");
  assert_infers("reverse_sequence", "Tensor[(2, 3, 3, 3), int32], Tensor[(3), int32]",
                "seq_axis=1, batch_axis=2", "Tensor[(2, 3, 3, 3), int32]");
  assert_rejects("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(5), int32]", "",
                 "For reverse_sequnece seq_lengths size should match with dimension of batch axis");
  assert_rejects("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(4), float32]", "",
                 "must be tensor of integer");
  assert_rejects("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(4), uint32]", "",
                 "must be tensor of integer");
  assert_rejects("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(4, 1), int32]", "",
                 "must be a 1D vector");
  assert_rejects("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(4), int32]", "batch_axis=2",
                 "batch_axis");
  assert_rejects("reverse_sequence", "Tensor[(4, 4), int32], Tensor[(4), int32]", "seq_axis=3", "seq_axis");
}

/* test_sequence_mask: (5, 10) axis 1; (2, 3, 5, 3) axis 0 with int64 lengths; (5, 8, 3) float64 with
   float32 lengths. */
static void test_sequence_mask(void **state) {
  (void)state;
  assert_infers("sequence_mask", "Tensor[(5, 10), float32], Tensor[(5), int32]", "axis=1",
                "Tensor[(5, 10), float32]");
  assert_infers("sequence_mask", "Tensor[(2, 3, 5, 3), float32], Tensor[(3), int64]", "",
                "Tensor[(2, 3, 5, 3), float32]");
  assert_infers("sequence_mask", "Tensor[(5, 8, 3), float64], Tensor[(5), float32]",
                "mask_value=0.1f, axis=1", "Tensor[(5, 8, 3), float64]");
  assert_rejects("sequence_mask", "Tensor[(5, 10), float32], Tensor[(10), int32]", "axis=1",
                 "requires Tensor[(5), int32]");
  assert_rejects("sequence_mask", "Tensor[(5, 10), float32], Tensor[(5), int32]", "axis=2",
                 "param->axis == 0");
  assert_rejects("sequence_mask", "Tensor[(5), float32], Tensor[(5), int32]", "", "at least 2 dimensions");
}

/* test_sliding_window: (2, 3, 32, 32), axis 1, window (3, 4, 5), strides (1, 2, 3). */
static void test_sliding_window(void **state) {
  (void)state;
  assert_infers("sliding_window", "Tensor[(2, 3, 32, 32), float32]",
                "axis=1, window_shape=[3, 4, 5], strides=[1, 2, 3]",
                "Tensor[(2, 1, 15, 10, 3, 4, 5), float32]");
  assert_infers("sliding_window", "Tensor[(?, 10), int8]", "axis=1, window_shape=[4], strides=[2]",
                "Tensor[(?, 4, 4), int8]");
  assert_rejects("sliding_window", "Tensor[(2, 3, 32, 32), float32]",
                 "axis=2, window_shape=[3, 4, 5], strides=[1, 2, 3]", "does not fit");
  assert_rejects("sliding_window", "Tensor[(2, 3), float32]", "axis=0, window_shape=[4], strides=[1]",
                 "negative dimension");
  assert_rejects("sliding_window", "Tensor[(2, 3), float32]", "axis=0, strides=[1]",
                 "Cannot find required field 'window_shape'");
}

/* test_strided_set: (3, 4, 16) with v (3, 1, 2). */
static void test_small(void **state) {
  (void)state;
  assert_infers(
      "strided_set",
      "Tensor[(3, 4, 16), float32], Tensor[(3, 1, 2), float32], Tensor[(3), int64], Tensor[(3), int64], "
      "Tensor[(3), int64]",
      "", "Tensor[(3, 4, 16), float32]");
  assert_rejects("strided_set", "Tensor[(3, 4, 16), float32], Tensor[(3, 1, 2), float32]", "",
                 "expects 5 arguments");
  /* test_trilu: (8, 6, 6), lower, k = -2 */
  assert_infers("trilu", "Tensor[(8, 6, 6), float32], int64", "upper=False", "Tensor[(8, 6, 6), float32]");
  assert_rejects("trilu", "Tensor[(8, 6, 6), float32], Tensor[(1), int64]", "",
                 "Trilu: k must be a 0-D tensor");
  assert_infers("invert_permutation", "Tensor[(5), int32]", "", "Tensor[(5), int32]");
  assert_rejects("invert_permutation", "(Tensor[(5), int32],)", "", "expects a tensor");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_schemas),          cmocka_unit_test(test_collapse_sum_to),
      cmocka_unit_test(test_reverse_reshape),  cmocka_unit_test(test_einsum),
      cmocka_unit_test(test_matrix_set_diag),  cmocka_unit_test(test_meshgrid),
      cmocka_unit_test(test_reverse_sequence), cmocka_unit_test(test_sequence_mask),
      cmocka_unit_test(test_sliding_window),   cmocka_unit_test(test_small),
  };
  return cmocka_run_group_tests_name("ops_transform_extra", tests, NULL, NULL);
}
