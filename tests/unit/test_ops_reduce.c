/* Reduction relations against TVM's results (types printed in ../shared/corpus, and what
   ReduceShapeImpl in src/relay/op/tensor/reduce.cc computes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

/* The corpus: features/if_else.relay, features/attrs_ops.relay, tvm-tests/printed/test_forward__1.relay. */
static void test_corpus_cases(void **state) {
  (void)state;
  assert_infers("sum", "Tensor[(3, 4), float32]", "", "float32");
  assert_infers("max", "Tensor[(10), float32]", "", "float32");
  assert_infers("mean", "Tensor[(1, 784), float32]", "axis=[1], keepdims=True", "Tensor[(1, 1), float32]");
  assert_infers("mean", "Tensor[(4, 3, 8, 8), float32]", "axis=[1], keepdims=True", "Tensor[(4, 1, 8, 8), float32]");
  assert_infers("argmax", "Tensor[(1, 8, 16, 16), float32]", "axis=[1]", "Tensor[(1, 16, 16), int32]");
}

/* Every ReduceRel op keeps the input's dtype, bool for all/any and int for mean included. */
static void test_each_op(void **state) {
  (void)state;
  assert_infers("sum", "Tensor[(2, 3, 4), float32]", "axis=[1, 2]", "Tensor[(2), float32]");
  assert_infers("mean", "Tensor[(2, 3, 4), int32]", "axis=[0]", "Tensor[(3, 4), int32]");
  assert_infers("max", "Tensor[(2, 3, 4), float16]", "axis=[2]", "Tensor[(2, 3), float16]");
  assert_infers("min", "Tensor[(2, 3, 4), int8]", "axis=[0, 2]", "Tensor[(3), int8]");
  assert_infers("prod", "Tensor[(2, 3, 4), int64]", "axis=[1]", "Tensor[(2, 4), int64]");
  assert_infers("all", "Tensor[(2, 3, 4), bool]", "axis=[1]", "Tensor[(2, 4), bool]");
  assert_infers("any", "Tensor[(2, 3, 4), bool]", "", "bool");
  /* ReduceRel has no bool requirement for all/any */
  assert_infers("any", "Tensor[(2, 3), float32]", "axis=[0]", "Tensor[(3), float32]");
  assert_infers("argmin", "Tensor[(5, 6), float32]", "axis=[0], keepdims=True", "Tensor[(1, 6), int32]");
  assert_infers("argmax", "Tensor[(5, 6), int64]", "axis=[1], select_last_index=True", "Tensor[(5), int32]");
  assert_infers("variance", "Tensor[(4, 3, 8, 8), float32], Tensor[(4, 1, 8, 8), float32]", "axis=[1]",
                "Tensor[(4, 8, 8), float32]");
  assert_infers("variance", "Tensor[(4, 3), float16], Tensor[(4, 1), float16]", "axis=[1], keepdims=True, unbiased=True",
                "Tensor[(4, 1), float16]");
}

/* axis=None (and axis=[]) reduce everything: a rank-0 result, or all ones with keepdims. */
static void test_all_axes(void **state) {
  (void)state;
  assert_infers("sum", "Tensor[(2, 3), float32]", "axis=None", "float32");
  assert_infers("prod", "Tensor[(2, 3), float32]", "axis=[]", "float32");
  assert_infers("sum", "Tensor[(2, 3), float32]", "keepdims=True", "Tensor[(1, 1), float32]");
  assert_infers("argmax", "Tensor[(2, 3), float32]", "", "int32");
  assert_infers("variance", "Tensor[(2, 3), float32], Tensor[(1, 1), float32]", "", "float32");
  /* GetReduceAxes ignores exclude when axis is None or empty (TVM PR 11643) */
  assert_infers("sum", "Tensor[(1, 2, 3), float32]", "axis=[], keepdims=True, exclude=True", "Tensor[(1, 1, 1), float32]");
  assert_infers("max", "Tensor[(2, 3), float32]", "exclude=True", "float32");
  /* ReduceRel accepts a scalar, which nothing reduces */
  assert_infers("sum", "float32", "", "float32");
}

static void test_keepdims(void **state) {
  (void)state;
  assert_infers("max", "Tensor[(2, 3, 4), float32]", "axis=[0, 2], keepdims=True", "Tensor[(1, 3, 1), float32]");
  assert_infers("argmin", "Tensor[(2, 3, 4), float32]", "axis=[1], keepdims=True", "Tensor[(2, 1, 4), int32]");
  /* a `?` survives where it is not reduced, and becomes 1 where it is */
  assert_infers("sum", "Tensor[(?, 3, ?), float32]", "axis=[2], keepdims=True", "Tensor[(?, 3, 1), float32]");
  assert_infers("sum", "Tensor[(?, 3, ?), float32]", "axis=[1]", "Tensor[(?, ?), float32]");
}

/* exclude=True reduces the axes NOT named. */
static void test_exclude(void **state) {
  (void)state;
  assert_infers("sum", "Tensor[(2, 3, 4), float32]", "axis=[1], exclude=True", "Tensor[(3), float32]");
  assert_infers("mean", "Tensor[(2, 3, 4), float32]", "axis=[1], keepdims=True, exclude=True", "Tensor[(1, 3, 1), float32]");
  assert_infers("argmax", "Tensor[(2, 3, 4), float32]", "axis=[-1], exclude=True", "Tensor[(4), int32]");
  /* naming every axis leaves nothing to reduce: the input shape (with argmax's int32) */
  assert_infers("min", "Tensor[(2, 3), float32]", "axis=[0, 1], exclude=True", "Tensor[(2, 3), float32]");
  assert_infers("argmin", "Tensor[(2, 3), float32]", "axis=[0, 1], exclude=True, keepdims=True", "Tensor[(2, 3), int32]");
}

static void test_negative_axes(void **state) {
  (void)state;
  assert_infers("mean", "Tensor[(1, 128, 768), float32]", "axis=[-1], keepdims=True", "Tensor[(1, 128, 1), float32]");
  assert_infers("sum", "Tensor[(2, 3, 4), float32]", "axis=[-3, -1]", "Tensor[(3), float32]");
  /* the axes may come in any order */
  assert_infers("sum", "Tensor[(2, 3, 4), float32]", "axis=[2, 0]", "Tensor[(3), float32]");
  /* a single integer is taken as a list of one */
  assert_infers("max", "Tensor[(2, 3, 4), float32]", "axis=-2", "Tensor[(2, 4), float32]");
}

static void test_rejections(void **state) {
  (void)state;
  assert_rejects("sum", "Tensor[(2, 3), float32]", "axis=[2]", "Axis out of bounds in reduce operator");
  assert_rejects("mean", "Tensor[(2, 3), float32]", "axis=[-3]", "Axis out of bounds in reduce operator");
  assert_rejects("argmax", "Tensor[(2, 3), float32]", "axis=[0, 5], exclude=True", "axis 5, input rank 2");
  assert_rejects("sum", "float32", "axis=[0]", "Axis out of bounds");
  assert_rejects("sum", "Tensor[(2, 3), float32]", "axis=[1, 1]", "duplicate axis in reduce operator");
  assert_rejects("max", "Tensor[(2, 3), float32]", "axis=[-1, 1]", "-1 and 1 both name axis 1");
  /* GenericReduceRel and VarianceRel refuse a scalar */
  assert_rejects("argmin", "float32", "", "at least one dimension");
  assert_rejects("variance", "float32, float32", "", "at least one dimension");
  assert_rejects("variance", "Tensor[(2, 3), float32], Tensor[(2), float32]", "axis=[1]", "the mean has rank 1 but the data has rank 2");
  assert_rejects("variance", "Tensor[(2, 3), float32]", "", "expects 2 arguments");
  assert_rejects("sum", "(float32,)", "", "expects a tensor");
  /* the product of the static reduced extents before a `?` must stay under INT32_MAX */
  assert_rejects("sum", "Tensor[(65536, 65536, ?), float32]", "", "cannot be more than int32 max");
  assert_infers("sum", "Tensor[(2, ?, 65536, 65536), float32]", "", "float32");
  /* attribute schemas */
  assert_rejects("sum", "Tensor[(2, 3), float32]", "unbiased=True", "has no attribute 'unbiased'");
  assert_rejects("argmax", "Tensor[(2, 3), float32]", "axis=\"x\"", "must be a list of integers");
  assert_rejects("std", "Tensor[(2, 3), float32]", "", "no such operator");
}

/* The attribute schemas are TVM's, in declaration order. */
static void test_schemas(void **state) {
  (void)state;
  static const char *const reduce[] = {"axis", "keepdims", "exclude"};
  static const char *const arg[] = {"axis", "keepdims", "select_last_index", "exclude"};
  static const char *const var[] = {"axis", "keepdims", "exclude", "unbiased"};
  const OpDef *sum = op_lookup("sum"), *argmax = op_lookup("argmax"), *variance = op_lookup("variance");
  assert_non_null(sum);
  assert_non_null(argmax);
  assert_non_null(variance);
  assert_int_equal(sum->nattrs, 3);
  assert_int_equal(argmax->nattrs, 4);
  assert_int_equal(variance->nattrs, 4);
  for (size_t i = 0; i < 3; i++) assert_string_equal(sum->attrs[i].name, reduce[i]);
  for (size_t i = 0; i < 4; i++) assert_string_equal(argmax->attrs[i].name, arg[i]);
  for (size_t i = 0; i < 4; i++) assert_string_equal(variance->attrs[i].name, var[i]);
  assert_string_equal(sum->attrs[0].def, "None");
  assert_string_equal(variance->attrs[3].def, "False");
  assert_int_equal(variance->min_args, 2);
  assert_int_equal(variance->max_args, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_corpus_cases), cmocka_unit_test(test_each_op),      cmocka_unit_test(test_all_axes),
      cmocka_unit_test(test_keepdims),     cmocka_unit_test(test_exclude),      cmocka_unit_test(test_negative_axes),
      cmocka_unit_test(test_rejections),   cmocka_unit_test(test_schemas),
  };
  return cmocka_run_group_tests_name("ops_reduce", tests, NULL, NULL);
}
