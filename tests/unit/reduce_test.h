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

#endif
