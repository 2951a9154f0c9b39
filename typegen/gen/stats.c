/*
 * Statistics of a generated set, GenCoG's way:
 *   vertex diversity  per op, the distinct vertex types (gen_call_signature) of its calls over an
 *                     estimate of how many its call space holds, averaged over the policy's ops;
 *   edge diversity    distinct (producer op, consumer op) pairs over the number of ops squared.
 * The call-space estimate is the number of distinct vertex types among many draws of the op's own
 * sampler under the same policy: a lower bound that the generated set is measured against.
 *   input dependence  operator calls in @main that depend on an input (gen_stats_module), read
 *                     off the printed program's AST: a call of constants only is folded away by
 *                     TVM before it reaches the compiler proper (why the forward policy exists).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/strbuf.h"
#include "../../support/strset.h"
#include "gen.h"

typedef struct OpStat {
  const OpDef *op;
  unsigned long calls;
  StrSet vertices;
  StrSet gencog_vertices; /* gen_gencog_vertex's (ops of GenCoG's comparison only) */
} OpStat;

/* A call of the program being generated, counted once the program is kept (gen_stats_module). */
typedef struct Pending {
  OpStat *op;
  char *vertex;        /* gen_call_signature */
  char *gencog_vertex; /* gen_gencog_vertex, or NULL */
  char **edges;        /* "producer -> consumer" */
  size_t nedges;
} Pending;

struct GenStats {
  const GenPolicy *policy;
  OpStat *ops;
  size_t nops;
  StrSet edges;
  unsigned long calls;
  unsigned long long limit; /* 0: no limit */
  unsigned long long main_calls, dependent_calls; /* gen_stats_module's counts */
  VEC(Pending) pending;
};

void gen_stats_limit(GenStats *s, unsigned long long calls) { s->limit = calls; }
bool gen_stats_full(const GenStats *s) { return s->limit && s->calls >= s->limit; }

GenStats *gen_stats_new(const GenPolicy *policy) {
  GenStats *s = xcalloc(1, sizeof *s);
  s->policy = policy;
  size_t n;
  const OpDef *const *all = op_all(&n);
  s->ops = xcalloc(n ? n : 1, sizeof *s->ops);
  for (size_t i = 0; i < n; i++)
    if (gen_policy_allows(policy, all[i])) {
      s->ops[s->nops].op = all[i];
      strset_init(&s->ops[s->nops].gencog_vertices);
      strset_init(&s->ops[s->nops++].vertices);
    }
  strset_init(&s->edges);
  return s;
}

static void pending_clear(GenStats *s) {
  for (size_t i = 0; i < s->pending.len; i++) {
    Pending *p = &s->pending.items[i];
    free(p->vertex);
    free(p->gencog_vertex);
    for (size_t k = 0; k < p->nedges; k++)
      free(p->edges[k]);
    free(p->edges);
  }
  s->pending.len = 0;
}

void gen_stats_free(GenStats *s) {
  if (!s) return;
  pending_clear(s);
  free(s->pending.items);
  for (size_t i = 0; i < s->nops; i++) {
    strset_free(&s->ops[i].vertices);
    strset_free(&s->ops[i].gencog_vertices);
  }
  free(s->ops);
  strset_free(&s->edges);
  free(s);
}

static OpStat *find(GenStats *s, const OpDef *op) {
  for (size_t i = 0; i < s->nops; i++)
    if (s->ops[i].op == op) return &s->ops[i];
  return NULL;
}

void gen_stats_hook(void *ctx, const GenCallRecord *rec) {
  GenStats *s = ctx;
  if (!rec) { /* the program is made again: its calls so far never happened */
    pending_clear(s);
    return;
  }
  OpStat *st = find(s, rec->op);
  if (!st) return;
  Pending p = {st, xstrdup(rec->signature), rec->plan ? gen_gencog_vertex(rec->op, rec->plan) : NULL,
               xcalloc(rec->nproducers ? rec->nproducers : 1, sizeof(char *)), 0};
  for (size_t i = 0; i < rec->nproducers; i++) {
    if (!rec->producers[i] || !find(s, rec->producers[i])) continue;
    StrBuf edge;
    sb_init(&edge);
    sb_printf(&edge, "%s -> %s", rec->producers[i]->name, rec->op->name);
    p.edges[p.nedges++] = sb_take(&edge);
  }
  VEC_PUSH(s->pending, p);
}

/* Counts the calls of the program just kept, in the order they were made, until the limit. */
static void commit(GenStats *s) {
  for (size_t i = 0; i < s->pending.len && !gen_stats_full(s); i++) {
    Pending *p = &s->pending.items[i];
    p->op->calls++;
    s->calls++;
    strset_add(&p->op->vertices, p->vertex);
    if (p->gencog_vertex) strset_add(&p->op->gencog_vertices, p->gencog_vertex);
    for (size_t k = 0; k < p->nedges; k++)
      strset_add(&s->edges, p->edges[k]);
  }
  pending_clear(s);
}

/* The variables that depend on an input so far: graph bindings and locals apart, since %1 and a
   local named 1 would be different variables. */
typedef struct Deps {
  StrSet graphs, locals;
} Deps;

static void bind_pattern(Deps *d, const AstPattern *p) {
  if (p->kind == AST_PAT_VAR) strset_add(&d->locals, p->name);
  for (size_t i = 0; i < p->nitems; i++) bind_pattern(d, p->items[i]);
}

/* Whether e mentions a dependent variable, walking all of it in program order: a binding's
   variable becomes dependent when its value mentions one, and each operator call is counted, as
   dependent when its arguments mention one.  Closure parameters are not inputs: a call inside a
   closure counts as dependent only through what the closure captures. */
static bool mentions(GenStats *s, Deps *d, AstExpr *e) {
  bool any = false;
  switch (e->kind) {
  case AST_LOCAL: return strset_contains(&d->locals, e->text);
  case AST_GRAPH: return strset_contains(&d->graphs, e->text);
  case AST_SEQ: /* bindings before the result: the order ast_children does not give */
    for (size_t i = 0; i < e->nstmts; i++) {
      AstStmt *st = e->stmts[i];
      if (!st->value || !mentions(s, d, st->value)) continue;
      any = true;
      if (st->kind == AST_STMT_GRAPH) strset_add(&d->graphs, st->graph);
      else if (st->kind == AST_STMT_LET) strset_add(&d->locals, st->binder->name);
    }
    return mentions(s, d, e->a) || any;
  case AST_MATCH: /* the pattern's variables hold parts of the scrutinee */
    any = mentions(s, d, e->a);
    for (size_t i = 0; i < e->narms; i++) {
      if (any) bind_pattern(d, e->arms[i]->pattern);
      any |= mentions(s, d, e->arms[i]->body);
    }
    return any;
  default: break;
  }
  AstExpr **slot;
  for (AstChildren it = ast_children(e); (slot = ast_next_child(&it));) any |= mentions(s, d, *slot);
  if (e->kind == AST_CALL && e->a->kind == AST_NAME && op_lookup(e->a->text)) {
    s->main_calls++;
    s->dependent_calls += any;
  }
  return any;
}

void gen_stats_module(GenStats *s, const AstModule *m) {
  commit(s);
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstDef *def = m->defs[i];
    if (def->kind != AST_DEF_FN || strcmp(def->name, "main") != 0) continue;
    Deps d;
    strset_init(&d.graphs);
    strset_init(&d.locals);
    for (size_t k = 0; k < def->fn->nparams; k++) strset_add(&d.locals, def->fn->params[k]->name);
    mentions(s, &d, def->fn->body);
    strset_free(&d.graphs);
    strset_free(&d.locals);
  }
}

/* Distinct vertex types among `samples` draws of the op's sampler. */
static size_t call_space_estimate(const GenPolicy *policy, const OpDef *op, unsigned samples) {
  TyTable *types = ty_table_new();
  Arena arena;
  arena_init(&arena);
  StrSet seen;
  strset_init(&seen);
  for (unsigned k = 0; k < samples; k++) {
    Rng rng = rng_seed(0x5eed, k);
    OpGen g = {types, &rng, &arena, &policy->types};
    OpPlan plan;
    if (!op->sample(&g, op, &plan)) continue;
    /* the space of calls the policy allows: the generator makes none beyond its type limits */
    bool fits = gen_type_fits(&policy->types, plan.result);
    for (size_t i = 0; i < plan.nargs; i++)
      fits &= gen_type_fits(&policy->types, plan.args[i]);
    if (!fits) continue;
    char *sig = gen_call_signature(op, &plan);
    strset_add(&seen, sig);
    free(sig);
  }
  size_t n = seen.len;
  strset_free(&seen);
  arena_free(&arena);
  ty_table_free(types);
  return n;
}

static int by_calls(const void *a, const void *b) {
  const OpStat *x = a, *y = b;
  if (x->calls != y->calls) return x->calls < y->calls ? 1 : -1;
  return strcmp(x->op->name, y->op->name);
}

char *gen_stats_report(GenStats *s, unsigned samples, bool as_json) {
  double vertex = 0;
  json_t *ops = json_array();
  qsort(s->ops, s->nops, sizeof *s->ops, by_calls);
  StrBuf out;
  sb_init(&out);
  if (!as_json) sb_printf(&out, "%-28s %8s %9s %9s %8s\n", "operator", "calls", "vertices", "estimate", "ratio");
  double gencog = 0;
  size_t ngencog = 0;
  for (size_t i = 0; i < s->nops; i++) {
    OpStat *st = &s->ops[i];
    unsigned space = gen_gencog_space(st->op);
    if (space) {
      double r = (double)st->gencog_vertices.len / space;
      gencog += r < 1 ? r : 1;
      ngencog++;
    }
    size_t est = call_space_estimate(s->policy, st->op, samples);
    /* The generated set may find types the sampler did not: the space holds at least both. */
    if (st->vertices.len > est) est = st->vertices.len;
    double ratio = est ? (double)st->vertices.len / (double)est : 0;
    vertex += ratio;
    if (as_json) {
      json_t *o =
          json_pack("{s:s, s:I, s:I, s:I, s:f}", "op", st->op->name, "calls", (json_int_t)st->calls,
                    "vertices", (json_int_t)st->vertices.len, "estimate", (json_int_t)est, "ratio", ratio);
      if (space)
        json_object_set_new(o, "gencog",
                            json_pack("{s:I, s:I}", "vertices", (json_int_t)st->gencog_vertices.len, "space",
                                      (json_int_t)space));
      json_array_append_new(ops, o);
    } else {
      sb_printf(&out, "%-28s %8lu %9zu %9zu %8.3f", st->op->name, st->calls, st->vertices.len, est, ratio);
      if (space) sb_printf(&out, "   GenCoG: %zu of %u", st->gencog_vertices.len, space);
      sb_putc(&out, '\n');
    }
  }
  vertex = s->nops ? vertex / (double)s->nops : 0;
  gencog = ngencog ? gencog / (double)ngencog : 0;
  double edge = s->nops ? (double)s->edges.len / ((double)s->nops * (double)s->nops) : 0;
  double share = s->main_calls ? (double)s->dependent_calls / (double)s->main_calls : 0;
  char *text;
  if (as_json) {
    /* Its own object: these calls are every operator call in @main (adapters, zeros), not the
       policy's ops that "calls" counts, and --calls does not cut them off mid-program. */
    json_t *dep = json_pack("{s:I, s:I, s:f}", "calls", (json_int_t)s->main_calls, "input_dependent_calls",
                            (json_int_t)s->dependent_calls, "share", share);
    json_t *j = json_pack("{s:I, s:I, s:f, s:f, s:I, s:o, s:o}", "operators", (json_int_t)s->nops, "calls",
                          (json_int_t)s->calls, "vertex_diversity", vertex, "edge_diversity", edge, "edges",
                          (json_int_t)s->edges.len, "input_dependence", dep, "histogram", ops);
    /* GenCoG's definition, over the policy's ops of GenCoG's comparison (gencog.c) */
    json_object_set_new(
        j, "gencog", json_pack("{s:I, s:f}", "operators", (json_int_t)ngencog, "vertex_diversity", gencog));
    text = json_dumps(j, JSON_INDENT(2));
    json_decref(j);
    sb_puts(&out, text);
    sb_putc(&out, '\n');
    free(text);
  } else {
    json_decref(ops);
    sb_printf(&out, "operators: %zu, calls: %lu\nvertex diversity: %.3f (call-space estimate: %u sampler draws per op)\n"
                    "edge diversity: %.3f (%zu distinct producer -> consumer pairs of %zu)\n"
                    "calls depending on an input: %llu of %llu (%.1f%%; every operator call in @main, adapters too)\n",
              s->nops, s->calls, vertex, samples, edge, s->edges.len, s->nops * s->nops, s->dependent_calls,
              s->main_calls, 100.0 * share);
    if (ngencog)
      sb_printf(
          &out,
          "vertex diversity, GenCoG's definition: %.3f (over its %zu operators among these: a vertex is a "
          "call's exact input shapes and the attributes GenCoG varies, over GenCoG's own estimate of the "
          "space)\n",
          gencog, ngencog);
  }
  return sb_take(&out);
}
