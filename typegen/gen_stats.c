/*
 * Statistics of a generated set, GenCoG's way:
 *   vertex diversity  per op, the distinct vertex types (gen_call_signature) of its calls over an
 *                     estimate of how many its call space holds, averaged over the policy's ops;
 *   edge diversity    distinct (producer op, consumer op) pairs over the number of ops squared.
 * The call-space estimate is the number of distinct vertex types among many draws of the op's own
 * sampler under the same policy: a lower bound that the generated set is measured against.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../support/strbuf.h"
#include "../support/strset.h"
#include "gen.h"
#include "to_ast.h"

typedef struct OpStat {
  const OpDef *op;
  unsigned long calls;
  StrSet vertices;
} OpStat;

struct GenStats {
  const GenPolicy *policy;
  OpStat *ops;
  size_t nops;
  StrSet edges;
  unsigned long calls;
  unsigned long long limit; /* 0: no limit */
};

void gen_stats_limit(GenStats *s, unsigned long long calls) { s->limit = calls; }
bool gen_stats_full(const GenStats *s) { return s->limit && s->calls >= s->limit; }

static void abstract_type(const Type *t, StrBuf *out) {
  char buf[32];
  if (t->kind == TY_TENSOR) {
    sb_printf(out, "r%u:%s", t->ndims, dtype_str(t->dtype, buf));
    for (uint32_t i = 0; i < t->ndims; i++)
      if (t->dims[i] == TY_DIM_ANY) sb_puts(out, "?");
    return;
  }
  sb_putc(out, '(');
  for (uint32_t i = 0; i < t->nargs; i++) {
    if (i) sb_putc(out, ',');
    abstract_type(t->args[i], out);
  }
  sb_putc(out, ')');
}

char *gen_call_signature(const OpDef *op, const OpPlan *plan) {
  StrBuf sig;
  sb_init(&sig);
  for (size_t i = 0; i < plan->nargs; i++) {
    abstract_type(plan->args[i], &sig);
    sb_putc(&sig, ';');
  }
  AstModule *tmp = ast_module_new(false);
  AstAttr *attrs[64];
  size_t na = attrs_to_ast(tmp, op, plan->attrs, attrs);
  tmp->body = ast_new_call(tmp, ast_new_atom(tmp, AST_NAME, "f"), NULL, 0, attrs, na);
  char *text = ast_print(tmp, NULL);
  sb_puts(&sig, text);
  free(text);
  ast_free(tmp);
  return sb_take(&sig);
}

GenStats *gen_stats_new(const GenPolicy *policy) {
  GenStats *s = xcalloc(1, sizeof *s);
  s->policy = policy;
  size_t n;
  const OpDef *const *all = op_all(&n);
  s->ops = xcalloc(n ? n : 1, sizeof *s->ops);
  for (size_t i = 0; i < n; i++)
    if (gen_policy_allows(policy, all[i])) {
      s->ops[s->nops].op = all[i];
      strset_init(&s->ops[s->nops++].vertices);
    }
  strset_init(&s->edges);
  return s;
}

void gen_stats_free(GenStats *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nops; i++) strset_free(&s->ops[i].vertices);
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
  OpStat *st = find(s, rec->op);
  if (!st || gen_stats_full(s)) return;
  st->calls++;
  s->calls++;
  strset_add(&st->vertices, rec->signature);
  for (size_t i = 0; i < rec->nproducers; i++) {
    if (!rec->producers[i] || !find(s, rec->producers[i])) continue;
    StrBuf edge;
    sb_init(&edge);
    sb_printf(&edge, "%s -> %s", rec->producers[i]->name, rec->op->name);
    strset_add(&s->edges, edge.data);
    sb_free(&edge);
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
  for (size_t i = 0; i < s->nops; i++) {
    OpStat *st = &s->ops[i];
    size_t est = call_space_estimate(s->policy, st->op, samples);
    /* The generated set may find types the sampler did not: the space holds at least both. */
    if (st->vertices.len > est) est = st->vertices.len;
    double ratio = est ? (double)st->vertices.len / (double)est : 0;
    vertex += ratio;
    if (as_json)
      json_array_append_new(ops, json_pack("{s:s, s:I, s:I, s:I, s:f}", "op", st->op->name, "calls",
                                           (json_int_t)st->calls, "vertices", (json_int_t)st->vertices.len,
                                           "estimate", (json_int_t)est, "ratio", ratio));
    else
      sb_printf(&out, "%-28s %8lu %9zu %9zu %8.3f\n", st->op->name, st->calls, st->vertices.len, est, ratio);
  }
  vertex = s->nops ? vertex / (double)s->nops : 0;
  double edge = s->nops ? (double)s->edges.len / ((double)s->nops * (double)s->nops) : 0;
  char *text;
  if (as_json) {
    json_t *j = json_pack("{s:I, s:I, s:f, s:f, s:I, s:o}", "operators", (json_int_t)s->nops, "calls",
                          (json_int_t)s->calls, "vertex_diversity", vertex, "edge_diversity", edge, "edges",
                          (json_int_t)s->edges.len, "histogram", ops);
    text = json_dumps(j, JSON_INDENT(2));
    json_decref(j);
    sb_puts(&out, text);
    sb_putc(&out, '\n');
    free(text);
  } else {
    json_decref(ops);
    sb_printf(&out, "operators: %zu, calls: %lu\nvertex diversity: %.3f (call-space estimate: %u sampler draws per op)\n"
                    "edge diversity: %.3f (%zu distinct producer -> consumer pairs of %zu)\n",
              s->nops, s->calls, vertex, samples, edge, s->edges.len, s->nops * s->nops);
  }
  return sb_take(&out);
}
