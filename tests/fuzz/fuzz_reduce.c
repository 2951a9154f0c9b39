/*
 * libFuzzer harness for the reduction passes: on any input that parses as a module (typed, or
 * reduced under the weaker guard rreduce uses for programs that do not type-check), every
 * pass's candidates (all of them, or 12 spread over the range) keep the driver's contract
 * (rt_propose in tests/unit/reduce_test.h): a proposal never changes the current program (only the
 * driver's clone of it), and what a pass proposes is text that parses; chunks of the passes the
 * driver applies in chunks too, and on well-scoped programs a pass's one-walk chunk equals its
 * opportunities applied one by one.  Whether it type-checks is
 * the guard's business.  Any violation aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/reduce_test.h"

enum { SAMPLES = 12 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  Program p;
  if (strlen(text) == size && prog_load_as(&p, "candidate", text, PROG_PARSED, NULL, 0)) {
    bool module = p.m->body == NULL;
    for (size_t k = 0; module && k < RED_NPASSES; k++) {
      if (!red_passes[k]->count) continue; /* a pipeline pass: the program is not its to change */
      size_t n = red_passes[k]->count(&p);
      for (size_t s = 0; s < n && s < SAMPLES; s++) free(rt_propose(red_passes[k], &p, n <= SAMPLES ? s : s * n / SAMPLES));
      if (red_passes[k]->search == RED_CHUNKS && n > 1) { /* the driver's first chunks: all, then halves */
        bool scoped = p.guard <= PROG_SCOPED; /* apply_range equals one by one on well-scoped programs */
        rt_check_chunk(red_passes[k], &p, 0, n, scoped);
        rt_check_chunk(red_passes[k], &p, 0, n / 2, scoped);
        rt_check_chunk(red_passes[k], &p, n / 2, n, scoped);
      }
    }
    prog_free(&p);
  }
  free(text);
  return 0;
}
