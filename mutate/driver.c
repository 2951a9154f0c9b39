/*
 * One mutant: parse and type the seed (or the previous step's result; the first step copies the
 * seed the caller parsed and typed once, when MutOptions.seed_module is given), let a mutator chosen by
 * weight change it, print it with a span comment on the changed node back to where it was, and
 * check the result with the type checker: a mutant that does not type-check is never written
 * (the step is retried with another choice).  The final text is re-printed with the inferred
 * types as TVM writes them.
 */
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/diag.h"
#include "../support/xalloc.h"
#include "../typegen/infer.h"

void mut_result_free(MutResult *r) {
  free(r->text);
  for (size_t i = 0; i < r->nsteps; i++) free(r->steps[i].what);
  free(r->steps);
  free(r->expected_error);
  memset(r, 0, sizeof *r);
}

typedef struct Loaded {
  AstModule *m;
  TyTable *types;
  bool shared_types; /* types belong to the caller (MutOptions.seed_types): not freed here */
} Loaded;

static void unload(Loaded *l) {
  ast_free(l->m);
  if (!l->shared_types) ty_table_free(l->types);
  memset(l, 0, sizeof *l);
}

/* The seed as the caller parsed and typed it, copied: no parsing or inference again. */
static void load_seed(Loaded *l, const MutOptions *o) {
  l->m = ast_module_clone(o->seed_module);
  l->types = o->seed_types;
  l->shared_types = true;
}

/* Parses and types text; on failure the checker's first message goes to msg (if given). */
static bool load(Loaded *l, const char *text, char *msg, size_t msglen) {
  memset(l, 0, sizeof *l);
  Diag d;
  diag_init(&d, "mutant", text, strlen(text));
  bool ok = check_text(text, strlen(text), false, &l->m, &l->types, &d);
  if (!ok && msg) snprintf(msg, msglen, "%s", d.out.data ? d.out.data : "rejected");
  diag_free(&d);
  return ok;
}

static char *type_text(const struct Type *t) { return ty_str(t); }

/* The span comment that ties a changed node to where it was. */
static void mark(AstModule *m, AstNode *n, const char *seed_name, unsigned step, AstSpan where) {
  if (!n) return;
  AstComment *c = arena_alloc(&m->arena, sizeof *c);
  c->text = arena_printf(&m->arena, "/* span=%s:%u:%u rmutate-step-%u */", seed_name, where.line, where.col, step);
  c->next = n->comments;
  n->comments = c;
}

static const Mutator *choose(const MutOptions *o, Rng *rng, const bool *tried) {
  unsigned total = 0;
  for (size_t i = 0; i < o->nmutators; i++) total += tried[i] ? 0 : o->weights[i];
  if (!total) return NULL;
  unsigned r = (unsigned)rng_index(rng, total);
  for (size_t i = 0; i < o->nmutators; i++) {
    unsigned w = tried[i] ? 0 : o->weights[i];
    if (r < w) return o->mutators[i];
    r -= w;
  }
  return NULL;
}

/* Where the node carrying the comment `needle` starts, in a parsed mutant. */
typedef struct Find {
  const char *needle;
  unsigned line, col;
} Find;

static bool has(const AstNode *n, Find *f) {
  for (const AstComment *c = n->comments; c; c = c->next)
    if (strstr(c->text, f->needle)) {
      f->line = n->span.line;
      f->col = n->span.col;
      return true;
    }
  return false;
}

static void find_in_expr(const AstExpr *e, Find *f);

static void find_in_func(const AstFunc *fn, Find *f) {
  for (size_t i = 0; i < fn->nparams && !f->line; i++) has(&fn->params[i]->node, f);
  find_in_expr(fn->body, f);
}

static void find_in_expr(const AstExpr *e, Find *f) {
  if (!e || f->line || has(&e->node, f)) return;
  find_in_expr(e->a, f);
  find_in_expr(e->b, f);
  for (size_t i = 0; i < e->nitems; i++) find_in_expr(e->items[i], f);
  find_in_expr(e->then_, f);
  find_in_expr(e->else_, f);
  for (size_t i = 0; i < e->narms; i++) find_in_expr(e->arms[i]->body, f);
  for (size_t i = 0; i < e->nstmts && !f->line; i++) {
    if (has(&e->stmts[i]->node, f) || (e->stmts[i]->binder && has(&e->stmts[i]->binder->node, f))) return;
    find_in_expr(e->stmts[i]->value, f);
  }
  if (e->kind == AST_FN) find_in_func(e->fn, f);
}

static void locate(const AstModule *m, const char *needle, unsigned *line, unsigned *col) {
  Find f = {needle, 0, 0};
  for (size_t i = 0; i < m->ndefs && !f.line; i++)
    if (m->defs[i]->kind == AST_DEF_FN) find_in_func(m->defs[i]->fn, &f);
  *line = f.line;
  *col = f.col;
}

bool mut_make(const char *seed_text, const MutOptions *o, uint64_t index, uint64_t attempt, MutResult *out, char *err,
              size_t errlen) {
  memset(out, 0, sizeof *out);
  Rng rng = rng_seed(o->seed, index * 64 + attempt);
  char *current = xstrdup(seed_text);
  unsigned depth = o->ill_typed ? 1 : (o->depth ? o->depth : 1);
  out->steps = xcalloc(depth, sizeof *out->steps);
  bool ok = true;
  for (unsigned step = 0; step < depth && ok; step++) {
    bool *tried = xcalloc(o->nmutators + 1, sizeof *tried);
    bool done = false;
    for (unsigned tries = 0; tries < 4 * (o->nmutators + 1) && !done; tries++) {
      Loaded l;
      if (step == 0 && o->seed_module && o->seed_types)
        load_seed(&l, o);
      else if (!load(&l, current, err, errlen)) {
        ok = false;
        break;
      }
      StrBuf what;
      sb_init(&what);
      MutContext c = {l.m, l.types, &rng, o->policy, o->fuel, o->donors, o->ndonors, o->seed_name, &what, {0}, NULL};
      const Mutator *mu = o->ill_typed ? NULL : choose(o, &rng, tried);
      if (!o->ill_typed && !mu) {
        unload(&l);
        free(what.data);
        break;
      }
      bool applied = o->ill_typed ? mut_ill_typed(&c) : mu->apply(&c);
      if (!applied) {
        if (mu)
          for (size_t i = 0; i < o->nmutators; i++)
            if (o->mutators[i] == mu) tried[i] = true;
        unload(&l);
        free(what.data);
        continue;
      }
      mark(l.m, c.marked, o->seed_name, step, c.where);
      AstPrintOptions po = {.strip_types = true, .keep_spans = true};
      char *text = ast_print(l.m, &po);
      unload(&l);
      Loaded check;
      char msg[1024] = "";
      bool typed = load(&check, text, msg, sizeof msg);
      if (o->ill_typed) {
        /* the point is a rejected program: one that slipped through type-checks is retried */
        if (typed) {
          unload(&check);
          free(text);
          free(what.data);
          continue;
        }
        out->expected_error = xstrdup(msg);
      } else if (!typed) { /* a mutator proposed an ill-typed program: never written */
        free(text);
        free(what.data);
        continue;
      } else {
        AstPrintOptions ao = {.type_text = type_text};
        free(text);
        text = ast_print(check.m, &ao);
        unload(&check);
      }
      MutStep *s = &out->steps[out->nsteps++];
      s->mutator = o->ill_typed ? "ill-typed" : mu->name;
      s->what = what.data ? what.data : xstrdup("");
      s->seed_line = c.where.line;
      s->seed_col = c.where.col;
      free(current);
      current = text;
      done = true;
    }
    free(tried);
    if (ok && !done) {
      snprintf(err, errlen, "no mutator could change the program (step %u)", step + 1);
      ok = false;
    }
  }
  if (!ok) {
    free(current);
    mut_result_free(out);
    return false;
  }
  /* where each change ended up in the final text (parsing is enough: ill-typed mutants parse) */
  Diag d;
  diag_init(&d, "mutant", current, strlen(current));
  AstModule *fin = ast_parse(current, strlen(current), &d);
  diag_free(&d);
  for (size_t i = 0; fin && i < out->nsteps; i++) {
    char needle[64];
    snprintf(needle, sizeof needle, "rmutate-step-%zu */", i);
    locate(fin, needle, &out->steps[i].line, &out->steps[i].col);
  }
  ast_free(fin);
  out->text = current;
  return true;
}
