/*
 * Shrink numeric literals in expressions: each to 0, or failing that to 1, in its own width
 * (`5i64` -> `0i64`, `2.5f16` -> `1f16`).  A literal's type is its width alone, so the program
 * stays well-typed.  Attribute values are not expressions (prog_walk does not visit them): they
 * are the attrs pass's business.  Only moves that make |v| smaller are proposed, so the
 * fixpoint ends.
 */
#include <math.h>
#include <string.h>

#include "../parser/literal.h"
#include "reduce.h"
#include "../program/program.h"

/* One opportunity is a (literal, target) pair; targets 0 then 1, in walk order. */
typedef struct Find {
  size_t want, seen; /* want == SIZE_MAX: just count */
  AstExpr *lit;
  int target;
} Find;

/* |v| of a literal, and its width; false if it is not a numeric literal. */
static bool magnitude(const AstExpr *e, double *mag, int *bits) {
  const char *err;
  if (e->kind == AST_INT) {
    int64_t v;
    if (!lit_int(e->text, &v, bits, &err)) return false;
    *mag = fabs((double)v);
    return true;
  }
  double v;
  if (e->kind != AST_FLOAT || !lit_float(e->text, &v, bits, &err)) return false;
  *mag = fabs(v); /* NaN compares false below: never shrunk */
  return true;
}

static void find(AstExpr **slot, void *ctx) {
  Find *f = ctx;
  double mag;
  int bits;
  if (!magnitude(*slot, &mag, &bits)) return;
  for (int target = 0; target <= 1; target++)
    if (mag > target && f->seen++ == f->want) {
      f->lit = *slot;
      f->target = target;
    }
}

static size_t count(const Program *p) {
  Find f = {SIZE_MAX, 0, NULL, 0};
  prog_walk_module(p->m, find, &f);
  return f.seen;
}

static bool apply(Program *out, size_t i) {
  Find f = {i, 0, NULL, 0};
  prog_walk_module(out->m, find, &f);
  double mag;
  int bits;
  if (!f.lit || !magnitude(f.lit, &mag, &bits)) return false;
  char buf[LIT_SPELLING_MAX];
  if (f.lit->kind == AST_INT) lit_spell_int(f.target, bits, buf);
  else lit_spell_float(f.target, bits, buf);
  f.lit->text = arena_strdup(&out->m->arena, buf);
  return true;
}

const RedPass red_pass_literals = {
    .name = "literals",
    .description = "shrink a numeric literal of an expression to 0 or 1",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
