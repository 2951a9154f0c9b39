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
#include "../support/strbuf.h"
#include "outcome.h"
#include "signature.h"

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
    f->step = xstrdup("");
    f->kind = xstrdup("");
    f->signature = xstrdup("");
    f->output = xstrdup("");
    return false;
  }
  f->stage = jdup(o, "stage");
  f->step = jdup(o, "step");
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
  free(f->step);
  free(f->kind);
  free(f->signature);
  free(f->output);
  free(f->pipeline);
  for (size_t i = 0; i < f->nframes; i++) free(f->frames[i]);
  memset(f, 0, sizeof *f);
}

const char *outcome_pass(const Outcome *f, size_t *len) {
  if (!f || !f->step) return NULL;
  const char *p = !strncmp(f->step, "pass ", 5) ? f->step + 5 : !strncmp(f->step, "build pass ", 11) ? f->step + 11 : NULL;
  if (!p || !*p) return NULL;
  *len = strcspn(p, " ");
  return p;
}

/* ------------------------------------------------------------------ the rules */

void fail_rules_init(FailRules *c) { memset(c, 0, sizeof *c); }

void fail_rules_free(FailRules *c) {
  for (size_t i = 0; i < c->rules.len; i++) {
    pattern_free(c->rules.items[i].re);
    free(c->rules.items[i].shown);
  }
  free(c->rules.items);
  memset(c, 0, sizeof *c);
}

static const char *const rule_words[FAIL_NCLASSES] = {"bug", "limitation", "rejected"};

static bool add_rules(FailRules *c, const char *text, const char *name, bool shipped, char *err, size_t errlen) {
  unsigned line = 0;
  StrBuf why; /* the comment block right above a rule: what it is for, shown with it */
  sb_init(&why);
  bool after_rule = false;
  bool ok = true;
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
    if (!*p) { /* a blank line ends a comment block */
      why.len = 0;
      after_rule = false;
      continue;
    }
    if (*p == '#') {
      if (after_rule) why.len = 0; /* a comment after a rule starts the next block */
      after_rule = false;
      const char *c1 = p + 1 + strspn(p + 1, " ");
      if (*c1) sb_printf(&why, "%s%s", why.len ? " " : "", c1);
      else why.len = 0;
      continue;
    }
    size_t word = strcspn(p, " \t");
    FailClass cls = FAIL_NCLASSES;
    for (int k = 0; k < FAIL_NCLASSES; k++)
      if (word == strlen(rule_words[k]) && !strncmp(p, rule_words[k], word)) cls = (FailClass)k;
    const char *re = p + word + strspn(p + word, " \t");
    if (cls == FAIL_NCLASSES || !*re) {
      snprintf(err, errlen, "%s:%u: expected `limitation REGEX`, `rejected REGEX` or `bug REGEX`, found '%.60s'", name,
               line, p);
      ok = false;
      break;
    }
    char msg[160];
    Pattern *pat = pattern_compile(re, msg, sizeof msg);
    if (!pat) {
      snprintf(err, errlen, "%s:%u: %s", name, line, msg);
      ok = false;
      break;
    }
    StrBuf shown;
    sb_init(&shown);
    sb_printf(&shown, "%s:%u: %s %s", name, line, rule_words[cls], re);
    if (why.len) sb_printf(&shown, " (%s)", why.data);
    VEC_PUSH(c->rules, ((FailRule){cls, pat, shipped, sb_take(&shown)}));
    after_rule = true;
  }
  sb_free(&why);
  return ok;
}

bool fail_rules_add(FailRules *c, const char *text, const char *name, char *err, size_t errlen) {
  return add_rules(c, text, name, false, err, errlen);
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
  return add_rules(c, shipped_limitations, "tvm-limitations.txt", true, err, errlen);
}

/* cls, with *rule (when asked for) the words that decided it */
static FailClass decided(char **rule, FailClass cls, const char *words) {
  if (rule) *rule = xstrdup(words);
  return cls;
}

FailClass fail_classify(const FailRules *c, const char *sig, const Outcome *f, FailAccepted accepted, char **rule) {
  sig = sig ? sig : "";
  if (rule) *rule = NULL;
  /* the user's rules, then the shipped ones: each says why in its file */
  for (int shipped = 0; shipped < 2; shipped++)
    for (size_t i = 0; i < c->rules.len; i++) {
      const FailRule *r = &c->rules.items[i];
      if (r->shipped == (shipped == 1) && pattern_search(r->re, sig, strlen(sig))) return decided(rule, r->cls, r->shown);
    }
  size_t plen = 0;
  const char *pass = outcome_pass(f, &plen);
  if (pass) {
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "failed inside the optimization pass %.*s: a pass that fails is a bug of TVM, whatever its words "
                   "say (no rule names it a limitation)", (int)plen, pass);
    FailClass cls = decided(rule, FAIL_BUG, sb.data);
    sb_free(&sb);
    return cls;
  }
  /* TVM refusing the program with a diagnostic, before any pass (a crash or a hang there is a
     bug wherever it is) */
  if (f && !strcmp(f->stage, "frontend") && (!strcmp(f->kind, "check") || !strcmp(f->kind, "exception"))) {
    if (accepted == ACCEPTED_YES)
      return decided(rule, FAIL_BUG, "TVM's parser or type checker refuses a program relaykit's checker accepts: "
                                     "a disagreement one of the two must answer for");
    if (accepted == ACCEPTED_NO)
      return decided(rule, FAIL_REJECTED, "TVM refuses it before any pass, and relaykit's checker refuses it too");
    return decided(rule, FAIL_REJECTED, "TVM refuses it before any pass (relaykit's checker was not asked)");
  }
  return decided(rule, FAIL_BUG, "no rule names it a limitation or a rejected input");
}

/* ------------------------------------------------------------------ the group key */

bool fail_is_timeout(bool timed_out, const char *sig) { return timed_out || (sig && !strncmp(sig, "timeout", 7)); }

void fail_group_key(const Outcome *f, bool timed_out, const char *sig, char **key, char **match) {
  StrBuf norm, ere, k;
  sb_init(&norm);
  sb_init(&ere);
  sb_init(&k);
  /* the stage is what the oracle says failed (a diff round's build crash is a build failure, as
     a build round's is), never the round's kind: one bug, one group */
  if (f && f->stage && *f->stage) sb_printf(&k, "%s: ", f->stage);
  if (fail_is_timeout(timed_out, sig)) {
    sb_puts(&k, "timeout");
    *match = xstrdup("timeout");
  } else {
    /* Masked first, then cut: a cut before masking kept more or less of the message as the
       generated names in it were shorter or longer, and one check became several groups
       ("... variables [i1] are us", "... variables [i1] are used, but are not passed in"). */
    size_t n = sig ? strlen(sig) : 0;
    run_signature_line_cap(sig ? sig : "", n, NULL, &norm, NULL, (size_t)-1); /* masked whole */
    run_signature_line(sig ? sig : "", n, NULL, NULL, &ere);
    if (norm.len) {
      StrBuf root;
      sb_init(&root);
      run_signature_root(norm.data, &root);
      sb_putn(&k, root.data, root.len < FAIL_KEY_WORDS_MAX ? root.len : FAIL_KEY_WORDS_MAX);
      sb_free(&root);
    } else {
      sb_puts(&k, "(no signature)");
    }
    *match = ere.len ? sb_take(&ere) : NULL;
  }
  /* TVM's innermost frame tells apart two bugs that share a message (a check in a helper many
     passes call), where its backtrace has frames */
  if (f && f->nframes) sb_printf(&k, " @ %s", f->frames[0]);
  *key = sb_take(&k);
  sb_free(&norm);
  sb_free(&ere);
}
