/* The reduction passes: what each proposes on small programs, and that it is well-typed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "reduce_test.h"

static const char chain[] = RT_V
    "def @main(%x: Tensor[(2, 3), float32]) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = exp(%0);\n"
    "  negative(%1)\n"
    "}\n";

static void test_truncate_makes_a_binding_the_result(void **state) {
  (void)state;
  assert_int_equal(rt_count(&red_pass_truncate, chain), 2);
  char *c = rt_apply(&red_pass_truncate, chain, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "nn.relu(%x)"));
  assert_null(strstr(c, "exp("));
  free(c);
}

static void test_cut_turns_a_value_into_a_parameter(void **state) {
  (void)state;
  char *c = rt_apply(&red_pass_cut, chain, 0); /* the last binding first */
  assert_non_null(c);
  assert_non_null(strstr(c, "%cut0: Tensor[(2, 3), float32]"));
  assert_non_null(strstr(c, "negative(%cut0)"));
  free(c);
}

static void test_dce_deletes_unused_bindings_and_parameters(void **state) {
  (void)state;
  const char *p = RT_V
      "def @unused(%a: int32) { %a }\n"
      "def @main(%x: Tensor[(2), float32], %y: float32) {\n"
      "  %0 = exp(%x);\n"
      "  negative(%x)\n"
      "}\n";
  char *c = rt_apply(&red_pass_dce, p, 0);
  assert_non_null(c);
  assert_null(strstr(c, "exp("));
  assert_null(strstr(c, "@unused"));
  assert_null(strstr(c, "%y"));
  free(c);
  /* nothing left to delete: no proposal */
  const char *clean = RT_V "def @main(%x: float32) { negative(%x) }\n";
  assert_null(rt_apply(&red_pass_dce, clean, 0));
}

static const char nested[] = RT_V
    "def @main(%x: Tensor[(2, 3), float32], %s: float32) {\n"
    "  %0 = (add(%s, 1f), exp(%x));\n"
    "  nn.relu(add(%x, %0.1))\n"
    "}\n";

/* The opportunity of `replace` for the k-th replaceable expression and option o. */
static char *replace(const char *text, size_t k, size_t o) { return rt_apply(&red_pass_replace, text, k * 5 + o); }

static void test_replace_options_in_order(void **state) {
  (void)state;
  /* expressions in pre-order: the tuple, add(%s, 1f), exp(%x), the body's relu, add, %0.1 */
  assert_int_equal(rt_count(&red_pass_replace, nested), 6 * 5);
  char *c = replace(nested, 1, 0); /* a scalar expression becomes a literal */
  assert_non_null(strstr(c, "(0f, exp(%x))"));
  free(c);
  c = replace(nested, 1, 1); /* ... or the variable of its type */
  assert_non_null(strstr(c, "(%s, exp(%x))"));
  free(c);
  c = replace(nested, 3, 2); /* relu(add(..)) hoists its same-typed child */
  assert_non_null(strstr(c, "\n  add(%x, %0.1)\n"));
  free(c);
  c = replace(nested, 3, 3); /* ... or becomes a new parameter of @main */
  assert_non_null(strstr(c, "%p0: Tensor[(2, 3), float32]"));
  assert_null(strstr(c, "nn.relu"));
  free(c);
  c = replace(nested, 2, 4); /* exp(%x) with no variable of its type in scope but %x: the variable */
  assert_non_null(strstr(c, "(add(%s, 1f), %x)"));
  free(c);
  /* variables in scope are preferred to zeros() calls, even by the generator's option */
  for (size_t i = 0; i < 6 * 5; i++) {
    char *cand = rt_apply(&red_pass_replace, nested, i);
    if (cand) assert_null(strstr(cand, "zeros("));
    free(cand);
  }
}

static void test_replace_never_grows_or_escapes_binders(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(4), float32]) {\n"
      "  let %f = fn (%y: Tensor[(4), float32]) { exp(%y) };\n"
      "  %f(%x)\n"
      "}\n";
  size_t n = rt_count(&red_pass_replace, p), proposed = 0;
  for (size_t i = 0; i < n; i++) {
    char *c = rt_apply(&red_pass_replace, p, i); /* aborts on an ill-typed candidate */
    if (!c) continue;
    proposed++;
    /* smaller: the only operator call goes, or the closure's call does */
    assert_true(strstr(c, "exp(") == NULL || strstr(c, "%f(%x)") == NULL);
    free(c);
  }
  assert_true(proposed > 0);
}

static void test_annot_drops_inferable_annotations(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
      "  let %y: Tensor[(2), float32] = exp(%x);\n"
      "  %y\n"
      "}\n";
  char *c = rt_apply(&red_pass_annot, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "let %y = exp(%x);"));
  assert_null(strstr(c, "-> Tensor"));
  assert_non_null(strstr(c, "%x: Tensor[(2), float32]")); /* parameters keep theirs */
  assert_null(rt_apply(&red_pass_annot, c, 0));            /* nothing left: no proposal */
  free(c);
  /* a called global keeps its result type: TVM types the call by the global's annotation, and
     `negative(@f(%x))` in an unannotated @main has nothing else to fix it */
  const char *called = RT_V
      "def @f(%x: float32) -> float32 { exp(%x) }\n"
      "def @main(%x: float32) -> float32 { negative(@f(%x)) }\n";
  c = rt_apply(&red_pass_annot, called, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "def @f(%x: float32) -> float32"));
  assert_non_null(strstr(c, "def @main(%x: float32) {"));
  free(c);
}

static void test_dce_deletes_dead_items_in_chunks(void **state) {
  (void)state;
  /* four dead items: two bindings, two parameters; candidate 0 deletes them all, then halves,
     then one at a time, so a test that needs exp( can still lose the rest */
  const char *p = RT_V
      "def @main(%x: Tensor[(2), float32], %a: float32, %b: float32) {\n"
      "  %0 = exp(%x);\n"
      "  %1 = tanh(%x);\n"
      "  negative(%x)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_dce, p), 1 + 2 + 4);
  size_t keeping_exp = 0;
  for (size_t i = 1; i < 7; i++) {
    char *c = rt_apply(&red_pass_dce, p, i);
    assert_non_null(c);
    if (strstr(c, "exp(") && (!strstr(c, "tanh(") || !strstr(c, "%a"))) keeping_exp++;
    free(c);
  }
  assert_true(keeping_exp >= 2);
  char *single = rt_apply(&red_pass_dce, p, 1 + 2 + 1); /* the second singleton: tanh's binding */
  assert_non_null(strstr(single, "exp("));
  assert_null(strstr(single, "tanh("));
  assert_non_null(strstr(single, "%a"));
  free(single);
}

/* Globals @main does not reach are dead however they call each other; a chunk keeps a callee
   whose caller stays, so every candidate is well-formed. */
static void test_dce_deletes_unreached_globals_callers_first(void **state) {
  (void)state;
  const char *p = RT_V
      "def @f0(%x: float32) -> float32 { add(%x, %x) }\n"
      "def @f1(%x: float32) -> float32 { @f0(%x) }\n"
      "def @f2(%x: float32) -> float32 { @f1(%x) }\n"
      "def @f3(%x: float32) -> float32 { @f2(%x) }\n"
      "def @g(%x: float32) -> float32 { @h(%x) }\n"
      "def @h(%x: float32) -> float32 { @g(%x) }\n"
      "def @main(%x: float32) { %x }\n";
  /* dead: f3, f2, f1, f0 (callers first), then the cycle g, h: all, halves, quarters, singles */
  assert_int_equal(rt_count(&red_pass_dce, p), 1 + 2 + 3 + 6);
  char *c = rt_apply(&red_pass_dce, p, 0);
  assert_null(strstr(c, "@f"));
  assert_null(strstr(c, "@g"));
  free(c);
  c = rt_apply(&red_pass_dce, p, 1); /* f3, f2, f1: f0 stays (nothing of the chunk calls it any more) */
  assert_null(strstr(c, "def @f3"));
  assert_null(strstr(c, "def @f1"));
  assert_non_null(strstr(c, "def @f0"));
  free(c);
  c = rt_apply(&red_pass_dce, p, 2); /* f0, g, h: f0 stays (f1 calls it); g and h only call each other */
  assert_non_null(strstr(c, "def @f0"));
  assert_null(strstr(c, "def @g"));
  assert_null(strstr(c, "def @h"));
  free(c);
  c = rt_apply(&red_pass_dce, p, 3); /* quarters: f3, f2 */
  assert_null(strstr(c, "def @f2"));
  assert_non_null(strstr(c, "def @f1"));
  free(c);
  assert_null(rt_apply(&red_pass_dce, p, 4)); /* f1, f0: f2 calls f1 */
}

static void test_shapes_shrink_shared_sizes_together(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(1, 8, 16, 16), float16], %w: Tensor[(4, 8, 3, 3), float16]) {\n"
      "  nn.conv2d(%x, %w)\n"
      "}\n";
  /* sizes 16, 8, 4, 3 (each to 1 or half), the float16 inputs to float32, %x's unit dim, and
     every even size halved */
  assert_int_equal(rt_count(&red_pass_shapes, p), 2 * 4 + 1 + 2 + 1 + 1);
  char *c = rt_apply(&red_pass_shapes, p, 0); /* 16 -> 1: smaller than the 3x3 kernel: refused */
  assert_null(c);
  c = rt_apply(&red_pass_shapes, p, 1); /* 16 -> 8: the channels (8) stay, the image halves */
  assert_non_null(strstr(c, "%x: Tensor[(1, 8, 8, 8), float16]"));
  assert_non_null(strstr(c, "%w: Tensor[(4, 8, 3, 3), float16]"));
  free(c);
  c = rt_apply(&red_pass_shapes, p, 2); /* 8 -> 1 in data and weights together */
  assert_non_null(strstr(c, "Tensor[(1, 1, 16, 16), float16]"));
  assert_non_null(strstr(c, "Tensor[(4, 1, 3, 3), float16]"));
  free(c);
  c = rt_apply(&red_pass_shapes, p, 8); /* every input to float32 */
  assert_null(strstr(c, "float16"));
  free(c);
  c = rt_apply(&red_pass_shapes, p, 10); /* the second float16 input alone */
  assert_non_null(strstr(c, "%x: Tensor[(1, 8, 16, 16), float16], %w: Tensor[(4, 8, 3, 3), float32]"));
  free(c);
  assert_null(rt_apply(&red_pass_shapes, p, 11)); /* conv2d needs its rank-4 data */
  const char *bias = RT_V "def @main(%x: Tensor[(1, 8, 1, 1), float32], %b: Tensor[(8, 1, 1), float32]) { add(%x, %b) }\n";
  c = rt_apply(&red_pass_shapes, bias, rt_count(&red_pass_shapes, bias) - 2); /* %b's unit dims go */
  assert_non_null(strstr(c, "%b: Tensor[(8), float32]"));
  free(c);
  c = rt_apply(&red_pass_shapes, p, 12); /* every even size halved: 16, 8, 4 at once, not the 3 */
  assert_non_null(strstr(c, "%x: Tensor[(1, 4, 8, 8), float16], %w: Tensor[(2, 4, 3, 3), float16]"));
  free(c);
}

static void test_shapes_follow_sizes_the_program_pins(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(2, 1024), float32], %w: Tensor[(8, 256), float32]) {\n"
      "  %0 = fn (%p: Tensor[(2, 1024), float32], Primitive=1) -> Tensor[(2, 4, 256), float32] {\n"
      "    reshape(%p, newshape=[-1, 4, 256])\n"
      "  };\n"
      "  nn.dense(%0(%x), %w, units=8)\n"
      "}\n";
  /* sizes 1024, 256, 8, 2: index 4 is 8 -> 1, which `units=8` pins */
  char *c = rt_apply(&red_pass_shapes, p, 4);
  assert_non_null(c);
  assert_non_null(strstr(c, "%w: Tensor[(1, 256), float32]"));
  assert_non_null(strstr(c, "units=1"));
  free(c);
  /* 2 -> 1, which the closure's parameter and result annotations pin */
  c = rt_apply(&red_pass_shapes, p, 6);
  assert_non_null(c);
  assert_non_null(strstr(c, "%x: Tensor[(1, 1024), float32]"));
  assert_non_null(strstr(c, "%p: Tensor[(1, 1024), float32]"));
  assert_non_null(strstr(c, "-> Tensor[(1, 4, 256), float32]"));
  free(c);
  /* 1024 -> 512: newshape's 256 and 4 stay, so the closure's result cannot follow: refused */
  assert_null(rt_apply(&red_pass_shapes, p, 1));
  /* An attribute that only happens to equal the size: changing it too is ill-typed (sum over
     axis 1 then leaves (1, 5), which does not add to %y), so the inputs change alone. */
  const char *axis = RT_V
      "def @main(%x: Tensor[(2, 3, 5), float32], %y: Tensor[(2, 3), float32]) {\n"
      "  add(sum(%x, axis=[2]), %y)\n"
      "}\n";
  c = rt_apply(&red_pass_shapes, axis, 4); /* sizes 5, 3, 2: 2 -> 1 */
  assert_non_null(c);
  assert_non_null(strstr(c, "%x: Tensor[(1, 3, 5), float32], %y: Tensor[(1, 3), float32]"));
  assert_non_null(strstr(c, "axis=[2]"));
  free(c);
}

/* Sizes tied by arithmetic: the 8 gates split into four of the 2-wide state.  Neither 8 nor 2 can
   change alone; halving every even size at once keeps the ratio (the odd batch stays). */
static void test_shapes_halve_sizes_tied_by_arithmetic(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%h: Tensor[(3, 2), float32], %w: Tensor[(8, 2), float32]) {\n"
      "  %0 = nn.dense(%h, %w, units=8);\n"
      "  %1 = split(%0, indices_or_sections=4, axis=1);\n"
      "  concatenate((%1.0, %h))\n"
      "}\n";
  /* sizes 8, 3, 2: 8 -> 1, 8 -> 4, 2 -> 1 are each ill-typed */
  assert_null(rt_apply(&red_pass_shapes, p, 0));
  assert_null(rt_apply(&red_pass_shapes, p, 1));
  assert_null(rt_apply(&red_pass_shapes, p, 4));
  char *c = rt_apply(&red_pass_shapes, p, rt_count(&red_pass_shapes, p) - 1);
  assert_non_null(c);
  assert_non_null(strstr(c, "%h: Tensor[(3, 1), float32], %w: Tensor[(4, 1), float32]"));
  assert_non_null(strstr(c, "units=4"));
  assert_non_null(strstr(c, "indices_or_sections=4")); /* not a size of an input: unchanged */
  free(c);
}

static void test_fields_deletes_an_unread_tuple_field(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(2), float32]) {\n"
      "  %0 = (exp(%x), tanh(%x), negative(%x));\n"
      "  add(%0.0, %0.2)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_fields, p), 1); /* field 1 is never read */
  char *c = rt_apply(&red_pass_fields, p, 0);
  assert_null(strstr(c, "tanh("));
  assert_non_null(strstr(c, "add(%0.0, %0.1)")); /* the projection after it is renumbered */
  free(c);
  /* a tuple also used whole loses a field no projection reads: %0's second, and either of %1's
     (@main returns it) */
  const char *whole = RT_V "def @main(%x: float32) {\n  %0 = (%x, %x);\n  %1 = (%0, %0.0);\n  %1\n}\n";
  assert_int_equal(rt_count(&red_pass_fields, whole), 3);
  c = rt_apply(&red_pass_fields, whole, 0);
  assert_non_null(strstr(c, "%0 = (%x,);"));
  free(c);
}

/* A tuple consumed whole (concatenate, stack) shrinks to fewer fields: bound, written in place,
   or a parameter of @main; the guard keeps what still type-checks. */
static void test_fields_shrinks_a_tuple_consumed_whole(void **state) {
  (void)state;
  const char *bound = RT_V
      "def @main(%x: Tensor[(1, 4), float32]) {\n"
      "  %0 = (exp(%x), tanh(%x), %x);\n"
      "  concatenate(%0, axis=1)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_fields, bound), 3);
  char *c = rt_apply(&red_pass_fields, bound, 1);
  assert_non_null(strstr(c, "%0 = (exp(%x), %x);"));
  free(c);
  const char *inline_ = RT_V
      "def @main(%x: Tensor[(1, 4), float32]) {\n"
      "  stack((exp(%x), tanh(%x), %x))\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_fields, inline_), 3);
  c = rt_apply(&red_pass_fields, inline_, 0);
  assert_non_null(strstr(c, "stack((tanh(%x), %x))"));
  free(c);
  const char *param = RT_V
      "def @main(%p: (Tensor[(1, 1), float32], Tensor[(1, 1), float32])) {\n"
      "  concatenate(%p)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_fields, param), 2);
  c = rt_apply(&red_pass_fields, param, 1);
  assert_non_null(strstr(c, "%p: (Tensor[(1, 1), float32],)"));
  free(c);
}

static void test_fields_deletes_an_unread_field_of_a_tuple_parameter(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%p: (Tensor[(2), float32], int32, Tensor[(2), float32])) {\n"
      "  add(%p.0, %p.2)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_fields, p), 1); /* the int32 is never read */
  char *c = rt_apply(&red_pass_fields, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "%p: (Tensor[(2), float32], Tensor[(2), float32])"));
  assert_non_null(strstr(c, "add(%p.0, %p.1)"));
  free(c);
  /* a parameter also used whole loses a field no projection reads (and %0, the result, either) */
  const char *whole = RT_V "def @main(%p: (float32, float32)) {\n  %0 = (%p, %p.0);\n  %0\n}\n";
  assert_int_equal(rt_count(&red_pass_fields, whole), 3);
}

/* A binding the test keeps only for its text becomes live where a parameter of @main was read
   after it, which dce then deletes. */
static void test_live_reads_a_dead_binding_instead_of_a_parameter(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(1, 2, 1, 1), float32], %b: Tensor[(2), float32], %c: float32) {\n"
      "  %0 = nn.batch_norm(%x, %b, %b, %b, %b);\n"
      "  nn.relu(%c)\n"
      "}\n";
  /* the dead %0 holds a 3-tuple; only %c is read after it alone */
  assert_int_equal(rt_count(&red_pass_live, p), 3);
  char *c = rt_apply(&red_pass_live, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "nn.relu(%0.0)"));
  char *d = rt_apply(&red_pass_dce, c, 0);
  assert_null(strstr(d, "%c"));
  free(c);
  free(d);
  /* a tuple parameter: a tuple of copies of the binding */
  const char *t = RT_V
      "def @main(%x: Tensor[(1, 1), float32], %p: (Tensor[(1, 1), float32], Tensor[(1, 1), float32])) {\n"
      "  %0 = nn.relu(%x);\n"
      "  concatenate(%p)\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_live, t), 2);
  assert_null(rt_apply(&red_pass_live, t, 0)); /* concatenate(%0) does not type-check */
  c = rt_apply(&red_pass_live, t, 1);
  assert_non_null(strstr(c, "concatenate((%0, %0))"));
  free(c);
  /* nothing dead, or no parameter read after it alone: nothing to propose */
  assert_int_equal(rt_count(&red_pass_live, chain), 0);
  const char *shared = RT_V "def @main(%x: float32) {\n  %0 = exp(%x);\n  negative(%x)\n}\n";
  assert_int_equal(rt_count(&red_pass_live, shared), 0);
}

/* The tuple @main returns loses fields one at a time, its annotation with it. */
static void test_fields_deletes_a_field_of_the_result(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(2), float32], %y: int32) -> (Tensor[(2), float32], int32, Tensor[(2), float32]) {\n"
      "  %0 = exp(%x);\n"
      "  (%0, %y, negative(%x))\n"
      "}\n";
  assert_int_equal(rt_count(&red_pass_fields, p), 3);
  char *c = rt_apply(&red_pass_fields, p, 1);
  assert_non_null(c);
  assert_non_null(strstr(c, "-> (Tensor[(2), float32], Tensor[(2), float32]) {"));
  assert_non_null(strstr(c, "(%0, negative(%x))"));
  free(c);
  /* an annotation that is not the tuple's own spelling goes: the checker finds the new type */
  const char *named = RT_V "def @main(%x: float32) {\n  (%x, %x)\n}\n";
  c = rt_apply(&red_pass_fields, named, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "(%x,)"));
  free(c);
  /* a one-field tuple has nothing to lose here (truncate and body make a field the result) */
  assert_int_equal(rt_count(&red_pass_fields, RT_V "def @main(%x: float32) {\n  (%x,)\n}\n"), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_truncate_makes_a_binding_the_result),
      cmocka_unit_test(test_cut_turns_a_value_into_a_parameter),
      cmocka_unit_test(test_dce_deletes_unused_bindings_and_parameters),
      cmocka_unit_test(test_replace_options_in_order),
      cmocka_unit_test(test_annot_drops_inferable_annotations),
      cmocka_unit_test(test_dce_deletes_dead_items_in_chunks),
      cmocka_unit_test(test_dce_deletes_unreached_globals_callers_first),
      cmocka_unit_test(test_shapes_shrink_shared_sizes_together),
      cmocka_unit_test(test_shapes_follow_sizes_the_program_pins),
      cmocka_unit_test(test_shapes_halve_sizes_tied_by_arithmetic),
      cmocka_unit_test(test_fields_deletes_an_unread_tuple_field),
      cmocka_unit_test(test_fields_deletes_an_unread_field_of_a_tuple_parameter),
      cmocka_unit_test(test_fields_shrinks_a_tuple_consumed_whole),
      cmocka_unit_test(test_live_reads_a_dead_binding_instead_of_a_parameter),
      cmocka_unit_test(test_fields_deletes_a_field_of_the_result),
      cmocka_unit_test(test_replace_never_grows_or_escapes_binders),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
