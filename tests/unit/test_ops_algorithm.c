/* The algorithm family (ops/algorithm.c): cumsum, cumprod, unique, searchsorted, dft, stft.
   Accepted cases come from TVM v0.13's tests where they exist (tests/python/relay/test_op_level3.py
   run_binop_tests / test_unique / TestSTFT, test_op_level6.py test_searchsorted); the others follow
   the relations in src/relay/op/tensor/transform.cc and src/relay/op/algorithm/searchsorted.cc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_schema_test.h"
#include "op_test.h"

/* ScanopAttrs, UniqueAttrs, SearchSortedAttrs, StftAttrs, DFTAttrs (include/tvm/relay/attrs). */
static void test_schemas(void **state) {
  (void)state;
  assert_schema("cumsum", "axis=None, dtype=\"\", exclusive=False");
  assert_schema("cumprod", "axis=None, dtype=\"\", exclusive=False");
  assert_schema("unique", "sorted=True, return_counts=False");
  assert_schema("searchsorted", "right=False, dtype=\"int32\"");
  assert_schema("dft", "inverse=False");
  assert_schema("stft", "n_fft=-1, hop_length=-1, win_length=-1, normalized=False, onesided=True");
}

/* test_op_level3.py run_binop_tests: data (10, 10) or (10,) with axis None, 0, 1, -1, out_dtype
   int32/int64, exclusive. */
static void test_scan(void **state) {
  (void)state;
  assert_infers("cumsum", "Tensor[(10), float32]", "", "Tensor[(10), float32]");
  assert_infers("cumsum", "Tensor[(10, 10), float32]", "axis=0", "Tensor[(10, 10), float32]");
  assert_infers("cumsum", "Tensor[(10, 10), float32]", "axis=-1", "Tensor[(10, 10), float32]");
  assert_infers("cumsum", "Tensor[(10), int32]", "dtype=\"int64\"", "Tensor[(10), int64]");
  assert_infers("cumprod", "Tensor[(10, 10), int32]", "axis=1, exclusive=True", "Tensor[(10, 10), int32]");
  /* the default (no axis) flattens */
  assert_infers("cumsum", "Tensor[(10, 10), float32]", "", "Tensor[(100), float32]");
  assert_infers("cumprod", "Tensor[(2, 3, 4), float16]", "dtype=\"float32\"", "Tensor[(24), float32]");
  assert_infers("cumsum", "Tensor[(2, ?), float32]", "", "Tensor[(?), float32]");
  assert_infers("cumsum", "Tensor[(2, ?), float32]", "axis=1", "Tensor[(2, ?), float32]");
  /* TVM does not check the axis */
  assert_infers("cumsum", "Tensor[(2, 3), float32]", "axis=5", "Tensor[(2, 3), float32]");
  /* rejected: a scalar without an axis (TVM reads shape[0]), a tuple, a wrong count */
  assert_rejects("cumsum", "float32", "", "at least one dimension");
  assert_rejects("cumprod", "(Tensor[(3), float32],)", "axis=0", "expects a tensor");
  assert_rejects("cumsum", "Tensor[(3), float32], Tensor[(3), float32]", "", "expects 1 argument");
}

/* test_op_level3.py test_unique: n = 10, return_counts adds a fifth output. */
static void test_unique(void **state) {
  (void)state;
  assert_infers("unique", "Tensor[(10), int32]", "",
                "(Tensor[(10), int32], Tensor[(10), int32], Tensor[(10), int32], Tensor[(1), int32])");
  assert_infers("unique", "Tensor[(10), float32]", "sorted=False, return_counts=True",
                "(Tensor[(10), float32], Tensor[(10), int32], Tensor[(10), int32], Tensor[(1), int32], "
                "Tensor[(10), int32])");
  assert_infers("unique", "Tensor[(?), int64]", "",
                "(Tensor[(?), int64], Tensor[(?), int32], Tensor[(?), int32], Tensor[(1), int32])");
  assert_rejects("unique", "Tensor[(2, 5), int32]", "", "Unique: input must be 1-D tensor");
  assert_rejects("unique", "int32", "", "Unique: input must be 1-D tensor");
}

/* test_op_level6.py test_searchsorted: sorted_sequence (8, 9, 10), values (8, 9, 10). */
static void test_searchsorted(void **state) {
  (void)state;
  assert_infers("searchsorted", "Tensor[(8, 9, 10), float32], Tensor[(8, 9, 10), float32]", "",
                "Tensor[(8, 9, 10), int32]");
  assert_infers("searchsorted", "Tensor[(8, 9, 10), float32], Tensor[(8, 9, 10), float32]",
                "right=True, dtype=\"int64\"", "Tensor[(8, 9, 10), int64]");
  /* a 1-D sequence serves values of any rank; the innermost lengths need not agree */
  assert_infers("searchsorted", "Tensor[(5), float32], Tensor[(2, 3), float32]", "", "Tensor[(2, 3), int32]");
  assert_infers("searchsorted", "Tensor[(8, 4), float32], Tensor[(?, 3), float32]", "",
                "Tensor[(?, 3), int32]");
  assert_rejects("searchsorted", "Tensor[(5), float32], float32", "",
                 "The rank of `values` must be greater than one");
  assert_rejects("searchsorted", "Tensor[(2, 5), float32], Tensor[(2, 3, 4), float32]", "",
                 "Ranks of `sorted_sequence` and values must be the same");
  assert_rejects("searchsorted", "Tensor[(2, 5), float32], Tensor[(3, 4), float32]", "",
                 "do not have the same shape along outer axes");
}

/* DFTRel: a tuple of the two parts' types. */
static void test_dft(void **state) {
  (void)state;
  assert_infers("dft", "Tensor[(2, 8), float32], Tensor[(2, 8), float32]", "inverse=True",
                "(Tensor[(2, 8), float32], Tensor[(2, 8), float32])");
  assert_infers("dft", "Tensor[(4), float64], Tensor[(?), float64]", "",
                "(Tensor[(4), float64], Tensor[(?), float64])");
  assert_rejects("dft", "Tensor[(4), float32], (Tensor[(4), float32],)", "",
                 "expects a tensor as argument 2");
  assert_rejects("dft", "Tensor[(4), float32]", "", "expects 2 arguments");
}

/* test_op_level3.py TestSTFT: data (1, 6) with n_fft=3, hop=3, win=3, onesided; data (2, 9) with
   n_fft=2, hop=1, win=2, onesided or not; the dynamic variant (?, ?). */
static void test_stft(void **state) {
  (void)state;
  assert_infers("stft", "Tensor[(1, 6), float32], Tensor[(3), int32]", "n_fft=3, hop_length=3, win_length=3",
                "Tensor[(1, 2, 2, 2), float32]");
  assert_infers("stft", "Tensor[(2, 9), float32], Tensor[(2), int32]", "n_fft=2, hop_length=1, win_length=2",
                "Tensor[(2, 2, 8, 2), float32]");
  assert_infers("stft", "Tensor[(2, 9), float32], Tensor[(2), int32]",
                "n_fft=2, hop_length=1, win_length=2, onesided=False", "Tensor[(2, 2, 8, 2), float32]");
  assert_infers("stft", "Tensor[(?, ?), float32], Tensor[(?), int32]", "n_fft=2, hop_length=1, win_length=2",
                "Tensor[(?, 2, ?, 2), float32]");
  /* 1-D data has no batch axis; frames round down */
  assert_infers("stft", "Tensor[(10), float32], Tensor[(4), float32]", "n_fft=4, hop_length=3, win_length=4",
                "Tensor[(3, 3, 2), float32]");
  assert_rejects("stft", "Tensor[(10), float32], Tensor[(4), float32]", "n_fft=4, hop_length=0",
                 "Divide by zero");
  assert_rejects("stft", "Tensor[(3), float32], Tensor[(4), float32]", "n_fft=8, hop_length=1",
                 "negative dimension");
  assert_rejects("stft", "float32, Tensor[(4), float32]", "n_fft=4, hop_length=1", "at least one dimension");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_schemas),      cmocka_unit_test(test_scan), cmocka_unit_test(test_unique),
      cmocka_unit_test(test_searchsorted), cmocka_unit_test(test_dft),  cmocka_unit_test(test_stft),
  };
  return cmocka_run_group_tests_name("ops_algorithm", tests, NULL, NULL);
}
