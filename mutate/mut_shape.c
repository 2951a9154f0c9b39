/* Shape: change @main's input types and let the program follow by inference.  One choice: a size v
   occurring in the parameters' tensor types becomes 2v, v+1 or v/2 everywhere in them (data, weights
   and biases together, so matching dimensions stay matched), or every float32 input becomes float16
   (float16 ones float32 when there is no float32), or every size doubles or (when even) halves at
   once, which keeps sizes tied by arithmetic in ratio (an LSTM's 4 x 128 gates).  A size the program pins elsewhere (a reshape's
   newshape, a dense's units, a fused function's parameter types) changes there too when that
   type-checks, else in the inputs alone (@main's result annotation is dropped with the change).
   Each choice is tried on a copy (printed, re-parsed, re-typed) and refused when ill-typed or when
   it leaves an unknown `?` dimension the program did not have; after a few failed choices the
   program is left alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../program/program.h"
#include "mutate.h"

enum { MAX_TRIES = 6 };

static bool is_dtype(const AstType *t, const char *dtype) {
  return t && (t->kind == AST_TY_TENSOR || t->kind == AST_TY_NAME) && t->name && !strcmp(t->name, dtype);
}

static bool has_input(AstFunc *f, const char *dtype) {
  for (size_t k = 0; k < f->nparams; k++)
    if (is_dtype(f->params[k]->type, dtype)) return true;
  return false;
}

static size_t change_inputs(AstModule *m, AstFunc *f, const ProgSizes *sizes, size_t i, bool everywhere, char *what,
                            size_t len) {
  if (i < 3 * sizes->len) {
    long long v = sizes->items[i / 3], to = i % 3 == 0 ? 2 * v : i % 3 == 1 ? v + 1 : v / 2;
    if (to < 1 || to == v) return f->nparams;
    size_t first, elsewhere = 0;
    if (everywhere) elsewhere = prog_resize_everywhere(m, v, to, &first);
    else first = prog_resize_inputs(f, &m->arena, v, to);
    if (elsewhere) snprintf(what, len, "shape %lld -> %lld in @main's inputs and %zu other place%s", v, to, elsewhere, elsewhere == 1 ? "" : "s");
    else snprintf(what, len, "shape %lld -> %lld in @main's inputs", v, to);
    return first;
  }
  if (sizes->len && i < 3 * sizes->len + 2) { /* every size doubled, or every even one halved, at once */
    bool twice = i == 3 * sizes->len;
    size_t first;
    size_t elsewhere = prog_scale_everywhere(m, twice ? 2 : 1, twice ? 1 : 2, &first);
    snprintf(what, len, "shape %s in @main's inputs and %zu other place%s", twice ? "every size x2" : "every even size /2",
             elsewhere, elsewhere == 1 ? "" : "s");
    return first;
  }
  const char *from = has_input(f, "float32") ? "float32" : "float16";
  const char *to = from[5] == '3' ? "float16" : "float32";
  snprintf(what, len, "shape %s -> %s in @main's inputs", from, to);
  size_t first = f->nparams;
  for (size_t k = 0; k < f->nparams; k++)
    if (is_dtype(f->params[k]->type, from)) {
      f->params[k]->type->name = to;
      if (first == f->nparams) first = k;
    }
  return first;
}

/* Applies choice i to @main of m: i < 3 * sizes->len resizes one size (also where the program pins
   it, when `everywhere`), the next two scale every size, the last changes the dtype.  Returns the index of the first parameter changed
   (nparams when none was); `what` describes it.  @main's result annotation, which would pin the old
   result type, goes with any change: inference gives the new. */
static size_t change(AstModule *m, const ProgSizes *sizes, size_t i, bool everywhere, char *what, size_t len) {
  AstFunc *f = prog_main(m)->fn;
  size_t first = change_inputs(m, f, sizes, i, everywhere, what, len);
  if (first < f->nparams) f->ret = NULL;
  return first;
}

/* Whether choice i gives a well-typed program without new unknown dimensions (tried on a copy). */
static bool typed_with(const char *text, const ProgSizes *sizes, size_t i, bool everywhere, bool had_unknown) {
  Program trial, checked;
  char err[256], what[160];
  if (!prog_load(&trial, "candidate", text, true, err, sizeof err)) return false;
  AstFunc *f = prog_main(trial.m)->fn;
  bool changed = change(trial.m, sizes, i, everywhere, what, sizeof what) < f->nparams;
  bool ok = changed && prog_copy(&trial, &checked);
  prog_free(&trial);
  if (ok) {
    ok = had_unknown || !prog_has_unknown_dims(checked.m);
    prog_free(&checked);
  }
  return ok;
}

bool mut_shape(MutContext *c) {
  AstDef *main = prog_main(c->m);
  if (!main || main->fn->nparams == 0) return false;
  AstFunc *f = main->fn;
  ProgSizes sizes = {0};
  prog_input_sizes(f, 1, &sizes);
  size_t n = 3 * sizes.len + (sizes.len ? 2 : 0) + (has_input(f, "float32") || has_input(f, "float16"));
  bool ok = false;
  if (n > 0) {
    bool had_unknown = prog_has_unknown_dims(c->m);
    AstPrintOptions po = {.strip_types = true, .keep_spans = true};
    char *text = ast_print(c->m, &po);
    for (int tries = 0; tries < MAX_TRIES && !ok; tries++) {
      size_t i = rng_index(c->rng, n);
      /* only a single size has an inputs-alone variant; for the other choices it is the same test */
      bool everywhere = typed_with(text, &sizes, i, true, had_unknown);
      if (!everywhere && (i >= 3 * sizes.len || !typed_with(text, &sizes, i, false, had_unknown))) continue;
      char what[160];
      size_t first = change(c->m, &sizes, i, everywhere, what, sizeof what);
      AstBinder *b = f->params[first];
      mut_note(c, &b->node, &b->node, "%s (first %%%s) at %u:%u", what, b->name, b->node.span.line, b->node.span.col);
      ok = true;
    }
    free(text);
  }
  free(sizes.items);
  return ok;
}
