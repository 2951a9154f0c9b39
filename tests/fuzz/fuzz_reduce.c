/*
 * libFuzzer harness for the reduction passes: on any input that type-checks as a module, every
 * pass's candidates (all of them, or 12 spread over the range) keep the pass contract: a proposed
 * program type-checks again (the driver's guard would otherwise spend a rejection on it), and a
 * refused opportunity leaves the program unchanged.  Any violation aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reduce/reduce.h"

enum { SAMPLES = 12 };

static void try_candidate(const RedPass *pass, const char *text, size_t i) {
  RedProgram p, check;
  char err[1024];
  if (!red_program_load(&p, text, err, sizeof err)) abort(); /* it loaded a moment ago */
  char *before = red_program_print(&p, false);
  bool proposed = pass->apply(&p, i);
  char *after = red_program_print(&p, false);
  if (!proposed && strcmp(before, after) != 0) {
    fprintf(stderr, "pass %s refused candidate %zu but changed the program:\n%s\n", pass->name, i, after);
    abort();
  }
  if (proposed && !red_program_load(&check, after, err, sizeof err)) {
    fprintf(stderr, "pass %s candidate %zu is ill-typed:\n--- from\n%s\n--- to\n%s\n%s\n", pass->name, i, before, after, err);
    abort();
  }
  if (proposed) red_program_free(&check);
  free(before);
  free(after);
  red_program_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  RedProgram p;
  char err[1024];
  if (strlen(text) == size && red_program_load(&p, text, err, sizeof err)) {
    bool module = p.m->body == NULL;
    char *canonical = red_program_print(&p, false);
    for (size_t k = 0; module && k < RED_NPASSES; k++) {
      size_t n = red_passes[k]->count(&p);
      for (size_t s = 0; s < n && s < SAMPLES; s++) try_candidate(red_passes[k], canonical, n <= SAMPLES ? s : s * n / SAMPLES);
    }
    free(canonical);
    red_program_free(&p);
  }
  free(text);
  return 0;
}
