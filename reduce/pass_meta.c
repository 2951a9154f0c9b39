/*
 * Delete the metadata constants nothing references any more (other passes leave them behind when
 * they delete the calls using them; in real models they are most of the bytes).  The constants
 * kept are renumbered 0..n-1 in their old order, and so are their references; the node graph is
 * rewritten by meta_json.c.  When the program references no metadata at all, the section goes.
 * One candidate: the types of the program do not change.
 */
#include <stdlib.h>
#include <string.h>

#include "../typegen/infer/infer.h"
#include "../support/xalloc.h"
#include "meta_json.h"
#include "reduce.h"
#include "../program/program.h"

static const char prefix[] = "meta[relay.Constant][";

/* The constant references of a program (AST_META expressions). */
typedef VEC(AstExpr *) Refs;

static void collect(AstExpr **slot, void *ctx) {
  Refs *r = ctx;
  if ((*slot)->kind != AST_META || strncmp((*slot)->text, prefix, sizeof prefix - 1) != 0) return;
  VEC_PUSH(*r, *slot);
}

static size_t index_of(const AstExpr *e) { return (size_t)strtoul(e->text + sizeof prefix - 1, NULL, 10); }

static size_t occurrences(const char *s, size_t len, const char *what) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, what)) && p < s + len; p++) n++;
  return n;
}

/* What the pass can do on p. */
typedef enum Plan { PLAN_NONE, PLAN_DROP_SECTION, PLAN_DROP_CONSTANTS } Plan;

/* Fills r with p's constant references and used[0..nconsts) with the constants they name. */
static Plan plan(const Program *p, Refs *r, bool **used, size_t *nconsts) {
  AstModule *m = p->m; /* walked, not changed */
  *used = NULL;
  *nconsts = 0;
  if (!m->metadata) return PLAN_NONE;
  prog_walk_module(m, collect, r);
  /* The walk sees expressions only: a reference anywhere else (an attribute value, a string) and
     we leave the section alone rather than break it.  The printed program ends with the section. */
  char *text = prog_print(p, true);
  size_t len = strlen(text) - strlen(m->metadata);
  size_t in_text = occurrences(text, len, prefix), any_meta = occurrences(text, len, "meta[");
  free(text);
  if (in_text != r->len) return PLAN_NONE;
  if (any_meta == 0) return PLAN_DROP_SECTION;
  MetaTable t;
  char err[256];
  if (!meta_table_init(&t, m->metadata, err, sizeof err, NULL)) return PLAN_NONE;
  *nconsts = t.nconsts;
  meta_table_free(&t);
  *used = xcalloc(*nconsts + 1, sizeof **used);
  size_t nused = 0;
  for (size_t i = 0; i < r->len; i++) {
    size_t k = index_of(r->items[i]);
    if (k >= *nconsts) return PLAN_NONE; /* the checker rejects it anyway */
    nused += !(*used)[k];
    (*used)[k] = true;
  }
  return nused < *nconsts ? PLAN_DROP_CONSTANTS : PLAN_NONE;
}

static size_t count(const Program *p) {
  Refs r = {0};
  bool *used;
  size_t n;
  Plan what = plan(p, &r, &used, &n);
  free(r.items);
  free(used);
  return what != PLAN_NONE;
}

/* Keeps the used constants, renumbering the references; false (out untouched) if the section
   cannot be rewritten. */
static bool drop_constants(Program *out, const Refs *r, const bool *used, size_t nconsts) {
  size_t *keep = xcalloc(nconsts + 1, sizeof *keep), *renum = xcalloc(nconsts + 1, sizeof *renum), nkeep = 0;
  for (size_t k = 0; k < nconsts; k++)
    if (used[k]) renum[k] = nkeep, keep[nkeep++] = k;
  char err[256];
  char *section = meta_json_keep_constants(out->m->metadata, keep, nkeep, err, sizeof err);
  bool ok = section != NULL;
  if (ok) {
    AstModule *m = out->m;
    m->metadata = arena_strdup(&m->arena, section);
    for (size_t i = 0; i < r->len; i++)
      r->items[i]->text = arena_printf(&m->arena, "%s%zu]", prefix, renum[index_of(r->items[i])]);
    free(section);
  }
  free(keep);
  free(renum);
  return ok;
}

static bool apply(Program *out, size_t i) {
  (void)i;
  Refs r = {0};
  bool *used, ok = false;
  size_t nconsts;
  switch (plan(out, &r, &used, &nconsts)) {
  case PLAN_NONE: break;
  case PLAN_DROP_SECTION: {
    /* the checker may still want the section (it says so); the guard decides */
    out->m->metadata = NULL;
    ok = true;
    break;
  }
  case PLAN_DROP_CONSTANTS: ok = drop_constants(out, &r, used, nconsts); break;
  }
  free(r.items);
  free(used);
  return ok;
}

const RedPass red_pass_meta = {
    .name = "meta",
    .description = "delete the metadata constants nothing references (the section if none is)",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
