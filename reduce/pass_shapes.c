/*
 * Shrink the types of @main's inputs: every dimension of one size becomes 1, or half of it
 * (one candidate each, the largest size first: a 224 shared by data and weights shrinks in all of
 * them at once), non-float32 inputs become float32 (all at once, then one by one), and an input's
 * dimensions of size 1 go (rank toward the minimum).  The rest of
 * the program follows by inference, so operators re-derive their result types; the type checker
 * decides on a copy whether the operators still accept the new shapes (a convolution's kernel no
 * larger than its input, matching channels, ...), and only a well-typed program is proposed.
 * A size the program pins elsewhere (a closure parameter's annotation, `newshape=[-1, 1024, 4, 4]`,
 * `units=1000`) is first changed there too; when that does not type-check, in the inputs alone.
 * The last candidate halves every even size at once, for sizes tied by arithmetic (an LSTM's
 * 512-wide gates split into four of its 128-wide state).
 * The constants of a #[metadata] section pin the sizes they share with the program (a batch_norm's
 * 32-element constants keep its input at 32 channels), so they shrink with them: their sizes are
 * sizes to shrink too, and a size changes in every constant that has it (its data cut to the first
 * elements along that axis, meta_json.c), with the inputs, or alone when only constants have it.
 *
 * Unlike most passes this one asks the type checker itself (the driver's guard would check the
 * candidate anyway): which variant to propose depends on its verdict (everywhere, else the inputs
 * alone), and a shape that type-checks only by turning into `?` is no reduction.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "../typegen/infer/infer.h"
#include "meta_json.h"
#include "reduce.h"

static bool is_tensor(const AstType *t) { return t && t->kind == AST_TY_TENSOR; }

/* Only the inputs the body reads count (red_live_params): dce deletes the others, so a size or a
   dtype only they have is no opportunity.  A view of f with those parameters; free its params. */
static AstFunc live_view(const AstFunc *f) {
  AstFunc view = *f;
  view.params = red_live_params(f, &view.nparams);
  return view;
}

static int larger_first(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The input sizes (>= 2) of f and those of m's metadata constants, distinct, largest first. */
static void sizes_of(const AstModule *m, AstFunc *f, ProgSizes *s) {
  prog_input_sizes(f, 2, s);
  MetaTable t;
  char err[256];
  if (!m->metadata || !meta_table_init(&t, m->metadata, err, sizeof err, NULL)) return;
  for (size_t c = 0; c < t.nconsts; c++)
    for (size_t d = 0; d < t.consts[c].ndims; d++) {
      long long v = t.consts[c].dims[d];
      bool seen = v < 2;
      for (size_t k = 0; k < s->len && !seen; k++) seen = s->items[k] == v;
      if (!seen) VEC_PUSH(*s, v);
    }
  meta_table_free(&t);
  if (s->len) qsort(s->items, s->len, sizeof *s->items, larger_first);
}

/* Size from -> to in every constant of m's section that has it; how many changed. */
static size_t resize_constants(AstModule *m, long long from, long long to) {
  if (!m->metadata) return 0;
  size_t changed;
  char err[256];
  char *section = meta_json_resize_constants(m->metadata, from, to, &changed, err, sizeof err);
  if (section && changed) m->metadata = arena_strdup(&m->arena, section);
  free(section);
  return section ? changed : 0;
}

static bool non_f32(const AstType *t) { return is_tensor(t) && t->name[0] && strcmp(t->name, "float32") != 0; }

static size_t non_f32_params(AstFunc *f) {
  size_t n = 0;
  for (size_t i = 0; i < f->nparams; i++) n += non_f32(f->params[i]->type);
  return n;
}

/* Rank toward the minimum: a parameter's dimensions of size 1 can go (a 1x64x1x1 bias becomes
   64), when the operators using it still accept the lower rank (broadcasting ones do). */
static size_t unit_dims(const AstType *t) {
  size_t n = 0;
  for (size_t d = 0; is_tensor(t) && d < t->ndims; d++)
    n += t->dims[d].kind == AST_DIM_INT && !strcmp(t->dims[d].text, "1");
  return n;
}

static size_t squeezable_params(AstFunc *f) {
  size_t n = 0;
  for (size_t i = 0; i < f->nparams; i++) n += unit_dims(f->params[i]->type) > 0;
  return n;
}

static void squeeze(AstType *t) {
  size_t k = 0;
  for (size_t d = 0; d < t->ndims; d++)
    if (!(t->dims[d].kind == AST_DIM_INT && !strcmp(t->dims[d].text, "1"))) t->dims[k++] = t->dims[d];
  t->ndims = k;
  if (!k) t->kind = AST_TY_NAME; /* a scalar is written as its dtype, as TVM prints it */
}

/* Adopts trial when it type-checks without a `?` dimension the program did not have (an
   impossible shape, such as a kernel larger than its input).  Consumes trial. */
static bool adopt_if_shapes_known(Program *out, Program *trial) {
  bool had_unknown = prog_has_unknown_dims(out->m);
  Program checked;
  bool typed = prog_copy(trial, &checked);
  prog_free(trial);
  if (!typed) return false;
  if (!had_unknown && prog_has_unknown_dims(checked.m)) {
    prog_free(&checked);
    return false;
  }
  prog_free(out);
  *out = checked;
  return true;
}

/* Size from -> to everywhere the program states it, the constants included; when that does not
   type-check (an axis or a stride that happened to equal the size), in @main's inputs and the
   constants, then in the inputs alone.  `from` is an input's or a constant's size.  Consumes trial
   (a copy of out); out is untouched unless a variant is adopted. */
static bool resize(Program *out, Program *trial, long long from, long long to) {
  size_t elsewhere = prog_resize_everywhere(trial->m, from, to, NULL);
  size_t constants = resize_constants(trial->m, from, to);
  if (adopt_if_shapes_known(out, trial)) return true;
  if (!elsewhere && !constants) return false; /* the inputs-only program is the one just refused */
  if (elsewhere && constants) {
    Program tied;
    prog_clone(out, &tied);
    prog_resize_inputs(prog_main(tied.m)->fn, &tied.m->arena, from, to);
    resize_constants(tied.m, from, to);
    if (adopt_if_shapes_known(out, &tied)) return true;
  }
  Program inputs_only;
  prog_clone(out, &inputs_only);
  prog_resize_inputs(prog_main(inputs_only.m)->fn, &inputs_only.m->arena, from, to);
  return adopt_if_shapes_known(out, &inputs_only);
}

static size_t count(const Program *p) {
  AstDef *main = prog_main(p->m);
  if (!main) return 0;
  AstFunc live = live_view(main->fn);
  ProgSizes s = {0};
  sizes_of(p->m, &live, &s);
  size_t n = 2 * s.len, f = non_f32_params(&live), squeezable = squeezable_params(&live);
  free(s.items);
  free(live.params);
  /* the last candidate halves every even size at once */
  return n + (f ? 1 + f : 0) + squeezable + (n > 0);
}

/* Candidate i on trial (a clone of out) for the inputs `f` lists (the live ones); consumes trial. */
static bool propose(Program *out, Program *trial, AstFunc *f, size_t i) {
  ProgSizes s = {0};
  sizes_of(trial->m, f, &s);
  size_t nf32 = non_f32_params(f) ? 1 + non_f32_params(f) : 0;
  bool changed = false;
  if (i < 2 * s.len) {
    long long from = s.items[i / 2], to = i % 2 == 0 ? 1 : from / 2;
    free(s.items);
    if (to == from || (i % 2 == 1 && to <= 1)) {
      prog_free(trial);
      return false;
    }
    return resize(out, trial, from, to);
  }
  size_t rest = i - 2 * s.len;
  free(s.items);
  if (rest == nf32 + squeezable_params(f)) {
    size_t first, nparams = prog_main(trial->m)->fn->nparams;
    prog_scale_everywhere(trial->m, 1, 2, &first);
    if (first == nparams) {
      prog_free(trial);
      return false;
    }
    return adopt_if_shapes_known(out, trial);
  } else if (rest >= nf32) {
    size_t which = rest - nf32; /* the which-th squeezable */
    for (size_t k = 0, seen = 0; k < f->nparams && !changed; k++)
      if (unit_dims(f->params[k]->type) && seen++ == which) {
        squeeze(f->params[k]->type);
        changed = true;
      }
  } else {
    size_t which = rest; /* 0: every input; k: the k-th non-float32 input */
    for (size_t k = 0, seen = 0; k < f->nparams; k++) {
      if (!non_f32(f->params[k]->type)) continue;
      if (which == 0 || ++seen == which) {
        f->params[k]->type->name = "float32";
        changed = true;
      }
    }
  }
  if (!changed) {
    prog_free(trial);
    return false;
  }
  return adopt_if_shapes_known(out, trial);
}

static bool apply(Program *out, size_t i) {
  Program trial;
  prog_clone(out, &trial);
  AstFunc live = live_view(prog_main(trial.m)->fn);
  bool adopted = propose(out, &trial, &live, i);
  free(live.params);
  return adopted;
}

const RedPass red_pass_shapes = {
    .name = "shapes",
    .description = "shrink @main's input shapes (a size to 1 or half, every even size halved, unit dims dropped) and dtypes (to float32)",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
