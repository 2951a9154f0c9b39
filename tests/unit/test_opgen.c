/*
 * The RFC's invariants for every operator that has generators, over 1,000 seeds each:
 *   sample() gives a call whose relation yields the sampled result, which the recognizer accepts;
 *   for types the recognizer accepts, solve(T) gives a call whose relation yields exactly T.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../typegen/ops/ops.h"

enum { SEEDS = 1000 };

static void fail_plan(const OpDef *op, const char *what, uint64_t seed, const OpPlan *plan, const Type *got,
                      const char *err) {
  char *want = plan->result ? ty_str(plan->result) : NULL, *g = got ? ty_str(got) : NULL;
  fprintf(stderr, "%s: %s (seed %llu): planned %s, relation gave %s %s\n", op->name, what,
          (unsigned long long)seed, want ? want : "nothing", g ? g : "an error:", err ? err : "");
  for (size_t i = 0; i < plan->nargs; i++) {
    char *a = ty_str(plan->args[i]);
    fprintf(stderr, "  arg %zu: %s\n", i, a);
    free(a);
  }
  free(want);
  free(g);
  fail();
}

static void check_op(const OpDef *op) {
  TyTable *types = ty_table_new();
  Arena arena;
  arena_init(&arena);
  for (uint64_t seed = 0; seed < SEEDS; seed++) {
    Rng rng = rng_seed(seed, 0);
    OpGen g = {types, &rng, &arena, &opgen_default_policy};
    OpPlan plan;
    OpCall c;
    if (!op->sample(&g, op, &plan)) fail_plan(op, "sample() found no call", seed, &plan, NULL, NULL);
    const Type *got = opgen_run(&g, op, &plan, &c);
    if (got != plan.result) fail_plan(op, "sample()", seed, &plan, got, c.err);
    if (!op->recognize(op, got)) fail_plan(op, "recognize(sampled result) is false", seed, &plan, got, NULL);
    /* Solve the sampled type again, with other random choices. */
    OpPlan solved;
    if (!op->solve(&g, op, got, &solved)) fail_plan(op, "solve(sampled result) failed", seed, &plan, got, NULL);
    const Type *again = opgen_run(&g, op, &solved, &c);
    if (again != got) fail_plan(op, "solve()", seed, &solved, again, c.err);
  }
  arena_free(&arena);
  ty_table_free(types);
}

/* Operators that lowering passes introduce are deliberately not generated (ops/misc.c), and others
   with their reasons. */
static const char *const not_generated[] = {"call_lowered", "device_copy", "memory.alloc_storage",
                                              "memory.alloc_tensor", "memory.kill", "vm.reshape_tensor",
                                              "vm.shape_of",
                                              /* canonicalization is LOG(FATAL) in v0.13; only Hexagon's layout
                                                 alteration makes it (ops/qnn.c) */
                                              "qnn.contrib_dense_pack",
                                              /* no type relation in TVM (ops/annotation.c) */
                                              "annotation.with_funcid",
                                              /* its debug_func attribute (an EnvFunc) has no text spelling */
                                              "debug",
                                              /* TVM v0.13's parser cannot read it back: its attrs key is
                                                 also qnn.simulated_quantize's (ops/annotation.c) */
                                              "relay.op.annotation.simulated_quantize",
                                              /* its index_map cannot be evaluated (ops/misc_extra.c) */
                                              "meta_schedule_layout_transform",
                                              /* NPU ops made by the Ethos-U partitioning with constant weights and
                                                 lookup tables (ops/ethosu.c) */
                                              "contrib.ethosu.binary_elementwise", "contrib.ethosu.conv2d",
                                              "contrib.ethosu.depthwise_conv2d", "contrib.ethosu.identity",
                                              "contrib.ethosu.pooling", "contrib.ethosu.unary_elementwise",
                                              /* TVM's parser gives it DenseAttrs, which its relation rejects */
                                              "nn.contrib_dense_pack",
                                              /* need indices / indptr data describing a valid sparse matrix */
                                              "nn.sparse_dense", "nn.internal.sparse_dense_padded",
                                              "nn.sparse_transpose", "nn.sparse_add", "nn.sparse_conv2d",
                                              /* v0.19.0's new op: generating it would change the draws, so a seed
                                                 would give other programs than v0.13.0's (ops/vision.c) */
                                              "vision.regular_non_max_suppression"};

/* One release's operators: each generated one keeps the invariants; the others are listed above. */
static void check_release(void) {
  size_t n, generated = 0, exempted = 0;
  const OpDef *const *ops = op_all(&n);
  for (size_t i = 0; i < n; i++) {
    bool exempt = false;
    for (size_t k = 0; k < sizeof not_generated / sizeof not_generated[0]; k++)
      exempt |= !strcmp(ops[i]->name, not_generated[k]);
    exempted += exempt;
    if (!ops[i]->sample) {
      if (!exempt) fail_msg("%s has no generators", ops[i]->name);
      continue;
    }
    assert_non_null(ops[i]->recognize);
    assert_non_null(ops[i]->solve);
    check_op(ops[i]);
    generated++;
  }
  print_message("TVM v%s: generators checked for %zu of %zu operators (%d seeds each)\n", op_tvm_name(), generated, n,
                SEEDS);
  assert_int_equal(generated + exempted, n);
}

/* Every release's rows: the variants of an op (v0.19.0's gemm transform, dequantize, ...) too. */
static void test_invariants(void **state) {
  (void)state;
  for (int r = 0; r < TVM_RELEASES; r++) {
    char err[256];
    assert_true(op_tvm_choose(op_tvm_release_short((TvmRelease)r), err, sizeof err));
    check_release();
  }
}

/* The recognizers say no where the op cannot produce a type. */
static void test_recognizers_refuse(void **state) {
  (void)state;
  TyTable *t = ty_table_new();
  const Type *f32 = ty_scalar(t, dt_float32), *i32 = ty_scalar(t, dt_int32), *b = ty_scalar(t, dt_bool);
  const Type *tuple = ty_tuple(t, &f32, 1);
  assert_false(op_lookup("sigmoid")->recognize(op_lookup("sigmoid"), i32));
  assert_true(op_lookup("sigmoid")->recognize(op_lookup("sigmoid"), f32));
  assert_false(op_lookup("equal")->recognize(op_lookup("equal"), f32));
  assert_true(op_lookup("equal")->recognize(op_lookup("equal"), b));
  assert_false(op_lookup("add")->recognize(op_lookup("add"), tuple));
  assert_false(op_lookup("fixed_point_multiply")->recognize(op_lookup("fixed_point_multiply"), f32));
  ty_table_free(t);
}

/* Same seed, same call. */
static void test_deterministic(void **state) {
  (void)state;
  const OpDef *op = op_lookup("add");
  char *first = NULL;
  for (int round = 0; round < 2; round++) {
    TyTable *types = ty_table_new();
    Arena arena;
    arena_init(&arena);
    Rng rng = rng_seed(42, 7);
    OpGen g = {types, &rng, &arena, &opgen_default_policy};
    OpPlan plan;
    assert_true(op->sample(&g, op, &plan));
    char *a = ty_str(plan.args[0]), *b = ty_str(plan.args[1]);
    char buf[512];
    snprintf(buf, sizeof buf, "%s %s", a, b);
    free(a);
    free(b);
    if (round == 0) first = strdup(buf);
    else assert_string_equal(first, buf);
    arena_free(&arena);
    ty_table_free(types);
  }
  free(first);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_invariants),
      cmocka_unit_test(test_recognizers_refuse),
      cmocka_unit_test(test_deterministic),
  };
  return cmocka_run_group_tests_name("opgen", tests, NULL, NULL);
}
