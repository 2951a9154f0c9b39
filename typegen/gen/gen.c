/*
 * The type-directed generator.  Every expression is built for a type: gen_expr picks a weighted
 * construct that can produce the type, solves for the types of its parts and recurses with less
 * fuel; at zero fuel it takes a base case.  Values are bound the way TVM prints programs: every
 * call to a graph binding `%N = op(...)`, arguments as atoms.  Graph bindings are only reused for
 * values that bind no variables (the RFC's rule); lets keep effectful values (ref_write) alive.
 */
#include "gen.h"

#include "../../parser/literal.h"
#include "../../support/strbuf.h"
#include "../../support/xalloc.h"
#include "../infer/infer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gen_init(Gen *g, const GenPolicy *policy, AstModule *m, TyTable *types, Rng rng) {
  memset(g, 0, sizeof *g);
  g->policy = policy;
  g->m = m;
  g->types = types;
  g->rng = rng;
  g->limits = policy->types;
  arena_init(&g->scratch);
  g->og = (OpGen){types, &g->rng, &g->scratch, &policy->types};
}

void gen_free(Gen *g) {
  free(g->op_uses.items);
  free(g->scope.items);
  free(g->helpers.items);
  arena_free(&g->scratch);
}

/* ------------------------------------------------------------------ bindings */


static const char *fresh_local(Gen *g, const char *stem) {
  return arena_printf(&g->m->arena, "%s%u", stem, g->next_local++);
}

static void push_var(Gen *g, const char *name, const Type *t, const OpDef *producer) {
  VEC_PUSH(g->scope, ((GenVar){name, t, producer, NULL, 0}));
}

static const GenVar *var_named(Gen *g, const char *name) {
  for (size_t k = g->scope.len; k > 0; k--)
    if (!strcmp(g->scope.items[k - 1].name, name)) return &g->scope.items[k - 1];
  return NULL;
}

/* A reference to a variable in scope: %N for a graph binding, %name for the others. */
static AstExpr *var_ref(Gen *g, const GenVar *v) {
  bool graph = v->name[0] >= '0' && v->name[0] <= '9';
  return ast_new_atom(g->m, graph ? AST_GRAPH : AST_LOCAL, v->name);
}

/* The operator behind a variable reference (through lets, projections and reuse), or NULL. */
static const OpDef *producer_of(Gen *g, const AstExpr *e) {
  if (e->kind == AST_PROJ) e = e->a;
  if (e->kind != AST_GRAPH && e->kind != AST_LOCAL) return NULL;
  for (size_t k = g->scope.len; k > 0; k--)
    if (!strcmp(g->scope.items[k - 1].name, e->text)) return g->scope.items[k - 1].producer;
  return NULL;
}

/* `%N = value;` appended to *g->block: a value reusable later as a variable of type t made by
   `producer` (NULL for none; it binds no variables).  Returns the %N atom. */
static AstExpr *bind_graph(Gen *g, AstExpr *value, const Type *t, const OpDef *producer) {
  unsigned n = g->next_graph++;
  VEC_PUSH(*g->block, ast_new_graph(g->m, n, value));
  const char *name = arena_printf(&g->m->arena, "%u", n);
  push_var(g, name, t, producer);
  return ast_new_atom(g->m, AST_GRAPH, name);
}

/* `%N = value;` for a value that binds variables (an if with bindings in its branches, a closure):
   used once, never offered for reuse (the RFC's rule: sharing it would share its binders). */
static AstExpr *bind_graph_once(Gen *g, AstExpr *value) {
  unsigned n = g->next_graph++;
  VEC_PUSH(*g->block, ast_new_graph(g->m, n, value));
  return ast_new_atom(g->m, AST_GRAPH, arena_printf(&g->m->arena, "%u", n));
}

/* `let %x: t = value;`, the variable usable afterwards. */
static AstExpr *bind_let(Gen *g, AstExpr *value, const Type *t, const OpDef *producer) {
  const char *name = fresh_local(g, "x");
  AstBinder *b = ast_new_binder(g->m, name, ty_is_readable(t) ? ty_to_ast(g->m, t) : NULL);
  VEC_PUSH(*g->block, ast_new_let(g->m, b, value));
  push_var(g, name, t, producer);
  return ast_new_atom(g->m, AST_LOCAL, name);
}

/* Runs `build` into a fresh block with its own scope; returns the block as one expression. */
typedef AstExpr *(*BlockBody)(Gen *g, void *ctx);

static AstExpr *in_block(Gen *g, BlockBody body, void *ctx) {
  GenStmts stmts = {0};
  GenStmts *saved = g->block;
  size_t mark = g->scope.len;
  g->block = &stmts;
  AstExpr *result = body(g, ctx);
  AstExpr *e = ast_new_seq(g->m, stmts.items, stmts.len, result);
  free(stmts.items);
  g->block = saved;
  g->scope.len = mark;
  return e;
}

/* ------------------------------------------------------------------ smallest expressions */

static bool is_scalar(const Type *t) { return t->kind == TY_TENSOR && t->ndims == 0; }

static AstExpr *literal(Gen *g, const Type *t) {
  char buf[LIT_SPELLING_MAX];
  DType d = t->dtype;
  if (dtype_is_bool(d)) return ast_new_atom(g->m, AST_BOOL, rng_chance(&g->rng, 1, 2) ? "True" : "False");
  if (d.code == DT_INT && (d.bits == 16 || d.bits == 32 || d.bits == 64)) {
    lit_spell_int(rng_range(&g->rng, -4, 8), d.bits, buf);
    return ast_new_atom(g->m, AST_INT, buf);
  }
  if (d.code == DT_FLOAT && (d.bits == 16 || d.bits == 32 || d.bits == 64)) {
    lit_spell_float((double)rng_range(&g->rng, -8, 8) / 4.0, d.bits, buf);
    return ast_new_atom(g->m, AST_FLOAT, buf);
  }
  return NULL; /* int8, uint8, ...: no literal syntax */
}

/* zeros / ones of a tensor type, as a call of the registry's op. */
static AstExpr *filled(Gen *g, const Type *t, const char *op_name) {
  const OpDef *op = op_lookup(op_name);
  OpPlan plan;
  opgen_plan_init(&g->og, op, &plan);
  char buf[16];
  opgen_set_ints(&g->og, op, &plan, "shape", t->dims, t->ndims);
  opgen_set_str(&g->og, op, &plan, "dtype", dtype_str(t->dtype, buf));
  AstAttr *attrs[8];
  size_t n = attrs_to_ast(g->m, op, plan.attrs, attrs);
  return ast_new_call(g->m, ast_new_atom(g->m, AST_NAME, op_name), NULL, 0, attrs, n);
}

static const GenVar *find_var(Gen *g, const Type *t, bool random) {
  size_t matches = 0;
  for (size_t i = 0; i < g->scope.len; i++) matches += g->scope.items[i].type == t;
  if (matches == 0) return NULL;
  size_t pick = random ? rng_index(&g->rng, matches) : matches - 1;
  for (size_t i = 0; i < g->scope.len; i++)
    if (g->scope.items[i].type == t && pick-- == 0) return &g->scope.items[i];
  return NULL;
}

static void define_adt(Gen *g);
static const char *const adt_name = "GList", *const adt_cons = "GCons", *const adt_nil = "GNil";

/* Body of a trivial closure: the smallest result. */
typedef struct FnCtx {
  const Type *ftype;
  unsigned fuel;
  const char **params; /* the parameters' names, set before the body is built */
} FnCtx;

static AstExpr *smallest_body(Gen *g, void *ctx) { return gen_smallest(g, ((FnCtx *)ctx)->ftype->ret); }

/* A function of type ftype whose body `body` builds with the parameters in scope (their names
   in *names, which lives in the module's arena). */
static AstFunc *make_func(Gen *g, const Type *ftype, BlockBody body, void *ctx, const char *stem,
                          const char ***names) {
  size_t n = ftype->nargs;
  AstBinder **params = xmalloc((n ? n : 1) * sizeof *params);
  const char **pn = arena_alloc(&g->m->arena, (n ? n : 1) * sizeof *pn);
  size_t mark = g->scope.len;
  for (size_t i = 0; i < n; i++) {
    pn[i] = fresh_local(g, stem);
    params[i] = ast_new_binder(g->m, pn[i], ty_to_ast(g->m, ftype->args[i]));
    push_var(g, pn[i], ftype->args[i], NULL);
  }
  if (names) *names = pn;
  AstExpr *b = in_block(g, body, ctx);
  g->scope.len = mark;
  AstFunc *f = ast_new_func(g->m, NULL, 0, params, n, ty_to_ast(g->m, ftype->ret), b);
  free(params);
  return f;
}

/* The forward policy's leaf: the adapter forward.c plans, its calls bound one after the other;
   NULL when there is none. */
static AstExpr *forward_leaf(Gen *g, const Type *t) {
  GenAdapter a;
  if (!gen_forward_plan(g, t, &a)) return NULL;
  AstExpr *cur = var_ref(g, a.from);
  for (size_t i = 0; i < a.n; i++) {
    AstExpr *arg = cur;
    const GenAdapterStep *s = &a.steps[i];
    cur = bind_graph(g, gen_plan_call(g, s->op, &s->plan, &arg, 0), s->plan.result, s->op);
  }
  return cur;
}

AstExpr *gen_smallest(Gen *g, const Type *t) {
  const GenVar *v = find_var(g, t, false);
  if (v) return var_ref(g, v);
  switch (t->kind) {
  case TY_TENSOR: {
    if (g->policy->forward) { /* derived from an earlier value (forward.c), not a constant */
      AstExpr *e = forward_leaf(g, t);
      if (e) return e;
    }
    if (is_scalar(t)) {
      AstExpr *lit = literal(g, t);
      if (lit) return lit;
    }
    return filled(g, t, "zeros");
  }
  case TY_TUPLE: {
    AstExpr **items = xmalloc((t->nargs ? t->nargs : 1) * sizeof *items);
    for (uint32_t i = 0; i < t->nargs; i++) items[i] = gen_smallest(g, t->args[i]);
    AstExpr *e = ast_new_tuple(g->m, items, t->nargs);
    free(items);
    return e;
  }
  case TY_FUNC: {
    FnCtx fc = {t, 0, NULL};
    return ast_new_fn(g->m, make_func(g, t, smallest_body, &fc, "p", NULL));
  }
  case TY_REF: return ast_new_unary(g->m, AST_REF, gen_smallest(g, t->args[0]));
  case TY_CALL:
    if (!strcmp(t->name, adt_name)) {
      define_adt(g);
      return ast_new_atom(g->m, AST_NAME, adt_nil);
    }
    break;
  default: break;
  }
  return filled(g, ty_scalar(g->types, dt_float32), "zeros"); /* unreachable for generated types */
}

/* ------------------------------------------------------------------ random types */

const Type *gen_random_type(Gen *g) {
  const OpGenPolicy *p = &g->policy->types;
  DType d = g->policy->float_only ? opgen_dtype(&g->og, OPDT_FLOAT)
            : rng_chance(&g->rng, 3, 4) ? p->float_dtypes[0] : opgen_dtype(&g->og, OPDT_ANY);
  return opgen_tensor(&g->og, d, g->policy->min_rank, p->max_rank);
}

/* ------------------------------------------------------------------ operator calls */

/* Costs are counts >= 0 that saturate at INT64_MAX: a program's own types may be as large as int64
   allows (a seed rmutate was given), and a cost past any budget is all that matters then. */
static int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t elements(const Type *t) {
  if (t->kind == TY_TENSOR) {
    int64_t n = ty_num_elements(t);
    return n < 0 ? 64 : n;
  }
  int64_t n = 0;
  for (uint32_t i = 0; i < t->nargs; i++) n = sat_add(n, elements(t->args[i]));
  return n;
}

/* A rough FLOP count: elements touched, times the reduction length for contractions. */
static int64_t estimate_flops(const OpDef *op, const OpPlan *plan) {
  int64_t flops = elements(plan->result);
  for (size_t i = 0; i < plan->nargs; i++) flops = sat_add(flops, elements(plan->args[i]));
  bool contraction = strstr(op->name, "conv") || strstr(op->name, "dense") || strstr(op->name, "matmul");
  if (contraction && plan->nargs > 1 && plan->args[1]->kind == TY_TENSOR && plan->args[1]->ndims > 0 &&
      plan->args[1]->dims[0] > 0)
    flops = sat_add(flops, sat_mul(elements(plan->result), elements(plan->args[1]) / plan->args[1]->dims[0]));
  return flops;
}

/* A vertex type's spelling of a type: rank, dtype and `?`s, not the extents (gen.h). */
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

size_t gen_ops_for(Gen *g, const Type *t, const OpDef **out, size_t max) {
  size_t n, k = 0;
  const OpDef *const *ops = op_all(&n);
  for (size_t i = 0; i < n && k < max; i++)
    if (gen_policy_allows(g->policy, ops[i]) && ops[i]->recognize(ops[i], t)) out[k++] = ops[i];
  return k;
}

static void record_call(Gen *g, const OpDef *op, const OpPlan *plan, AstExpr *const *args) {
  if (!g->hook) return;
  char *sig = gen_call_signature(op, plan);
  /* An argument's producer; through a tuple literal, its fields' producers (concatenate's edges). */
  const OpDef *producers[64];
  size_t np = 0;
  for (size_t i = 0; i < plan->nargs && np < 64; i++) {
    const GenVar *v = args[i]->kind == AST_GRAPH || args[i]->kind == AST_LOCAL ? var_named(g, args[i]->text) : NULL;
    if (v && v->nfields)
      for (size_t f = 0; f < v->nfields && np < 64; f++) producers[np++] = v->fields[f];
    else producers[np++] = v ? v->producer : NULL;
  }
  GenCallRecord rec = {op, plan, sig, producers, np};
  g->hook(g->hook_ctx, &rec);
  free(sig);
}

static unsigned *uses_of(Gen *g, const OpDef *op) {
  for (size_t i = 0; i < g->op_uses.len; i++)
    if (g->op_uses.items[i].op == op) return &g->op_uses.items[i].uses;
  VEC_PUSH(g->op_uses, ((struct GenOpUse){op, 0}));
  return &g->op_uses.items[g->op_uses.len - 1].uses;
}

/* An argument: an atom, so a compound value gets its own binding first. */
static AstExpr *gen_atom(Gen *g, const Type *t, unsigned fuel) {
  AstExpr *e = gen_expr(g, t, fuel);
  switch (e->kind) {
  case AST_INT:
  case AST_FLOAT:
  case AST_BOOL:
  case AST_LOCAL:
  case AST_GRAPH:
  case AST_GLOBAL:
  case AST_NAME:
    return e;
  default:
    return bind_graph(g, e, t, NULL);
  }
}

AstExpr *gen_plan_call(Gen *g, const OpDef *op, const OpPlan *plan, AstExpr *const *given, unsigned fuel) {
  AstExpr *args[OP_MAX_ARGS];
  unsigned share = plan->nargs ? fuel / (unsigned)plan->nargs : 0;
  const OpDef *outer = g->consumer; /* the arguments' values are this call's to consume */
  g->consumer = op;
  for (size_t i = 0; i < plan->nargs; i++) args[i] = given && given[i] ? given[i] : gen_atom(g, plan->args[i], share);
  g->consumer = outer;
  AstAttr *attrs[64];
  size_t na = attrs_to_ast(g->m, op, plan->attrs, attrs);
  record_call(g, op, plan, args);
  (*uses_of(g, op))++;
  gen_history_called(g, op);
  g->flops = sat_add(g->flops, estimate_flops(op, plan));
  return ast_new_call(g->m, ast_new_atom(g->m, AST_NAME, op->name), args, plan->nargs, attrs, na);
}

/* Among the candidates, ops used less in this program are likelier: rarely applicable ops (convs,
   pools) get their turn, and the program's graph gets more distinct producer/consumer pairs (with
   a run's history, less used in the run and new pairs too: gen_history_weight). */
static const OpDef *pick_op(Gen *g, const OpDef *const *cands, size_t n) {
  double total = 0, w[256];
  for (size_t i = 0; i < n; i++)
    total += w[i] = gen_history_weight(g, cands[i], *uses_of(g, cands[i]));
  double r = (double)rng_range(&g->rng, 0, 1 << 30) / (double)(1 << 30) * total;
  for (size_t i = 0; i < n; i++)
    if ((r -= w[i]) <= 0) return cands[i];
  return cands[n - 1];
}

/* Whether a plan's result and arguments keep the limits: a solver derives its arguments from the
   result (a broadcast's operand, a concatenation's parts, a window's input), a sampler draws
   attributes that make its result, and neither bounds what it derives. */
static bool plan_fits(const Gen *g, const OpPlan *plan) {
  if (!gen_type_fits(&g->limits, plan->result)) return false;
  for (size_t i = 0; i < plan->nargs; i++)
    if (!gen_type_fits(&g->limits, plan->args[i])) return false;
  return true;
}

static AstExpr *gen_op(Gen *g, const Type *t, unsigned fuel) {
  const OpDef *cands[256];
  size_t n = gen_ops_for(g, t, cands, 256);
  for (int tries = 0; tries < 4 && n > 0; tries++) {
    const OpDef *op = pick_op(g, cands, n);
    OpPlan plan;
    if (!op->solve(&g->og, op, t, &plan) || !plan_fits(g, &plan) || !gen_history_novel(g, op, &plan))
      continue;
    if (g->policy->forward && plan.nargs == 0) continue; /* zeros(), arange(): constants, folded away */
    int64_t cost = estimate_flops(op, &plan);
    if (g->policy->flops_budget && sat_add(g->flops, cost) > g->policy->flops_budget) continue;
    return bind_graph(g, gen_plan_call(g, op, &plan, NULL, fuel > 0 ? fuel - 1 : 0), t, op);
  }
  return NULL;
}

/* A call of a random allowed op, bound by a let whatever its type: every op gets its turn. */
static void gen_side_op(Gen *g, unsigned fuel) {
  size_t n, k = 0;
  const OpDef *const *ops = op_all(&n);
  const OpDef **allowed = xmalloc(n * sizeof *allowed);
  for (size_t i = 0; i < n; i++)
    if (gen_policy_allows(g->policy, ops[i])) allowed[k++] = ops[i];
  if (k > 0) {
    const OpDef *op = allowed[rng_index(&g->rng, k)];
    OpPlan plan;
    if (op->sample(&g->og, op, &plan) && plan_fits(g, &plan) && !(g->policy->forward && plan.nargs == 0) &&
        gen_history_novel(g, op, &plan) &&
        !(g->policy->flops_budget && sat_add(g->flops, estimate_flops(op, &plan)) > g->policy->flops_budget))
      bind_let(g, gen_plan_call(g, op, &plan, NULL, fuel), plan.result, op);
  }
  free(allowed);
}

/* ------------------------------------------------------------------ other constructs */

typedef struct ExprCtx {
  const Type *type;
  unsigned fuel;
} ExprCtx;

static AstExpr *expr_body(Gen *g, void *ctx) {
  ExprCtx *c = ctx;
  return gen_expr(g, c->type, c->fuel);
}

static AstExpr *gen_if(Gen *g, const Type *t, unsigned fuel) {
  AstExpr *cond = gen_atom(g, ty_scalar(g->types, dt_bool), fuel / 4);
  ExprCtx then_ = {t, fuel / 3}, else_ = {t, fuel / 3};
  AstExpr *a = in_block(g, expr_body, &then_), *b = in_block(g, expr_body, &else_);
  return bind_graph_once(g, ast_new_if(g->m, cond, a, b));
}

/* A tuple holding t at a random place, then the projection of that field. */
static AstExpr *gen_tuple(Gen *g, const Type *t, unsigned fuel) {
  if (t->kind == TY_TUPLE) {
    AstExpr **items = xmalloc((t->nargs ? t->nargs : 1) * sizeof *items);
    const OpDef **fields = arena_alloc(&g->scratch, (t->nargs ? t->nargs : 1) * sizeof *fields);
    for (uint32_t i = 0; i < t->nargs; i++) {
      items[i] = gen_atom(g, t->args[i], fuel / (t->nargs + 1));
      fields[i] = producer_of(g, items[i]);
    }
    AstExpr *e = bind_graph(g, ast_new_tuple(g->m, items, t->nargs), t, NULL);
    GenVar *v = &g->scope.items[g->scope.len - 1];
    v->fields = fields;
    v->nfields = t->nargs;
    free(items);
    return e;
  }
  /* Tuples that tuple-producing operators make around a tensor of type t: (t, t) as split and
     dropout give, (t, mean, var) as batch_norm gives, (t, indices) as topk gives. */
  if (t->kind == TY_TENSOR && rng_chance(&g->rng, 2, 3)) {
    const Type *shapes[4][3];
    size_t lens[4], nshapes = 0;
    shapes[nshapes][0] = shapes[nshapes][1] = t;
    lens[nshapes++] = 2;
    shapes[nshapes][0] = t;
    shapes[nshapes][1] = opgen_with_dtype(&g->og, t, dt_int32);
    lens[nshapes++] = 2;
    if (t->ndims >= 2) {
      int64_t c = t->dims[1];
      shapes[nshapes][0] = t;
      shapes[nshapes][1] = shapes[nshapes][2] = ty_tensor(g->types, t->dtype, &c, 1);
      lens[nshapes++] = 3;
    }
    size_t pick = rng_index(&g->rng, nshapes);
    const Type *tt = ty_tuple(g->types, shapes[pick], lens[pick]);
    AstExpr *tuple = gen_op(g, tt, fuel);
    if (tuple) {
      AstExpr *proj = ast_new_proj(g->m, tuple, 0);
      return bind_graph(g, proj, t, producer_of(g, proj));
    }
  }
  size_t n = (size_t)rng_range(&g->rng, 1, 3), at = rng_index(&g->rng, n);
  const Type *fields[3];
  for (size_t i = 0; i < n; i++) fields[i] = i == at ? t : gen_random_type(g);
  const Type *tt = ty_tuple(g->types, fields, n);
  /* A tuple-producing operator (split, topk, batch_norm, ...) when one recognizes this type. */
  AstExpr *tuple = rng_chance(&g->rng, 1, 2) ? gen_op(g, tt, fuel) : NULL;
  if (!tuple) {
    AstExpr *items[3];
    for (size_t i = 0; i < n; i++) items[i] = gen_atom(g, fields[i], fuel / (unsigned)(n + 1));
    tuple = bind_graph(g, ast_new_tuple(g->m, items, n), tt, NULL);
  }
  AstExpr *proj = ast_new_proj(g->m, tuple, (unsigned)at);
  return bind_graph(g, proj, t, producer_of(g, proj)); /* the field comes from the tuple's producer */
}

static AstExpr *fn_body(Gen *g, void *ctx) {
  FnCtx *c = ctx;
  return gen_expr(g, c->ftype->ret, c->fuel);
}

/* fn (%p: P) -> t { ... } bound, then called. */
static AstExpr *gen_closure(Gen *g, const Type *t, unsigned fuel) {
  const Type *p = gen_random_type(g);
  const Type *ft = ty_func(g->types, &p, 1, t, NULL, 0);
  FnCtx fc = {ft, fuel / 2, NULL};
  AstExpr *f = ast_new_fn(g->m, make_func(g, ft, fn_body, &fc, "p", NULL));
  AstExpr *fv = rng_chance(&g->rng, 1, 2) ? bind_let(g, f, ft, NULL) : bind_graph_once(g, f);
  AstExpr *arg = gen_atom(g, p, fuel / 2);
  return bind_graph(g, ast_new_call(g->m, fv, &arg, 1, NULL, 0), t, NULL);
}

/* A helper global of type fn(P1, ..., Pk) -> t, k from 1 to 3; its body sees only its
   parameters.  More than one parameter because module-level passes rewrite a function in place
   of its callers' view of it (DynamicToStatic types an argument of a dyn.* call as a function
   of its free variables under the helper's own name), which only a caller with another number
   of arguments notices. */
enum { GEN_HELPER_MAX_PARAMS = 3 };
static AstExpr *gen_global_call(Gen *g, const Type *t, unsigned fuel) {
  size_t np = 1 + rng_index(&g->rng, GEN_HELPER_MAX_PARAMS);
  const Type *p[GEN_HELPER_MAX_PARAMS];
  for (size_t i = 0; i < np; i++) p[i] = gen_random_type(g);
  const Type *ft = ty_func(g->types, p, np, t, NULL, 0);
  const char *name = NULL;
  for (size_t i = 0; i < g->helpers.len; i++)
    if (g->helpers.items[i].type == ft && g->helpers.items[i].kind == GEN_GLOBAL) name = g->helpers.items[i].name;
  if (!name) {
    name = arena_printf(&g->m->arena, "helper%u", g->next_global++);
    size_t saved = g->scope.len;
    g->scope.len = 0; /* globals capture nothing */
    GenVar *outer = xmalloc((saved ? saved : 1) * sizeof *outer);
    if (saved) memcpy(outer, g->scope.items, saved * sizeof *outer); /* memcpy from NULL is undefined even for 0 bytes */
    FnCtx fc = {ft, fuel / 2, NULL};
    AstFunc *f = make_func(g, ft, fn_body, &fc, "a", NULL);
    if (saved) memcpy(g->scope.items, outer, saved * sizeof *outer);
    g->scope.len = saved;
    free(outer);
    ast_module_add(g->m, ast_new_fn_def(g->m, name, f));
    VEC_PUSH(g->helpers, ((GenHelper){name, ft, GEN_GLOBAL}));
  }
  AstExpr *args[GEN_HELPER_MAX_PARAMS];
  for (size_t i = 0; i < np; i++) args[i] = gen_atom(g, p[i], fuel / (unsigned)(2 * np));
  return bind_graph(g, ast_new_call(g->m, ast_new_atom(g->m, AST_GLOBAL, name), args, np, NULL, 0), t, NULL);
}

/* A counted loop: @loopK(%n: int32, %acc: t) -> t, recursing until %n reaches 0. */
typedef struct LoopCtx {
  const Type *t;
  const char *self;
  unsigned fuel;
  FnCtx fn;
} LoopCtx;

static AstExpr *loop_step(Gen *g, void *ctx) {
  LoopCtx *c = ctx;
  const char *n = c->fn.params[0];
  const Type *i32 = ty_scalar(g->types, dt_int32);
  AstExpr *args[2] = {ast_new_atom(g->m, AST_LOCAL, n), ast_new_atom(g->m, AST_INT, "1")};
  AstExpr *next = bind_graph(g, ast_new_call(g->m, ast_new_atom(g->m, AST_NAME, "subtract"), args, 2, NULL, 0), i32,
                                 op_lookup("subtract"));
  AstExpr *acc = gen_atom(g, c->t, c->fuel);
  AstExpr *rec_args[2] = {next, acc};
  return ast_new_call(g->m, ast_new_atom(g->m, AST_GLOBAL, c->self), rec_args, 2, NULL, 0);
}

static AstExpr *loop_done(Gen *g, void *ctx) {
  LoopCtx *c = ctx;
  return ast_new_atom(g->m, AST_LOCAL, c->fn.params[1]);
}

static AstExpr *loop_body(Gen *g, void *ctx) {
  LoopCtx *c = ctx;
  const Type *i32 = ty_scalar(g->types, dt_int32);
  AstExpr *args[2] = {ast_new_atom(g->m, AST_LOCAL, c->fn.params[0]), ast_new_atom(g->m, AST_INT, "0")};
  (void)i32;
  AstExpr *stop = bind_graph(g, ast_new_call(g->m, ast_new_atom(g->m, AST_NAME, "less_equal"), args, 2, NULL, 0),
                                 ty_scalar(g->types, dt_bool), op_lookup("less_equal"));
  return ast_new_if(g->m, stop, in_block(g, loop_done, c), in_block(g, loop_step, c));
}

static AstExpr *gen_recursion(Gen *g, const Type *t, unsigned fuel) {
  const Type *i32 = ty_scalar(g->types, dt_int32);
  const Type *params[2] = {i32, t};
  const Type *ft = ty_func(g->types, params, 2, t, NULL, 0);
  const char *name = arena_printf(&g->m->arena, "loop%u", g->next_global++);
  VEC_PUSH(g->helpers, ((GenHelper){name, ft, GEN_RECURSION}));
  size_t saved = g->scope.len;
  GenVar *outer = xmalloc((saved ? saved : 1) * sizeof *outer);
  if (saved) memcpy(outer, g->scope.items, saved * sizeof *outer); /* memcpy from NULL is undefined even for 0 bytes */
  g->scope.len = 0;
  LoopCtx lc = {t, name, fuel / 2, {ft, 0, NULL}};
  AstFunc *f = make_func(g, ft, loop_body, &lc, "a", &lc.fn.params);
  if (saved) memcpy(g->scope.items, outer, saved * sizeof *outer);
  g->scope.len = saved;
  free(outer);
  ast_module_add(g->m, ast_new_fn_def(g->m, name, f));
  char count[8];
  snprintf(count, sizeof count, "%d", (int)rng_range(&g->rng, 1, 3));
  AstExpr *args[2] = {ast_new_atom(g->m, AST_INT, count), gen_atom(g, t, fuel / 2)};
  return bind_graph(g, ast_new_call(g->m, ast_new_atom(g->m, AST_GLOBAL, name), args, 2, NULL, 0), t, NULL);
}

/* The identity at every type: def @identity[A](%x: A) -> A { %x }. */
static AstExpr *gen_poly(Gen *g, const Type *t, unsigned fuel) {
  const char *name = NULL;
  for (size_t i = 0; i < g->helpers.len; i++)
    if (g->helpers.items[i].kind == GEN_POLY) name = g->helpers.items[i].name;
  if (!name) {
    name = "identity";
    const char *a = "A";
    AstType *ta = ast_new_type(g->m, AST_TY_NAME, "A", NULL, 0);
    AstBinder *x = ast_new_binder(g->m, "x", ta);
    AstFunc *f = ast_new_func(g->m, &a, 1, &x, 1, ast_new_type(g->m, AST_TY_NAME, "A", NULL, 0),
                              ast_new_atom(g->m, AST_LOCAL, "x"));
    ast_module_add(g->m, ast_new_fn_def(g->m, name, f));
    VEC_PUSH(g->helpers, ((GenHelper){name, NULL, GEN_POLY}));
  }
  AstExpr *arg = gen_atom(g, t, fuel);
  return bind_graph(g, ast_new_call(g->m, ast_new_atom(g->m, AST_GLOBAL, name), &arg, 1, NULL, 0), t, NULL);
}

/* type GList[A] { GCons(A, GList[A]), GNil } */
static void define_adt(Gen *g) {
  if (g->adt_defined) return;
  g->adt_defined = true;
  const char *a = "A";
  AstType *ta = ast_new_type(g->m, AST_TY_NAME, "A", NULL, 0);
  AstType *list = ast_new_type(g->m, AST_TY_CALL, adt_name, &ta, 1);
  AstType *fields[2] = {ta, list};
  AstCtorDef *ctors[2] = {ast_new_ctor(g->m, adt_cons, fields, 2), ast_new_ctor(g->m, adt_nil, NULL, 0)};
  AstModule *m = g->m;
  AstDef *d = ast_new_type_def(m, adt_name, &a, 1, ctors, 2);
  ast_module_add(m, d);
  /* ahead of every function: TVM's parser knows a constructor only after its type's definition
     ("operator `GCons` not found" when rmutate's generator added it after @main) */
  size_t at = 0;
  while (at + 1 < m->ndefs && m->defs[at]->kind != AST_DEF_FN) at++;
  memmove(&m->defs[at + 1], &m->defs[at], (m->ndefs - 1 - at) * sizeof *m->defs);
  m->defs[at] = d;
}

typedef struct ArmCtx {
  const Type *t;
  unsigned fuel;
  const char *head;
} ArmCtx;

static AstExpr *arm_head(Gen *g, void *ctx) { return ast_new_atom(g->m, AST_LOCAL, ((ArmCtx *)ctx)->head); }
static AstExpr *arm_default(Gen *g, void *ctx) {
  ArmCtx *c = ctx;
  return gen_expr(g, c->t, c->fuel);
}

/* match ((v, w)) { (%h, _) => { %h } }: a tuple pattern, exhaustive with a variable and a wildcard. */
static AstExpr *gen_tuple_match(Gen *g, const Type *t, unsigned fuel) {
  const Type *other = gen_random_type(g);
  AstExpr *items[2] = {gen_atom(g, t, fuel / 2), gen_atom(g, other, fuel / 2)};
  const char *head = fresh_local(g, "h");
  AstPattern *hv = ast_new_pattern(g->m, AST_PAT_VAR, head, NULL, 0);
  AstPattern *fields[2] = {hv, ast_new_pattern(g->m, AST_PAT_WILDCARD, NULL, NULL, 0)};
  ArmCtx ac = {t, 0, head};
  size_t mark = g->scope.len;
  push_var(g, head, t, NULL);
  AstExpr *body = ast_new_unary(g->m, AST_BLOCK, in_block(g, arm_head, &ac));
  g->scope.len = mark;
  AstMatchArm *arm = ast_new_arm(g->m, ast_new_pattern(g->m, AST_PAT_TUPLE, NULL, fields, 2), body);
  AstExpr *m = ast_new_match(g->m, false, ast_new_tuple(g->m, items, 2), &arm, 1);
  return bind_let(g, ast_new_unary(g->m, AST_PAREN, m), t, NULL);
}

/* GCons(v, GNil) taken apart again by an exhaustive match. */
static AstExpr *gen_adt(Gen *g, const Type *t, unsigned fuel) {
  if (rng_chance(&g->rng, 1, 3)) return gen_tuple_match(g, t, fuel);
  define_adt(g);
  const Type *lt = ty_call(g->types, adt_name, &t, 1);
  AstExpr *args[2] = {gen_atom(g, t, fuel / 2), ast_new_atom(g->m, AST_NAME, adt_nil)};
  AstExpr *list = bind_graph(g, ast_new_call(g->m, ast_new_atom(g->m, AST_NAME, adt_cons), args, 2, NULL, 0), lt, NULL);
  const char *head = fresh_local(g, "h");
  AstPattern *hv = ast_new_pattern(g->m, AST_PAT_VAR, head, NULL, 0);
  hv->type = ty_to_ast(g->m, t);
  AstPattern *items[2] = {hv, ast_new_pattern(g->m, AST_PAT_WILDCARD, NULL, NULL, 0)};
  ArmCtx ac = {t, fuel / 3, head};
  size_t mark = g->scope.len;
  push_var(g, head, t, NULL);
  AstExpr *b1 = ast_new_unary(g->m, AST_BLOCK, in_block(g, arm_head, &ac));
  g->scope.len = mark;
  AstExpr *b2 = ast_new_unary(g->m, AST_BLOCK, in_block(g, arm_default, &ac));
  AstMatchArm *arms[2] = {ast_new_arm(g->m, ast_new_pattern(g->m, AST_PAT_CTOR, adt_cons, items, 2), b1),
                          ast_new_arm(g->m, ast_new_pattern(g->m, AST_PAT_CTOR, adt_nil, NULL, 0), b2)};
  /* TVM reads `match` as a let value only in parentheses (spec §3.3). */
  AstExpr *m = ast_new_unary(g->m, AST_PAREN, ast_new_match(g->m, false, list, arms, 2));
  return bind_let(g, m, t, NULL);
}

/* let %r = ref(v); let %w = ref_write(%r, v2); %N = ref_read(%r) */
static AstExpr *gen_ref(Gen *g, const Type *t, unsigned fuel) {
  AstExpr *r = bind_let(g, ast_new_unary(g->m, AST_REF, gen_atom(g, t, fuel / 2)), ty_ref(g->types, t), NULL);
  bind_let(g, ast_new_ref_write(g->m, r, gen_atom(g, t, fuel / 2)), ty_unit(g->types), NULL);
  return bind_graph(g, ast_new_unary(g->m, AST_REF_READ, r), t, NULL);
}

/* The dynamic detour (dynamic.c): shape_of, dyn.reshape / dyn.broadcast_to, maybe an op on the
   `?`-shaped value, and the broadcast that gives t back. */
static AstExpr *gen_dynamic(Gen *g, const Type *t, unsigned fuel) {
  GenDetour d;
  if (!gen_dynamic_plan(g, t, &d)) return NULL;
  unsigned share = fuel / 3;
  AstExpr *shape = bind_graph(g, gen_plan_call(g, d.shape_of, &d.shape, NULL, share), d.shape.result, d.shape_of);
  AstExpr *given[2] = {NULL, shape};
  AstExpr *dyn = bind_graph(g, gen_plan_call(g, d.dyn_op, &d.dyn, given, share), d.any, d.dyn_op);
  if (d.on_dyn) dyn = bind_graph(g, gen_plan_call(g, d.on_dyn, &d.on_dyn_plan, &dyn, 0), d.any, d.on_dyn);
  given[0] = given[1] = NULL;
  given[d.dyn_at] = dyn;
  return bind_graph(g, gen_plan_call(g, d.combine_op, &d.combine, given, share), t, d.combine_op);
}

/* ------------------------------------------------------------------ the choice */

AstExpr *gen_expr(Gen *g, const Type *t, unsigned fuel) {
  if (fuel == 0) return gen_smallest(g, t);
  unsigned w[GEN_NCONSTRUCTS];
  memcpy(w, g->policy->weights, sizeof w);
  if (t->kind != TY_TENSOR) {
    /* functions, refs, ADTs: base cases and reuse only; tuples: build one */
    if (t->kind == TY_TUPLE) return gen_tuple(g, t, fuel);
    const GenVar *v = find_var(g, t, true);
    return v ? var_ref(g, v) : gen_smallest(g, t);
  }
  if (!find_var(g, t, false)) w[GEN_REUSE] = 0;
  /* The counted loop calls less_equal and subtract: only where the policy allows them. */
  if (!gen_policy_allows(g->policy, op_lookup("less_equal")) || !gen_policy_allows(g->policy, op_lookup("subtract")))
    w[GEN_RECURSION] = 0;
  unsigned total = 0;
  for (int i = 0; i < GEN_NCONSTRUCTS; i++) total += w[i];
  for (int attempt = 0; attempt < 4 && total > 0; attempt++) {
    int64_t r = rng_range(&g->rng, 0, (int64_t)total - 1);
    int c = 0;
    while (r >= (int64_t)w[c]) r -= w[c++];
    AstExpr *e = NULL;
    switch ((GenConstruct)c) {
    case GEN_OP: e = gen_op(g, t, fuel); break;
    case GEN_REUSE: {
      const GenVar *v = find_var(g, t, true);
      e = v ? var_ref(g, v) : NULL;
      break;
    }
    case GEN_LET: {
      AstExpr *v = gen_expr(g, t, fuel - 1);
      e = bind_let(g, v, t, producer_of(g, v));
      break;
    }
    case GEN_IF: e = gen_if(g, t, fuel - 1); break;
    case GEN_TUPLE: e = gen_tuple(g, t, fuel - 1); break;
    case GEN_CLOSURE: e = gen_closure(g, t, fuel - 1); break;
    case GEN_GLOBAL: e = gen_global_call(g, t, fuel - 1); break;
    case GEN_RECURSION: e = gen_recursion(g, t, fuel - 1); break;
    case GEN_POLY: e = gen_poly(g, t, fuel - 1); break;
    case GEN_ADT: e = gen_adt(g, t, fuel - 1); break;
    case GEN_REF: e = gen_ref(g, t, fuel - 1); break;
    case GEN_DYNAMIC: e = gen_dynamic(g, t, fuel - 1); break;
    case GEN_SIDE_OP:
      gen_side_op(g, fuel / 4);
      e = gen_expr(g, t, fuel - 1);
      break;
    default: break;
    }
    if (e) return e;
  }
  return gen_smallest(g, t);
}

/* ------------------------------------------------------------------ modules */

/* A type with no unknowns and no type variables: something a program can be generated for. */
/* Why the generator cannot make a value of type t, or NULL when it can: it builds tensors of
   known sizes, tuples, functions and references, not ADT values (no constructors in its module)
   and not `?` sizes (a value has sizes; TVM only leaves them unknown in types). */
static const char *not_generable(const Type *t) {
  if (t->kind == TY_INCOMPLETE || t->kind == TY_VAR) return "the type must be concrete";
  if (t->kind == TY_CALL) return "the generator makes no values of ADT types (List, Option, Storage, ...)";
  for (uint32_t i = 0; t->kind == TY_TENSOR && i < t->ndims; i++)
    if (t->dims[i] < 0) return "a generated value has known sizes: give each `?` dimension a size";
  for (uint32_t i = 0; i < t->nargs; i++)
    if (not_generable(t->args[i])) return not_generable(t->args[i]);
  return t->ret ? not_generable(t->ret) : NULL;
}

/* "not a type: TEXT: why", TEXT cut short (a type nested past the parser's limit runs to kilobytes)
   and why the parser's own message ("nested too deeply (the limit is 2000 levels)"). */
static void not_a_type(const char *text, const char *diag, char *err, size_t errlen) {
  const char *why = diag ? strstr(diag, "error: ") : NULL;
  int whylen = why ? (int)strcspn(why += 7, "\n") : 0;
  int textlen = (int)strlen(text);
  snprintf(err, errlen, "not a type: %.*s%s%s%.*s", textlen > 80 ? 80 : textlen, text, textlen > 80 ? "..." : "",
           why ? ": " : "", whylen, why ? why : "");
}

/* The type @main returns, read by the parser as an annotation; NULL with err set when the text is
   not a type the generator can make a value of. */
static const Type *read_type(TyTable *types, const char *text, char *err, size_t errlen) {
  AstModule *tm = NULL;
  char *src = xmalloc(strlen(text) + 32);
  sprintf(src, "fn (%%a: %s) { %%a }", text);
  Diag d;
  diag_init(&d, "--type", src, strlen(src));
  tm = ast_parse(src, strlen(src), &d);
  const AstType *bad;
  const Type *ret = NULL;
  if (tm && tm->body && tm->body->kind == AST_FN && tm->body->fn->nparams == 1) {
    ret = ty_from_ast(types, tm->body->fn->params[0]->type, NULL, err, errlen, &bad);
  } else {
    not_a_type(text, d.out.data, err, errlen);
  }
  ast_free(tm);
  diag_free(&d);
  free(src);
  if (ret && not_generable(ret)) {
    snprintf(err, errlen, "--type %s: %s", text, not_generable(ret));
    ret = NULL;
  }
  return ret;
}

/* Whether a generated module type-checks with every type within the limits: checked on a copy,
   whose types live only as long as the check. */
static bool module_fits(const AstModule *m, const OpGenPolicy *limits) {
  AstModule *copy = ast_module_clone(m);
  TyTable *types = ty_table_new();
  Diag d;
  diag_init(&d, "generated", "", 0);
  bool ok = infer_module(copy, types, &d) && !gen_module_misfit(copy, limits);
  diag_free(&d);
  ty_table_free(types);
  ast_free(copy);
  return ok;
}

/* Attempts at one program before the last, which spends no fuel: a body of zeros(...) and literals
   of @main's type, which keeps any limits the type keeps. */
enum { GEN_ATTEMPTS = 8 };

/* Attempt `attempt` at program `index` of a run: attempt 0 is the program of (seed, index); a
   program with a type beyond the limits is made again from another stream of the same pair. */
static AstModule *attempt_module(const GenPolicy *policy, GenHistory *history, uint64_t seed, uint64_t index,
                                 unsigned attempt, const char *ret_type_text, GenCallHook hook,
                                 void *hook_ctx, char *err, size_t errlen, bool *fits) {
  AstModule *m = ast_module_new(true);
  TyTable *types = ty_table_new();
  Gen g;
  gen_init(&g, policy, m, types, rng_seed(attempt ? seed ^ (0x9e3779b97f4a7c15ULL * attempt) : seed, index));
  g.hook = hook;
  g.hook_ctx = hook_ctx;
  g.history = history;
  const Type *ret = ret_type_text ? read_type(types, ret_type_text, err, errlen) : gen_random_type(&g);
  if (!ret) {
    gen_free(&g);
    ty_table_free(types);
    ast_free(m);
    return NULL;
  }
  gen_limits_widen(&g.limits, ret); /* --type asks for what it asks for */
  size_t nparams = (size_t)rng_range(&g.rng, 1, policy->main_params_max ? policy->main_params_max : 1);
  const Type *params[8];
  for (size_t i = 0; i < nparams && i < 8; i++) params[i] = gen_random_type(&g);
  const Type *ft = ty_func(types, params, nparams, ret, NULL, 0);
  ExprCtx body = {ret, attempt + 1 < GEN_ATTEMPTS ? policy->fuel : 0};
  AstFunc *f = make_func(&g, ft, expr_body, &body, "x", NULL);
  ast_module_add(m, ast_new_fn_def(m, "main", f));
  *fits = module_fits(m, &g.limits);
  gen_free(&g);
  ty_table_free(types);
  return m;
}

AstModule *gen_module(const GenPolicy *policy, uint64_t seed, uint64_t index, const char *ret_type_text,
                      GenCallHook hook, void *hook_ctx, char *err, size_t errlen) {
  return gen_module_in_run(policy, NULL, seed, index, ret_type_text, hook, hook_ctx, err, errlen);
}

AstModule *gen_module_in_run(const GenPolicy *policy, GenHistory *history, uint64_t seed, uint64_t index,
                             const char *ret_type_text, GenCallHook hook, void *hook_ctx, char *err,
                             size_t errlen) {
  for (unsigned attempt = 0;; attempt++) {
    bool fits = false;
    AstModule *m = attempt_module(policy, history, seed, index, attempt, ret_type_text, hook, hook_ctx, err,
                                  errlen, &fits);
    if (m && fits)
      gen_history_commit(history);
    else
      gen_history_discard(history);
    if (!m || fits) return m;
    ast_free(m);
    if (hook) hook(hook_ctx, NULL); /* the calls of a program made again do not count */
    if (attempt + 1 == GEN_ATTEMPTS) {
      snprintf(err, errlen, "program %llu: no program of this type keeps the type limits",
               (unsigned long long)index);
      return NULL;
    }
  }
}

/* Types a closure's parameters may have for gen_smallest's trivial closure: tensors and tuples. */
static bool closure_param_type(const Type *t) {
  if (t->kind == TY_TENSOR) return t->dtype.code != DT_VOID;
  if (t->kind != TY_TUPLE) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!closure_param_type(t->args[i])) return false;
  return true;
}

bool gen_smallest_is_exact(const Type *t, bool values_only) {
  switch (t->kind) {
  case TY_TENSOR:
    for (uint32_t i = 0; i < t->ndims; i++)
      if (t->dims[i] < 0) return false;
    return t->dtype.code != DT_VOID && t->dtype.lanes == 1;
  case TY_TUPLE:
    if (values_only && !t->nargs) return false;
    for (uint32_t i = 0; i < t->nargs; i++)
      if (!gen_smallest_is_exact(t->args[i], values_only)) return false;
    return true;
  case TY_FUNC:
    if (values_only || t->ntparams) return false;
    for (uint32_t i = 0; i < t->nargs; i++)
      if (!closure_param_type(t->args[i])) return false;
    return gen_smallest_is_exact(t->ret, values_only);
  default: return false;
  }
}

const Type *gen_var_type(const GenVars *scope, const char *name) {
  for (size_t k = scope->len; k > 0; k--)
    if (!strcmp(scope->items[k - 1].name, name)) return scope->items[k - 1].type;
  return NULL;
}
