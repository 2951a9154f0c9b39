/* The campaign directory: campaign.json holds everything a resumed run needs (saved after every
   round, atomically: a kill at any moment leaves the last round's state or the one before),
   pool/ the programs that showed something new, groups/<id>/ each failure group's first program
   and its reduction, index.md the human summary. */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/fileio.h"
#include "../typegen/ops/ops.h"
#include "campaign.h"

void campaign_init(Campaign *c, const char *dir) {
  memset(c, 0, sizeof *c);
  c->dir = xstrdup(dir);
  c->seed = 1;
  c->shard = c->nshards = 1;
  strset_init(&c->seen);
}

static void group_free(FuzzGroup *g) {
  free(g->frame);
  free(g->reduced_key);
  free(g->key);
  free(g->signature);
  free(g->rule);
  free(g->tvm_verdicts);
  free(g->step);
  free(g->match);
  free(g->args);
  free(g->status);
}

void campaign_free(Campaign *c) {
  for (size_t i = 0; i < c->pool.len; i++) {
    free(c->pool.items[i].file);
    free(c->pool.items[i].passes);
  }
  free(c->pool.items);
  for (size_t i = 0; i < c->groups.len; i++) group_free(&c->groups.items[i]);
  free(c->groups.items);
  for (size_t i = 0; i < c->known_met.len; i++) free(c->known_met.items[i].id);
  free(c->known_met.items);
  strset_free(&c->seen);
  fuzz_edges_free(&c->edges);
  free(c->oracle);
  free(c->dir);
}

char *campaign_path(const Campaign *c, const char *fmt, ...) {
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%s/", c->dir);
  va_list ap;
  va_start(ap, fmt);
  char tail[4096];
  vsnprintf(tail, sizeof tail, fmt, ap);
  va_end(ap);
  sb_puts(&sb, tail);
  return sb_take(&sb);
}

static void add_seen(void *ctx, const char *key) {
  size_t *added = ((void **)ctx)[1];
  if (strset_add(((void **)ctx)[0], key)) (*added)++;
}

size_t campaign_note_features(Campaign *c, const AstModule *m, bool typed, const char *passes) {
  size_t added = 0;
  void *ctx[2] = {&c->seen, &added};
  if (m) fuzz_features(m, typed, add_seen, ctx);
  fuzz_pass_features(passes, add_seen, ctx);
  return added;
}

typedef struct CountCtx {
  const StrSet *seen;
  StrSet fresh; /* counted once each */
} CountCtx;

static void count_new(void *ctx, const char *key) {
  CountCtx *cc = ctx;
  if (!strset_contains(cc->seen, key)) strset_add(&cc->fresh, key);
}

size_t campaign_count_new_features(const Campaign *c, const AstModule *m, bool typed, const char *passes) {
  CountCtx cc = {&c->seen, {0}};
  strset_init(&cc.fresh);
  if (m) fuzz_features(m, typed, count_new, &cc);
  fuzz_pass_features(passes, count_new, &cc);
  size_t n = cc.fresh.len;
  strset_free(&cc.fresh);
  return n;
}

FuzzGroup *campaign_group(Campaign *c, const char *key) {
  for (size_t i = 0; i < c->groups.len; i++)
    if (!strcmp(c->groups.items[i].key, key)) return &c->groups.items[i];
  return NULL;
}

FuzzGroup *campaign_group_by_id(Campaign *c, unsigned id) {
  for (size_t i = 0; i < c->groups.len; i++)
    if (c->groups.items[i].id == id) return &c->groups.items[i];
  abort(); /* ids come from the campaign itself */
}

void campaign_remove_stale_temps(const Campaign *c) {
  char *dir = campaign_path(c, "pool");
  file_remove_stale_temps(c->dir, NULL);
  file_remove_stale_temps(dir, NULL);
  free(dir);
  for (size_t i = 0; i < c->groups.len; i++) {
    dir = campaign_path(c, "groups/%03u", c->groups.items[i].id);
    file_remove_stale_temps(dir, NULL);
    free(dir);
  }
}

/* ------------------------------------------------------------------ JSON */

static char *index_markdown(const Campaign *c);

static json_t *jstr(const char *s) { return s ? json_string(s) : json_null(); }
static char *sdup(json_t *j) { return json_is_string(j) ? xstrdup(json_string_value(j)) : NULL; }
static unsigned long num(json_t *o, const char *key) {
  json_t *j = json_object_get(o, key);
  return json_is_integer(j) && json_integer_value(j) > 0 ? (unsigned long)json_integer_value(j) : 0;
}

#define COUNTS(X)                                                                                      \
  X(programs) X(passed) X(failed) X(known) X(oracle_errors) X(timeouts) X(ill_rejected) X(ill_accepted) \
  X(generated) X(mutated) X(pool_adds) X(bugs) X(limitations) X(rejected) X(pass_rounds) X(pass_gains) \
  X(diff_rounds) X(diff_compared) X(diff_wrong)

void fuzz_counts_add(FuzzCounts *to, const FuzzCounts *from) {
#define ADD(f) to->f += from->f;
  COUNTS(ADD)
#undef ADD
}

static json_t *counts_json(const FuzzCounts *n) {
  json_t *o = json_object();
#define PUT(f) json_object_set_new(o, #f, json_integer((json_int_t)n->f));
  COUNTS(PUT)
#undef PUT
  return o;
}

static json_t *group_json(const FuzzGroup *g) {
  json_t *j = json_pack("{s:I, s:o, s:o, s:o, s:o, s:I, s:I, s:f, s:I, s:I, s:o}", "id", (json_int_t)g->id, "key",
                        jstr(g->key), "signature", jstr(g->signature), "match", jstr(g->match), "args", jstr(g->args),
                        "count", (json_int_t)g->count, "first_program", (json_int_t)g->first_program, "first_seconds",
                        g->first_seconds, "first_bytes", (json_int_t)g->first_bytes, "reduced_bytes",
                        (json_int_t)g->reduced_bytes, "status", jstr(g->status));
  json_object_set_new(j, "class", json_string(fail_class_names[g->cls]));
  if (g->rule) json_object_set_new(j, "rule", json_string(g->rule));
  if (g->tvm_verdicts) json_object_set_new(j, "tvm_verdicts", json_string(g->tvm_verdicts));
  if (g->step) json_object_set_new(j, "step", json_string(g->step));
  if (g->reduced_key) json_object_set_new(j, "reduced_key", json_string(g->reduced_key));
  if (g->frame) json_object_set_new(j, "frame", json_string(g->frame));
  if (g->merged_into) json_object_set_new(j, "merged_into", json_integer((json_int_t)g->merged_into));
  return j;
}

/* A class by its name in campaign.json ("bug" for a campaign made before classes). */
static FailClass class_named(json_t *j) {
  for (int k = 0; k < FAIL_NCLASSES; k++)
    if (json_is_string(j) && !strcmp(json_string_value(j), fail_class_names[k])) return (FailClass)k;
  return FAIL_BUG;
}

/* Every coverage.NNNNNN.edges file of the campaign but `keep`. */
static void remove_old_edges(const Campaign *c, const char *keep) {
  DIR *d = opendir(c->dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (strncmp(e->d_name, "coverage.", 9) || n < 15 || strcmp(e->d_name + n - 6, ".edges") || !strcmp(e->d_name, keep))
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->dir, e->d_name);
    unlink(path);
  }
  closedir(d);
}

bool campaign_save(const Campaign *c, char *err, size_t errlen) {
  json_t *pool = json_array(), *groups = json_array();
  for (size_t i = 0; i < c->pool.len; i++) {
    json_t *e = json_pack("{s:s, s:s}", "file", c->pool.items[i].file, "passes", c->pool.items[i].passes);
    if (c->feedback == FB_COVERAGE || c->feedback == FB_BOTH)
      json_object_set_new(e, "tries", json_integer((json_int_t)c->pool.items[i].tries));
    json_array_append_new(pool, e);
  }
  for (size_t i = 0; i < c->groups.len; i++) json_array_append_new(groups, group_json(&c->groups.items[i]));
  json_t *root = json_pack("{s:i, s:I, s:I, s:I, s:o, s:I, s:f, s:o, s:o, s:o}", "version", 1, "seed",
                           (json_int_t)c->seed, "shard", (json_int_t)c->shard, "shards", (json_int_t)c->nshards,
                           "oracle", jstr(c->oracle), "round", (json_int_t)c->round, "seconds", c->seconds,
                           "counts", counts_json(&c->n), "pool", pool, "groups", groups);
  json_object_set_new(root, "tvm_version", json_string(op_tvm_name()));
  if (c->known_met.len) {
    json_t *met = json_array();
    for (size_t i = 0; i < c->known_met.len; i++) {
      const FuzzKnownMet *k = &c->known_met.items[i];
      json_array_append_new(met, json_pack("{s:o, s:f, s:f, s:I, s:I}", "id", jstr(k->id), "first_seconds",
                                           k->first_seconds, "first_minute", k->first_seconds / 60, "first_program",
                                           (json_int_t)k->first_program, "count", (json_int_t)k->count));
    }
    json_object_set_new(root, "known_met", met);
  }
  if (c->feedback != FB_AUTO) json_object_set_new(root, "feedback", json_string(fuzz_feedback_names[c->feedback]));
  bool covered = c->feedback == FB_COVERAGE || c->feedback == FB_BOTH;
  /* The edges go to a file of this round's own, named in campaign.json, written first: whenever a
     kill comes, campaign.json names edges that match it (a resumed campaign has exactly the
     coverage it had); the previous round's file goes once campaign.json no longer names it. */
  char edges_name[64];
  snprintf(edges_name, sizeof edges_name, "coverage.%06llu.edges", (unsigned long long)c->round);
  if (covered)
    json_object_set_new(root, "coverage", json_pack("{s:I, s:I, s:s}", "edges", (json_int_t)c->edges.count, "total",
                                                    (json_int_t)c->edges_total, "file", edges_name));
  char *text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
  json_decref(root);
  char *path = campaign_path(c, "%s", edges_name);
  if (covered && !fuzz_edges_save(&c->edges, path, err, errlen)) {
    free(path);
    free(text);
    return false;
  }
  free(path);
  path = campaign_path(c, "campaign.json");
  bool ok = file_replace(path, text, strlen(text));
  if (ok && covered) remove_old_edges(c, edges_name);
  if (!ok) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  free(text);
  free(path);
  if (ok) {
    char *md = index_markdown(c);
    path = campaign_path(c, "index.md");
    ok = file_replace(path, md, strlen(md));
    if (!ok) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(md);
    free(path);
  }
  return ok;
}

bool campaign_load(Campaign *c, bool *found, char *err, size_t errlen) {
  char *path = campaign_path(c, "campaign.json");
  *found = false;
  FILE *f = fopen(path, "r");
  if (!f) {
    bool ok = errno == ENOENT;
    if (!ok) snprintf(err, errlen, "%s: %s", path, strerror(errno));
    free(path);
    return ok;
  }
  fclose(f);
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je);
  if (!root || !json_is_object(root)) {
    snprintf(err, errlen, "%s:%d:%d: not a campaign: %s", path, je.line, je.column, root ? "not an object" : je.text);
    json_decref(root);
    free(path);
    return false;
  }
  *found = true;
  c->seed = num(root, "seed");
  c->shard = (unsigned)num(root, "shard");
  c->nshards = (unsigned)num(root, "shards");
  free(c->oracle);
  c->oracle = sdup(json_object_get(root, "oracle"));
  c->round = num(root, "round");
  json_t *secs = json_object_get(root, "seconds");
  c->seconds = json_is_number(secs) ? json_number_value(secs) : 0;
  const char *fb = json_string_value(json_object_get(root, "feedback"));
  c->feedback = FB_AUTO;
  for (int k = FB_FEATURES; fb && k <= FB_BOTH; k++)
    if (!strcmp(fb, fuzz_feedback_names[k])) c->feedback = (FuzzFeedback)k;
  c->edges_total = num(json_object_get(root, "coverage"), "total");
  if (c->feedback == FB_COVERAGE || c->feedback == FB_BOTH) {
    const char *file = json_string_value(json_object_get(json_object_get(root, "coverage"), "file"));
    if (!file || strchr(file, '/')) {
      snprintf(err, errlen, "%s: its coverage file is not named", path);
      json_decref(root);
      free(path);
      return false;
    }
    char *edges = campaign_path(c, "%s", file);
    bool ok = fuzz_edges_load(&c->edges, edges, err, errlen);
    free(edges);
    if (!ok) {
      json_decref(root);
      free(path);
      return false;
    }
  }
  json_t *counts = json_object_get(root, "counts");
#define GET(f) c->n.f = num(counts, #f);
  COUNTS(GET)
#undef GET
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(root, "pool"), i, e) {
    char *file = sdup(json_object_get(e, "file")), *passes = sdup(json_object_get(e, "passes"));
    if (!file || !passes || !fuzz_passes_valid(passes) || strstr(file, "..")) {
      snprintf(err, errlen, "%s: pool entry %zu is damaged", path, i);
      free(file);
      free(passes);
      json_decref(root);
      free(path);
      return false;
    }
    VEC_PUSH(c->pool, ((FuzzEntry){file, passes, (unsigned)num(e, "tries")}));
  }
  json_array_foreach(json_object_get(root, "groups"), i, e) {
    FuzzGroup g = {.id = (unsigned)num(e, "id"), .key = sdup(json_object_get(e, "key")),
                   .signature = sdup(json_object_get(e, "signature")), .match = sdup(json_object_get(e, "match")),
                   .args = sdup(json_object_get(e, "args")), .count = num(e, "count"),
                   .first_program = num(e, "first_program"), .status = sdup(json_object_get(e, "status")),
                   .cls = class_named(json_object_get(e, "class")), .rule = sdup(json_object_get(e, "rule")),
                   .tvm_verdicts = sdup(json_object_get(e, "tvm_verdicts")), .step = sdup(json_object_get(e, "step")),
                   .reduced_key = sdup(json_object_get(e, "reduced_key")), .frame = sdup(json_object_get(e, "frame")),
                   .merged_into = (unsigned)num(e, "merged_into")};
    json_t *fs = json_object_get(e, "first_seconds"), *fb = json_object_get(e, "first_bytes"),
           *rb = json_object_get(e, "reduced_bytes");
    g.first_seconds = json_is_number(fs) ? json_number_value(fs) : 0;
    g.first_bytes = json_is_integer(fb) ? (long)json_integer_value(fb) : -1;
    g.reduced_bytes = json_is_integer(rb) ? (long)json_integer_value(rb) : -1;
    if (!g.key || !g.args || !g.status || !g.id) {
      snprintf(err, errlen, "%s: group %zu is damaged", path, i);
      group_free(&g);
      json_decref(root);
      free(path);
      return false;
    }
    if (!g.signature) g.signature = xstrdup("");
    VEC_PUSH(c->groups, g);
  }
  json_array_foreach(json_object_get(root, "known_met"), i, e) {
    json_t *fs = json_object_get(e, "first_seconds");
    FuzzKnownMet k = {.id = sdup(json_object_get(e, "id")), .first_seconds = json_is_number(fs) ? json_number_value(fs) : 0,
                      .first_program = num(e, "first_program"), .count = num(e, "count")};
    if (k.id) VEC_PUSH(c->known_met, k);
  }
  json_decref(root);
  free(path);
  return true;
}

/* ------------------------------------------------------------------ index.md */

static void md_cell(StrBuf *sb, const char *s) { /* one table cell: no pipes, no newlines */
  for (; s && *s; s++) {
    if (*s == '|') sb_puts(sb, "\\|");
    else if (*s == '\n') sb_putc(sb, ' ');
    else sb_putc(sb, *s);
  }
}

/* A group's failures with those of the groups merged into it. */
static unsigned long group_total(const Campaign *c, const FuzzGroup *g) {
  unsigned long n = g->count;
  for (size_t i = 0; i < c->groups.len && !g->merged_into; i++)
    if (c->groups.items[i].merged_into == g->id) n += c->groups.items[i].count;
  return n;
}

static char *index_markdown(const Campaign *c) {
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "# rfuzz campaign\n\n");
  if (c->shard) sb_printf(&sb, "seed %llu, shard %u/%u", (unsigned long long)c->seed, c->shard, c->nshards);
  else sb_printf(&sb, "merged from %u campaigns (seed %llu)", c->nshards, (unsigned long long)c->seed);
  sb_printf(&sb, ", %.0f s of fuzzing, %lu programs (%lu generated, %lu "
                 "mutated), %lu failed, %lu passed, %lu known, %lu oracle errors; pool %zu (%lu added)",
            c->seconds, c->n.programs, c->n.generated,
            c->n.mutated, c->n.failed, c->n.passed, c->n.known, c->n.oracle_errors, c->pool.len, c->n.pool_adds);
  if (c->feedback == FB_COVERAGE || c->feedback == FB_BOTH)
    sb_printf(&sb, "; TVM's edges reached: %zu", c->edges.count);
  if ((c->feedback == FB_COVERAGE || c->feedback == FB_BOTH) && c->edges_total)
    sb_printf(&sb, " of %zu (%.2f%%)", c->edges_total, 100.0 * (double)c->edges.count / (double)c->edges_total);
  if (c->n.pass_rounds)
    sb_printf(&sb, "; pass-only rounds %lu, %lu of them passed with new edges", c->n.pass_rounds, c->n.pass_gains);
  if (c->n.diff_rounds)
    sb_printf(&sb, "; diff programs: %lu, %lu of them compared, %lu wrong results", c->n.diff_rounds,
              c->n.diff_compared, c->n.diff_wrong);
  if (c->n.ill_rejected || c->n.ill_accepted)
    sb_printf(&sb, "; ill-typed programs: %lu rejected cleanly, %lu accepted", c->n.ill_rejected, c->n.ill_accepted);
  sb_printf(&sb, ".\n\nFailures by class: %lu bugs, %lu limitations of TVM, %lu rejected inputs "
                 "(interestingness/tvm-limitations.txt and --limitations say which is which).\n",
            c->n.bugs, c->n.limitations, c->n.rejected);
  sb_printf(&sb, "\nOracle: `%s`; programs generated and checked against TVM v%s's Relay registry.\n",
            c->oracle ? c->oracle : "", op_tvm_name());
  char *plot = campaign_path(c, "plot.png");
  if (access(plot, F_OK) == 0) sb_puts(&sb, "\n![coverage and bug groups over time](plot.png) (`rfuzz plot`; also plot.svg)\n");
  else sb_puts(&sb, "\n`rfuzz plot DIR` draws coverage and bug groups over time beside this file (needs gnuplot).\n");
  free(plot);
  if (c->known_met.len) {
    sb_puts(&sb, "\n## Known bugs met (--known)\n\n| known bug | failures | first met | first program |\n|---|---:|---|---:|\n");
    for (size_t i = 0; i < c->known_met.len; i++) {
      const FuzzKnownMet *k = &c->known_met.items[i];
      sb_puts(&sb, "| ");
      md_cell(&sb, k->id);
      sb_printf(&sb, " | %lu | minute %.1f | %llu |\n", k->count, k->first_seconds / 60,
                (unsigned long long)k->first_program);
    }
  }
  static const char *const titles[FAIL_NCLASSES] = {"Bugs", "Limitations of TVM", "Rejected inputs"};
  for (int k = 0; k < FAIL_NCLASSES; k++) {
    size_t shown = 0;
    sb_printf(&sb, "\n## %s\n\n", titles[k]);
    sb_puts(&sb, "| group | failures | first seen | first program | reduced | signature | why this class |\n"
                 "|---|---:|---|---:|---|---|---|\n");
    for (size_t i = 0; i < c->groups.len; i++) {
      const FuzzGroup *g = &c->groups.items[i];
      if ((int)g->cls != k) continue;
      shown++;
      sb_printf(&sb, "| [%03u](groups/%03u/) | %lu | program %llu, %.0f s | %ld B | ", g->id, g->id, group_total(c, g),
                (unsigned long long)g->first_program, g->first_seconds, g->first_bytes);
      if (g->merged_into) sb_printf(&sb, "merged into [%03u](groups/%03u/): the same root cause once reduced", g->merged_into, g->merged_into);
      else if (g->reduced_bytes >= 0 && g->cls == FAIL_BUG)
        sb_printf(&sb, "%ld B ([reduced.relay](groups/%03u/reduced.relay), [issue.md](groups/%03u/issue.md))",
                  g->reduced_bytes, g->id, g->id);
      else if (g->reduced_bytes >= 0) sb_printf(&sb, "%ld B ([reduced.relay](groups/%03u/reduced.relay))", g->reduced_bytes, g->id);
      else md_cell(&sb, g->status);
      if (g->tvm_verdicts && !g->merged_into) {
        sb_printf(&sb, "; on v%s (this campaign's TVM): fails; ", op_tvm_name());
        md_cell(&sb, g->tvm_verdicts);
      }
      const char *sep = "; absorbed "; /* the groups it proved the same root cause as */
      for (size_t j = 0; j < c->groups.len && !g->merged_into; j++)
        if (c->groups.items[j].merged_into == g->id) {
          sb_printf(&sb, "%s[%03u](groups/%03u/)", sep, c->groups.items[j].id, c->groups.items[j].id);
          sep = ", ";
        }
      sb_puts(&sb, " | `");
      md_cell(&sb, g->key);
      sb_puts(&sb, "` | ");
      md_cell(&sb, g->rule ? g->rule : "-");
      sb_puts(&sb, " |\n");
    }
    if (!shown) sb_puts(&sb, "| - | 0 | - | - | - | none | - |\n");
  }
  return sb_take(&sb);
}
