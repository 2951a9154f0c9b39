/* A program both tools work on: parse + type (the guard), print, copy, clone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../typegen/infer/infer.h"
#include "program.h"

bool prog_check(Program *p, const char *text, bool expressions_ok, Diag *diag) {
  memset(p, 0, sizeof *p);
  return check_text(text, strlen(text), expressions_ok, &p->m, &p->types, diag);
}

bool prog_load_parsed(Program *p, const char *name, const char *text, bool expressions_ok, char *err, size_t errlen,
                      bool *parsed) {
  Diag d;
  diag_init(&d, name, text, strlen(text));
  memset(p, 0, sizeof *p);
  bool ok = check_text_parsed(text, strlen(text), expressions_ok, &p->m, &p->types, &d, parsed);
  if (!ok && err) snprintf(err, errlen, "%s", d.out.data ? d.out.data : "rejected");
  diag_free(&d);
  return ok;
}

bool prog_load(Program *p, const char *name, const char *text, bool expressions_ok, char *err, size_t errlen) {
  return prog_load_parsed(p, name, text, expressions_ok, err, errlen, NULL);
}

bool prog_type_complete(const Type *t) {
  if (!t || t->kind == TY_INCOMPLETE) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!prog_type_complete(t->args[i])) return false;
  return !t->ret || prog_type_complete(t->ret);
}

/* Forgets the types inference left unsolved when it stopped at an error: a pass must see a
   complete type or none. */
static void keep_complete(AstExpr **slot, void *ctx) {
  (void)ctx;
  AstExpr *e = *slot;
  if (!prog_type_complete(e->node.type)) e->node.type = NULL;
  for (size_t i = 0; i < e->nstmts; i++)
    if (!prog_type_complete(e->stmts[i]->value_type)) e->stmts[i]->value_type = NULL;
  if (e->kind == AST_FN && !prog_type_complete(e->fn->type)) e->fn->type = NULL;
}

bool prog_load_as(Program *p, const char *name, const char *text, ProgGuard weakest, char *err, size_t errlen) {
  return prog_load_as_parsed(p, name, text, weakest, err, errlen, NULL);
}

bool prog_load_as_parsed(Program *p, const char *name, const char *text, ProgGuard weakest, char *err, size_t errlen,
                         bool *parsed_out) {
  bool parsed_here, *parsed_p = parsed_out ? parsed_out : &parsed_here;
  char first[2048];
  if (prog_load_parsed(p, name, text, true, first, sizeof first, parsed_p)) return true;
  bool parsed = *parsed_p;
  if (weakest == PROG_TYPED || !parsed) { /* the checker's message, or the syntax error */
    if (err) snprintf(err, errlen, "%s", first);
    return false;
  }
  Diag d;
  diag_init(&d, name, text, strlen(text));
  memset(p, 0, sizeof *p);
  p->m = ast_parse(text, strlen(text), &d);
  p->guard = PROG_PARSED;
  if (p->m) meta_inline_attrs(p->m, &d); /* what it cannot read stays a reference, as parsed */
  if (p->m && scope_check_module(p->m, &d)) p->guard = PROG_SCOPED;
  if (!p->m || p->guard > weakest) {
    if (err) snprintf(err, errlen, "%s", d.out.data ? d.out.data : "rejected");
    diag_free(&d);
    ast_free(p->m);
    memset(p, 0, sizeof *p);
    return false;
  }
  diag_free(&d);
  p->types = ty_table_new();
  diag_init(&d, name, text, strlen(text));
  if (!p->m->body) infer_module(p->m, p->types, &d); /* fails: what it typed before failing stays */
  diag_free(&d);
  prog_walk_module(p->m, keep_complete, NULL);
  for (size_t i = 0; i < p->m->ndefs; i++)
    if (p->m->defs[i]->kind == AST_DEF_FN && !prog_type_complete(p->m->defs[i]->fn->type)) p->m->defs[i]->fn->type = NULL;
  return true;
}

void prog_free(Program *p) {
  ast_free(p->m);
  if (!p->shared_types) ty_table_free(p->types);
  memset(p, 0, sizeof *p);
}

char *prog_print(const Program *p, bool strip_annotations) {
  /* Stale block comments are an edit of the tree, so it is made on a copy, and only when there is
     one: most programs print as they are.  TVM's ty= comments are the printer's to drop
     (keep_spans: a joined `ty=T span=S` keeps `span=S` byte for byte). */
  AstModule *m = NULL;
  if (prog_stale_block_comments(p->m, false)) {
    m = ast_module_clone(p->m);
    prog_stale_block_comments(m, true);
  }
  bool drop_types = strip_annotations && p->comments == PROG_COMMENTS_ALL;
  AstPrintOptions o = {.strip_types = drop_types || p->comments >= PROG_COMMENTS_USER,
                       .keep_spans = drop_types,
                       .strip_comments = p->comments == PROG_COMMENTS_NONE};
  char *text = ast_print(m ? m : p->m, &o);
  ast_free(m);
  return text;
}

bool prog_copy(const Program *p, Program *copy) {
  char *text = prog_print(p, false);
  bool ok = prog_load_as(copy, "candidate", text, p->guard, NULL, 0);
  copy->comments = p->comments;
  free(text);
  return ok;
}

void prog_clone(const Program *p, Program *clone) {
  *clone = (Program){ast_module_clone(p->m), p->types, true, p->comments, p->guard};
}
