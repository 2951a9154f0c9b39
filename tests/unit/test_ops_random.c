/* Random relations against TVM's results: the types TVM v0.13's tests/python/relay/test_prng.py
   expects (test_threefry_generate_infer, test_threefry_split_infer, test_uniform_infer and the two
   xfail tests with a 9-element key); normal and multinomial from src/relay/op/random/kernel.cc
   (NormalRel, MultinomialRel), whose messages the rejections quote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define KEY "Tensor[(10), uint64]"

static void test_threefry(void **state) {
  (void)state;
  assert_infers("random.threefry_generate", KEY, "out_shape=[12]", "(" KEY ", Tensor[(12), uint64])");
  assert_infers("random.threefry_generate", KEY, "out_shape=[2, 3]", "(" KEY ", Tensor[(2, 3), uint64])");
  assert_infers("random.threefry_generate", KEY, "out_shape=[]", "(" KEY ", uint64)");
  /* test_threefry_generate_infer_fail: the key must have 10 elements */
  assert_rejects("random.threefry_generate", "Tensor[(9), uint64]", "out_shape=[12]", "9 does not match 10");
  assert_rejects("random.threefry_generate", "Tensor[(10), int64]", "out_shape=[12]", "the relation requires " KEY);
  assert_rejects("random.threefry_generate", KEY, "", "Cannot find required field 'out_shape'");
  assert_rejects("random.threefry_generate", KEY, "out_shape=[-1]", "negative");
  assert_infers("random.threefry_split", KEY, "", "(" KEY ", " KEY ")");
  /* a key of unknown length unifies with the key type */
  assert_infers("random.threefry_split", "Tensor[(?), uint64]", "", "(" KEY ", " KEY ")");
  assert_rejects("random.threefry_split", "Tensor[(9), uint64]", "", "9 does not match 10");
}

static void test_uniform_normal(void **state) {
  (void)state;
  /* test_uniform_infer: float32 and float64, shape (12,); the bounds are scalars of that dtype */
  assert_infers("random.uniform", KEY ", float32, float32", "out_shape=[12], out_dtype=\"float32\"",
                "(" KEY ", Tensor[(12), float32])");
  assert_infers("random.uniform", KEY ", float64, float64", "out_shape=[12], out_dtype=\"float64\"",
                "(" KEY ", Tensor[(12), float64])");
  assert_infers("random.normal", KEY ", float32, float32", "out_shape=[3, 4], out_dtype=\"float32\"",
                "(" KEY ", Tensor[(3, 4), float32])");
  assert_rejects("random.uniform", KEY ", int32, int32", "out_shape=[12], out_dtype=\"int32\"",
                 "We only support generating uniform random value of type float32 or float64, got int32.");
  assert_rejects("random.normal", KEY ", float32, float32", "out_shape=[12]",
                 "We only support generating Normal random value of type float32 or float64, got void.");
  assert_rejects("random.normal", KEY ", float16, float16", "out_shape=[12], out_dtype=\"float16\"", "got float16.");
  assert_rejects("random.uniform", KEY ", float64, float32", "out_shape=[12], out_dtype=\"float32\"",
                 "argument 2 has type float64, but the relation requires float32");
  assert_rejects("random.uniform", KEY ", Tensor[(1), float32], float32", "out_shape=[12], out_dtype=\"float32\"",
                 "argument 2 has type Tensor[(1), float32], but the relation requires float32");
  assert_rejects("random.uniform", "Tensor[(9), uint64], float32, float32", "out_shape=[12], out_dtype=\"float32\"",
                 "9 does not match 10");
}

static void test_multinomial(void **state) {
  (void)state;
  assert_infers("random.multinomial", KEY ", Tensor[(3, 5), float32]", "num_samples=4",
                "(" KEY ", Tensor[(3, 4), int32])");
  assert_infers("random.multinomial", KEY ", Tensor[(5), float64]", "", "(" KEY ", Tensor[(1), int32])");
  assert_infers("random.multinomial", KEY ", Tensor[(?, 5), float32]", "num_samples=2",
                "(" KEY ", Tensor[(?, 2), int32])");
  /* TVM's message prints the key's type, not the probabilities' */
  assert_rejects("random.multinomial", KEY ", (float32,)", "",
                 "multinomial: expect input type to be TensorType but get " KEY);
  assert_rejects("random.multinomial", KEY ", float32", "", "at least one dimension");
  assert_rejects("random.multinomial", KEY ", Tensor[(5), float32]", "num_samples=-1", "negative");
  assert_rejects("random.multinomial", "Tensor[(10), uint32], Tensor[(5), float32]", "", "the relation requires " KEY);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_threefry),
      cmocka_unit_test(test_uniform_normal),
      cmocka_unit_test(test_multinomial),
  };
  return cmocka_run_group_tests_name("ops_random", tests, NULL, NULL);
}
