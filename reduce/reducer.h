/*
 * The driver's state, shared by its two files and by nothing else:
 *
 *   driver.c     the search: every pass a loop over its sweep (sweep.h), candidates in flight,
 *                verdicts in the sequential order, the input's test, the run (red_reduce)
 *   candidate.c  one candidate's life: built from a clone and guarded (parse + type-check),
 *                launched or answered from the cache, collected, accepted (FILE written); and
 *                the tests started ahead for what a sequential run tries after this pass
 */
#ifndef RELAYKIT_REDUCER_H
#define RELAYKIT_REDUCER_H

#include "../support/content_hash.h"
#include "driver.h"
#include "sweep.h"

/* One candidate: a chunk of a pass's opportunities applied to the current program. */
typedef struct Cand {
  RedChunk chunk;
  char *text;     /* the candidate as the test sees it; NULL: the chunk proposes nothing new */
  char *pipe;     /* the pipeline it runs (its JSON, written beside it), or NULL when the test
                     reported none (Reducer.piped) */
  char *ran;      /* what the test said it ran (the outcome's pipeline object), once interesting */
  size_t calls;   /* its operator calls */
  Program prog;   /* its guarded program, kept to become the current one if it is accepted (the
                     guard parsed and typed it already); prog.m NULL when too large to keep */
  OracleJob job;  /* running, or not pending once the verdict is known */
  int verdict;    /* 1 interesting, 0 not (when the job is not pending) */
} Cand;

/* Test outcomes by content hash. */
typedef struct Cache {
  StrSet interesting, boring;
} Cache;

/* A test started ahead for a candidate the sequential order may ask for next, outside the sweep in
   progress (after an acceptance, or in a later pass); launch() adopts it by content hash. */
typedef struct Spec {
  char key[CONTENT_HASH_HEX + 1];
  char *text;
  OracleJob job;
} Spec;

typedef struct Reducer {
  const RedOptions *o;
  RedStats *st;
  Cache cache;
  char *current;
  size_t current_calls;
  /* Content hashes of every program that has been current: a step back to one is never taken.
     Steps need not shrink (truncate writes the new result's type, annot drops it again), so two
     passes could otherwise hand the same two programs back and forth for ever, on cache hits. */
  StrSet visited;
  /* The smallest program accepted so far, by operator calls, then bytes: what FILE holds and what
     the reduction ends with.  A step may make the program larger on the way (a cut adds a typed
     parameter until dce removes what it fed); if the run ends there, the smaller one stands, so
     the result is never larger than the input without being simpler. */
  char *best;
  size_t best_calls;
  double drawn_at;   /* the status line: when it was last drawn, and what it said */
  char drawn[160];
  double start;
  size_t *resume;    /* per pass: where the next round starts (after a stuck guard or a skip) */
  /* 1-minimality: `generation` counts accepted candidates.  A pass's sweep (its opportunities
     from the first to the last, across pauses) that started and ended in one generation found
     nothing on the current program: it is done until the program changes.  One that a change
     overtook sweeps again, from the first opportunity. */
  size_t generation;
  size_t *sweep_gen; /* per pass: the generation its current sweep started in */
  size_t *done_gen;  /* per pass: the generation its last clean sweep found nothing in */
  /* The current program, loaded (parsed and checked) once per generation for every pass that
     proposes on it: the accepted candidate's guarded program, or a load of the text when that was
     too large to keep.  Valid when loaded_gen == generation + 1 (0: nothing loaded). */
  Program loaded;
  size_t loaded_gen;
  Spec pool[RED_MAX_JOBS];
  size_t npool;
  bool pool_after_pass; /* the pool holds what follows this pass: kept while its sweep goes on */
  /* The pipeline the test runs, reduced with the program (pipeline.h): known from the input's
     outcome (or --pipeline), then the accepted pipeline candidates'. */
  bool piped;
  RedPipeline pipe;
  char *pipe_json;      /* pipe as written beside every candidate */
  char *err;
  size_t errlen;
} Reducer;

/* ------------------------------------------------------------------ candidate.c */
/* How many opportunities pass has: on the program, or on the pipeline for a pipeline pass. */
size_t red_count(const Reducer *r, const RedPass *pass, const Program *cur);
/* Tests run at once: -j, at least 1, at most RED_MAX_JOBS. */
unsigned red_job_count(const RedOptions *o);
/* Builds the candidate that applies `chunk` of `pass` to cur (whose text is cur_text) into c,
   guarded.  False when it proposes nothing new, or the guard refuses it (c->text NULL).  ps NULL:
   a speculative build, counted nowhere, whose program is not kept. */
bool red_build(Reducer *r, const RedPass *pass, RedPassStats *ps, const Program *cur, const char *cur_text,
               RedChunk chunk, Cand *c);
/* Starts the test on a candidate, or answers from the cache (or adopts a test started ahead). */
bool red_launch(Reducer *r, Cand *c);
/* Collects a finished (or, cancelled, a running) test's verdict; -1 when it was cancelled. */
int red_collect(Reducer *r, Cand *c, bool cancelled);
/* Frees a candidate, cancelling its test if it is still running. */
void red_cand_free(Reducer *r, Cand *c);
/* Makes c the current program (FILE written first when it is the best so far); false with the
   message in r->err when FILE cannot be written.  c's text and program are taken. */
bool red_accept(Reducer *r, const RedPass *pass, RedPassStats *ps, Cand *c);
/* Records a program as having been current (Reducer.visited). */
void red_visit(Reducer *r, const char *text);
/* Writes a better program to out_path, its hash to written_log first (see RedOptions). */
bool red_write_out(const RedOptions *o, const char *text);
/* The current program, loaded once per generation; NULL with the message in r->err. */
const Program *red_load_current(Reducer *r);
void red_drop_loaded(Reducer *r);

/* Tests started ahead (Reducer.pool). */
void red_drop_pool(Reducer *r);
/* What a sequential run tries first from pass `from` on, on cur in generation gen: the first
   candidate of the first pass that has one, looking at `span` passes at most (into the next round
   when span reaches past the last pass). */
void red_start_first_of(Reducer *r, size_t from, size_t span, const Program *cur, const char *cur_text, size_t gen);
/* What a sequential run tries next if `won` (of pass pi, proposed by `sweep`'s last next()) is
   accepted: the pass's next candidate on won's program, or the next passes' first. */
void red_start_after(Reducer *r, size_t pi, const Cand *won, const RedSweep *sweep);

#endif
