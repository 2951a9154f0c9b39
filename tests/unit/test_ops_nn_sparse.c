/* Sparse NN relations (typegen/ops/nn_sparse.c) against TVM v0.13's SparseDenseRel,
   SparseTransposeRel, SparseAddRel and SparseConv2dRel (src/relay/op/nn/sparse.cc).  TVM's tests
   (test_sparse_dense_convert.py, test_sparse_conv2d_convert.py) build these ops from scipy matrices
   and check values, not types; the cases here are worked out from the relations by hand, with
   shapes like theirs (a CSR matrix of 8 rows and 20 non-zeros: data (20), indices (20), indptr (9);
   a BSR one of 5 blocks of 4x2: data (5, 4, 2)). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define CSR "Tensor[(20), float32], Tensor[(20), int32], Tensor[(9), int32]"

static void test_sparse_dense(void **state) {
  (void)state;
  static const char *const ops[] = {"nn.sparse_dense", "nn.internal.sparse_dense_padded"};
  for (int k = 0; k < 2; k++) {
    const char *op = ops[k];
    /* dense (2, 16) x CSR (8, 16)^T */
    assert_infers(op, "Tensor[(2, 16), float32], " CSR, "", "Tensor[(2, 8), float32]");
    /* BSR: 3 block rows of 4 */
    assert_infers(op, "Tensor[(2, 16), float32], Tensor[(5, 4, 2), float32], Tensor[(5), int32], Tensor[(4), int32]", "",
                  "Tensor[(2, 12), float32]");
    assert_infers(op, "Tensor[(?, 16), float16], Tensor[(20), float16], Tensor[(20), int32], Tensor[(?), int32]", "",
                  "Tensor[(?, ?), float16]");
    /* sparse_lhs: CSR (4 rows) x dense (8, K)^T */
    assert_infers(op, "Tensor[(8, 16), float32], Tensor[(20), float32], Tensor[(20), int32], Tensor[(5), int32]",
                  "sparse_lhs=True", "Tensor[(4, 8), float32]");
    assert_infers(op, "Tensor[(8, 16), float32], Tensor[(5, 4, 2), float32], Tensor[(5), int32], Tensor[(3), int32]",
                  "sparse_lhs=True", "Tensor[(8, 8), float32]");
    assert_rejects(op, "Tensor[(2, 16), float32], Tensor[(20, 2), float32], Tensor[(20), int32], Tensor[(9), int32]", "",
                   "1-D (CSR) or 3-D (BSR)");
    assert_rejects(op, "Tensor[(2, 16), float32], Tensor[(20), float32], Tensor[(20), int32], Tensor[(0), int32]", "",
                   "negative extent");
    assert_rejects(op, "Tensor[(2, 16), float32], Tensor[(20), float32], Tensor[(20), int32], int32", "",
                   "the indptr must have at least 1 dimension");
  }
  assert_rejects("nn.sparse_dense", CSR, "", "expects 4 arguments");
}

static void test_sparse_transpose(void **state) {
  (void)state;
  assert_infers("nn.sparse_transpose", CSR, "", "(Tensor[(20), float32], Tensor[(20), int32], Tensor[(9), int32])");
  assert_infers("nn.sparse_transpose", "Tensor[(?), float64], Tensor[(?), int64], Tensor[(?), int64]", "",
                "(Tensor[(?), float64], Tensor[(?), int64], Tensor[(?), int64])");
  assert_rejects("nn.sparse_transpose", "Tensor[(5, 4, 2), float32], Tensor[(5), int32], Tensor[(4), int32]", "",
                 "sparse_data->shape.size() == 1");
  assert_rejects("nn.sparse_transpose", "Tensor[(20), float32], Tensor[(20, 1), int32], Tensor[(9), int32]", "",
                 "sparse_indices->shape.size() == 1");
  assert_rejects("nn.sparse_transpose", CSR, "axis=1", "has no attribute 'axis'");
}

static void test_sparse_add(void **state) {
  (void)state;
  assert_infers("nn.sparse_add", "Tensor[(8, 10), float32], " CSR, "", "Tensor[(8, 10), float32]");
  assert_infers("nn.sparse_add", "Tensor[(?, 10), int32], Tensor[(20), int32], Tensor[(20), int32], Tensor[(?), int32]", "",
                "Tensor[(?, 10), int32]");
  assert_rejects("nn.sparse_add", "Tensor[(8, 10), float16], " CSR, "", "sparse tensor and dense tensor datatype should match.");
  assert_rejects("nn.sparse_add", "Tensor[(8, 10), float32], Tensor[(20, 1), float32], Tensor[(20), int32], Tensor[(9), int32]",
                 "", "sparse data tensor should be 1D.");
  assert_rejects("nn.sparse_add", "Tensor[(8, 10), float32], Tensor[(20), float32], Tensor[(2, 10), int32], Tensor[(9), int32]",
                 "", "sparse indices tensor should be 1D.");
}

static void test_sparse_conv2d(void **state) {
  (void)state;
  /* 8 block rows of 4 output channels; NHWC is the default */
  assert_infers("nn.sparse_conv2d", "Tensor[(1, 8, 8, 16), float32], Tensor[(10, 4, 1), float32], Tensor[(10), int32], Tensor[(9), int32]",
                "", "Tensor[(1, 8, 8, 32), float32]");
  assert_infers("nn.sparse_conv2d", "Tensor[(1, 16, 8, 8), float32], Tensor[(10, 4, 1), float32], Tensor[(10), int32], Tensor[(9), int32]",
                "layout=\"NCHW\"", "Tensor[(1, 32, 8, 8), float32]");
  /* 2-D weight data (CSR rows of 1x1 kernels) */
  assert_infers("nn.sparse_conv2d", "Tensor[(1, 8, 8, 16), float32], Tensor[(20, 1), float32], Tensor[(20), int32], Tensor[(9), int32]",
                "kernel_size=[1, 1]", "Tensor[(1, 8, 8, 8), float32]");
  assert_rejects("nn.sparse_conv2d", "Tensor[(1, 8, 8, 16), float32], " CSR, "", "Unknown weight ndim 1 for nn.sparse_conv2d");
  assert_rejects("nn.sparse_conv2d", "Tensor[(1, 8, 8, 16), float32], Tensor[(10, 4, 1), float32], Tensor[(10), int32], Tensor[(9), int32]",
                 "layout=\"NCW\"", "neither NHWC nor NCHW");
  assert_rejects("nn.sparse_conv2d", "Tensor[(1, 8, 8), float32], Tensor[(10, 4, 1), float32], Tensor[(10), int32], Tensor[(9), int32]",
                 "", "the data must have rank 4");
}

static void test_schemas(void **state) {
  (void)state;
  const OpDef *sd = op_lookup("nn.sparse_dense");
  assert_int_equal(sd->nattrs, 1);
  assert_string_equal(sd->attrs[0].name, "sparse_lhs");
  assert_string_equal(sd->attrs[0].def, "False");
  assert_int_equal(op_lookup("nn.internal.sparse_dense_padded")->nattrs, 1);
  assert_int_equal(op_lookup("nn.sparse_transpose")->nattrs, 0);
  assert_int_equal(op_lookup("nn.sparse_add")->nattrs, 0);
  const OpDef *sc = op_lookup("nn.sparse_conv2d");
  assert_int_equal(sc->nattrs, 2);
  assert_string_equal(sc->attrs[0].def, "\"NHWC\"");
  assert_string_equal(sc->attrs[1].name, "kernel_size");
  assert_string_equal(sc->attrs[1].def, "[1, 1]");
  assert_int_equal(op_family_size("nn_sparse"), 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sparse_dense), cmocka_unit_test(test_sparse_transpose), cmocka_unit_test(test_sparse_add),
      cmocka_unit_test(test_sparse_conv2d), cmocka_unit_test(test_schemas),
  };
  return cmocka_run_group_tests_name("ops_nn_sparse", tests, NULL, NULL);
}
