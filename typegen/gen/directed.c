/*
 * Directed generation (policy->directed): GenCoG's expressivity-directed strategy, for a run of
 * programs.  The run remembers the vertices its programs made (calls told apart as GenCoG tells
 * them for the ops of its comparison, gencog.c; by their exact argument types and attributes for
 * the others), the producer -> consumer pairs and each operator's calls; while a program is made:
 *
 *   - a call whose vertex the run already has is refused (another operator or construct is
 *     tried), but one time in REPEAT_ODDS, and never when it makes a pair the run lacks: an
 *     operator whose vertices are all made still gets its edges;
 *   - among the operators that can make a type, those the run called less are likelier, and one
 *     whose pair with the operator that consumes the value is new is REWARD_NEW_EDGE times as
 *     likely.
 *
 * Only a program kept counts (gen_history_commit): one made again for the type limits does not.
 * Program k of a run then depends on the programs before it, still a function of (seed, k).
 */
#include "../../support/strbuf.h"
#include "../../support/strset.h"
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  REPEAT_ODDS = 20,     /* a vertex made before is kept once in this many times */
  RUN_USES_WEIGHT = 10, /* this many calls of an op in earlier programs weigh as one in this one */
  REWARD_NEW_EDGE = 64, /* the weight of an op whose pair with the consumer is new */
};

typedef struct OpUses {
  const OpDef *op;
  unsigned long run, program;
} OpUses;

struct GenHistory {
  StrSet vertices, edges;         /* the run's, from the programs kept */
  StrSet new_vertices, new_edges; /* the program being made's */
  VEC(OpUses) uses;
};

GenHistory *gen_history_new(void) {
  GenHistory *h = xcalloc(1, sizeof *h);
  strset_init(&h->vertices);
  strset_init(&h->edges);
  strset_init(&h->new_vertices);
  strset_init(&h->new_edges);
  return h;
}

void gen_history_free(GenHistory *h) {
  if (!h) return;
  strset_free(&h->vertices);
  strset_free(&h->edges);
  strset_free(&h->new_vertices);
  strset_free(&h->new_edges);
  free(h->uses.items);
  free(h);
}

static OpUses *uses_of(GenHistory *h, const OpDef *op) {
  for (size_t i = 0; i < h->uses.len; i++)
    if (h->uses.items[i].op == op) return &h->uses.items[i];
  VEC_PUSH(h->uses, ((OpUses){op, 0, 0}));
  return &h->uses.items[h->uses.len - 1];
}

static void attr_text(StrBuf *b, const AttrVal *v) {
  switch (v->kind) {
  case ATTR_INT:
  case ATTR_BOOL:
    sb_printf(b, "%lld", (long long)v->i);
    break;
  case ATTR_FLOAT:
    sb_printf(b, "%.17g", v->f);
    break;
  case ATTR_STR:
  case ATTR_META:
    sb_puts(b, v->s ? v->s : "");
    break;
  case ATTR_LIST:
    sb_putc(b, '[');
    for (size_t i = 0; i < v->n; i++) {
      attr_text(b, &v->items[i]);
      sb_putc(b, ',');
    }
    sb_putc(b, ']');
    break;
  default:
    sb_puts(b, "None");
  }
}

/* The call's vertex, with the op's name: GenCoG's for its ops, else every argument's exact type and
   every attribute's value. */
static char *vertex(const OpDef *op, const OpPlan *plan) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, op->name);
  sb_putc(&b, '|');
  char *g = gen_gencog_vertex(op, plan);
  if (g) {
    sb_puts(&b, g);
    free(g);
    return sb_take(&b);
  }
  for (size_t i = 0; i < plan->nargs; i++) {
    char *t = ty_str(plan->args[i]);
    sb_printf(&b, "%s;", t);
    free(t);
  }
  for (size_t k = 0; k < op->nattrs; k++) {
    attr_text(&b, &plan->attrs[k]);
    sb_putc(&b, ';');
  }
  return sb_take(&b);
}

static bool edge_is_new(const GenHistory *h, const OpDef *producer, const OpDef *consumer, char *edge,
                        size_t len) {
  if (!consumer) return false;
  snprintf(edge, len, "%s>%s", producer->name, consumer->name);
  return !strset_contains(&h->edges, edge) && !strset_contains(&h->new_edges, edge);
}

bool gen_history_novel(Gen *g, const OpDef *op, const OpPlan *plan) {
  GenHistory *h = g->history;
  if (!h) return true;
  char *v = vertex(op, plan), edge[160];
  bool new_edge = edge_is_new(h, op, g->consumer, edge, sizeof edge);
  bool made = strset_contains(&h->vertices, v) || strset_contains(&h->new_vertices, v);
  bool keep = !made || new_edge || rng_chance(&g->rng, 1, REPEAT_ODDS);
  if (keep) {
    strset_add(&h->new_vertices, v);
    if (g->consumer) strset_add(&h->new_edges, edge);
  }
  free(v);
  return keep;
}

double gen_history_weight(Gen *g, const OpDef *op, unsigned program_uses) {
  GenHistory *h = g->history;
  if (!h) return 1.0 / (1.0 + program_uses);
  char edge[160];
  double w = 1.0 / (1.0 + program_uses + (double)uses_of(h, op)->run / RUN_USES_WEIGHT);
  return edge_is_new(h, op, g->consumer, edge, sizeof edge) ? w * REWARD_NEW_EDGE : w;
}

void gen_history_called(Gen *g, const OpDef *op) {
  if (g->history) uses_of(g->history, op)->program++;
}

static void empty(StrSet *s) {
  strset_free(s);
  strset_init(s);
}

/* Moves one set's strings into another. */
static void merge(StrSet *into, StrSet *from) {
  for (size_t i = 0; i < from->cap; i++)
    if (from->slots[i]) strset_add(into, from->slots[i]);
  empty(from);
}

/* The program's calls count for the run (keep) or never happened. */
static void end_program(GenHistory *h, bool keep) {
  if (keep) {
    merge(&h->vertices, &h->new_vertices);
    merge(&h->edges, &h->new_edges);
  } else {
    empty(&h->new_vertices);
    empty(&h->new_edges);
  }
  for (size_t i = 0; i < h->uses.len; i++) {
    if (keep) h->uses.items[i].run += h->uses.items[i].program;
    h->uses.items[i].program = 0;
  }
}

void gen_history_commit(GenHistory *h) {
  if (h) end_program(h, true);
}

void gen_history_discard(GenHistory *h) {
  if (h) end_program(h, false);
}
