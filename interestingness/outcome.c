/*
 * What a failure is (outcome.h): the outcome side file read (stage, kind, C++ frames;
 * PROTOCOL.md), and the rules that tell a bug from a limitation of TVM or a rejected input
 * (tvm-limitations.txt, built into the programs, and the user's --limitations file).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/fileio.h"
#include "outcome.h"

const char *const fail_class_names[FAIL_NCLASSES] = {"bug", "limitation", "rejected"};

/* ------------------------------------------------------------------ the outcome */

static char *jdup(json_t *o, const char *key) {
  json_t *j = json_object_get(o, key);
  return json_is_string(j) ? xstrdup(json_string_value(j)) : xstrdup("");
}

bool outcome_read(Outcome *f, const char *outcome) {
  memset(f, 0, sizeof *f);
  json_t *o = outcome ? json_loads(outcome, 0, NULL) : NULL;
  if (!json_is_object(o)) {
    json_decref(o);
    f->stage = xstrdup("");
    f->kind = xstrdup("");
    f->signature = xstrdup("");
    f->output = xstrdup("");
    return false;
  }
  f->stage = jdup(o, "stage");
  f->kind = jdup(o, "kind");
  f->signature = jdup(o, "signature");
  f->output = jdup(o, "output");
  json_t *frames = json_object_get(o, "frames");
  for (size_t i = 0; i < json_array_size(frames) && f->nframes < OUTCOME_FRAMES; i++) {
    const char *s = json_string_value(json_array_get(frames, i));
    if (s && *s) f->frames[f->nframes++] = xstrdup(s);
  }
  json_t *pipeline = json_object_get(o, "pipeline");
  if (json_is_object(pipeline)) {
    char *s = json_dumps(pipeline, JSON_COMPACT | JSON_SORT_KEYS);
    f->pipeline = xstrdup(s);
    free(s);
  }
  json_decref(o);
  return true;
}

void outcome_free(Outcome *f) {
  free(f->stage);
  free(f->kind);
  free(f->signature);
  free(f->output);
  free(f->pipeline);
  for (size_t i = 0; i < f->nframes; i++) free(f->frames[i]);
  memset(f, 0, sizeof *f);
}

/* ------------------------------------------------------------------ the rules */

void fail_rules_init(FailRules *c) { memset(c, 0, sizeof *c); }

void fail_rules_free(FailRules *c) {
  for (size_t i = 0; i < c->rules.len; i++) pattern_free(c->rules.items[i].re);
  free(c->rules.items);
  memset(c, 0, sizeof *c);
}

bool fail_rules_add(FailRules *c, const char *text, const char *name, char *err, size_t errlen) {
  unsigned line = 0;
  for (const char *s = text; s && *s;) {
    const char *end = strchr(s, '\n');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    line++;
    char buf[4096];
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), s);
    s = end ? end + 1 : s + len;
    char *p = buf;
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    size_t n = strlen(p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r')) p[--n] = '\0';
    if (!*p || *p == '#') continue;
    size_t word = strcspn(p, " \t");
    FailClass cls = FAIL_NCLASSES;
    for (int k = FAIL_LIMITATION; k < FAIL_NCLASSES; k++)
      if (word == strlen(fail_class_names[k]) && !strncmp(p, fail_class_names[k], word)) cls = (FailClass)k;
    const char *re = p + word + strspn(p + word, " \t");
    if (cls == FAIL_NCLASSES || !*re) {
      snprintf(err, errlen, "%s:%u: expected `limitation REGEX` or `rejected REGEX`, found '%.60s'", name, line, p);
      return false;
    }
    char why[160];
    Pattern *pat = pattern_compile(re, why, sizeof why);
    if (!pat) {
      snprintf(err, errlen, "%s:%u: %s", name, line, why);
      return false;
    }
    VEC_PUSH(c->rules, ((FailRule){cls, pat}));
  }
  return true;
}

bool fail_rules_load(FailRules *c, const char *path, char *err, size_t errlen) {
  size_t len;
  char *text = file_read_text(path, &len);
  if (!text) {
    snprintf(err, errlen, "%s: cannot read it", path);
    return false;
  }
  bool ok = fail_rules_add(c, text, path, err, errlen);
  free(text);
  return ok;
}

bool fail_rules_shipped(FailRules *c, char *err, size_t errlen) {
  return fail_rules_add(c, shipped_limitations, "tvm-limitations.txt (shipped)", err, errlen);
}

FailClass fail_classify(const FailRules *c, const char *sig, const Outcome *f) {
  sig = sig ? sig : "";
  for (size_t i = 0; i < c->rules.len; i++)
    if (pattern_search(c->rules.items[i].re, sig, strlen(sig))) return c->rules.items[i].cls;
  /* TVM refusing the program with a diagnostic, before any pass: outside what it accepts (a
     crash or a hang there is still a bug) */
  if (f && !strcmp(f->stage, "frontend") && (!strcmp(f->kind, "check") || !strcmp(f->kind, "exception")))
    return FAIL_REJECTED;
  return FAIL_BUG;
}
