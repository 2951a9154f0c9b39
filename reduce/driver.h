/* The reduction driver: passes to a fixpoint, every candidate guarded, tested, cached. */
#ifndef RELAYKIT_DRIVER_H
#define RELAYKIT_DRIVER_H

#include <signal.h>
#include <stdio.h>

#include "../interestingness/run.h"
#include "reduce.h"

typedef struct RedOptions {
  const char *test;          /* the interestingness test (an executable) */
  const char *basename;      /* the candidate's file name in the test's directory */
  const char *out_path;      /* where every better program is written (atomically) */
  RunOptions run;
  const RedPass *const *passes;
  size_t npasses;
  bool use_cache;
  bool keep_comments;        /* keep TVM's ty= and span= comments in the result */
  bool fast;                 /* one round of the passes, no fixpoint */
  int verbose;               /* 1: a line per accepted step on stderr */
  bool progress;             /* a one-line status on stderr (a terminal) */
  volatile sig_atomic_t *stop; /* set by SIGINT: finish at once, keeping the best program */
} RedOptions;

typedef struct RedPassStats {
  unsigned long tried, accepted, rejected_by_guard;
} RedPassStats;

typedef struct RedStats {
  unsigned long tests_run, cache_hits, timeouts, guard_rejections, accepted;
  size_t bytes_before, bytes_after;
  size_t calls_before, calls_after;
  double seconds;
  RedPassStats *per_pass;    /* one per pass in RedOptions order (malloc'd) */
  bool interrupted;
} RedStats;

/* Reduces *text (well-typed, already known interesting) in place.  Returns false with a message
   when the program cannot be read or the test cannot be run. */
bool red_reduce(char **text, const RedOptions *o, RedStats *stats, char *err, size_t errlen);

#endif
