/* The generator library: well-typed output, base cases, determinism, budgets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../typegen/gen.h"
#include "../../typegen/infer.h"

static char *generate(const GenPolicy *p, uint64_t seed, uint64_t k, const char *type) {
  char err[256];
  AstModule *m = gen_module(p, seed, k, type, NULL, NULL, err, sizeof err);
  if (!m) fail_msg("gen_module: %s", err);
  char *text = ast_print(m, NULL);
  ast_free(m);
  return text;
}

/* What the generator prints parses and type-checks (with our inference, not the rcheck binary). */
static void test_programs_are_well_typed(void **state) {
  (void)state;
  GenPolicy p;
  gen_policy_default(&p);
  for (uint64_t k = 0; k < 300; k++) {
    char *text = generate(&p, 99, k, NULL);
    Diag d;
    diag_init(&d, "gen", text, strlen(text));
    AstModule *m = ast_parse(text, strlen(text), &d);
    TyTable *t = ty_table_new();
    if (!m || !infer_module(m, t, &d)) fail_msg("program %llu rejected:\n%s\n%s", (unsigned long long)k, d.out.data, text);
    ty_table_free(t);
    ast_free(m);
    diag_free(&d);
    free(text);
  }
}

static void test_deterministic(void **state) {
  (void)state;
  GenPolicy p;
  gen_policy_default(&p);
  char *a = generate(&p, 5, 3, NULL), *b = generate(&p, 5, 3, NULL), *c = generate(&p, 5, 4, NULL);
  assert_string_equal(a, b);
  assert_true(strcmp(a, c) != 0);
  free(a);
  free(b);
  free(c);
}

static char *print_expr(AstModule *m, AstExpr *e) {
  m->body = e;
  char *s = ast_print(m, NULL);
  m->body = NULL;
  s[strcspn(s, "\n")] = '\0';
  return s;
}

/* gen_smallest: a variable in scope when there is one, else the simplest value of the type. */
static void test_smallest(void **state) {
  (void)state;
  GenPolicy p;
  gen_policy_default(&p);
  AstModule *m = ast_module_new(false);
  TyTable *types = ty_table_new();
  Gen g;
  gen_init(&g, &p, m, types, rng_seed(1, 1));
  GenStmts stmts = {0};
  g.block = &stmts;
  int64_t dims[2] = {2, 3};
  const Type *f32 = ty_scalar(types, dt_float32), *i32 = ty_scalar(types, dt_int32);
  const Type *tensor = ty_tensor(types, dt_float32, dims, 2);
  char *s = print_expr(m, gen_smallest(&g, tensor));
  assert_string_equal(s, "zeros(shape=[2, 3], dtype=\"float32\")");
  free(s);
  VEC_PUSH(g.scope, ((GenVar){"x", tensor, NULL, NULL, 0}));
  s = print_expr(m, gen_smallest(&g, tensor));
  assert_string_equal(s, "%x");
  free(s);
  s = print_expr(m, gen_expr(&g, tensor, 0)); /* no fuel: a base case */
  assert_string_equal(s, "%x");
  free(s);
  s = print_expr(m, gen_smallest(&g, i32));
  assert_true(strspn(s, "-0123456789") == strlen(s)); /* an int32 literal */
  free(s);
  const Type *pair[2] = {f32, tensor};
  s = print_expr(m, gen_smallest(&g, ty_tuple(types, pair, 2)));
  assert_non_null(strstr(s, ", %x)"));
  free(s);
  const Type *fn = ty_func(types, &f32, 1, tensor, NULL, 0);
  s = print_expr(m, gen_smallest(&g, fn));
  assert_string_equal(s, "fn (%p0: float32) -> Tensor[(2, 3), float32] {");
  free(s);
  free(stmts.items);
  gen_free(&g);
  ty_table_free(types);
  ast_free(m);
}

static void count_call(void *ctx, const GenCallRecord *rec) {
  (void)rec;
  ++*(size_t *)ctx;
}

static size_t calls_made(const GenPolicy *p) {
  size_t calls = 0;
  char err[256];
  for (uint64_t k = 0; k < 40; k++) {
    AstModule *m = gen_module(p, 1, k, "Tensor[(4, 4), float32]", count_call, &calls, err, sizeof err);
    assert_non_null(m);
    ast_free(m);
  }
  return calls;
}

/* A tiny FLOP budget leaves room for few operator calls; fuel bounds them too. */
static void test_budgets(void **state) {
  (void)state;
  GenPolicy p;
  gen_policy_default(&p);
  size_t normal = calls_made(&p);
  p.flops_budget = 64;
  size_t budget = calls_made(&p);
  gen_policy_default(&p);
  p.fuel = 4;
  size_t little_fuel = calls_made(&p);
  assert_true(normal > 40 * 10);
  assert_true(budget * 2 < normal);
  assert_true(little_fuel * 4 < normal);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_programs_are_well_typed),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_smallest),
      cmocka_unit_test(test_budgets),
  };
  return cmocka_run_group_tests_name("gen", tests, NULL, NULL);
}
