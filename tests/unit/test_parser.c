/* Unit tests of the parser library: parse -> AST -> print, comments, spans, literals, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../parser/ast.h"
#include "../../parser/literal.h"
#include "../../parser/lower.h"

/* ------------------------------------------------------------------ helpers */

/* Parses `text`; on failure leaves the rendered diagnostics in *errors (caller frees). */
static AstModule *parse(const char *text, char **errors) {
  Diag d;
  diag_init(&d, "t.relay", text, strlen(text));
  AstModule *m = ast_parse(text, strlen(text), &d);
  if (errors) *errors = strdup(d.out.data ? d.out.data : "");
  diag_free(&d);
  return m;
}

static char *print_text(const char *text, bool strip) {
  AstModule *m = parse(text, NULL);
  assert_non_null(m);
  AstPrintOptions o = {.strip_types = strip};
  char *out = ast_print(m, &o);
  ast_free(m);
  return out;
}

static void assert_prints(const char *in, const char *want) {
  char *got = print_text(in, false);
  assert_string_equal(got, want);
  free(got);
}

/* The message of a rejected input. */
static char *error_of(const char *text) {
  char *errors = NULL;
  AstModule *m = parse(text, &errors);
  assert_null(m);
  return errors;
}

static void assert_error(const char *text, const char *location, const char *fragment) {
  char *e = error_of(text);
  if (!strstr(e, location) || !strstr(e, fragment)) fail_msg("error for %s was: %s", text, e);
  free(e);
}

/* ------------------------------------------------------------------ printing */

static const char tvm_module[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(1, 3), float32] /* ty=Tensor[(1, 3), float32] */, Primitive=1) -> Tensor[(1, 3), float32] {\n"
    "  %0 = nn.relu(%x) /* ty=Tensor[(1, 3), float32] */;\n"
    "  %1 = fn (%p: Tensor[(1, 3), float32]) -> Tensor[(1, 3), float32] {\n"
    "    add(%p, 1f /* ty=float32 */)\n"
    "  };\n"
    "  let %y: Tensor[(1, 3), float32] = %1(%0);\n"
    "  if (True) {\n"
    "    %y\n"
    "  } else {\n"
    "    %x\n"
    "  }\n"
    "}\n";

static void test_tvm_layout_round_trips(void **state) {
  (void)state;
  assert_prints(tvm_module, tvm_module);
}

/* The printer rebuilds the layout from the tree, not from the input's whitespace. */
static void test_layout_rebuilt_from_one_line(void **state) {
  (void)state;
  char flat[sizeof tvm_module];
  size_t k = 0;
  bool first_line = true;
  for (const char *p = tvm_module; *p; p++) {
    if (*p == '\n' && first_line) {
      flat[k++] = '\n';
      first_line = false;
      while (p[1] == ' ') p++;
    } else if (*p == '\n') {
      flat[k++] = ' ';
      while (p[1] == ' ') p++;
    } else {
      flat[k++] = *p;
    }
  }
  flat[k] = '\0';
  assert_null(strchr(strchr(flat, '\n') + 1, '\n'));
  assert_prints(flat, tvm_module);
}

static void test_type_definitions(void **state) {
  (void)state;
  assert_prints("#[version = \"0.0.5\"] type List[A] { Cons(A, List[A]), Nil } type Storage",
                "#[version = \"0.0.5\"]\ntype List[A] {\n  Cons(A, List[A]),\n  Nil,\n}\n\n"
                "type Storage {\n  \n}\n");
}

static void test_match_layout(void **state) {
  (void)state;
  assert_prints("match? (%xs) { Cons(%x, _) => { %x }, Nil => 0 }",
                "match? (%xs) {\n  Cons(%x, _) => {\n    %x\n  },\n  Nil => 0,\n}\n");
}

static void test_parenthesised_let_chain(void **state) {
  (void)state;
  assert_prints("%3 = ( let %w = fn (%i) { %i }; %w ); %3(1)",
                "%3 = (\n  let %w = fn (%i) {\n    %i\n  };\n  %w\n);\n%3(1)\n");
}

static void test_tuples_projections_attrs(void **state) {
  (void)state;
  assert_prints("(%x,).0", "(%x,).0\n");
  assert_prints("(  )", "()\n");
  assert_prints("nn.pad(%x,0f,pad_width=[[0,0],[1,1]],axes=None)", "nn.pad(%x, 0f, pad_width=[[0, 0], [1, 1]], axes=None)\n");
  assert_prints("fn(%x)-  >int32{%x}", "fn (%x) -> int32 {\n  %x\n}\n");
}

/* Literal spellings are kept: printing must not round 0.123456789f to six digits. */
static void test_literal_spellings_kept(void **state) {
  (void)state;
  assert_prints("(0.123456789f, --10, -42i, 1E+1f, 3f16)", "(0.123456789f, --10, -42i, 1E+1f, 3f16)\n");
}

static void test_metadata_verbatim(void **state) {
  (void)state;
  const char *in = "#[version = \"0.0.5\"]\ndef @main() { meta[relay.Constant][0] }\n#[metadata]\n{\n  \"root\": 1, \n}\n";
  assert_prints(in, "#[version = \"0.0.5\"]\ndef @main() {\n  meta[relay.Constant][0]\n}\n\n#[metadata]\n{\n  \"root\": 1, \n}\n");
}

/* ------------------------------------------------------------------ comments */

static void test_ty_comments_attach_to_their_node(void **state) {
  (void)state;
  AstModule *m = parse("let %x: int32 /* ty=int32 */ = add(1 /* ty=int32 */, 2) /* ty=int32 */; %x", NULL);
  assert_non_null(m);
  AstExpr *seq = m->body;
  assert_int_equal(seq->kind, AST_SEQ);
  AstStmt *let = seq->stmts[0];
  assert_string_equal(let->binder->node.comments->text, "/* ty=int32 */");
  assert_null(let->binder->type->node.comments);
  AstExpr *call = let->value;
  assert_int_equal(call->kind, AST_CALL);
  assert_string_equal(call->node.comments->text, "/* ty=int32 */");
  assert_string_equal(call->items[0]->node.comments->text, "/* ty=int32 */");
  assert_null(call->items[1]->node.comments);
  ast_free(m);
}

static void test_strip_types_keeps_user_comments(void **state) {
  (void)state;
  char *out = print_text("add(%x /* mine */, 1 /* ty=int32 span=a:1:2 */) /* span=x:1:1 */", true);
  assert_string_equal(out, "add(%x /* mine */, 1)\n");
  free(out);
}

/* Line comments become block comments: the printer joins lines, a `//` would eat the rest. */
static void test_line_comments_become_block_comments(void **state) {
  (void)state;
  assert_prints("fn (%a, // 0\n %b) { %a }", "fn (%a /* 0 */, %b) {\n  %a\n}\n");
  assert_prints("// header */ here\n1", "/* header * / here */\n1\n");
}

/* Comments are attached in one ordered pass (issue 29): a run of them after one node stays in
   order on that node, each at the end of the list without a walk of it; a slash inside a name, a
   string or another comment starts no comment. */
static void test_comment_runs_attach_in_order(void **state) {
  (void)state;
  assert_prints("(1f, /* a */ /* b */\n // c\n 2f /* d */)", "(1f /* a */ /* b */ /* c */, 2f /* d */)\n");
  assert_prints("f(%a//b /* x */, s=\"/* y */\") /* z /* w */ */",
                "f(%a//b /* x */, s=\"/* y */\") /* z /* w */ */\n");
  enum { RUN = 9000 };
  StrBuf t;
  sb_init(&t);
  sb_puts(&t, "def @main() {\n  (1f,\n");
  for (int i = 0; i < RUN; i++) sb_printf(&t, "  /* %d */\n", i);
  sb_puts(&t, "  2f)\n}\n");
  AstModule *m = parse(t.data, NULL);
  assert_non_null(m);
  AstExpr *tuple = m->defs[0]->fn->body;
  assert_int_equal(tuple->kind, AST_TUPLE);
  int n = 0;
  char want[32];
  for (AstComment *c = tuple->items[0]->node.comments; c; c = c->next, n++) {
    snprintf(want, sizeof want, "/* %d */", n);
    assert_string_equal(c->text, want);
  }
  assert_int_equal(n, RUN);
  assert_null(tuple->items[1]->node.comments);
  ast_free(m);
  sb_free(&t);
}

/* Past the read budget, the step that sees it stops with one located error. */
static void test_read_budget_stops_reading(void **state) {
  (void)state;
  const char text[] = "1f";
  Diag d;
  diag_init(&d, "t.relay", text, 2);
  ReadBudget b = {.deadline = 0, .seconds = 5, .len = 2};
  bool over = false;
  for (int i = 0; i < 5000 && !over; i++) over = read_budget_over(&b, &d, 1);
  assert_true(over);
  assert_true(read_budget_over(&b, &d, 1));
  assert_int_equal(d.errors, 1);
  assert_non_null(strstr(d.out.data, "t.relay:1:2: error: reading stopped here: it takes longer than 5.0 s"));
  diag_free(&d);
}

/* ------------------------------------------------------------------ spans and AST */

/* "\n", "\r\n" and a lone "\r" each end a line, in messages and in spans alike (issue 29: with
   lone CRs every error was on line 1). */
static void test_lone_cr_ends_a_line(void **state) {
  (void)state;
  uint32_t line, col;
  const char text[] = "a\rb\r\nc\nd\r";
  diag_line_col(text, strlen(text), 2, &line, &col); /* b */
  assert_int_equal(line, 2);
  assert_int_equal(col, 1);
  diag_line_col(text, strlen(text), 6, &line, &col); /* c */
  assert_int_equal(line, 3);
  diag_line_col(text, strlen(text), 8, &line, &col); /* d */
  assert_int_equal(line, 4);
  diag_line_col(text, strlen(text), 10, &line, &col); /* after the last CR */
  assert_int_equal(line, 5);
  assert_error("#[version = \"0.0.5\"]\rdef @f() {\r  1f +\r}\r", "t.relay:3:6: error:", "unexpected '+'");
  char *e = error_of("1f\r\r  @@");
  assert_non_null(strstr(e, "t.relay:3:3: error:"));
  assert_non_null(strstr(e, "\n    @@\n    ^\n")); /* the line shown is the error's own */
  free(e);
  for (int crlf = 0; crlf < 2; crlf++) {
    const char *eol = crlf ? "\r\n" : "\r";
    char src[128];
    snprintf(src, sizeof src, "#[version = \"0.0.5\"]%sdef @f(%%x) {%s  %%x%s}%s", eol, eol, eol, eol);
    AstModule *m = parse(src, NULL);
    assert_non_null(m);
    assert_int_equal(m->defs[0]->node.span.line, 2);
    assert_int_equal(m->defs[0]->node.span.col, 1);
    assert_int_equal(m->defs[0]->fn->body->node.span.line, 3);
    assert_int_equal(m->defs[0]->fn->body->node.span.col, 3);
    ast_free(m);
  }
}

static void test_spans(void **state) {
  (void)state;
  AstModule *m = parse("#[version = \"0.0.5\"]\ndef @f(%x) {\n  %x\n}\n", NULL);
  assert_non_null(m);
  assert_int_equal(m->ndefs, 1);
  AstDef *d = m->defs[0];
  assert_int_equal(d->node.span.line, 2);
  assert_int_equal(d->node.span.col, 1);
  AstExpr *body = d->fn->body;
  assert_int_equal(body->node.span.line, 3);
  assert_int_equal(body->node.span.col, 3);
  assert_int_equal(body->node.span.end - body->node.span.start, 2);
  ast_free(m);
}

static void test_dump_is_stable_through_printing(void **state) {
  (void)state;
  const char *src = "free_var %x: float32; let %y = (1 + 2) * 3; match (%y) { _ => %x }";
  AstModule *a = parse(src, NULL);
  char *printed = ast_print(a, NULL);
  AstModule *b = parse(printed, NULL);
  assert_non_null(b);
  char *da = ast_dump(a), *db = ast_dump(b);
  assert_string_equal(da, db);
  assert_non_null(strstr(da, "(binary *"));
  assert_non_null(strstr(da, "(paren"));
  free(da);
  free(db);
  free(printed);
  ast_free(a);
  ast_free(b);
}

/* Nesting past 32 levels is written at the 32nd level's indentation (64 columns), so the text
   grows with the depth, not its square; up to there each level is two more spaces, as TVM writes. */
static void test_indentation_stops_at_64_columns(void **state) {
  (void)state;
  StrBuf src;
  sb_init(&src);
  sb_puts(&src, "#[version = \"0.0.5\"]\ndef @main(%c: bool, %x: float32) {\n");
  for (int i = 0; i < 100; i++) sb_puts(&src, "if (%c) { ");
  sb_puts(&src, "%x");
  for (int i = 0; i < 100; i++) sb_puts(&src, " } else { %x }");
  sb_puts(&src, "\n}\n");
  AstModule *a = parse(src.data, NULL);
  assert_non_null(a);
  char *printed = ast_print(a, NULL);
  size_t widest = 0, lines_at[200] = {0};
  for (const char *line = printed; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    size_t n = strspn(line, " ");
    if (n > widest) widest = n;
    if (n < 200) lines_at[n]++;
  }
  assert_int_equal(widest, 64);
  for (size_t n = 2; n <= 64; n += 2) assert_true(lines_at[n] > 0); /* every level up to the cap */
  assert_true(lines_at[64] > 100);                                   /* and the deeper ones at it */
  AstModule *b = parse(printed, NULL);
  assert_non_null(b);
  char *da = ast_dump(a), *db = ast_dump(b);
  assert_string_equal(da, db);
  free(da);
  free(db);
  free(printed);
  free(src.data);
  ast_free(a);
  ast_free(b);
}

/* ------------------------------------------------------------------ literals */

static void test_int_literals(void **state) {
  (void)state;
  int64_t v;
  int bits;
  const char *err;
  assert_true(lit_int("42", &v, &bits, &err));
  assert_int_equal(v, 42);
  assert_int_equal(bits, 32);
  assert_true(lit_int("--10", &v, &bits, &err));
  assert_int_equal(v, 10);
  assert_true(lit_int("---10", &v, &bits, &err));
  assert_int_equal(v, -10);
  assert_true(lit_int("2147483648", &v, &bits, &err));
  assert_int_equal(bits, 64);
  assert_true(lit_int("-2147483648i32", &v, &bits, &err));
  assert_int_equal(v, INT32_MIN);
  assert_false(lit_int("2147483648i32", &v, &bits, &err));
  assert_false(lit_int("32768i16", &v, &bits, &err));
  assert_true(lit_int("-32768i16", &v, &bits, &err));
  assert_false(lit_int("1i8", &v, &bits, &err));
  assert_false(lit_int("99999999999999999999", &v, &bits, &err));
}

static void test_float_literals(void **state) {
  (void)state;
  double v;
  int bits;
  const char *err;
  assert_true(lit_float("1e-05f", &v, &bits, &err));
  assert_true(v > 0.9e-5 && v < 1.1e-5);
  assert_int_equal(bits, 32);
  assert_true(lit_float("3f16", &v, &bits, &err));
  assert_int_equal(bits, 16);
  assert_true(lit_float("-inff", &v, &bits, &err));
  assert_true(v < 0);
  assert_true(lit_float("65504f16", &v, &bits, &err));
  assert_false(lit_float("65505f16", &v, &bits, &err));
  assert_false(lit_float("3.40283e+38f32", &v, &bits, &err));
  assert_true(lit_float("3.40282e+38f", &v, &bits, &err));
  assert_false(lit_float("1f8", &v, &bits, &err));
}

/* Spellings for program-made literals match what TVM prints (corpus examples). */
static void test_literal_spellings_as_tvm_prints(void **state) {
  (void)state;
  char buf[LIT_SPELLING_MAX];
  const struct {
    double v;
    int bits;
    const char *want;
  } floats[] = {{1e-5, 32, "1e-05f"}, {0.00392157, 32, "0.00392157f"}, {3.4028234663852886e38, 32, "3.40282e+38f"},
                {1e11, 32, "1e+11f"}, {0, 32, "0f"}, {255, 32, "255f"}, {2, 16, "2f16"}, {0.5, 64, "0.5f64"},
                {-1.0 / 0.0, 32, "-inff"}};
  for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
    lit_spell_float(floats[i].v, floats[i].bits, buf);
    assert_string_equal(buf, floats[i].want);
    double back;
    int bits;
    const char *err;
    assert_true(lit_float(buf, &back, &bits, &err));
    assert_int_equal(bits, floats[i].bits);
  }
  lit_spell_int(-4, 32, buf);
  assert_string_equal(buf, "-4");
  lit_spell_int(1, 64, buf);
  assert_string_equal(buf, "1i64");
  lit_spell_int(42, 16, buf);
  assert_string_equal(buf, "42i16");
}

/* ------------------------------------------------------------------ errors */

static void test_syntax_errors_have_locations(void **state) {
  (void)state;
  assert_error("let @x = 1; ()", "t.relay:1:5: error:", "'let' binds a local variable");
  assert_error("let x = 1; ()", "t.relay:1:5: error:", "'let' binds a local variable");
  assert_error("#[version = \"0.0.5\"]\ndef @main(%x) {\n  %x\n", "t.relay:3:5: error:", "expected '}'");
  assert_error("add(1, 2147483648i32)", "t.relay:1:8: error:", "does not fit in int32");
  assert_error("(1, 65505f16)", "t.relay:1:5: error:", "float16");
  assert_error("def @main() { 1.5 }", "t.relay:1:15: error:", "'f' suffix");
  assert_error("#[version = \"0.0.4\"]\n1", "t.relay:1:1: error:", "unsupported version");
}

static void test_hostile_inputs_are_rejected(void **state) {
  (void)state;
  assert_error("1 /* never closed", "t.relay:1:3: error:", "unterminated comment");
  assert_error("def @main() {\n  /* a /* b */ c\n}", "t.relay:2:3: error:", "unterminated comment");
  /* Found by libFuzzer: the text ends in star-slash, but that closes only the inner comment. */
  assert_error("/* outer\n   /* inner */", "t.relay:1:1: error:", "unterminated comment");
  assert_error("1 /* a /* b */ c */ /* d /* e */", "t.relay:1:21: error:", "unterminated comment");
  assert_error("f(%x, s=\"never closed)", "t.relay:1:9: error:", "unterminated string");
  assert_error("#[foo]\n1", "t.relay:1:1: error:", "unsupported attribute");
  const char bad_utf8[] = "let %x = 1; \xff\xfe";
  assert_error(bad_utf8, "t.relay:1:13: error:", "invalid UTF-8");
  /* NUL: ast_parse takes a length, so a NUL inside the text is seen. */
  Diag d;
  const char with_nul[] = "1\0 2";
  diag_init(&d, "t.relay", with_nul, 4);
  assert_null(ast_parse(with_nul, 4, &d));
  assert_non_null(strstr(d.out.data, "NUL byte"));
  diag_free(&d);
  /* Deep nesting is refused, not a stack overflow. */
  size_t depth = 5000;
  char *deep = malloc(2 * depth + 1);
  memset(deep, '(', depth);
  memset(deep + depth, ')', depth);
  deep[2 * depth] = '\0';
  char *e = error_of(deep);
  assert_non_null(strstr(e, "nested too deeply"));
  free(e);
  free(deep);
}

/* Trees built by a program (the reducer, the mutator) have no parentheses nodes: the printer
   adds the ones the grammar needs, so the text parses back to the same shape. */
static void test_printer_parenthesises_built_projections(void **state) {
  (void)state;
  AstModule *m = parse("@f(%x).0", NULL);
  assert_null(m);
  m = parse("(@f(%x)).0", NULL);
  assert_non_null(m);
  AstExpr *proj = m->body;
  assert_int_equal(proj->kind, AST_PROJ);
  assert_int_equal(proj->a->kind, AST_PAREN);
  proj->a = proj->a->a; /* what a pass building the projection directly would produce */
  char *out = ast_print(m, NULL);
  assert_string_equal(out, "(@f(%x)).0\n");
  free(out);
  /* a number under `.N` (an untyped reduction hoisted a tuple's field): `1.0` would be a float */
  proj->a = ast_new_atom(m, AST_INT, "1");
  out = ast_print(m, NULL);
  assert_string_equal(out, "(1).0\n");
  free(out);
  proj->a = ast_new_atom(m, AST_NAME, "b"); /* `b.0` would read as one dotted name */
  out = ast_print(m, NULL);
  assert_string_equal(out, "(b).0\n");
  free(out);
  ast_free(m);
}

static void test_empty_input(void **state) {
  (void)state;
  assert_prints("", "");
  assert_prints("#[version = \"0.0.5\"]", "#[version = \"0.0.5\"]\n");
}

/* A set cancellation flag (rreduce's signal handler) stops a parse: it fails with a message, and
   parses again once the flag is clear. */
static void test_parse_cancelled_by_flag(void **state) {
  (void)state;
  /* tree-sitter looks at the flag every hundred or so steps: a text of some length */
  size_t cap = 64 * 1024, used = 0;
  char *text = malloc(cap);
  used += (size_t)snprintf(text, cap, "#[version = \"0.0.5\"]\ndef @main(%%x: float32) {\n");
  for (int i = 0; i < 2000; i++) used += (size_t)snprintf(text + used, cap - used, "  %%%d = add(%%x, %%x);\n", i);
  snprintf(text + used, cap - used, "  %%1999\n}\n");
  size_t flag = 1;
  ast_parse_cancel_on(&flag);
  Diag d;
  diag_init(&d, "t.relay", text, strlen(text));
  assert_null(ast_parse(text, strlen(text), &d));
  assert_non_null(strstr(d.out.data, "interrupted while parsing"));
  diag_free(&d);
  flag = 0;
  diag_init(&d, "t.relay", text, strlen(text));
  AstModule *m = ast_parse(text, strlen(text), &d);
  assert_non_null(m);
  ast_free(m);
  diag_free(&d);
  ast_parse_cancel_on(NULL);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tvm_layout_round_trips),
      cmocka_unit_test(test_layout_rebuilt_from_one_line),
      cmocka_unit_test(test_type_definitions),
      cmocka_unit_test(test_match_layout),
      cmocka_unit_test(test_parenthesised_let_chain),
      cmocka_unit_test(test_tuples_projections_attrs),
      cmocka_unit_test(test_literal_spellings_kept),
      cmocka_unit_test(test_metadata_verbatim),
      cmocka_unit_test(test_ty_comments_attach_to_their_node),
      cmocka_unit_test(test_strip_types_keeps_user_comments),
      cmocka_unit_test(test_line_comments_become_block_comments),
      cmocka_unit_test(test_comment_runs_attach_in_order),
      cmocka_unit_test(test_read_budget_stops_reading),
      cmocka_unit_test(test_spans),
      cmocka_unit_test(test_lone_cr_ends_a_line),
      cmocka_unit_test(test_dump_is_stable_through_printing),
      cmocka_unit_test(test_int_literals),
      cmocka_unit_test(test_float_literals),
      cmocka_unit_test(test_literal_spellings_as_tvm_prints),
      cmocka_unit_test(test_syntax_errors_have_locations),
      cmocka_unit_test(test_hostile_inputs_are_rejected),
      cmocka_unit_test(test_printer_parenthesises_built_projections),
      cmocka_unit_test(test_empty_input),
      cmocka_unit_test(test_indentation_stops_at_64_columns),
      cmocka_unit_test(test_parse_cancelled_by_flag),
  };
  return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}
