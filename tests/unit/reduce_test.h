/* Shared by the reduction-pass tests: run one opportunity of a pass on a program text. */
#ifndef RELAYKIT_REDUCE_TEST_H
#define RELAYKIT_REDUCE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reduce/driver.h"

/* The version header every module-mode test program starts with. */
#define RT_V "#[version = \"0.0.5\"]\n"

/* How many opportunities `pass` counts in `text` (which must type-check). */
static inline size_t rt_count(const RedPass *pass, const char *text) {
  Program p;
  char err[512];
  if (!prog_load(&p, "test", text, true, err, sizeof err)) {
    fprintf(stderr, "test program rejected: %s\n", err);
    abort();
  }
  size_t n = pass->count(&p);
  prog_free(&p);
  return n;
}

/* Candidate i of `pass` on the typed program p, as the test would see it (printed without type
   comments), or NULL when the pass proposes nothing there or the type checker refuses what it
   proposes (the driver's guard: never tested).  Aborts when the proposal changed p itself, or is
   text that does not parse (the driver's contract; tests/unit/test_reduce_contract.c pins it). */
static inline char *rt_propose(const RedPass *pass, const Program *p, size_t i) {
  char *before = prog_print(p, false);
  char *text = red_propose(p, pass, i);
  char *after = prog_print(p, false);
  if (strcmp(before, after) != 0) {
    fprintf(stderr, "pass %s #%zu changed the current program, not its own copy\n", pass->name, i);
    abort();
  }
  free(before);
  free(after);
  if (!text) return NULL;
  Diag d;
  diag_init(&d, "candidate", text, strlen(text));
  AstModule *parsed = ast_parse(text, strlen(text), &d);
  if (!parsed) {
    fprintf(stderr, "pass %s #%zu proposed text that does not parse:\n%s\n%s\n", pass->name, i, text, d.out.data);
    abort();
  }
  ast_free(parsed);
  diag_free(&d);
  Program check;
  char *out = NULL;
  if (prog_load_as(&check, "candidate", text, p->guard, NULL, 0)) {
    out = prog_print(&check, true);
    prog_free(&check);
  }
  free(text);
  return out;
}

/* The same on a program text. */
static inline char *rt_apply(const RedPass *pass, const char *text, size_t i) {
  Program p;
  char err[512];
  if (!prog_load(&p, "test", text, true, err, sizeof err)) {
    fprintf(stderr, "test program rejected: %s\n", err);
    abort();
  }
  char *out = rt_propose(pass, &p, i);
  prog_free(&p);
  return out;
}

/* Chunk [lo, hi) of a RED_CHUNKS pass on p, checked as the driver relies on it: p unchanged and the
   text parses.  With `same`, also that a pass's apply_range gives exactly what applying hi-1, ...,
   lo one by one on one copy gives: true of well-scoped programs (the corpus), not of every text
   that parses (a read before its binding counts for a cut alone, not after an earlier cut removed
   it).  Aborts on a violation; returns whether the chunk proposed anything. */
static inline bool rt_check_chunk(const RedPass *pass, const Program *p, size_t lo, size_t hi, bool same) {
  char *before = prog_print(p, false);
  char *chunk = red_propose_range(p, pass, lo, hi);
  char *after = prog_print(p, false);
  bool ok = !strcmp(before, after);
  if (!ok) fprintf(stderr, "pass %s chunk [%zu, %zu) changed the current program\n", pass->name, lo, hi);
  if (ok && chunk) {
    Diag d;
    diag_init(&d, "candidate", chunk, strlen(chunk));
    AstModule *parsed = ast_parse(chunk, strlen(chunk), &d);
    if (!parsed) fprintf(stderr, "pass %s chunk [%zu, %zu) does not parse:\n%s\n%s\n", pass->name, lo, hi, chunk, d.out.data);
    ok = parsed != NULL;
    ast_free(parsed);
    diag_free(&d);
  }
  if (ok && same && pass->apply_range && hi - lo > 1) {
    Program out;
    prog_clone(p, &out);
    bool any = false;
    for (size_t i = hi; i > lo; i--) any |= pass->apply(&out, i - 1);
    char *slow = any ? prog_print(&out, false) : NULL;
    prog_free(&out);
    ok = (!chunk && !slow) || (chunk && slow && !strcmp(chunk, slow));
    if (!ok) fprintf(stderr, "pass %s chunk [%zu, %zu): apply_range gave\n%s\none by one gave\n%s\n", pass->name, lo, hi,
                     chunk ? chunk : "(nothing)", slow ? slow : "(nothing)");
    free(slow);
  }
  free(before);
  free(after);
  bool proposed = chunk != NULL;
  free(chunk);
  if (!ok) abort();
  return proposed;
}

#endif
