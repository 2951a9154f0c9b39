/*
 * Constants of the #[metadata] section become parameters of @main: a model saved with its weights
 * bound (relaykit.save of `mod, params`, bind_params_by_name) carries them as
 * meta[relay.Constant][i], whose shapes pin the program's (a batch_norm's four 32-element constants
 * keep its input at 32 channels), and whose data is most of the file.  As parameters they shrink
 * with the inputs (pass shapes), and pass meta then deletes the constants nothing references, the
 * whole section when none is left.  A test that needs a constant (a bug in constant folding)
 * refuses the candidate, and pass shapes shrinks the constant itself instead.
 *
 * One opportunity per constant @main reads (outside fused functions, which must stay closed: a
 * parameter of @main is not in their scope), in index order; every read of it becomes a read of
 * its parameter.  Constants are independent, so the driver tries them in chunks (all first).
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "reduce.h"

static const char prefix[] = "meta[relay.Constant][";

static bool is_constant(const AstExpr *e) {
  return e->kind == AST_META && !strncmp(e->text, prefix, sizeof prefix - 1) && e->node.type &&
         e->node.type->kind == TY_TENSOR && ty_is_readable(e->node.type);
}

static size_t index_of(const AstExpr *e) { return (size_t)strtoul(e->text + sizeof prefix - 1, NULL, 10); }

/* The constants @main reads where a parameter of @main is in scope, ascending. */
typedef VEC(size_t) Indices;

static bool visit(const ScopedSite *site, void *ctx) {
  Indices *ix = ctx;
  const AstExpr *e = *site->slot;
  if (!site->in_main || !is_constant(e)) return false;
  size_t k = index_of(e), at = 0;
  while (at < ix->len && ix->items[at] < k) at++;
  if (at < ix->len && ix->items[at] == k) return false;
  VEC_PUSH(*ix, 0);
  memmove(&ix->items[at + 1], &ix->items[at], (ix->len - at - 1) * sizeof *ix->items);
  ix->items[at] = k;
  return false;
}

static void constants(AstModule *m, Indices *ix) { prog_scoped_walk(m, visit, ix); }

static size_t count(const Program *p) {
  Indices ix = {0};
  constants(p->m, &ix);
  free(ix.items);
  return ix.len;
}

typedef struct Replace {
  size_t k;
  AstModule *m;
  const char *name; /* the parameter, made at the first read */
  const Type *type;
} Replace;

static bool replace(const ScopedSite *site, void *ctx) {
  Replace *r = ctx;
  AstExpr *e = *site->slot;
  if (!site->in_main || !is_constant(e) || index_of(e) != r->k) return false;
  if (!r->name) {
    r->name = prog_fresh_name(r->m, "const");
    r->type = e->node.type;
  }
  *site->slot = ast_new_atom(r->m, AST_LOCAL, r->name);
  return false;
}

static bool apply(Program *out, size_t i) {
  Indices ix = {0};
  constants(out->m, &ix);
  bool ok = i < ix.len;
  if (ok) {
    Replace r = {ix.items[i], out->m, NULL, NULL};
    prog_scoped_walk(out->m, replace, &r);
    AstFunc *f = prog_main(out->m)->fn;
    AstBinder **params = arena_alloc(&out->m->arena, (f->nparams + 1) * sizeof *params);
    if (f->nparams) memcpy(params, f->params, f->nparams * sizeof *params);
    params[f->nparams] = ast_new_binder(out->m, r.name, ty_to_ast(out->m, r.type));
    f->params = params;
    f->nparams++;
  }
  free(ix.items);
  return ok;
}

const RedPass red_pass_consts = {
    .name = "consts",
    .description = "turn a #[metadata] constant @main reads into a new parameter of @main",
    .count = count,
    .apply = apply,
    .search = RED_CHUNKS,
};
