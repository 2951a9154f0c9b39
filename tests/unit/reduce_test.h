/* Shared by the reduction-pass tests: run one opportunity of a pass on a program text. */
#ifndef RELAYKIT_REDUCE_TEST_H
#define RELAYKIT_REDUCE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reduce/reduce.h"

/* The version header every module-mode test program starts with. */
#define RT_V "#[version = \"0.0.5\"]\n"

/* How many opportunities `pass` counts in `text` (which must type-check). */
static inline size_t rt_count(const RedPass *pass, const char *text) {
  RedProgram p;
  char err[512];
  if (!red_program_load(&p, text, err, sizeof err)) {
    fprintf(stderr, "test program rejected: %s\n", err);
    abort();
  }
  size_t n = pass->count(&p);
  red_program_free(&p);
  return n;
}

/* Candidate i of `pass` on `text`, printed without type comments, or NULL when the pass proposes
   nothing there.  Aborts when the pass proposes an ill-typed program (the guard would reject it)
   or changes the program while proposing nothing (the driver's contract). */
static inline char *rt_apply(const RedPass *pass, const char *text, size_t i) {
  RedProgram p;
  char err[512];
  if (!red_program_load(&p, text, err, sizeof err)) {
    fprintf(stderr, "test program rejected: %s\n", err);
    abort();
  }
  char *before = red_program_print(&p, true);
  if (!pass->apply(&p, i)) {
    char *after = red_program_print(&p, true);
    if (strcmp(before, after) != 0) {
      fprintf(stderr, "pass %s changed the program but proposed nothing\n", pass->name);
      abort();
    }
    free(before);
    free(after);
    red_program_free(&p);
    return NULL;
  }
  free(before);
  char *out = red_program_print(&p, true);
  red_program_free(&p);
  RedProgram check;
  if (!red_program_load(&check, out, err, sizeof err)) {
    fprintf(stderr, "pass %s proposed an ill-typed program:\n%s\n%s\n", pass->name, out, err);
    abort();
  }
  red_program_free(&check);
  return out;
}

#endif
