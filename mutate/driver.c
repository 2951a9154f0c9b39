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
#include "../typegen/infer/infer.h"

void mut_result_free(MutResult *r) {
  free(r->text);
  for (size_t i = 0; i < r->nsteps; i++) free(r->steps[i].what);
  free(r->steps);
  free(r->expected_error);
  memset(r, 0, sizeof *r);
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

/* Where each step's marked node starts in a printed mutant: the printer reports the nodes with
   comments as it prints them (no parse of the output needed), the first one carrying a step's
   `rmutate-step-N` comment is that step's. */
typedef struct Where {
  size_t *offsets; /* per step, + 1 (0: not seen) */
  size_t nsteps;
} Where;

static void note_start(const AstNode *n, size_t offset, void *ctx) {
  Where *w = ctx;
  for (const AstComment *c = n->comments; c; c = c->next) {
    const char *tag = strstr(c->text, "rmutate-step-");
    unsigned step;
    if (tag && sscanf(tag, "rmutate-step-%u", &step) == 1 && step < w->nsteps && !w->offsets[step])
      w->offsets[step] = offset + 1;
  }
}

/* Prints m with options o and fills the steps' line:col in the printed text. */
static char *print_located(const AstModule *m, AstPrintOptions o, MutStep *steps, size_t nsteps) {
  Where w = {xcalloc(nsteps ? nsteps : 1, sizeof *w.offsets), nsteps};
  o.node_start = note_start;
  o.node_ctx = &w;
  char *text = ast_print(m, &o);
  for (size_t i = 0; i < nsteps; i++) {
    uint32_t line = 0, col = 0;
    if (w.offsets[i]) diag_line_col(text, strlen(text), w.offsets[i] - 1, &line, &col);
    steps[i].line = line;
    steps[i].col = col;
  }
  free(w.offsets);
  return text;
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
    for (unsigned tries = 0; tries < 4 * (o->nmutators + 1) && !done && !(o->stop && *o->stop); tries++) {
      Program l;
      if (step == 0 && o->seed_program)
        prog_clone(o->seed_program, &l);
      else if (!prog_load(&l, "mutant", current, false, err, errlen)) {
        ok = false;
        break;
      }
      StrBuf what;
      sb_init(&what);
      MutContext c = {l.m, l.types, &rng, o->policy, o->fuel, o->donors, o->ndonors, o->seed_name, &what, {0}, NULL};
      const Mutator *mu = o->ill_typed ? NULL : choose(o, &rng, tried);
      if (!o->ill_typed && !mu) {
        prog_free(&l);
        free(what.data);
        break;
      }
      bool applied = o->ill_typed ? mut_ill_typed(&c) : mu->apply(&c);
      if (!applied) {
        if (mu)
          for (size_t i = 0; i < o->nmutators; i++)
            if (o->mutators[i] == mu) tried[i] = true;
        prog_free(&l);
        free(what.data);
        continue;
      }
      mark(l.m, c.marked, o->seed_name, step, c.where);
      AstPrintOptions po = {.strip_types = true, .keep_spans = true};
      char *text = print_located(l.m, po, out->steps, step + 1);
      prog_free(&l);
      Program check;
      char msg[1024] = "";
      bool typed = prog_load(&check, "mutant", text, false, msg, sizeof msg);
      if (o->ill_typed) {
        /* the point is a rejected program: one that slipped through type-checks is retried */
        if (typed) {
          prog_free(&check);
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
        text = print_located(check.m, ao, out->steps, step + 1);
        prog_free(&check);
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
  out->text = current;
  return true;
}
