/* TVM's comments through a reduction: the comments, spans and tycomments passes, the final
   printing (prog_print with strip_annotations) and a block's comments once its result changed.
   Spans stay byte for byte with the nodes that survive; no ty= comment is left stale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "reduce_test.h"

/* As TVM prints a model with spans: one comment a node, `ty=T span=S`, a user's note, and the
   result's comment (which attaches to the block, parser/comments.c). */
static const char printed[] =
    "// a license header\n" RT_V
    "def @main(%x: Tensor[(2, 3), float32] /* ty=Tensor[(2, 3), float32] span=from_string:3:5 */) -> Tensor[(2, 3), float32] {\n"
    "  %0 = nn.relu(%x) /* ty=Tensor[(2, 3), float32] span=from_string:4:7 */ /* the layer that crashes */;\n"
    "  %1 = exp(%0) /* ty=Tensor[(2, 3), float32] */;\n"
    "  negative(%1) /* ty=Tensor[(2, 3), float32] span=from_string:9:1 */\n"
    "}\n";

/* Candidate i of pass on text, as printed for the test (comments as they are). */
static char *propose(const RedPass *pass, const char *text, size_t i) {
  Program p;
  char err[512];
  if (!prog_load(&p, "test", text, true, err, sizeof err)) fail_msg("%s", err);
  char *c = red_propose(&p, pass, i);
  prog_free(&p);
  return c;
}

static void test_comments_drop_types_and_keep_spans_byte_for_byte(void **state) {
  (void)state;
  assert_int_equal(rt_count(&red_pass_comments, printed), 2);
  char *c = propose(&red_pass_comments, printed, 0);
  assert_non_null(c);
  assert_null(strstr(c, "ty="));
  assert_non_null(strstr(c, "%x: Tensor[(2, 3), float32] /* span=from_string:3:5 */"));
  assert_non_null(strstr(c, "nn.relu(%x) /* span=from_string:4:7 */ /* the layer that crashes */;"));
  assert_non_null(strstr(c, "exp(%0);"));
  assert_non_null(strstr(c, "negative(%1) /* span=from_string:9:1 */"));
  assert_non_null(strstr(c, "/* a license header */")); /* a line comment, printed as a block */
  /* then the user's comments; the spans stay */
  char *d = propose(&red_pass_comments, c, 1);
  assert_non_null(d);
  assert_null(strstr(d, "license"));
  assert_null(strstr(d, "crashes"));
  assert_non_null(strstr(d, "nn.relu(%x) /* span=from_string:4:7 */;"));
  assert_int_equal(rt_count(&red_pass_comments, d), 0);
  free(c);
  free(d);
}

static void test_spans_pass_drops_spans_and_keeps_types(void **state) {
  (void)state;
  assert_int_equal(rt_count(&red_pass_spans, printed), 1);
  char *c = propose(&red_pass_spans, printed, 0);
  assert_non_null(c);
  assert_null(strstr(c, "span="));
  assert_non_null(strstr(c, "nn.relu(%x) /* ty=Tensor[(2, 3), float32] */ /* the layer that crashes */;"));
  assert_int_equal(rt_count(&red_pass_spans, c), 0);
  free(c);
}

/* The final printing without TVM's types (the driver's last step): spans stay. */
static void test_printing_without_types_keeps_spans(void **state) {
  (void)state;
  Program p;
  char err[512];
  assert_true(prog_load(&p, "test", printed, true, err, sizeof err));
  char *text = prog_print(&p, true);
  assert_null(strstr(text, "ty="));
  assert_non_null(strstr(text, "nn.relu(%x) /* span=from_string:4:7 */ /* the layer that crashes */;"));
  char *again = prog_print(&p, false); /* the program printed is unchanged */
  assert_non_null(strstr(again, "ty=Tensor[(2, 3), float32] span=from_string:4:7"));
  free(again);
  free(text);
  prog_free(&p);
}

/* A block's comment describes its result: truncate puts another result there, and the comment of
   the result it dropped goes with it. */
static void test_a_new_result_leaves_the_old_result_comment(void **state) {
  (void)state;
  char *c = propose(&red_pass_truncate, printed, 1);
  assert_non_null(c);
  assert_null(strstr(c, "from_string:9:1"));
  assert_non_null(strstr(c, "exp(%0) /* ty=Tensor[(2, 3), float32] */;\n  %1\n}"));
  free(c);
}

/* unwrap makes a closure's body @main's: the closure's result keeps its span. */
static void test_unwrap_keeps_the_closure_result_span(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%a: Tensor[(5, 7), float32] /* ty=Tensor[(5, 7), float32] span=s:1:1 */) -> Tensor[(5, 7), float32] {\n"
      "  %1 = fn (%y: Tensor[(5, 7), float32] /* ty=Tensor[(5, 7), float32] span=s:2:2 */) -> Tensor[(5, 7), float32] {\n"
      "    %0 = nn.relu(%y) /* ty=Tensor[(5, 7), float32] span=s:3:3 */;\n"
      "    add(%0, %0) /* ty=Tensor[(5, 7), float32] span=s:4:4 */\n"
      "  } /* ty=fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] span=s:5:5 */;\n"
      "  %1(%a) /* ty=Tensor[(5, 7), float32] span=s:6:6 */\n"
      "}\n";
  char *c = propose(&red_pass_unwrap, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "add(%0, %0) /* ty=Tensor[(5, 7), float32] span=s:4:4 */\n}"));
  assert_null(strstr(c, "span=s:6:6")); /* @main's old result is gone, and its comment */
  free(c);
}

static const char stale[] = RT_V
    "def @main(%x: Tensor[(2), float32] /* ty=Tensor[(4), float32] span=s:1:1 */, %y: float32) {\n"
    "  %0 = exp(%x) /* ty=Tensor[(4), float32] span=s:2:2 */;\n"
    "  %1 = add(%0, %y) /* ty=Tensor[(2), float32] span=s:3:3 */;\n"
    "  %2 = negative(%y) /* ty=Tensor[(2, 3), float32] */;\n"
    "  %3 = nn.relu(%y) /* ty=float32 span=s:4:4 */;\n"
    "  (%1, %2, %3) /* ty=(Tensor[(2), float32], float32, float32) */\n"
    "}\n";

static void test_stale_type_comments_are_rewritten(void **state) {
  (void)state;
  assert_int_equal(rt_count(&red_pass_tycomments, stale), 1);
  char *c = propose(&red_pass_tycomments, stale, 0);
  assert_non_null(c);
  /* rewritten to the node's type, the span byte for byte */
  assert_non_null(strstr(c, "%x: Tensor[(2), float32] /* ty=Tensor[(2), float32] span=s:1:1 */"));
  assert_non_null(strstr(c, "exp(%x) /* ty=Tensor[(2), float32] span=s:2:2 */;"));
  assert_non_null(strstr(c, "negative(%y) /* ty=float32 */;"));
  /* still right: byte for byte */
  assert_non_null(strstr(c, "add(%0, %y) /* ty=Tensor[(2), float32] span=s:3:3 */;"));
  assert_non_null(strstr(c, "nn.relu(%y) /* ty=float32 span=s:4:4 */;"));
  assert_non_null(strstr(c, "(%1, %2, %3) /* ty=(Tensor[(2), float32], float32, float32) */"));
  assert_int_equal(rt_count(&red_pass_tycomments, c), 0);
  free(c);
}

/* A type that grew: the comment loses its ty= part rather than grow the program (the driver keeps
   the smallest program, which would then be the stale one); its span stays. */
static void test_a_stale_comment_never_grows(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  %0 = exp(%x) /* ty=float32 span=s:2:2 */;\n"
      "  %1 = tanh(%x) /* ty=int8 */;\n"
      "  (%0, %1)\n"
      "}\n";
  char *c = propose(&red_pass_tycomments, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "exp(%x) /* span=s:2:2 */;"));
  assert_non_null(strstr(c, "tanh(%x);"));
  assert_true(strlen(c) < strlen(p));
  free(c);
}

/* An unknown operator's call is typed by its ty= comment: no pass drops it. */
static void test_an_unknown_operator_keeps_its_type_comment(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(2), float32]) {\n"
      "  %0 = mycompany.op(%x) /* ty=Tensor[(2), float32] span=s:1:1 */;\n"
      "  %0\n"
      "}\n";
  Program prog;
  char err[512];
  assert_true(prog_load(&prog, "test", p, true, err, sizeof err));
  assert_int_equal(prog_count_comments(prog.m, PROG_NOTE_TYPES), 0);
  char *c = red_propose(&prog, &red_pass_spans, 0);
  assert_non_null(strstr(c, "mycompany.op(%x) /* ty=Tensor[(2), float32] */"));
  free(c);
  /* the final printing without types keeps the call's comment whole, its span once */
  c = prog_print(&prog, true);
  assert_non_null(strstr(c, "mycompany.op(%x) /* ty=Tensor[(2), float32] span=s:1:1 */;"));
  assert_null(strstr(strstr(c, "span=") + 1, "span="));
  free(c);
  prog_free(&prog);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_comments_drop_types_and_keep_spans_byte_for_byte),
      cmocka_unit_test(test_spans_pass_drops_spans_and_keeps_types),
      cmocka_unit_test(test_printing_without_types_keeps_spans),
      cmocka_unit_test(test_a_new_result_leaves_the_old_result_comment),
      cmocka_unit_test(test_unwrap_keeps_the_closure_result_span),
      cmocka_unit_test(test_stale_type_comments_are_rewritten),
      cmocka_unit_test(test_a_stale_comment_never_grows),
      cmocka_unit_test(test_an_unknown_operator_keeps_its_type_comment),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
