/* Where mutators act: typed expressions, the variables in scope at each, and placing new code. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../program/program.h"
#include "../support/ptrmap.h"
#include "mutate.h"

static bool is_atom_kind(AstExprKind k) {
  return k == AST_NAME || k == AST_STRING || k == AST_ANY || k == AST_LIST;
}

/* The sequences a branch's value is inside, innermost first: a variable its result names may be
   bound there rather than where the `if` is. */
typedef struct Frame {
  const AstExpr *seq; /* NULL: a match arm, whose pattern may bind any name */
  const struct Frame *outer;
} Frame;

/* The walk's state: the sites so far, and the value types of the ifs and matches worked out so
   far.  The walk meets an if before the ifs in its branches, and working out its type works
   theirs out too: kept, so that a chain of nested ifs costs its length, not its length squared. */
typedef struct Collect {
  MutSites *out;
  PtrMap known;
  PtrMap read_shapes; /* the slots whose value is a shape read off a value (read_shape) */
} Collect;

/* The slots no mutation may change: the operands of a dyn.* call and the shape_of calls.  A
   dyn.* op takes its output's sizes from its operands' values (dyn.reshape's new shape, a
   dyn.strided_slice's bounds); a program that gives them as a shape_of reads them off a value,
   valid whatever the inputs are.  Any other value of the same type there would be a shape made
   up from data, which the op refuses at run time for most inputs: a failure that is no bug. */
static void read_shape(AstExpr **slot, void *ctx) {
  AstExpr *e = *slot;
  PtrMap *pinned = ctx;
  if (prog_calls_op(e, "shape_of")) ptrmap_put(pinned, slot, slot);
  if (prog_calls_op(e, "dyn."))
    for (size_t i = 0; i < e->nitems; i++) ptrmap_put(pinned, &e->items[i], slot);
}

static const Type *value_type(Collect *c, const ScopedSite *site, const AstExpr *e, const Frame *frames);

/* The type of a use of variable e seen from inside `frames`: the innermost binding of its name. */
static const Type *use_type(const ScopedSite *site, const AstExpr *e, const Frame *frames) {
  for (const Frame *f = frames; f; f = f->outer) {
    if (!f->seq) return NULL;
    for (size_t i = f->seq->nstmts; i-- > 0;) {
      const AstStmt *s = f->seq->stmts[i];
      const char *name = s->kind == AST_STMT_GRAPH ? s->graph : s->binder ? s->binder->name : NULL;
      bool kind_ok = (s->kind == AST_STMT_GRAPH) == (e->kind == AST_GRAPH);
      if (name && kind_ok && !strcmp(name, e->text)) return s->kind == AST_STMT_FREE ? NULL : s->value_type;
    }
  }
  const ScopeVar *v = prog_scope_find(site, e->kind, e->text);
  return v ? v->type : NULL;
}

/* The type of the value e yields, seen from inside `frames`; NULL when it cannot be told.  An if's
   or a match's is the same wherever it is seen from (what a branch's variable names is bound
   inside the branch, or where the if is, in scope at both), so it is worked out once. */
static const Type *value_type(Collect *c, const ScopedSite *site, const AstExpr *e, const Frame *frames) {
  if (!e) return NULL;
  if (e->node.type) return e->node.type;
  bool found;
  const Type *t = NULL;
  switch (e->kind) {
  case AST_LOCAL:
  case AST_GRAPH: return use_type(site, e, frames);
  case AST_PAREN:
  case AST_BLOCK: return value_type(c, site, e->a, frames);
  case AST_SEQ: return value_type(c, site, e->a, &(Frame){e, frames});
  case AST_IF:
    t = ptrmap_get(&c->known, e, &found);
    if (found) return t;
    t = value_type(c, site, e->then_, frames);
    if (!t) t = value_type(c, site, e->else_, frames);
    break;
  case AST_MATCH:
    t = ptrmap_get(&c->known, e, &found);
    if (found) return t;
    for (size_t i = 0; i < e->narms && !t; i++) t = value_type(c, site, e->arms[i]->body, &(Frame){NULL, frames});
    break;
  default: return NULL;
  }
  ptrmap_put(&c->known, e, t);
  return t;
}

static bool collect(const ScopedSite *site, void *ctx) {
  Collect *c = ctx;
  AstExpr *e = *site->slot;
  /* callees are not values: every mutator sees only values */
  if (is_atom_kind(e->kind) || site->is_callee) return false;
  bool pinned;
  ptrmap_get(&c->read_shapes, site->slot, &pinned);
  if (pinned) return false;
  const Type *t = e->kind == AST_IF || e->kind == AST_MATCH ? value_type(c, site, e, NULL) : e->node.type;
  if (t) VEC_PUSH(*c->out, ((MutSite){site->slot, site->def, site->in_main, t}));
  return false;
}

void mut_sites(AstModule *m, MutSites *out) {
  Collect c = {out, {0}, {0}};
  prog_walk_module(m, read_shape, &c.read_shapes);
  prog_scoped_walk(m, collect, &c);
  ptrmap_free(&c.known);
  ptrmap_free(&c.read_shapes);
}

bool mut_node_marked(const AstNode *n) {
  for (const AstComment *c = n->comments; c; c = c->next)
    if (strstr(c->text, "rmutate-step-")) return true;
  return false;
}

typedef VEC(const AstExpr *) Exprs;

static int by_address(const void *a, const void *b) {
  const AstExpr *x = *(const AstExpr *const *)a, *y = *(const AstExpr *const *)b;
  return x < y ? -1 : x > y;
}

/* Whether e holds an earlier step's change; such expressions go to *out.  A change is a marked
   expression, binder or statement.  A block's mark is its result's: TVM's layout puts the
   comment after the block's last expression, where reading it back attaches it to the block. */
static bool holds_mark(AstExpr *e, Exprs *out) {
  bool marked = mut_node_marked(&e->node);
  if (marked && e->kind == AST_SEQ) VEC_PUSH(*out, e->a);
  for (size_t i = 0; i < e->nstmts; i++)
    marked |= mut_node_marked(&e->stmts[i]->node) ||
              (e->stmts[i]->binder && mut_node_marked(&e->stmts[i]->binder->node));
  for (size_t i = 0; e->kind == AST_FN && i < e->fn->nparams; i++)
    marked |= mut_node_marked(&e->fn->params[i]->node);
  AstExpr **slot;
  for (AstChildren it = ast_children(e); (slot = ast_next_child(&it));)
    marked |= holds_mark(*slot, out);
  if (marked) VEC_PUSH(*out, e);
  return marked;
}

void mut_sites_to_change(MutContext *c, MutSites *out) {
  mut_sites(c->m, out);
  if (c->step == 0) return;
  Exprs marked = {0};
  for (size_t i = 0; i < c->m->ndefs; i++)
    if (c->m->defs[i]->kind == AST_DEF_FN) holds_mark(c->m->defs[i]->fn->body, &marked);
  if (marked.len) qsort(marked.items, marked.len, sizeof *marked.items, by_address);
  size_t kept = 0;
  for (size_t i = 0; i < out->len; i++) {
    const AstExpr *e = *out->items[i].slot;
    if (!marked.len || !bsearch(&e, marked.items, marked.len, sizeof *marked.items, by_address))
      out->items[kept++] = out->items[i];
  }
  out->len = kept;
  free(marked.items);
}

const MutSite *mut_pick(MutContext *c, const MutSites *sites, bool (*want)(const MutSite *s, void *ctx), void *ctx) {
  size_t n = 0;
  for (size_t i = 0; i < sites->len; i++) n += !want || want(&sites->items[i], ctx);
  if (!n) return NULL;
  size_t k = rng_index(c->rng, n);
  for (size_t i = 0; i < sites->len; i++)
    if ((!want || want(&sites->items[i], ctx)) && k-- == 0) return &sites->items[i];
  return NULL;
}

typedef struct ScopeAt {
  AstExpr **slot;
  GenVars *out;
} ScopeAt;

static bool scope_at(const ScopedSite *site, void *ctx) {
  ScopeAt *at = ctx;
  if (site->slot != at->slot) return false;
  for (size_t i = 0; i < site->nscope; i++) VEC_PUSH(*at->out, ((GenVar){site->scope[i].name, site->scope[i].type, NULL, NULL, 0}));
  return true;
}

void mut_scope_at(AstModule *m, const MutSite *site, GenVars *out) {
  ScopeAt at = {site->slot, out};
  prog_scoped_walk(m, scope_at, &at);
}

/* The largest graph number the program uses, so generated bindings continue after it. */
static void max_graph(AstExpr **slot, void *ctx) {
  unsigned *max = ctx;
  AstExpr *e = *slot;
  if (e->kind == AST_GRAPH) {
    unsigned v = (unsigned)strtoul(e->text, NULL, 10);
    if (v > *max) *max = v;
  }
  for (size_t i = 0; i < e->nstmts; i++)
    if (e->stmts[i]->kind == AST_STMT_GRAPH) {
      unsigned v = (unsigned)strtoul(e->stmts[i]->graph, NULL, 10);
      if (v > *max) *max = v;
    }
}

void mut_gen_at(MutContext *c, const MutSite *site, Gen *g, GenStmts *block) {
  gen_init(g, c->policy, c->m, c->types, *c->rng);
  if (c->limits) g->limits = *c->limits;
  rng_next(c->rng); /* the generator took a copy of the stream: move ours on */
  mut_scope_at(c->m, site, &g->scope);
  unsigned max = 0;
  for (size_t i = 0; i < c->m->ndefs; i++)
    if (c->m->defs[i]->kind == AST_DEF_FN) prog_walk(&c->m->defs[i]->fn->body, max_graph, &max);
  g->next_graph = max + 1;
  g->next_local = 1000 + (unsigned)rng_index(c->rng, 1000) * 10; /* locals: %x1000.. beside the program's */
  block->len = 0;
  g->block = block;
}

void mut_place(MutContext *c, const MutSite *site, AstExpr *e, GenStmts *block) {
  if (block && block->len)
    e = ast_new_unary(c->m, AST_PAREN, ast_new_seq(c->m, block->items, block->len, e));
  *site->slot = e;
}

void mut_note(MutContext *c, const AstNode *old, AstNode *now, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  sb_puts(c->what, buf);
  c->where = old->span;
  c->marked = now;
}
