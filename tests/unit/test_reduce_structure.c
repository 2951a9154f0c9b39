/* The passes that simplify structure (inline, fold, globals): what each proposes, what it must not,
   and that no candidate on the real programs of ../shared/corpus is ill-typed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../support/fileio.h"
#include "reduce_test.h"

/* Candidate i must exist and contain each of the NULL-terminated `want` and none of `unwanted`. */
static void expect(const RedPass *pass, const char *text, size_t i, const char *const *want,
                   const char *const *unwanted) {
  char *c = rt_apply(pass, text, i);
  assert_non_null(c);
  for (; want && *want; want++)
    if (!strstr(c, *want)) fail_msg("candidate %zu of %s lacks \"%s\":\n%s", i, pass->name, *want, c);
  for (; unwanted && *unwanted; unwanted++)
    if (strstr(c, *unwanted)) fail_msg("candidate %zu of %s has \"%s\":\n%s", i, pass->name, *unwanted, c);
  free(c);
}

#define W(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ------------------------------------------------------------------ inline */

static void test_inline_single_use_let_and_graph(void **state) {
  (void)state;
  const char *p = RT_V
      "def @f(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
      "  let %y = exp(%x);\n"
      "  %0 = nn.relu(%y);\n"
      "  negative(%0)\n"
      "}\n"
      "def @main(%x: Tensor[(2), float32]) {\n"
      "  %1 = exp(%x);\n"
      "  @f(%1)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_inline, p), 3);
  expect(&red_pass_inline, p, 0, W("nn.relu(exp(%x))"), W("let %y"));
  expect(&red_pass_inline, p, 1, W("negative(nn.relu(%y))", "%1 = exp(%x);"), W("%0"));
  /* @main's own bindings too (the pass runs after truncate and cut have used them) */
  expect(&red_pass_inline, p, 2, W("@f(exp(%x))"), W("%1"));
}

static void test_inline_leaves_values_used_twice_or_captured(void **state) {
  (void)state;
  const char *twice = RT_V "def @f(%x: float32) { let %y = exp(%x); add(%y, %y) }\n";
  assert_int_equal(rt_count(&red_pass_inline, twice), 1);
  assert_null(rt_apply(&red_pass_inline, twice, 0));
  /* moving exp(%x) into the closure would make it read the closure's own %x */
  const char *captured = RT_V
      "def @f(%x: float32) {\n"
      "  let %y = exp(%x);\n"
      "  let %g = fn (%x: float32) { add(%x, %y) };\n"
      "  %g(%x)\n"
      "}\n";
  assert_null(rt_apply(&red_pass_inline, captured, 0));
  expect(&red_pass_inline, captured, 1, W("let %y = exp(%x);", "let %x0: float32 = %x;", "add(%x0, %y)"), W("fn"));
}

static void test_inline_closure_called_once(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: float32) {\n"
      "  let %f = fn (%a: float32) { let %b = exp(%a); negative(%b) };\n"
      "  %f(%x)\n"
      "}\n";
  expect(&red_pass_inline, p, 0, W("let %a: float32 = %x;", "let %b = exp(%a);", "negative(%b)"), W("fn", "%f"));
}

static void test_inline_closure_bound_by_a_binding_joins_the_chain(void **state) {
  (void)state;
  /* the inlined body's bindings join @main's chain, where truncate and cut can reach them */
  const char *p = RT_V
      "def @main(%x: float32) {\n"
      "  %0 = fn (%a: float32) { %1 = exp(%a); negative(%1) };\n"
      "  %2 = %0(%x);\n"
      "  sqrt(%2)\n"
      "}\n";
  expect(&red_pass_inline, p, 0,
         W("{\n  let %a: float32 = %x;\n  %1 = exp(%a);\n  %2 = negative(%1);\n  sqrt(%2)\n}"), W("fn", "%0"));
}

static void test_inline_closure_renames_clashing_parameters(void **state) {
  (void)state;
  /* @main has its own %a: the closure's %a gets a fresh name rather than shadowing it */
  const char *p = RT_V
      "def @main(%x: float32, %a: float32) {\n"
      "  let %f = fn (%a: float32) { negative(%a) };\n"
      "  add(%f(%x), %a)\n"
      "}\n";
  expect(&red_pass_inline, p, 0, W("let %a0: float32 = %x;", "negative(%a0)", ", %a)"), W("fn"));
}

static void test_inline_skips_recursive_closures(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: int32) {\n"
      "  let %f = fn (%n: int32) -> int32 {\n"
      "    if (equal(%n, 0)) { 0 } else { %f(subtract(%n, 1)) }\n"
      "  };\n"
      "  %f(%x)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_inline, p), 1);
  assert_null(rt_apply(&red_pass_inline, p, 0));
}

/* ------------------------------------------------------------------ fold */

static void test_fold_if_on_a_literal(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: float32) {\n"
      "  %0 = if (True) { exp(%x) } else { negative(%x) };\n"
      "  if ((False)) { %0 } else { let %y = sqrt(%x); add(%y, %0) }\n"
      "}\n";
  /* two branches per if, the one a literal condition takes first */
  assert_int_equal(rt_count(&red_pass_fold, p), 4);
  /* prog_walk's order: a sequence's result before its bindings; the else branch joins the chain */
  expect(&red_pass_fold, p, 0, W("};\n  let %y = sqrt(%x);\n  add(%y, %0)\n}"), W("False"));
  expect(&red_pass_fold, p, 1, W("negative(%x)\n  };\n  %0\n}"), W("False", "sqrt"));
  expect(&red_pass_fold, p, 2, W("%0 = exp(%x);"), W("negative", "True"));
  expect(&red_pass_fold, p, 3, W("%0 = negative(%x);"), W("exp(", "True"));
}

static void test_fold_if_to_either_branch(void **state) {
  (void)state;
  /* an if nested in a branch: each step goes one level down, whatever the conditions */
  const char *p = RT_V
      "def @main(%c: bool, %d: bool, %x: float32) {\n"
      "  if (%c) { if (%d) { exp(%x) } else { %x } } else { negative(%x) }\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_fold, p), 4);
  expect(&red_pass_fold, p, 0, W("if (%d) {", "exp(%x)"), W("negative", "if (%c)"));
  expect(&red_pass_fold, p, 1, W("{\n  negative(%x)\n}"), W("if ("));
  expect(&red_pass_fold, p, 2, W("if (%c) {\n    exp(%x)\n  } else {"), W("if (%d)"));
}

static const char list_match[] = RT_V
    "type List[A] {\n"
    "  Cons(A, List[A]),\n"
    "  Nil,\n"
    "}\n"
    "def @main(%l: List[float32]) -> float32 {\n"
    "  match (%l) {\n"
    "    Cons(%h, Nil) => negative(%h),\n"
    "    Cons(_, Cons(%h2, _)) => { exp(%h2) },\n"
    "    Nil => { 0f },\n"
    "  }\n"
    "}\n";

static void test_fold_match_to_one_arm(void **state) {
  (void)state;
  /* each arm's body (its pattern's variables become @main's inputs), then each arm alone */
  assert_int_equal(rt_count(&red_pass_fold, list_match), 6);
  expect(&red_pass_fold, list_match, 0, W("def @main(%l: List[float32], %h0: float32) -> float32 {\n  negative(%h0)\n}"),
         W("match", "exp"));
  expect(&red_pass_fold, list_match, 1, W("%h20: float32) -> float32 {", "exp(%h20)"), W("match", "negative"));
  expect(&red_pass_fold, list_match, 2, W("-> float32 {\n  0f\n}"), W("match"));
  expect(&red_pass_fold, list_match, 3, W("match? (%l)", "Cons(%h, Nil) => negative(%h),"), W("exp", "0f"));
  expect(&red_pass_fold, list_match, 4, W("match? (%l)", "Cons(_, Cons(%h2, _)) => {"), W("negative", "0f"));
  expect(&red_pass_fold, list_match, 5, W("match? (%l)", "Nil => {"), W("negative", "exp"));
  /* a lone arm that binds: its body, with the tuple's fields as inputs */
  const char *lone = RT_V
      "def @main(%t: (float32, float32)) { match (%t) { (%a, %b) => add(%a, %b) } }\n";
  assert_int_equal(rt_count(&red_pass_fold, lone), 1);
  expect(&red_pass_fold, lone, 0, W("%a0: float32, %b0: float32) {\n  add(%a0, %b0)\n}"), W("match"));
  /* outside @main the variables cannot become inputs: nothing is proposed */
  const char *inner = RT_V
      "def @f(%t: (float32, float32)) -> float32 { match (%t) { (%a, %b) => add(%a, %b) } }\n"
      "def @main(%u: (float32, float32)) { @f(%u) }\n";
  assert_int_equal(rt_count(&red_pass_fold, inner), 1);
  assert_null(rt_apply(&red_pass_fold, inner, 0));
}

/* ------------------------------------------------------------------ globals */

static void test_globals_inlines_a_call(void **state) {
  (void)state;
  const char *p = RT_V
      "def @f(%a: float32) -> float32 {\n"
      "  %0 = exp(%a);\n"
      "  negative(%0)\n"
      "}\n"
      "def @main(%x: float32) {\n"
      "  %1 = @f(%x);\n"
      "  add(%1, @f(%1))\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_globals, p), 2);
  /* the copy of @f's body gets graph numbers of its own; @f stays for its other call */
  expect(&red_pass_globals, p, 0, W("%1 = @f(%x);", "add(%1, (", "let %a: float32 = %1;", "%2 = exp(%a);"), NULL);
  expect(&red_pass_globals, p, 1, W("let %a: float32 = %x;", "%2 = exp(%a);", "negative(%2)", "@f(%1)"), NULL);
}

static void test_globals_renames_clashing_parameters(void **state) {
  (void)state;
  const char *p = RT_V
      "def @f(%a: float32, %b: float32) -> float32 { subtract(%a, %b) }\n"
      "def @main(%b: float32, %a: float32) { @f(%b, %a) }\n";
  expect(&red_pass_globals, p, 0, W("let %a0: float32 = %b;", "let %b0: float32 = %a;", "subtract(%a0, %b0)"), NULL);
}

static void test_globals_leaves_recursive_polymorphic_and_main(void **state) {
  (void)state;
  const char *p = RT_V
      "def @id[A](%v: A) -> A { %v }\n"
      "def @loop(%n: int32) -> int32 { if (equal(%n, 0)) { %n } else { @loop(subtract(%n, 1)) } }\n"
      "def @main(%x: int32) -> int32 { @loop(@id(%x)) }\n";
  assert_int_equal(rt_count(&red_pass_globals, p), 0);
}

/* ------------------------------------------------------------------ the corpus */

/* Every candidate of the three passes on real programs: rt_apply aborts on an ill-typed one. */
/* What prog_scoped_walk reports at each expression: "kind:scope names:flags", one per line. */
static bool describe_site(const ScopedSite *site, void *ctx) {
  StrBuf *out = ctx;
  const AstExpr *e = *site->slot;
  sb_printf(out, "%s:", e->kind == AST_CALL ? "call" : e->kind == AST_NAME ? e->text : e->kind == AST_FN ? "fn" : e->kind == AST_SEQ ? "seq" : e->kind == AST_LOCAL ? "%" : e->kind == AST_GRAPH ? "%g" : "other");
  for (size_t i = 0; i < site->nscope; i++) sb_printf(out, "%s%s", i ? "," : "", site->scope[i].name);
  sb_printf(out, ":%s%s|%s\n", site->in_main ? "main" : "-", site->is_callee ? ",callee" : "", site->def->name);
  return false;
}

/* Every use of a local resolves to the innermost binding of its name; a graph kind does not. */
static bool resolve_uses(const ScopedSite *site, void *ctx) {
  size_t *resolved = ctx;
  const AstExpr *e = *site->slot;
  if (e->kind != AST_LOCAL || site->is_callee) return false;
  const ScopeVar *v = prog_scope_find(site, AST_LOCAL, e->text);
  assert_non_null(v);
  assert_string_equal(v->name, e->text);
  for (const ScopeVar *later = v + 1; later < site->scope + site->nscope; later++)
    assert_string_not_equal(later->name, e->text); /* nothing inner shadows it */
  assert_null(prog_scope_find(site, AST_GRAPH, e->text));
  ++*resolved;
  return false;
}

static void test_scoped_walk_reports_the_variables_in_scope(void **state) {
  (void)state;
  Program p;
  char err[512];
  const char *text = RT_V "def @f(%a: float32) -> float32 { %a }\n"
                     "def @main(%x: float32) -> float32 {\n"
                     "  let %y = add(%x, %x);\n"
                     "  let %g = fn (%z: float32) -> float32 { multiply(%z, %y) };\n"
                     "  %g(@f(%y))\n"
                     "}\n";
  if (!prog_load(&p, "candidate", text, true, err, sizeof err)) fail_msg("%s", err);
  StrBuf out = {0};
  assert_false(prog_scoped_walk(p.m, describe_site, &out));
  /* A binding is in scope after its value, not inside it; a closure's parameter only in its body;
     callees are flagged; @f's parameter is not visible in @main. */
  assert_string_equal(out.data, "%:a:-|f\n"
                                "seq:x:main|main\n"
                                "call:x:main|main\n"
                                "add:x:main,callee|main\n"
                                "%:x:main|main\n"
                                "%:x:main|main\n"
                                "fn:x,y:main|main\n"
                                "call:x,y,z:main|main\n"
                                "multiply:x,y,z:main,callee|main\n"
                                "%:x,y,z:main|main\n"
                                "%:x,y,z:main|main\n"
                                "call:x,y,g:main|main\n"
                                "%:x,y,g:main,callee|main\n"
                                "call:x,y,g:main|main\n"
                                "other:x,y,g:main,callee|main\n"
                                "%:x,y,g:main|main\n");
  free(out.data);
  size_t resolved = 0;
  prog_scoped_walk(p.m, resolve_uses, &resolved);
  assert_int_equal(resolved, 6); /* %a; add's %x, %x; the closure's %z, %y; @f's argument %y */
  prog_free(&p);
}

static void test_structure_passes_on_the_corpus(void **state) {
  (void)state;
  static const char *const files[] = {
      "features/adt_list_match.relay",      "features/adt_option_nested_patterns.relay",
      "features/closures.relay",            "features/fused_primitive_functions.relay",
      "features/if_else.relay",             "features/let_anf.relay",
      "features/mutual_recursion.relay",    "features/recursion_global.relay",
      "features/user_adt_tree.relay",       "features/while_loop_local_recursion.relay",
      "features/tensor_array.relay",        "features/gradient_first_order.relay",
  };
  const RedPass *passes[] = {&red_pass_inline, &red_pass_fold, &red_pass_globals};
  size_t proposed[3] = {0};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    char path[256];
    snprintf(path, sizeof path, "../shared/corpus/%s", files[f]);
    size_t len;
    char *text = file_read(path, &len);
    if (!text) skip();
    for (size_t k = 0; k < 3; k++) {
      size_t n = rt_count(passes[k], text);
      for (size_t i = 0; i < n; i++) {
        char *c = rt_apply(passes[k], text, i);
        proposed[k] += c != NULL;
        free(c);
      }
    }
    free(text);
  }
  for (size_t k = 0; k < 3; k++)
    if (!proposed[k]) fail_msg("pass %s proposed nothing on the corpus", passes[k]->name);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_inline_single_use_let_and_graph),
      cmocka_unit_test(test_inline_leaves_values_used_twice_or_captured),
      cmocka_unit_test(test_inline_closure_called_once),
      cmocka_unit_test(test_inline_closure_bound_by_a_binding_joins_the_chain),
      cmocka_unit_test(test_inline_closure_renames_clashing_parameters),
      cmocka_unit_test(test_inline_skips_recursive_closures),
      cmocka_unit_test(test_fold_if_on_a_literal), cmocka_unit_test(test_fold_if_to_either_branch),
      cmocka_unit_test(test_fold_match_to_one_arm),
      cmocka_unit_test(test_globals_inlines_a_call),
      cmocka_unit_test(test_globals_renames_clashing_parameters),
      cmocka_unit_test(test_globals_leaves_recursive_polymorphic_and_main),
      cmocka_unit_test(test_scoped_walk_reports_the_variables_in_scope),
      cmocka_unit_test(test_structure_passes_on_the_corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
