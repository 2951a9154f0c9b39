/* The generator library: well-typed output, base cases, determinism, budgets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../typegen/gen/gen.h"
#include "../../typegen/infer/infer.h"

static char *generate(const GenPolicy *p, uint64_t seed, uint64_t k, const char *type) {
  char err[256];
  AstModule *m = gen_module(p, seed, k, type, NULL, NULL, err, sizeof err);
  if (!m) fail_msg("gen_module: %s", err);
  char *text = ast_print(m, NULL);
  ast_free(m);
  return text;
}

/* Generates programs 0..n-1 of a run and checks that each parses and type-checks (with our
   inference, not the rcheck binary); `more`, if given, checks more of each. */
typedef void (*ProgramCheck)(const AstModule *m, const char *text, uint64_t k);

static void check_programs(const GenPolicy *p, uint64_t seed, uint64_t n, ProgramCheck more) {
  for (uint64_t k = 0; k < n; k++) {
    char *text = generate(p, seed, k, NULL);
    Diag d;
    diag_init(&d, "gen", text, strlen(text));
    AstModule *m = ast_parse(text, strlen(text), &d);
    TyTable *t = ty_table_new();
    if (!m || !infer_module(m, t, &d)) fail_msg("program %llu rejected:\n%s\n%s", (unsigned long long)k, d.out.data, text);
    if (more) more(m, text, k);
    ty_table_free(t);
    ast_free(m);
    diag_free(&d);
    free(text);
  }
}

static void test_programs_are_well_typed(void **state) {
  (void)state;
  GenPolicy p;
  gen_policy_default(&p);
  check_programs(&p, 99, 300, NULL);
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

/* Runs `body` with a generator of the default policy (forward or not) over an empty module,
   binding into a block of its own; body may change the policy it is given. */
typedef void (*GenBody)(Gen *g, GenPolicy *p);

static void with_gen(bool forward, GenBody body) {
  GenPolicy policy, *p = &policy;
  gen_policy_default(p);
  p->forward = forward;
  AstModule *m = ast_module_new(false);
  TyTable *types = ty_table_new();
  Gen g;
  gen_init(&g, p, m, types, rng_seed(1, 1));
  GenStmts stmts = {0};
  g.block = &stmts;
  body(&g, p);
  free(stmts.items);
  gen_free(&g);
  ty_table_free(types);
  ast_free(m);
}

/* gen_smallest: a variable in scope when there is one, else the simplest value of the type. */
static void smallest_cases(Gen *g, GenPolicy *p) {
  (void)p;
  AstModule *m = g->m;
  TyTable *types = g->types;
  int64_t dims[2] = {2, 3};
  const Type *f32 = ty_scalar(types, dt_float32), *i32 = ty_scalar(types, dt_int32);
  const Type *tensor = ty_tensor(types, dt_float32, dims, 2);
  char *s = print_expr(m, gen_smallest(g, tensor));
  assert_string_equal(s, "zeros(shape=[2, 3], dtype=\"float32\")");
  free(s);
  VEC_PUSH(g->scope, ((GenVar){"x", tensor, NULL, NULL, 0}));
  s = print_expr(m, gen_smallest(g, tensor));
  assert_string_equal(s, "%x");
  free(s);
  s = print_expr(m, gen_expr(g, tensor, 0)); /* no fuel: a base case */
  assert_string_equal(s, "%x");
  free(s);
  s = print_expr(m, gen_smallest(g, i32));
  assert_true(strspn(s, "-0123456789") == strlen(s)); /* an int32 literal */
  free(s);
  const Type *pair[2] = {f32, tensor};
  s = print_expr(m, gen_smallest(g, ty_tuple(types, pair, 2)));
  assert_non_null(strstr(s, ", %x)"));
  free(s);
  const Type *fn = ty_func(types, &f32, 1, tensor, NULL, 0);
  s = print_expr(m, gen_smallest(g, fn));
  assert_string_equal(s, "fn (%p0: float32) -> Tensor[(2, 3), float32] {");
  free(s);
}

static void test_smallest(void **state) {
  (void)state;
  with_gen(false, smallest_cases);
}

static void count_call(void *ctx, const GenCallRecord *rec) {
  if (rec) ++*(size_t *)ctx; /* (NULL: the program is made again; its calls still cost fuel) */
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

/* Whether e mentions the local variable `name` anywhere (bindings, branches, closures). */
static bool mentions_local(AstExpr *e, const char *name) {
  if (e->kind == AST_LOCAL) return !strcmp(e->text, name);
  AstExpr **slot;
  for (AstChildren it = ast_children(e); (slot = ast_next_child(&it));)
    if (mentions_local(*slot, name)) return true;
  return false;
}

static void reads_a_parameter(const AstModule *m, const char *text, uint64_t k) {
  const AstFunc *main_fn = NULL;
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN && !strcmp(m->defs[i]->name, "main")) main_fn = m->defs[i]->fn;
  assert_non_null(main_fn);
  bool reads = false;
  for (size_t i = 0; i < main_fn->nparams && !reads; i++)
    reads = mentions_local(main_fn->body, main_fn->params[i]->name);
  if (!reads) fail_msg("program %llu: @main reads none of its parameters:\n%s", (unsigned long long)k, text);
}

/* The forward policy: programs stay well-typed and @main's body reads a parameter. */
static void test_forward_programs(void **state) {
  (void)state;
  GenPolicy p;
  gen_policy_default(&p);
  p.forward = true;
  check_programs(&p, 7, 60, reads_a_parameter);
}

/* A forward leaf: the variable in scope adapted by graph-bound calls; zeros without one, or when
   deny_ops takes away the adapter it needs. */
static void forward_leaf_cases(Gen *g, GenPolicy *p) {
  AstModule *m = g->m;
  TyTable *types = g->types;
  GenStmts *stmts = g->block;
  int64_t dims[2] = {2, 3}, four = 4;
  const Type *tensor = ty_tensor(types, dt_float32, dims, 2), *ints = ty_tensor(types, dt_int32, &four, 1);
  char *s = print_expr(m, gen_smallest(g, ints));
  assert_string_equal(s, "zeros(shape=[4], dtype=\"int32\")"); /* nothing in scope */
  free(s);
  VEC_PUSH(g->scope, ((GenVar){"x", tensor, NULL, NULL, 0}));
  AstExpr *e = gen_smallest(g, ints);
  assert_int_equal(e->kind, AST_GRAPH);
  assert_true(stmts->len >= 2); /* at least a shape change and a cast */
  assert_true(mentions_local(stmts->items[0]->value, "x"));
  bool cast = false; /* 6 floats sliced to 4, then cast to int32 */
  for (size_t i = 0; i < stmts->len; i++) cast |= !strcmp(stmts->items[i]->value->a->text, "cast");
  assert_true(cast);
  assert_ptr_equal(gen_var_type(&g->scope, e->text), ints);
  const Type *f32 = ty_scalar(types, dt_float32);
  e = gen_smallest(g, f32); /* a scalar too: from the newest value, never a literal */
  assert_int_equal(e->kind, AST_GRAPH);
  static const char *deny[] = {"cast"};
  p->deny_ops = deny;
  p->ndeny = 1;
  g->scope.len = 1; /* only %x: float32, so int64 needs the denied cast */
  const Type *i64 = ty_tensor(types, dt_int64, dims, 2);
  s = print_expr(m, gen_smallest(g, i64));
  assert_string_equal(s, "zeros(shape=[2, 3], dtype=\"int64\")");
  free(s);
}

static void test_forward_leaf(void **state) {
  (void)state;
  with_gen(true, forward_leaf_cases);
}

/* The dynamic detour: every dyn.reshape / dyn.broadcast_to it makes reads its shape from a
   shape_of call (never a made-up tensor), and the `?` sizes stay inside: @main's own type has
   none. `detours` counts the programs with one (ProgramCheck takes no context). */
static unsigned detours;

static void shapes_are_read(const AstModule *m, const char *text, uint64_t k) {
  (void)m;
  bool any = false;
  for (const char *at = text; (at = strstr(at, " = dyn.")) != NULL; at++) {
    const char *args = strchr(at, '(');
    const char *comma = args ? strstr(args, ", %") : NULL;
    if (!comma) fail_msg("program %llu: a dyn.* call without a shape argument:\n%s", (unsigned long long)k, text);
    char shape[32];
    size_t n = strspn(comma + 3, "0123456789");
    snprintf(shape, sizeof shape, "%%%.*s = shape_of(", (int)n, comma + 3);
    if (!strstr(text, shape)) fail_msg("program %llu: a dyn.* call's shape %s is not shape_of's:\n%s", (unsigned long long)k, shape, text);
    any = true;
  }
  const char *main_def = strstr(text, "def @main(");
  assert_non_null(main_def);
  size_t head = strcspn(main_def, "{");
  if (memchr(main_def, '?', head)) fail_msg("program %llu: @main's type has a `?`:\n%s", (unsigned long long)k, text);
  detours += any;
}

static void test_dynamic_detour(void **state) {
  (void)state;
  GenPolicy p;
  gen_policy_default(&p);
  static const char *deny[] = {"dyn.reshape", "dyn.broadcast_to"};
  p.forward = true; /* which draws no dyn.* op at random: every one is the detour's */
  p.weights[GEN_DYNAMIC] = 20;
  detours = 0;
  check_programs(&p, 3, 40, shapes_are_read);
  assert_true(detours >= 20); /* most programs take it at weight 20 */
  /* deny_ops has the last word, as for the forward adapters: no detour without its plumbing */
  p.deny_ops = deny;
  p.ndeny = 2;
  for (uint64_t k = 0; k < 20; k++) {
    char *text = generate(&p, 3, k, NULL);
    if (strstr(text, "dyn.")) fail_msg("program %llu: a denied dyn.* op:\n%s", (unsigned long long)k, text);
    free(text);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_programs_are_well_typed),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_smallest),
      cmocka_unit_test(test_budgets),
      cmocka_unit_test(test_forward_programs),
      cmocka_unit_test(test_forward_leaf),
      cmocka_unit_test(test_dynamic_detour),
  };
  return cmocka_run_group_tests_name("gen", tests, NULL, NULL);
}
