/*
 * The driver: passes to a fixpoint (llvm-reduce's shape), each pass one loop over its sweep
 * (sweep.h): the sweep says which chunk of opportunities comes next; its candidate is built from a
 * fresh copy of the current program and guarded (candidate.c), tested, and its verdict given back
 * to the sweep.  The best program is written after every success, so an interrupt leaves an
 * interesting file.
 *
 * With -j N, what the next steps may need (red_sweep_ahead: the next chunks if this one is not
 * interesting, both halves' probes of a bisection) is tested beside the current step, and what a
 * sequential run tries after this pass is started ahead (candidate.c); but verdicts are taken one
 * step at a time in the sequential order, so the result is the same for every N.
 */
#include <stdlib.h>
#include <string.h>

#include "../interestingness/outcome.h"
#include "../support/clock.h"
#include "../support/xalloc.h"
#include "keys.h"
#include "reducer.h"

/* How far ahead of the current step a pass looks (red_sweep_ahead), and so how many of its
   candidates can be in flight, proposing or not. */
enum { AHEAD = 128 };

/* Whether the outcome the test left names `frame` as TVM's innermost frame. */
static bool same_frame(const RunResult *r, const char *frame) {
  Outcome f;
  outcome_read(&f, r->outcome);
  bool same = f.nframes && !strcmp(f.frames[0], frame);
  outcome_free(&f);
  return same;
}

bool red_verdict(const RunResult *r, const RedOptions *o) {
  return r->status == 0 && (!o->match || pattern_search(o->match, r->output, r->output_len)) &&
         (!o->frame || same_frame(r, o->frame));
}

/* The status line on a terminal: redrawn at most ten times a second, and only when it changed
   (the waits call this every 20 ms). */
static void progress(Reducer *r, const char *pass) {
  if (!r->o->progress) return;
  double now = clock_seconds();
  if (now - r->drawn_at < 0.1) return;
  size_t before = r->st->bytes_before, bytes = strlen(r->current);
  char line[sizeof r->drawn];
  snprintf(line, sizeof line, "%-9s %zu -> %zu bytes (%.1f%% removed)  %zu ops  tests %lu  accepted %lu  %.0fs", pass,
           before, bytes, before ? 100.0 * ((double)before - (double)bytes) / (double)before : 0.0, r->current_calls,
           r->st->tests_run, r->st->accepted, now - r->start);
  r->drawn_at = now;
  if (!strcmp(line, r->drawn)) return;
  memcpy(r->drawn, line, sizeof line);
  if (r->o->progress == RED_PROGRESS_LINES) fprintf(stderr, "progress %s\n", line);
  else fprintf(stderr, "\r\033[K%s", line);
  fflush(stderr);
}

/* Whether the user pressed `s` to skip the rest of this pass for the round (said on stderr). */
static bool skip_pressed(Reducer *r, const char *pass) {
  if (!r->o->keys || !red_keys_skip()) return false;
  if (r->o->progress == RED_PROGRESS_TERMINAL) fputs("\r\033[K", stderr);
  fprintf(stderr, "rreduce: s: skipping the rest of pass %s for this round\n", pass);
  return true;
}

/* A pass being run: its sweep and its candidates in flight. */
typedef struct PassRun {
  size_t pi;
  const RedPass *pass;
  RedPassStats *ps;
  RedSweep sweep;
  Cand flight[AHEAD];
  size_t nflight;
  Cand answer;         /* RED_FIRST: the first interesting opportunity found so far */
  unsigned failures;   /* the stuck guard: uninteresting single candidates in a row */
  unsigned timeouts;   /* ... and timed-out tests in a row */
  bool hot;            /* the last verdict accepted a candidate */
} PassRun;

typedef enum StepEnd { STEP_GOING, STEP_OVER, STEP_STUCK, STEP_FAILED } StepEnd;

static Cand *find(PassRun *run, RedChunk ch) {
  for (size_t q = 0; q < run->nflight; q++)
    if (run->flight[q].chunk.lo == ch.lo && run->flight[q].chunk.hi == ch.hi) return &run->flight[q];
  return NULL;
}

/* Drops flight[k], cancelling its test if it is still running. */
static void land(Reducer *r, PassRun *run, size_t k) {
  red_cand_free(r, &run->flight[k]);
  run->flight[k] = run->flight[--run->nflight];
}

static void land_all(Reducer *r, PassRun *run) {
  while (run->nflight) land(r, run, run->nflight - 1);
}

/* Tests that hold a job: every candidate in flight that proposed something (in a bisection, every
   probe: the steps need them all), and the tests started ahead. */
static size_t slots_used(const Reducer *r, const PassRun *run) {
  size_t used = r->npool;
  for (size_t q = 0; q < run->nflight; q++) used += run->flight[q].text || run->sweep.search == RED_FIRST;
  return used;
}

/* The candidate of `chunk`: in flight already, or built and launched now.  NULL on an error. */
static Cand *ensure(Reducer *r, PassRun *run, const Program *cur, RedChunk chunk) {
  Cand *c = find(run, chunk);
  if (c) return c;
  c = &run->flight[run->nflight++];
  if (red_build(r, run->pass, run->ps, cur, r->current, chunk, c) && !red_launch(r, c)) {
    free(c->text);
    prog_free(&c->prog);
    run->nflight--;
    return NULL;
  }
  return c;
}

/* Whether the pass's candidate in flight is more likely interesting than not, by the pass's record
   in this run (Laplace's rule: a pass not yet tested counts as even, and so as likely). */
static bool likely_interesting(const RedPassStats *ps) {
  unsigned long tested = ps->tried - ps->ill_typed - ps->rejected_by_guard - 1; /* not the one in flight */
  return 2 * (ps->accepted + 1) >= tested + 2;
}

/* With free jobs once the sweep has nothing more: what the run tries after this pass, if the
   pass's last candidate is accepted or, whichever is likelier, if it is not. */
static void start_after_pass(Reducer *r, PassRun *run, const Program *cur, Cand *head, const RedSweep *after,
                             bool progress_made) {
  size_t launched = 0;
  for (size_t q = 0; q < run->nflight; q++) launched += run->flight[q].text != NULL;
  if (launched == 0 || r->npool > 0) return;
  if (launched == 1 && head->text && oracle_pending(&head->job) && likely_interesting(run->ps)) {
    red_start_after(r, run->pi, head, after);
    return;
  }
  size_t npasses = r->o->npasses;
  red_start_first_of(r, run->pi + 1, progress_made && !r->o->fast ? npasses - 1 : npasses - run->pi - 1, cur,
                     r->current, r->generation);
  r->pool_after_pass = r->npool > 0;
}

/* Puts in flight what the sweep's next steps need: the next step's candidate (the head, returned),
   then those after it, while jobs are free; drops what the sweep no longer needs.  `after` is the
   sweep once the head is taken.  NULL on an error. */
static Cand *fill(Reducer *r, PassRun *run, const Program *cur, size_t n, const RedSweep *after, bool progress_made) {
  RedChunk ahead[AHEAD];
  size_t na = red_sweep_ahead(&run->sweep, n, ahead, AHEAD);
  for (size_t q = run->nflight; q-- > 0;) {
    bool needed = false;
    for (size_t k = 0; k < na && !needed; k++) needed = run->flight[q].chunk.lo == ahead[k].lo && run->flight[q].chunk.hi == ahead[k].hi;
    if (!needed) land(r, run, q);
  }
  Cand *head = ensure(r, run, cur, ahead[0]);
  if (!head) return NULL;
  unsigned jobs = red_job_count(r->o);
  /* What was started ahead for this step has been adopted, or is not needed (but for what follows
     the pass, while its sweep goes on; and a candidate that proposes nothing is no step of a
     sweep that skips it); a pass whose last candidate was accepted often accepts the next too
     (attributes reset one after another, a size halved again): then the best use of a second job
     is what the run tries after accepting this one. */
  if ((head->text || !red_sweep_accepts_at_once(&run->sweep)) && !r->pool_after_pass) red_drop_pool(r);
  if (head->text && run->hot && jobs > 1 && oracle_pending(&head->job)) red_start_after(r, run->pi, head, after);
  size_t k = 1;
  bool known_winner = head->text && !oracle_pending(&head->job) && head->verdict == 1;
  for (; k < na && !known_winner && slots_used(r, run) < jobs && !*r->o->stop; k++) {
    Cand *c = ensure(r, run, cur, ahead[k]);
    if (!c) return NULL;
    known_winner = c->text && !oracle_pending(&c->job) && c->verdict == 1; /* nothing after it is needed */
  }
  if (k == na && na < AHEAD && !known_winner && red_sweep_accepts_at_once(&run->sweep) && slots_used(r, run) < jobs)
    start_after_pass(r, run, cur, head, after, progress_made);
  return head;
}

/* Waits for c's verdict (the others in flight keep running), then collects it. */
static void await(Reducer *r, PassRun *run, Cand *c) {
  while (oracle_pending(&c->job) && !oracle_done(&c->job)) {
    OracleJob active[AHEAD];
    size_t na = 0;
    for (size_t q = 0; q < run->nflight; q++)
      if (oracle_pending(&run->flight[q].job)) active[na++] = run->flight[q].job;
    oracle_wait(&r->o->oracle, active, na, 20);
    progress(r, run->pass->name);
  }
  if (oracle_pending(&c->job)) {
    unsigned long before = r->st->timeouts;
    c->verdict = red_collect(r, c, false);
    run->timeouts = r->st->timeouts > before ? run->timeouts + 1 : 0;
  }
}

/* The stuck guard: a pass stops for the round after too many uninteresting single candidates, or
   timeouts, in a row; the next round goes on after the last one.  Every -j stops here, as the
   verdicts are the sequential run's. */
static bool stuck(Reducer *r, PassRun *run, const Cand *c, size_t size) {
  const RedOptions *o = r->o;
  if ((!o->max_failures || run->failures < o->max_failures) && (!o->max_timeouts || run->timeouts < o->max_timeouts))
    return false;
  run->ps->stuck++;
  r->resume[run->pi] = size == 1 ? c->chunk.hi : 0;
  if (o->verbose)
    fprintf(stderr, "rreduce: pass %s paused until the next round: %u uninteresting candidates, %u timeouts in a row\n",
            run->pass->name, run->failures, run->timeouts);
  return true;
}

/* Takes an interesting candidate: at once (the sweep goes on on the new program), or as the
   bisection's answer so far. */
static StepEnd take(Reducer *r, PassRun *run, Cand *c, const Program **cur, bool *progress_made) {
  red_sweep_verdict(&run->sweep, true);
  if (!red_sweep_accepts_at_once(&run->sweep)) {
    red_cand_free(r, &run->answer);
    run->answer = *c;
    *c = run->flight[--run->nflight]; /* moved out of the flight, not freed */
    return STEP_GOING;
  }
  bool ok = red_accept(r, run->pass, run->ps, c);
  land_all(r, run); /* built on the program just replaced */
  run->failures = run->timeouts = 0;
  run->hot = true;
  r->pool_after_pass = false;
  *progress_made = true;
  if (!ok || !(*cur = red_load_current(r))) return STEP_FAILED;
  return STEP_GOING;
}

/* One step of a pass: the sweep's next candidate, tested with what the next steps may need beside
   it, and its verdict. */
static StepEnd step(Reducer *r, PassRun *run, const Program **cur, bool *progress_made) {
  size_t n = red_count(r, run->pass, *cur);
  RedSweep after = run->sweep;
  RedChunk chunk;
  if (!red_sweep_next(&after, n, &chunk)) return STEP_OVER;
  Cand *c = fill(r, run, *cur, n, &after, *progress_made);
  if (!c) return STEP_FAILED;
  await(r, run, c);
  if (*r->o->stop) return STEP_GOING; /* an interrupted test's verdict does not count */
  run->sweep = after;
  if (!c->text) { /* proposes nothing: no test, no verdict but in a bisection */
    if (!red_sweep_accepts_at_once(&run->sweep)) red_sweep_verdict(&run->sweep, false);
    land(r, run, (size_t)(c - run->flight));
    return STEP_GOING;
  }
  bool interesting = c->verdict == 1;
  if (red_sweep_accepts_at_once(&run->sweep)) {
    if (!interesting) run->failures += after.size == 1;
    if (!interesting && stuck(r, run, c, after.size)) return STEP_STUCK;
  }
  if (interesting) return take(r, run, c, cur, progress_made);
  red_sweep_verdict(&run->sweep, false);
  run->hot = false;
  land(r, run, (size_t)(c - run->flight));
  return STEP_GOING;
}

/* Runs one pass over the current program; *progress_made when anything was accepted. */
static bool run_pass(Reducer *r, size_t pi, bool *progress_made) {
  const RedOptions *o = r->o;
  const RedPass *pass = o->passes[pi];
  bool bisect = pass->search == RED_FIRST; /* a bisection is never done: it accepts at its end */
  if (!bisect && r->done_gen[pi] == r->generation) return true; /* nothing changed since it found nothing */
  if (!bisect && r->resume[pi] == 0) r->sweep_gen[pi] = r->generation;
  const Program *cur = red_load_current(r);
  if (!cur) return false;
  PassRun *run = xcalloc(1, sizeof *run);
  *run = (PassRun){.pi = pi, .pass = pass, .ps = &r->st->per_pass[pi]};
  red_sweep_start(&run->sweep, pass->search, red_count(r, pass, cur), bisect ? 0 : r->resume[pi]);
  r->pool_after_pass = false; /* what the last pass started for this one is adopted by its first step */
  StepEnd end = STEP_GOING;
  bool skipped = false;
  while (end == STEP_GOING && !*o->stop) {
    if ((skipped = skip_pressed(r, pass->name))) { /* the next round goes on from here */
      if (!bisect) r->resume[pi] = red_sweep_position(&run->sweep);
      break;
    }
    end = step(r, run, &cur, progress_made);
    progress(r, pass->name);
  }
  land_all(r, run);
  bool ok = end != STEP_FAILED;
  if (ok && run->answer.text && !*o->stop) { /* the bisection's answer (the best so far, when skipped) */
    ok = red_accept(r, pass, run->ps, &run->answer);
    *progress_made = true;
  }
  red_cand_free(r, &run->answer);
  if (end == STEP_STUCK) {
    *progress_made = true;
  } else if (!bisect && !skipped && ok && !*o->stop) {
    r->resume[pi] = 0;
    if (r->sweep_gen[pi] == r->generation) r->done_gen[pi] = r->generation; /* found nothing */
    else *progress_made = true; /* the program changed under the sweep: sweep again */
  }
  if (!ok || *o->stop) red_drop_pool(r);
  free(run);
  return ok;
}

/* The pipeline the run reduces with the program: --pipeline's, else the one the input's test says
   it ran (its outcome), unless --no-pipeline; none when the test says nothing of one. */
static void start_pipeline(Reducer *r, const RunResult *input_test) {
  const RedOptions *o = r->o;
  if (o->no_pipeline) return;
  char *said = NULL;
  if (o->pipeline) {
    said = xstrdup(o->pipeline);
  } else if (input_test && input_test->outcome) {
    Outcome f;
    outcome_read(&f, input_test->outcome);
    said = f.pipeline ? xstrdup(f.pipeline) : NULL;
    outcome_free(&f);
  }
  char err[256];
  if (said && red_pipeline_parse(&r->pipe, said, "the test's pipeline", err, sizeof err)) {
    r->piped = r->pipe.has_passes || r->pipe.opt_level >= 0; /* else nothing in it to reduce */
    r->pipe_json = red_pipeline_json(&r->pipe);
    r->st->pipeline_before = xstrdup(said);
  }
  free(said);
}

/* The input's test (o->verify, started in *job), with -j 2 or more beside the first candidate of
   the run (what it tests next if the input is interesting: launch() adopts it), then o->on_input.
   Building that candidate costs about as long as loading the input: the test gets that long to
   answer first (a test faster than a build gains nothing from it).  1: go on; 0: the caller ends
   the run, or it was stopped. */
static int test_input(Reducer *r, OracleJob *job, const Program *input) {
  const RedOptions *o = r->o;
  RunResult res = {0};
  if (o->verify) {
    double until = clock_seconds() + (o->input_load_seconds > 0.02 ? o->input_load_seconds : 0.02);
    while (!oracle_done(job) && !*o->stop && clock_seconds() < until) oracle_wait(&o->oracle, job, 1, 5);
    if (!oracle_done(job) && red_job_count(o) > 1 && input) {
      red_start_first_of(r, 0, o->npasses, input, r->current, r->generation);
    }
    while (!oracle_done(job)) {
      oracle_wait(&o->oracle, job, 1, 20);
      progress(r, "verify");
    }
    oracle_finish(&o->oracle, job, &res);
  }
  bool go = !*o->stop && (!o->on_input || o->on_input(o->on_input_ctx, r->current, o->verify ? &res : NULL));
  if (go) start_pipeline(r, o->verify ? &res : NULL);
  run_result_free(&res);
  if (!go) red_drop_pool(r);
  return go;
}

/* The final program: without TVM's comments unless asked to keep them (a test that greps them
   would notice, so it is still checked).  *calls follows the program kept. */
static void strip_comments(Reducer *r, size_t *calls) {
  const Program *p = red_load_current(r);
  if (!p) return;
  Cand c = {.text = prog_print(p, true), .calls = prog_count_calls_in_module(p->m),
            .pipe = r->piped ? xstrdup(r->pipe_json) : NULL}; /* under the pipeline the bug needs */
  red_drop_loaded(r); /* before the test: its memory is the test's */
  if (strcmp(c.text, r->current) != 0 && red_launch(r, &c) &&
      (oracle_pending(&c.job) ? red_collect(r, &c, false) : c.verdict) == 1 &&
      (!r->o->out_path || red_write_out(r->o, c.text))) { /* kept only once saved */
    free(r->current);
    r->current = c.text;
    c.text = NULL;
    *calls = c.calls;
  }
  free(c.text);
  free(c.pipe);
  free(c.ran);
}

bool red_reduce(char **text, const RedOptions *o, RedStats *st, char *err, size_t errlen) {
  /* The input's test starts first, the set-up beside it; what only a run that goes on needs (a
     content hash of a large input, ...) waits for its verdict: an input refused at once costs
     little more than its test. */
  OracleJob input_test = {NULL, NULL};
  RunSide side = {{"pipeline"}, {o->pipeline}, o->pipeline && !o->no_pipeline ? 1 : 0};
  bool can_test =
      !o->verify || oracle_start(&o->oracle, o->basename, *text, strlen(*text), &side, &input_test, err, errlen);
  Reducer r = {.o = o, .st = st, .current = *text, .start = clock_seconds(), .err = err, .errlen = errlen};
  strset_init(&r.cache.interesting);
  strset_init(&r.cache.boring);
  strset_init(&r.visited);
  size_t np = o->npasses ? o->npasses : 1;
  st->per_pass = xcalloc(np, sizeof *st->per_pass);
  r.resume = xcalloc(np, sizeof *r.resume);
  r.sweep_gen = xcalloc(np, sizeof *r.sweep_gen);
  r.done_gen = xcalloc(np, sizeof *r.done_gen);
  for (size_t pi = 0; pi < o->npasses; pi++) r.done_gen[pi] = SIZE_MAX; /* none is done */
  st->bytes_before = strlen(*text);
  if (o->input && o->input->m) { /* the caller's load of *text: taken over, not repeated */
    r.loaded = *o->input;
    r.loaded_gen = 1;
    memset(o->input, 0, sizeof *o->input);
  }
  const Program *input = red_load_current(&r);
  int started = can_test ? test_input(&r, &input_test, input) : -1;
  bool ok = started >= 0, progress_made = started > 0;
  if ((st->started = started > 0)) {
    red_visit(&r, *text);
    st->calls_before = r.current_calls = r.best_calls = input ? prog_count_calls_in_module(input->m) : 0;
    r.best = xstrdup(*text);
  }
  for (int round = 0; progress_made && ok && !*o->stop; round++) {
    progress_made = false;
    for (size_t pi = 0; pi < o->npasses && ok && !*o->stop; pi++) ok = run_pass(&r, pi, &progress_made);
    if (o->fast) break;
  }
  red_drop_pool(&r);
  size_t calls = r.current_calls; /* counted as it went: a parse of a large program to count them
                                     again would delay the end of an interrupted run by as long */
  if (r.best && strcmp(r.current, r.best) != 0) { /* the run ended on a larger program: the best stands (FILE has it) */
    free(r.current);
    r.current = r.best;
    r.best = NULL;
    calls = r.best_calls;
    red_drop_loaded(&r); /* it was the larger program's */
  }
  free(r.best);
  st->interrupted = *o->stop != 0;
  if (ok && st->started && !o->keep_comments && !*o->stop) strip_comments(&r, &calls);
  if (r.piped) {
    st->pipeline_after = red_pipeline_json_ran(&r.pipe); /* with what ran: the report says what still runs */
    st->pipeline_minimal = ok && !*o->stop && !o->fast;
    for (size_t pi = 0; pi < o->npasses; pi++) /* every pipeline pass ended on a sweep that found nothing */
      if (o->passes[pi]->count_pipeline && r.done_gen[pi] != r.generation) st->pipeline_minimal = false;
  }
  if (o->progress == RED_PROGRESS_TERMINAL) fputs("\r\033[K", stderr);
  *text = r.current;
  st->bytes_after = strlen(r.current);
  st->calls_after = calls;
  st->seconds = clock_seconds() - r.start;
  strset_free(&r.cache.interesting);
  strset_free(&r.cache.boring);
  strset_free(&r.visited);
  prog_free(&r.loaded);
  red_pipeline_free(&r.pipe);
  free(r.pipe_json);
  free(r.resume);
  free(r.sweep_gen);
  free(r.done_gen);
  return ok;
}
