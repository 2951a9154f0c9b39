/*
 * Make a dead binding live: a binding of @main nothing reads survives dce only because the test
 * needs its text (it greps the operator the binding calls), while what follows computes the result
 * from a parameter of @main (cut made it one: `%0 = nn.batch_norm(...); nn.relu(%cut2)`).  Reading
 * the binding there instead (`nn.relu(%0.0)`) leaves the parameter unused, and dce deletes it: the
 * program a person writes, one input fewer.  A candidate is a (dead binding, parameter, field)
 * triple: every read of the parameter after the binding becomes a read of the binding, or of one
 * field of it when it holds a tuple, or (a tuple parameter: `concatenate(%cut6)`) a tuple of copies
 * of it (`concatenate((%2, %2))`, which pass fields then shortens).  Only parameters read nowhere
 * before the binding (nor by it) are proposed, so an accepted candidate always frees one; the types
 * may change (the guard decides whether what reads it still type-checks).
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "reduce.h"

typedef struct Live {
  size_t stmt;      /* the dead binding, in @main's sequence */
  AstBinder *param; /* the parameter to replace after it */
  int field;        /* the field of the binding's tuple to read, -1 for the binding itself, or
                       COPIES: a tuple of as many copies of it as the parameter's tuple has fields */
} Live;
typedef VEC(Live) Lives;
enum { COPIES = -2 };

static const char *bound_name(const AstStmt *s) { return s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name; }

/* Whether any statement of seq from `from` on (values and binders) or its result binds `name`:
   a read after that would be another variable. */
static bool rebound(const AstExpr *seq, size_t from, const char *name) {
  for (size_t k = from; k < seq->nstmts; k++) {
    const AstStmt *s = seq->stmts[k];
    if ((s->binder && !strcmp(s->binder->name, name)) || (s->value && prog_binds(s->value, name))) return true;
  }
  return prog_binds(seq->a, name);
}

static void collect(const AstModule *m, Lives *out) {
  AstExpr *seq = prog_main_seq(m);
  if (!seq) return;
  AstFunc *main = prog_main(m)->fn;
  RedRefs all = {0};
  prog_walk_module((AstModule *)m, red_count_ref, &all);
  RedRefs before = {0}; /* reads in the statements up to the current one, itself included */
  for (size_t i = 0; i < seq->nstmts; i++) {
    AstStmt *s = seq->stmts[i];
    if (s->value) prog_walk(&s->value, red_count_ref, &before);
    if (s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) continue;
    const Type *t = s->value_type;
    if (!t || strcounts_get(s->kind == AST_STMT_GRAPH ? &all.graph : &all.locals, bound_name(s))) continue;
    for (size_t k = 0; k < main->nparams; k++) {
      AstBinder *p = main->params[k];
      size_t reads = strcounts_get(&all.locals, p->name);
      if (!reads || strcounts_get(&before.locals, p->name) || rebound(seq, i + 1, p->name)) continue;
      if (t->kind == TY_TUPLE)
        for (uint32_t f = 0; f < t->nargs; f++) VEC_PUSH(*out, ((Live){i, p, (int)f}));
      else
        VEC_PUSH(*out, ((Live){i, p, -1}));
      if (t->kind != TY_TUPLE && p->type && p->type->kind == AST_TY_TUPLE && p->type->nargs)
        VEC_PUSH(*out, ((Live){i, p, COPIES}));
    }
  }
  red_refs_free(&all);
  red_refs_free(&before);
}

static size_t count(const Program *p) {
  Lives l = {0};
  collect(p->m, &l);
  free(l.items);
  return l.len;
}

static bool apply(Program *out, size_t i) {
  Lives l = {0};
  collect(out->m, &l);
  bool ok = i < l.len;
  if (ok) {
    Live c = l.items[i];
    AstModule *m = out->m;
    AstExpr *seq = prog_main_seq(m);
    AstStmt *s = seq->stmts[c.stmt];
    AstExpr *ref = ast_new_atom(m, s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL, bound_name(s));
    if (c.field >= 0) ref = ast_new_proj(m, ref, (unsigned)c.field);
    if (c.field == COPIES) {
      size_t n = c.param->type->nargs;
      AstExpr **copies = xmalloc(n * sizeof *copies);
      for (size_t k = 0; k < n; k++) copies[k] = ref;
      ref = ast_new_tuple(m, copies, n);
      free(copies);
    }
    for (size_t k = c.stmt + 1; k < seq->nstmts; k++)
      if (seq->stmts[k]->value) prog_substitute(&seq->stmts[k]->value, AST_LOCAL, c.param->name, ref);
    prog_substitute(&seq->a, AST_LOCAL, c.param->name, ref);
    AstFunc *main = prog_main(m)->fn;
    main->ret = NULL; /* the result's type may change with it */
    red_fix_layout(m);
  }
  free(l.items);
  return ok;
}

const RedPass red_pass_live = {
    .name = "live",
    .description = "read a dead binding the test keeps where a parameter of @main was read after it",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
