/* The opswap, attrs and shape mutators: on small programs and real models, over many seeds, a
   mutant type-checks and differs from its input, a refusal leaves the program byte-identical, and
   each mutator does what it says (another op, the same types, another input type). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../mutate/driver.h"
#include "../../mutate/mutate.h"
#include "../../parser/lower.h"
#include "../../reduce/reduce.h"
#include "../../support/fileio.h"
#include "../../typegen/infer/infer.h"

#define V "#[version = \"0.0.5\"]\n"
#define MODELS "../shared/corpus/models/"

static const AstPrintOptions plain = {.strip_types = true, .keep_spans = true};

static char *type_text(const struct Type *t, size_t max) { return ty_str_upto(t, max); }

/* Every `ty=` annotation of a typed program, in order, joined (malloc'd). */
static char *all_types(const AstModule *m) {
  AstPrintOptions o = {.type_text = type_text};
  char *text = ast_print(m, &o);
  StrBuf out;
  sb_init(&out);
  for (const char *p = text; (p = strstr(p, "ty=")) != NULL; p++) {
    const char *end = strstr(p, "*/");
    if (!end) break;
    sb_putn(&out, p, (size_t)(end - p));
    sb_putc(&out, '\n');
  }
  free(text);
  char *r = sb_take(&out);
  return r ? r : calloc(1, 1);
}

/* @main's parameter types, as the checker typed them (malloc'd). */
static char *param_types(const AstModule *m) {
  StrBuf out;
  sb_init(&out);
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN || strcmp(d->name, "main")) continue;
    for (size_t k = 0; k < d->fn->nparams; k++) {
      ty_print(d->fn->params[k]->node.type, &out);
      sb_putc(&out, ';');
    }
  }
  char *r = sb_take(&out);
  return r ? r : calloc(1, 1);
}

/* The callee name of the call a mutator marked (through the parenthesised bindings it may add). */
static const char *marked_callee(const AstNode *n) {
  const AstExpr *e = (const AstExpr *)n;
  while (e && (e->kind == AST_PAREN || e->kind == AST_SEQ)) e = e->a;
  return e && e->kind == AST_CALL && e->a && e->a->kind == AST_NAME ? e->a->text : NULL;
}

typedef struct Outcome {
  bool applied;
  char *text;       /* the mutant (plain print), when applied */
  char *what;
  char *types_before, *types_after; /* every ty= of the input and of the re-typed mutant */
  char *params_before, *params_after;
  char old_op[64], new_op[64];      /* opswap: the marked call's op before and after */
} Outcome;

static void outcome_free(Outcome *o) {
  free(o->text);
  free(o->what);
  free(o->types_before);
  free(o->types_after);
  free(o->params_before);
  free(o->params_after);
}

/* Runs mutator mu on text with seed s and checks the contract: a refusal changes nothing; a mutant
   type-checks, differs from the input, and says what it did and where. */
static Outcome run(const Mutator *mu, const char *text, uint64_t s) {
  Outcome out = {0};
  Program p;
  char msg[1024];
  if (!prog_load(&p, "candidate", text, true, msg, sizeof msg)) fail_msg("input rejected: %s", msg);
  GenPolicy policy;
  gen_policy_default(&policy);
  Rng rng = rng_seed(s, 0);
  StrBuf what;
  sb_init(&what);
  MutContext c = {p.m, p.types, &rng, &policy, NULL, 8, NULL, 0, "seed.relay", 0, &what, {0}, NULL};
  char *before = ast_print(p.m, &plain);
  out.types_before = all_types(p.m);
  out.params_before = param_types(p.m);
  out.applied = mu->apply(&c);
  char *after = ast_print(p.m, &plain);
  if (!out.applied) {
    if (strcmp(before, after)) fail_msg("%s (seed %llu) refused but changed the program", mu->name, (unsigned long long)s);
  } else {
    if (!strcmp(before, after)) fail_msg("%s (seed %llu) claims a change but the program is the same", mu->name, (unsigned long long)s);
    if (!c.marked || !what.data || !what.data[0]) fail_msg("%s (seed %llu) did not record its change", mu->name, (unsigned long long)s);
    const char *callee = marked_callee(c.marked);
    snprintf(out.new_op, sizeof out.new_op, "%s", callee ? callee : "");
    Program check;
    if (!prog_load(&check, "candidate", after, true, msg, sizeof msg))
      fail_msg("%s (seed %llu) made an ill-typed program (%s):\n%s\n%s", mu->name, (unsigned long long)s, what.data, msg,
               after);
    out.types_after = all_types(check.m);
    out.params_after = param_types(check.m);
    prog_free(&check);
    out.text = after;
    after = NULL;
    out.what = what.data;
    what.data = NULL;
  }
  free(before);
  free(after);
  free(what.data);
  prog_free(&p);
  return out;
}

static char *model(const char *name) {
  char path[256];
  snprintf(path, sizeof path, MODELS "%s", name);
  size_t len;
  char *text = file_read(path, &len);
  if (!text) fail_msg("cannot read %s (tests run from the repository root)", path);
  return text;
}

/* What each mutator promises beyond the common contract. */
static void check(const Mutator *mu, const Outcome *o) {
  if (mu == mut_find("opswap")) { /* "opswap A -> B at ...": another op, and the marked node calls it */
    char from[64], to[64];
    assert_int_equal(sscanf(o->what, "opswap %63s -> %63s", from, to), 2);
    assert_string_not_equal(from, to);
    assert_string_equal(o->new_op, to);
    assert_non_null(op_lookup(to));
  } else if (mu == mut_find("attrs")) { /* every call keeps its type */
    assert_non_null(strstr(o->what, "attrs "));
    assert_string_equal(o->types_before, o->types_after);
  } else if (mu == mut_find("shape")) { /* an input of @main has another type */
    assert_non_null(strstr(o->what, "shape "));
    assert_string_not_equal(o->params_before, o->params_after);
  }
}

/* How many of seeds 0..n-1 give a mutant (each checked). */
static unsigned applied(const Mutator *mu, const char *text, uint64_t n) {
  unsigned ok = 0;
  for (uint64_t s = 0; s < n; s++) {
    Outcome o = run(mu, text, s);
    if (o.applied) {
      ok++;
      check(mu, &o);
    }
    outcome_free(&o);
  }
  return ok;
}

/* ------------------------------------------------------------------ opswap */

static void test_opswap_changes_the_op(void **state) {
  (void)state;
  const char *p = V "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {\n"
                    "  %0 = nn.relu(%x);\n"
                    "  %1 = add(%0, %y);\n"
                    "  %2 = exp(%1);\n"
                    "  negative(%2)\n"
                    "}\n";
  assert_true(applied(mut_find("opswap"), p, 60) > 30);
}

/* A program without operator calls: nothing to swap, nothing changed. */
static void test_opswap_refuses_without_calls(void **state) {
  (void)state;
  assert_int_equal(applied(mut_find("opswap"), V "def @main(%x: Tensor[(2), float32]) { (%x, %x) }\n", 10), 0);
}

/* ------------------------------------------------------------------ attrs */

static void test_attrs_keep_every_type(void **state) {
  (void)state;
  const char *p = V "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n"
                    "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n"
                    "  %1 = nn.leaky_relu(%0, alpha=0.1f);\n"
                    "  %2 = nn.max_pool2d(%1, pool_size=[2, 2], strides=[2, 2]);\n"
                    "  nn.softmax(%2, axis=1)\n"
                    "}\n";
  assert_true(applied(mut_find("attrs"), p, 60) > 30);
}

/* Values that would change the type are refused (reshape's newshape is pinned by its input); a
   call without attributes offers nothing. */
static void test_attrs_refuses_type_changes(void **state) {
  (void)state;
  applied(mut_find("attrs"), V "def @main(%x: Tensor[(2, 3), float32]) { reshape(%x, newshape=[6]) }\n", 20);
  assert_int_equal(applied(mut_find("attrs"), V "def @main(%x: Tensor[(2, 3), float32]) { exp(%x) }\n", 5), 0);
}

/* ------------------------------------------------------------------ shape */

static void test_shape_changes_an_input(void **state) {
  (void)state;
  const char *p = V "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(3), float32]) -> Tensor[(2), float32] {\n"
                    "  %0 = add(%x, %y);\n"
                    "  sum(%0, axis=[1])\n"
                    "}\n";
  assert_true(applied(mut_find("shape"), p, 40) > 20);
}

/* An integer input whose every size a reshape pins: no choice type-checks, nothing changes. */
static void test_shape_refuses_pinned_shapes(void **state) {
  (void)state;
  assert_int_equal(applied(mut_find("shape"), V "def @main(%x: Tensor[(2, 3), int32]) { reshape(%x, newshape=[6]) }\n", 20), 0);
}

/* Sizes the reshape states again (newshape=[2, 3, 1]) change there too, so the program follows. */
static void test_shape_changes_sizes_the_program_pins(void **state) {
  (void)state;
  const char *p = V "def @main(%x: Tensor[(2, 3), int32]) { reshape(%x, newshape=[2, 3, 1]) }\n";
  unsigned pinned = 0;
  for (uint64_t s = 0; s < 20; s++) {
    Outcome o = run(mut_find("shape"), p, s);
    if (o.applied) {
      check(mut_find("shape"), &o);
      assert_non_null(strstr(o.what, "other place"));
      pinned++;
    }
    outcome_free(&o);
  }
  assert_true(pinned > 10);
}

/* ------------------------------------------------------------------ real models */

static void each_seed_on(const char *name, uint64_t seeds, unsigned *ok_counts) {
  char *text = model(name);
  const Mutator *mus[3] = {mut_find("opswap"), mut_find("attrs"), mut_find("shape")};
  for (int k = 0; k < 3; k++) ok_counts[k] = applied(mus[k], text, seeds);
  free(text);
}

static void test_resnet18_200_seeds(void **state) {
  (void)state;
  unsigned ok[3] = {0};
  each_seed_on("resnet-18.relay", 200, ok);
  print_message("resnet-18: opswap %u, attrs %u, shape %u of 200\n", ok[0], ok[1], ok[2]);
  for (int k = 0; k < 3; k++) assert_true(ok[k] >= 1);
}

static void test_other_models(void **state) {
  (void)state;
  const char *names[] = {"mlp.relay", "dqn.relay", "lstm.relay", "squeezenet_v1.1.relay", "resnet-18.fused.relay",
                         "resnet-18_NHWC.relay", "dcgan.relay", "synthetic.relay"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    unsigned ok[3] = {0};
    each_seed_on(names[i], 12, ok);
    print_message("%s: opswap %u, attrs %u, shape %u of 12\n", names[i], ok[0], ok[1], ok[2]);
  }
}

/* `open` nested n deep around 1f in @main's body, each closed by `close`. */
static char *nested(const char *open, unsigned n, const char *close) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, V "def @main() {\n");
  for (unsigned i = 0; i < n; i++) sb_puts(&b, open);
  sb_puts(&b, "1f");
  for (unsigned i = 0; i < n; i++) sb_puts(&b, close);
  sb_puts(&b, "\n}\n");
  return sb_take(&b);
}

/* The driver refuses a mutant nested past the parser's limit before printing it: the same limit,
   and its count never above the parser's (a mutant the parser reads is never refused), exact for
   parentheses and braces, which the printer always writes and the parser counts.  Closures, ifs
   and let chains in parentheses near the limit: whatever parses is not too deep; one level more
   of parentheses or braces, added to the tree, is. */
static void test_parser_depth_agrees(void **state) {
  (void)state;
  assert_int_equal(MUT_PARSER_DEPTH, AST_MAX_DEPTH);
  struct {
    const char *open, *close;
    unsigned levels; /* the parser's levels per nesting */
  } shapes[] = {{"(", ")", 1}, {"{ ", " }", 1}, {"fn () { ", " }", 1}, {"if (True) { ", " } else { 2f }", 1},
                {"(let %a = 1f; ", ")", 2}};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    unsigned parsed = 0, from = MUT_PARSER_DEPTH / shapes[s].levels - 20;
    for (unsigned n = from; n <= from + 22; n++) {
      char *text = nested(shapes[s].open, n, shapes[s].close);
      Program p;
      char msg[256];
      if (prog_load_as(&p, "deep", text, PROG_PARSED, msg, sizeof msg)) {
        parsed++;
        if (mut_module_too_deep(p.m)) fail_msg("%s nested %u deep parses but was found too deep", shapes[s].open, n);
        if (s < 2) { /* one level more: too deep, as the parser would say */
          AstFunc *main_fn = p.m->defs[0]->fn;
          main_fn->body = ast_new_unary(p.m, s == 0 ? AST_PAREN : AST_BLOCK, main_fn->body);
          char *again = ast_print(p.m, NULL);
          Program q;
          bool reads = prog_load_as(&q, "deeper", again, PROG_PARSED, msg, sizeof msg);
          if (reads) prog_free(&q);
          assert_int_equal(mut_module_too_deep(p.m), !reads);
          free(again);
        }
        prog_free(&p);
      } else if (!strstr(msg, "nested too deeply")) {
        fail_msg("%s nested %u deep: %s", shapes[s].open, n, msg);
      }
      free(text);
    }
    if (!(parsed > 0 && parsed < 23)) fail_msg("%s: %u parsed", shapes[s].open, parsed); /* the limit is inside the range */
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_opswap_changes_the_op),      cmocka_unit_test(test_opswap_refuses_without_calls),
      cmocka_unit_test(test_attrs_keep_every_type),      cmocka_unit_test(test_attrs_refuses_type_changes),
      cmocka_unit_test(test_shape_changes_an_input),     cmocka_unit_test(test_shape_refuses_pinned_shapes),
      cmocka_unit_test(test_shape_changes_sizes_the_program_pins),
      cmocka_unit_test(test_resnet18_200_seeds),         cmocka_unit_test(test_parser_depth_agrees),         cmocka_unit_test(test_other_models),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
