/*
 * One mutant: each step starts from a clone of a program parsed and typed once (the seed the
 * caller loaded, or the previous step's mutant), lets a mutator chosen by weight change it, prints
 * it with a span comment on the changed node back to where it was, and checks the result with the
 * type checker: a mutant that does not type-check is never written (the step is retried with
 * another choice).  The final text is re-printed with the inferred types as TVM writes them.
 */
#include "driver.h"

#include "../support/diag.h"
#include "../support/xalloc.h"
#include "../typegen/infer/infer.h"
#include "origins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mut_options_init(MutOptions *o) {
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->depth = 1;
  o->fuel = 3;
  for (size_t i = 0; i < MUT_NMUTATORS; i++) o->weights[i] = mut_mutators[i].weight;
}

void mut_result_free(MutResult *r) {
  free(r->text);
  prog_free(&r->program);
  for (size_t i = 0; i < r->nsteps; i++) free(r->steps[i].what);
  free(r->steps);
  free(r->expected_error);
  memset(r, 0, sizeof *r);
}

static char *type_text(const struct Type *t, size_t max) { return ty_str_upto(t, max); }

/* The span comment that ties a changed node to where it was in the seed. */
static void mark(AstModule *m, AstNode *n, const char *seed_name, unsigned step, MutOrigin where) {
  if (!n) return;
  AstComment *c = arena_alloc(&m->arena, sizeof *c);
  c->text = arena_printf(&m->arena, "/* span=%s:%u:%u rmutate-step-%u */", seed_name, where.line, where.col, step);
  c->next = n->comments;
  n->comments = c;
}

/* A mutator drawn by weight among those not tried yet (its index in *k); false when none is left. */
static bool choose(const MutOptions *o, Rng *rng, const bool *tried, size_t *k) {
  unsigned total = 0;
  for (size_t i = 0; i < MUT_NMUTATORS; i++) total += tried[i] ? 0 : o->weights[i];
  if (!total) return false;
  unsigned r = (unsigned)rng_index(rng, total);
  for (size_t i = 0; i < MUT_NMUTATORS; i++) {
    unsigned w = tried[i] ? 0 : o->weights[i];
    if (r < w) return *k = i, true;
    r -= w;
  }
  return false;
}

/* Where each step's marked node starts in a printed mutant: the printer reports the nodes as it
   prints them (no parse of the output needed), the first one carrying a step's `rmutate-step-N`
   comment is that step's.  On the way, the printed text's seed places (origins.h). */
typedef struct Where {
  size_t *offsets; /* per step, + 1 (0: not seen) */
  size_t nsteps;
  MutOrigins *origins; /* the printed text's table, filled */
  /* a node's seed place: from the nodes a step found (`found`, places in `from`) ... */
  const MutNodes *found;
  const MutOrigins *from;
  MutOrigin made;           /* ... or, for the nodes it made, its change's */
  const MutOrigins *parsed; /* or: the text the printed program was parsed from had this table */
} Where;

static void note_start(const AstNode *n, size_t offset, void *ctx) {
  Where *w = ctx;
  for (const AstComment *c = n->comments; c; c = c->next) {
    const char *tag = strstr(c->text, "rmutate-step-");
    unsigned step;
    if (tag && sscanf(tag, "rmutate-step-%u", &step) == 1 && step < w->nsteps && !w->offsets[step])
      w->offsets[step] = offset + 1;
  }
  if (w->parsed)
    mut_origins_add(w->origins, offset, mut_origin_of(w->parsed, &n->span));
  else
    mut_origins_add(w->origins, offset,
                    mut_nodes_has(w->found, n) ? mut_origin_of(w->from, &n->span) : w->made);
}

/* Prints m with options o, fills the steps' line:col in the printed text and w's table. */
static char *print_located(const AstModule *m, AstPrintOptions o, MutStep *steps, size_t nsteps, Where *w) {
  w->offsets = xcalloc(nsteps ? nsteps : 1, sizeof *w->offsets);
  w->nsteps = nsteps;
  w->origins->len = 0;
  o.node_start = note_start;
  o.node_ctx = w;
  o.every_node = true;
  char *text = ast_print(m, &o);
  for (size_t i = 0; i < nsteps; i++) {
    uint32_t line = 0, col = 0;
    if (w->offsets[i]) diag_line_col(text, strlen(text), w->offsets[i] - 1, &line, &col);
    steps[i].line = line;
    steps[i].col = col;
  }
  free(w->offsets);
  return text;
}

/* Whether e, at nesting level `level`, reaches deeper than the parser's limit (MUT_PARSER_DEPTH),
   counting only the levels a printed and re-read tree surely has: every expression (parentheses
   and braces too: the printer writes each AST_PAREN and AST_BLOCK, and the parser reads each as a
   level), but a `let` chain in another (printed as one chain).  Types, patterns, attribute lists
   and the parentheses the printer adds on its own count in the parser too, so this is a lower
   bound: a mutant it finds too deep the check would refuse, after printing and parsing the whole
   text (nearly every mutation inside 1,998 nested closures goes past the limit). */
static bool nested_too_deeply(AstExpr *e, unsigned level) {
  if (++level > MUT_PARSER_DEPTH) return true;
  AstExpr **slot;
  for (AstChildren it = ast_children(e); (slot = ast_next_child(&it));)
    if (nested_too_deeply(*slot, e->kind == AST_SEQ && (*slot)->kind == AST_SEQ ? level - 1 : level)) return true;
  return false;
}

bool mut_module_too_deep(const AstModule *m) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN && m->defs[i]->fn->body && nested_too_deeply(m->defs[i]->fn->body, 0)) return true;
  return m->body && nested_too_deeply(m->body, 0);
}

/* Whether each of the first n steps' changes was found in the printed mutant. */
static bool all_located(const MutStep *steps, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!steps[i].line) return false;
  return true;
}

typedef enum TryOutcome {
  TRY_NO_MUTATOR, /* every mutator in use was tried and found nothing to do */
  TRY_REFUSED,    /* the mutator drawn found nothing to do, or the check refused its mutant */
  TRY_DONE,
} TryOutcome;

/* One try of step `step`: a mutator drawn by weight (or the ill-typed one) changes a clone of
   `from`, whose text has the seed places `from_origins` (NULL for the seed itself); the result is
   printed and checked.  On TRY_DONE the step is recorded in out, *text is the mutant printed with
   its inferred types, *origins that text's seed places and *checked the program the check loaded
   (empty for --ill-typed). */
static TryOutcome try_once(const Program *from, const MutOrigins *from_origins, const MutOptions *o,
                           const OpGenPolicy *limits, Rng *rng, bool *tried, unsigned step, MutResult *out,
                           char **text, MutOrigins *origins, Program *checked) {
  Program l;
  prog_clone(from, &l);
  MutNodes found = {0};
  mut_nodes(l.m, &found);
  StrBuf what;
  sb_init(&what);
  MutContext c = {l.m,        l.types,      rng,  o->policy, limits, o->fuel, o->donors,
                  o->ndonors, o->seed_name, step, &what,     {0},    NULL};
  size_t k = 0;
  bool applied = false;
  if (o->ill_typed) {
    applied = mut_ill_typed(&c);
  } else if (!choose(o, rng, tried, &k)) {
    free(found.items);
    prog_free(&l);
    return TRY_NO_MUTATOR;
  } else {
    applied = mut_mutators[k].apply(&c);
    tried[k] |= !applied;
  }
  char *t = NULL;
  MutOrigins printed = {0};
  MutOrigin at = mut_origin_of(from_origins, &c.where);
  bool deep = applied && mut_module_too_deep(l.m); /* the check would refuse it, after printing it all */
  if (applied && !deep) {
    mark(l.m, c.marked, o->seed_name, step, at);
    AstPrintOptions po = {.strip_types = true, .keep_spans = true};
    Where w = {.origins = &printed, .found = &found, .from = from_origins, .made = at};
    t = print_located(l.m, po, out->steps, step + 1, &w);
  }
  free(found.items);
  prog_free(&l);
  char msg[1024] = "";
  /* A change the mutant does not show (an earlier step's, replaced by this one) has neither a
     place nor a span; a mutator that proposed an ill-typed program, or with --ill-typed one that
     slipped through type-checking; a tensor beyond the limits (mutate.h): never written, the step
     is tried again. */
  if (!applied || deep || !all_located(out->steps, step + 1) ||
      prog_load(checked, "mutant", t, false, msg, sizeof msg) == o->ill_typed ||
      (!o->ill_typed && gen_module_misfit(checked->m, limits))) {
    prog_free(checked);
    free(printed.items);
    free(t);
    free(what.data);
    return TRY_REFUSED;
  }
  if (o->ill_typed) {
    out->expected_error = xstrdup(msg);
    *origins = printed;
  } else {
    /* TVM's layout, with the inferred types: the nodes' spans are places in t.  Types of over
       1 KB (a closure's holds those of the closures inside it) are left for the reader to infer:
       written in full, 2,000 nested closures of 20 KB are 26 MB of comments. */
    AstPrintOptions ao = {.type_text = type_text, .max_type_text = 1024};
    Where w = {.origins = origins, .parsed = &printed};
    free(t);
    t = print_located(checked->m, ao, out->steps, step + 1, &w);
    free(printed.items);
  }
  MutStep *s = &out->steps[out->nsteps++];
  s->mutator = o->ill_typed ? "ill-typed" : mut_mutators[k].name;
  s->what = what.data ? what.data : xstrdup("");
  s->seed_line = at.line;
  s->seed_col = at.col;
  s->parent_line = c.where.line;
  s->parent_col = c.where.col;
  *text = t;
  return TRY_DONE;
}

bool mut_make(const Program *seed, const MutOptions *o, uint64_t index, uint64_t attempt, MutResult *out, char *err,
              size_t errlen) {
  memset(out, 0, sizeof *out);
  Rng rng = rng_seed(o->seed, index * 64 + attempt);
  unsigned depth = o->ill_typed ? 1 : (o->depth ? o->depth : 1);
  size_t in_use = 0; /* bounds the tries of a step */
  for (size_t i = 0; i < MUT_NMUTATORS; i++) in_use += o->weights[i] > 0;
  out->steps = xcalloc(depth, sizeof *out->steps);
  OpGenPolicy limits = o->policy ? o->policy->types : opgen_default_policy;
  gen_limits_widen_module(&limits, seed->m); /* the seed's own sizes are never beyond them */
  char *current = NULL;                      /* the last step's mutant */
  MutOrigins origins = {0};                  /* its seed places */
  bool ok = true;
  for (unsigned step = 0; step < depth && ok; step++) {
    bool tried[MUT_NMUTATORS] = {false}, done = false;
    Program from = {0}; /* after the first step: the last one's mutant, loaded once for every try */
    for (unsigned tries = 0; tries < 4 * (in_use + 1) && !done && !(o->stop && *o->stop); tries++) {
      if (step && !from.m && !prog_load(&from, "mutant", current, false, err, errlen)) {
        ok = false;
        break;
      }
      char *text;
      Program checked = {0};
      MutOrigins next = {0};
      TryOutcome t = try_once(step ? &from : seed, step ? &origins : NULL, o, &limits, &rng, tried, step, out,
                              &text, &next, &checked);
      if (t == TRY_NO_MUTATOR) break;
      if (t == TRY_DONE) {
        free(current);
        current = text;
        free(origins.items);
        origins = next;
        prog_free(&out->program);
        out->program = checked;
        done = true;
      }
    }
    prog_free(&from);
    if (ok && !done) {
      snprintf(err, errlen, "no mutator could change the program (step %u)", step + 1);
      ok = false;
    }
  }
  free(origins.items);
  if (!ok) {
    free(current);
    mut_result_free(out);
    return false;
  }
  out->text = current;
  return true;
}
