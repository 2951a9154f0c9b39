/* The transform_index family (ops/transform_index.c).  Accepted cases come from TVM v0.13's
   tests/python/relay/test_op_level3.py (test_adv_index, test_scatter, test_scatter_nd,
   TestSparseReshape, test_sparse_to_dense, test_unravel_index) where they exist; the others follow
   the relations in src/relay/op/tensor/transform.cc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_schema_test.h"
#include "op_test.h"

/* ScatterElementsAttrs, ScatterNDAttrs, SparseToDenseAttrs. */
static void test_schemas(void **state) {
  (void)state;
  assert_schema("scatter_elements", "axis=0, reduction=\"update\"");
  assert_schema("scatter_nd", "mode=\"update\"");
  assert_schema("sparse_to_dense", "output_shape=None");
  assert_schema("adv_index", "");
  assert_schema("sparse_fill_empty_rows", "");
  assert_schema("sparse_reshape", "");
  assert_schema("unravel_index", "");
}

/* test_adv_index: data (10, 5) indexed by (3, 4) and (3, 1), by (1, 4) and (3, 1), by (2,); data
   (10, 5, 15) by (1, 2, 1) and (1, 2, 7). */
static void test_adv_index(void **state) {
  (void)state;
  assert_infers("adv_index", "(Tensor[(10, 5), float32], Tensor[(3, 4), int64], Tensor[(3, 1), int64])", "",
                "Tensor[(3, 4), float32]");
  assert_infers("adv_index", "(Tensor[(10, 5), float32], Tensor[(1, 4), int64], Tensor[(3, 1), int64])", "",
                "Tensor[(3, 4), float32]");
  assert_infers("adv_index", "(Tensor[(10, 5), float32], Tensor[(2), int64])", "", "Tensor[(2, 5), float32]");
  assert_infers("adv_index",
                "(Tensor[(10, 5, 15), float32], Tensor[(1, 2, 1), int64], Tensor[(1, 2, 7), int64])", "",
                "Tensor[(1, 2, 7, 15), float32]");
  assert_infers("adv_index", "(Tensor[(10, 5), int8], int32)", "", "Tensor[(5), int8]");
  assert_rejects("adv_index", "(Tensor[(10, 5), float32], Tensor[(3, 4), int64], Tensor[(2, 4), int64])", "",
                 "Incompatible broadcast type");
  assert_rejects("adv_index", "(Tensor[(10), float32], Tensor[(3), int64], Tensor[(3), int64])", "",
                 "too many indices for data!");
  assert_rejects("adv_index", "(Tensor[(10), float32],)", "", "at least one index");
  assert_rejects("adv_index", "Tensor[(10), float32]", "", "expects a tuple of tensors");
}

/* test_scatter: (10, 5) by (3, 5) on axis 0, (12, 4) by (7, 2) on axis 1, uint32 indices. */
static void test_scatter_elements(void **state) {
  (void)state;
  assert_infers("scatter_elements",
                "Tensor[(10, 5), float32], Tensor[(3, 5), int64], Tensor[(3, 5), float32]", "",
                "Tensor[(10, 5), float32]");
  assert_infers("scatter_elements",
                "Tensor[(12, 4), float32], Tensor[(7, 2), int64], Tensor[(7, 2), float32]",
                "axis=1, reduction=\"add\"", "Tensor[(12, 4), float32]");
  assert_infers(
      "scatter_elements",
      "Tensor[(16, 16, 4, 5), float32], Tensor[(16, 16, 4, 5), uint32], Tensor[(16, 16, 4, 5), float32]",
      "axis=3", "Tensor[(16, 16, 4, 5), float32]");
  assert_rejects("scatter_elements",
                 "Tensor[(10, 5), float32], Tensor[(3, 5), float32], Tensor[(3, 5), float32]", "",
                 "ScatterElements: indices must be a tensor of integers.");
  assert_rejects("scatter_elements", "Tensor[(10, 5), float32], Tensor[(3, 5), int64]", "",
                 "expects 3 arguments");
}

/* test_scatter_nd: data (2, 2), indices (2, 3), updates (3,); data (2, 2, 2, 2), indices (2, 2),
   updates (2, 2, 2); M != K: data (1, 1, 10), indices (2, 1, 1, 1), updates (1, 1, 1, 10); the large
   shape: data (1, 900, 300), indices (3, 1, 900, 300), updates (1, 900, 300). */
static void test_scatter_nd(void **state) {
  (void)state;
  assert_infers("scatter_nd", "Tensor[(2, 2), int64], Tensor[(2, 3), int64], Tensor[(3), int64]", "",
                "Tensor[(2, 2), int64]");
  assert_infers("scatter_nd", "Tensor[(2, 2, 2, 2), int64], Tensor[(2, 2), int32], Tensor[(2, 2, 2), int64]",
                "mode=\"add\"", "Tensor[(2, 2, 2, 2), int64]");
  assert_infers("scatter_nd",
                "Tensor[(1, 1, 10), float32], Tensor[(2, 1, 1, 1), int64], Tensor[(1, 1, 1, 10), float32]",
                "", "Tensor[(1, 1, 10), float32]");
  assert_infers(
      "scatter_nd",
      "Tensor[(1, 900, 300), float32], Tensor[(3, 1, 900, 300), int64], Tensor[(1, 900, 300), float32]", "",
      "Tensor[(1, 900, 300), float32]");
  assert_rejects("scatter_nd", "Tensor[(2, 2), int64], Tensor[(3, 3), int64], Tensor[(3), int64]", "",
                 "M must be less than or equal to N");
  assert_rejects("scatter_nd", "Tensor[(2, 2), int64], Tensor[(?, 3), int64], Tensor[(3), int64]", "",
                 "ScatterND needs a static shape for the first axis of indices");
  assert_rejects("scatter_nd", "Tensor[(2, 2), int64], Tensor[(2, 3), float32], Tensor[(3), int64]", "",
                 "ScatterND: indices must be a tensor of integers.");
  assert_rejects("scatter_nd", "Tensor[(2, 2, 2, 2), int64], Tensor[(2, 2), int32], Tensor[(2), int64]", "",
                 "updates has rank 1");
}

/* SparseFillEmptyRowsRel: ([?, ndims] int64, [?] int64, [?] int64), whatever the values' dtype. */
static void test_sparse_fill_empty_rows(void **state) {
  (void)state;
  assert_infers("sparse_fill_empty_rows",
                "Tensor[(5, 2), int64], Tensor[(5), float32], Tensor[(2), int64], float32", "",
                "(Tensor[(?, 2), int64], Tensor[(?), int64], Tensor[(?), int64])");
  assert_infers("sparse_fill_empty_rows",
                "Tensor[(?, 3), int32], Tensor[(?), int32], Tensor[(3), int32], int32", "",
                "(Tensor[(?, 3), int64], Tensor[(?), int64], Tensor[(?), int64])");
  assert_rejects("sparse_fill_empty_rows",
                 "Tensor[(5), int64], Tensor[(5), float32], Tensor[(2), int64], float32", "",
                 "must have 2 dimensions");
  assert_rejects("sparse_fill_empty_rows", "Tensor[(5, 2), int64], Tensor[(5), float32], Tensor[(2), int64]",
                 "", "expects 4 arguments");
}

/* TestSparseReshape: indices (5, 3) int32, prev_shape [2, 3, 6], new_shape [9, -1]; the dynamic form. */
static void test_sparse_reshape(void **state) {
  (void)state;
  assert_infers("sparse_reshape", "Tensor[(5, 3), int32], Tensor[(3), int32], Tensor[(2), int32]", "",
                "(Tensor[(5, 2), int32], Tensor[(2), int32])");
  assert_infers("sparse_reshape", "Tensor[(5, 2), int64], Tensor[(2), int64], Tensor[(3), int64]", "",
                "(Tensor[(5, 3), int64], Tensor[(3), int64])");
  assert_infers("sparse_reshape", "Tensor[(?, ?), int64], Tensor[(?), int64], Tensor[(?), int64]", "",
                "(Tensor[(?, ?), int64], Tensor[(?), int64])");
  assert_rejects("sparse_reshape", "Tensor[(5, 3), uint32], Tensor[(3), int32], Tensor[(2), int32]", "",
                 "sparse_indices must be tensor of integers");
  assert_rejects("sparse_reshape", "Tensor[(5, 3), int32], Tensor[(3), int32], Tensor[(2), float32]", "",
                 "new_shape must be tensor of integers");
  assert_rejects("sparse_reshape", "Tensor[(5), int32], Tensor[(3), int32], Tensor[(2), int32]", "",
                 "sparse_indices must be 2-D tensor");
  assert_rejects("sparse_reshape", "Tensor[(5, 3), int32], Tensor[(3, 1), int32], Tensor[(2), int32]", "",
                 "prev_shape must be 1-D tensor");
}

/* test_sparse_to_dense: a scalar index, a vector of them, a matrix of them. */
static void test_sparse_to_dense(void **state) {
  (void)state;
  assert_infers("sparse_to_dense", "int64, int64, int64", "output_shape=[5]", "Tensor[(5), int64]");
  assert_infers("sparse_to_dense", "Tensor[(3), int64], Tensor[(3), int64], int64", "output_shape=[5]",
                "Tensor[(5), int64]");
  assert_infers("sparse_to_dense", "Tensor[(2, 2), int64], Tensor[(2), float32], float32",
                "output_shape=[3, 4]", "Tensor[(3, 4), float32]");
  assert_rejects("sparse_to_dense", "Tensor[(3), float32], Tensor[(3), int64], int64", "output_shape=[5]",
                 "sparse_indices must be tensor of integers");
  assert_rejects("sparse_to_dense", "Tensor[(3), int64], Tensor[(3), int64], Tensor[(1), int64]",
                 "output_shape=[5]", "default_value should be a scalar");
  assert_rejects("sparse_to_dense", "Tensor[(3), int64], Tensor[(3, 1, 1), int64], int64", "output_shape=[5]",
                 "sparse_values must be a tensor of either 0D, 1D");
  assert_rejects("sparse_to_dense", "Tensor[(3), int64], Tensor[(3), int64], int64", "",
                 "Cannot find required field 'output_shape'");
  assert_rejects("sparse_to_dense", "Tensor[(3), int64], Tensor[(3), int64], int64", "output_shape=[-1]",
                 "negative dimension");
}

/* test_unravel_index: [0, 1, 2, 3] in [2, 2]; [144] and 144 in [5, 5, 5, 2]; [100, 13, 5]. */
static void test_unravel_index(void **state) {
  (void)state;
  assert_infers("unravel_index", "Tensor[(4), int32], Tensor[(2), int32]", "", "Tensor[(2, 4), int32]");
  assert_infers("unravel_index", "Tensor[(1), int64], Tensor[(4), int64]", "", "Tensor[(4, 1), int64]");
  assert_infers("unravel_index", "int64, Tensor[(4), int64]", "", "Tensor[(4), int64]");
  assert_infers("unravel_index", "Tensor[(3), int16], Tensor[(4), int16]", "", "Tensor[(4, 3), int16]");
  /* only the first dimension of the indices counts */
  assert_infers("unravel_index", "Tensor[(3, 7), uint8], Tensor[(2), int32]", "", "Tensor[(2, 3), uint8]");
  assert_rejects("unravel_index", "Tensor[(3), float32], Tensor[(4), int32]", "",
                 "indices of unravel_index must be tensor of integer");
  assert_rejects("unravel_index", "Tensor[(3), int32], Tensor[(4), float32]", "",
                 "shape of unravel_index must be tensor of integer");
  assert_rejects("unravel_index", "Tensor[(3), int32], int32", "", "the shape must have one dimension");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_schemas),
      cmocka_unit_test(test_adv_index),
      cmocka_unit_test(test_scatter_elements),
      cmocka_unit_test(test_scatter_nd),
      cmocka_unit_test(test_sparse_fill_empty_rows),
      cmocka_unit_test(test_sparse_reshape),
      cmocka_unit_test(test_sparse_to_dense),
      cmocka_unit_test(test_unravel_index),
  };
  return cmocka_run_group_tests_name("ops_transform_index", tests, NULL, NULL);
}
