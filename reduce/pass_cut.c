/*
 * Cut the graph: a value @main binds becomes a new parameter of @main of the same type, so
 * everything that only computed it can go (pass dce).  Opportunity i is the i-th binding from the
 * end (but the result's own): cutting near the result removes the most, and cutting a binding leaves the numbers of the
 * ones after it alone, so the driver cuts chunks of them at once (RED_CHUNKS; apply_range does a
 * chunk in one walk of the program).
 */
#include <stdlib.h>
#include <string.h>

#include "../support/strset.h"
#include "../support/xalloc.h"
#include "../typegen/ops/ops.h"
#include "reduce.h"

static bool is_atom(const AstExpr *e) {
  return e->kind == AST_LOCAL || e->kind == AST_GRAPH || e->kind == AST_GLOBAL || e->kind == AST_INT ||
         e->kind == AST_FLOAT || e->kind == AST_BOOL;
}

static bool is_graph(const AstStmt *s) { return s->kind == AST_STMT_GRAPH; }
static const char *bound_name(const AstStmt *s) { return is_graph(s) ? s->graph : s->binder->name; }
static size_t refs_of(const RedRefs *r, const AstStmt *s) {
  return strcounts_get(is_graph(s) ? &r->graph : &r->locals, bound_name(s));
}

/* Whether the value s binds is something to cut: computed (not an atom), with a type a test can
   pass as an input (no function). */
static bool cuttable(const AstStmt *s) {
  if ((s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) || !s->value_type || is_atom(s->value)) return false;
  return s->value_type->kind != TY_FUNC && ty_is_readable(s->value_type);
}

/* The bindings of seq in [from, to) to cut, as flags: cuttable, bound once in the sequence, and
   read only after them in it (printed graph numbers can repeat in nested functions; a let may be
   shadowed), so the name means this binding everywhere it is read.  One walk of the module, one of
   the sequence. */
static bool *choose(const AstModule *m, AstExpr *seq, size_t from, size_t to, size_t *ncut) {
  RedRefs all = {0}, later = {0}, bound = {0};
  prog_walk_module((AstModule *)m, red_count_ref, &all);
  prog_walk(&seq->a, red_count_ref, &later);
  for (size_t k = 0; k < seq->nstmts; k++)
    if (seq->stmts[k]->kind == AST_STMT_LET || is_graph(seq->stmts[k]))
      strcounts_add(is_graph(seq->stmts[k]) ? &bound.graph : &bound.locals, bound_name(seq->stmts[k]), 1);
  bool *cut = xcalloc(seq->nstmts ? seq->nstmts : 1, sizeof *cut);
  *ncut = 0;
  for (size_t k = seq->nstmts; k-- > 0;) {
    AstStmt *s = seq->stmts[k];
    if (k >= from && k < to && cuttable(s) && refs_of(&bound, s) == 1 && refs_of(&later, s) == refs_of(&all, s)) {
      cut[k] = true;
      ++*ncut;
    }
    prog_walk(&s->value, red_count_ref, &later);
  }
  red_refs_free(&all);
  red_refs_free(&later);
  red_refs_free(&bound);
  return cut;
}

/* Every read of a cut binding becomes a read of its parameter. */
typedef struct Subst {
  StrCounts locals, graph; /* name -> index + 1 into refs */
  AstExpr **refs;
} Subst;

static void substitute(AstExpr **slot, void *ctx) {
  Subst *s = ctx;
  AstExprKind kind = (*slot)->kind;
  if (kind != AST_LOCAL && kind != AST_GRAPH) return;
  size_t at = strcounts_get(kind == AST_GRAPH ? &s->graph : &s->locals, (*slot)->text);
  if (at) *slot = s->refs[at - 1];
}

/* Cuts the bindings seq->stmts[from, to), those choose() allows: the same program as cutting them
   one at a time, earliest first (each one's parameter comes last, with the next fresh name). */
static bool cut_bindings(Program *out, size_t from, size_t to) {
  AstExpr *seq = prog_main_seq(out->m);
  size_t ncut;
  bool *cut = choose(out->m, seq, from, to, &ncut);
  if (!ncut) {
    free(cut);
    return false;
  }
  AstFunc *f = prog_main(out->m)->fn;
  const char **names = xmalloc(ncut * sizeof *names);
  prog_fresh_names(out->m, "cut", ncut, names);
  AstBinder **params = arena_alloc(&out->m->arena, (f->nparams + ncut) * sizeof *params);
  if (f->nparams) memcpy(params, f->params, f->nparams * sizeof *params);
  Subst sub = {.refs = xmalloc(ncut * sizeof *sub.refs)};
  size_t made = 0, kept = 0, first = to;
  for (size_t k = 0; k < seq->nstmts; k++) {
    AstStmt *s = seq->stmts[k];
    if (!cut[k]) {
      seq->stmts[kept++] = s;
      continue;
    }
    if (first == to) first = kept;
    sub.refs[made] = ast_new_atom(out->m, AST_LOCAL, names[made]);
    strcounts_add(is_graph(s) ? &sub.graph : &sub.locals, bound_name(s), made + 1);
    params[f->nparams + made] = ast_new_binder(out->m, names[made], ty_to_ast(out->m, s->value_type));
    made++;
  }
  seq->nstmts = kept;
  for (size_t k = first; k < kept; k++) prog_walk(&seq->stmts[k]->value, substitute, &sub);
  prog_walk(&seq->a, substitute, &sub);
  f->params = params;
  f->nparams += made;
  strcounts_free(&sub.locals);
  strcounts_free(&sub.graph);
  free(sub.refs);
  free(names);
  free(cut);
  return true;
}

/* The binding @main's result is (`%5 = f(...); %5`) is no opportunity: cutting it is the body
   pass's candidate, and leaving it out lets the first chunk, every other binding, succeed at once
   when the result is what the test needs (truncate has just made it so). */
static size_t cuttable_stmts(const AstExpr *seq) {
  size_t n = seq->nstmts;
  if (!n) return 0;
  const AstStmt *last = seq->stmts[n - 1];
  const AstExpr *a = seq->a;
  bool result = a && ((a->kind == AST_GRAPH && is_graph(last) && !strcmp(a->text, last->graph)) ||
                      (a->kind == AST_LOCAL && last->kind == AST_STMT_LET && !strcmp(a->text, last->binder->name)));
  return n - result;
}

static size_t count(const Program *p) {
  AstExpr *seq = prog_main_seq(p->m);
  return seq ? cuttable_stmts(seq) : 0;
}

static bool apply_range(Program *out, size_t lo, size_t hi) {
  AstExpr *seq = prog_main_seq(out->m);
  size_t n = cuttable_stmts(seq);
  if (lo >= n) return false;
  if (hi > n) hi = n;
  return cut_bindings(out, n - hi, n - lo);
}

static bool apply(Program *out, size_t i) { return apply_range(out, i, i + 1); }

const RedPass red_pass_cut = {
    .name = "cut",
    .description = "turn a value @main binds into a new parameter of @main",
    .count = count,
    .apply = apply,
    .search = RED_CHUNKS,
    .apply_range = apply_range,
};
