/*
 * The driver: for each pass in order, for each of its opportunities, build the candidate from a
 * fresh copy of the current program, print it, guard it (parse + type-check: no test is spent on
 * an ill-formed program), look it up in the cache, run the test; keep it if interesting.  Passes
 * repeat until none makes progress (llvm-reduce's fixpoint).  The best program is written after
 * every success, so an interrupt leaves an interesting file.
 *
 * With -j N the next N candidates of a pass are tested at once, but their verdicts are taken in
 * submission order: the first interesting one wins and the jobs after it are killed, exactly the
 * choice a sequential run makes.  So the result is the same for every N.
 */
#include "../support/clock.h"
#include "driver.h"
#include "keys.h"

#include <errno.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../support/content_hash.h"
#include "../support/fileio.h"
#include "../support/strset.h"
#include "../support/strbuf.h"
#include "../support/text_diff.h"
#include "../support/xalloc.h"

bool red_verdict(const RunResult *r, const RedOptions *o) {
  return r->status == 0 && (!o->match || pattern_search(o->match, r->output, r->output_len));
}

/* Test outcomes by content hash (git's blob hash, from libgit2). */
typedef struct Cache {
  StrSet interesting, boring;
} Cache;

/* The reduction's state. */
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
  size_t *resume;         /* per pass: where the next round starts (after a stuck guard) */
  /* 1-minimality: `generation` counts accepted candidates.  A pass's sweep (its opportunities
     from the first to the last, across pauses) that started and ended in one generation found
     nothing on the current program: it is done until the program changes.  One that a change
     overtook sweeps again, from the first opportunity. */
  size_t generation;
  size_t *sweep_gen;      /* per pass: the generation its current sweep started in */
  /* The current program, loaded (parsed and checked) once per generation for every pass that
     proposes on it, instead of once per pass: on a large program a load costs as much as a
     candidate.  Valid when loaded_gen == generation + 1 (0: nothing loaded). */
  Program loaded;
  size_t loaded_gen;
  size_t *done_gen;       /* per pass: the generation its last clean sweep found nothing in */
  /* Tests started ahead for a candidate the sequential order may ask for next (the one after an
     accepted step, see run_pass); launch() adopts a running one by content hash. */
  struct Spec {
    char key[GIT_OID_HEXSZ + 1];
    char *text;
    OracleJob job;
  } pool[RED_MAX_JOBS];
  size_t npool;
  char *err;
  size_t errlen;
  bool git;               /* libgit2 is initialized (content hashes): not before it is needed */
} Reducer;

/* One candidate of a batch. */
typedef struct Cand {
  size_t index;   /* the pass's opportunities [index, end) */
  size_t end;
  size_t size;    /* the chunk size of the sweep it belongs to (RED_CHUNKS) */
  char *text;
  size_t calls;
  OracleJob job;  /* running, or not pending when the verdict is known */
  int verdict;    /* 1 interesting, 0 not (when the job is not pending) */
} Cand;

static void save_also(Reducer *r, const char *text) {
  const RedOptions *o = r->o;
  mkdir(o->also_dir, 0755);
  char path[4096];
  snprintf(path, sizeof path, "%s/%05lu.relay", o->also_dir, ++r->st->also_saved);
  if (!file_replace(path, text, strlen(text))) fprintf(stderr, "rreduce: cannot save %s\n", path);
}

/* Collects a finished (or cancelled) job's verdict, recording it in the cache and the stats. */
static int collect(Reducer *r, Cand *c, bool cancelled) {
  RunResult res;
  bool finished_before = oracle_done(&c->job);
  if (cancelled && !finished_before) oracle_cancel(&c->job);
  oracle_finish(&r->o->oracle, &c->job, &res);
  if (cancelled && !finished_before) { /* killed: no verdict */
    r->st->cancelled++;
    run_result_free(&res);
    return -1;
  }
  r->st->tests_run++;
  r->st->timeouts += res.timed_out;
  int v = red_verdict(&res, r->o);
  if (r->o->also_interesting >= 0 && res.status == r->o->also_interesting) save_also(r, c->text);
  run_result_free(&res);
  if (r->o->use_cache) {
    char key[GIT_OID_HEXSZ + 1];
    content_hash(c->text, strlen(c->text), key);
    strset_add(v ? &r->cache.interesting : &r->cache.boring, key);
  }
  return v;
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
  fprintf(stderr, "\r\033[K%s", line);
  fflush(stderr);
}

/* Records a program as having been current (Reducer.visited). */
static void visit(Reducer *r, const char *text) {
  char key[GIT_OID_HEXSZ + 1];
  content_hash(text, strlen(text), key);
  strset_add(&r->visited, key);
}

/* Whether the user pressed `s` to skip the rest of this pass for the round (said on stderr). */
static bool skip_pressed(Reducer *r, const char *pass) {
  if (!r->o->keys || !red_keys_skip()) return false;
  if (r->o->progress) fputs("\r\033[K", stderr);
  fprintf(stderr, "rreduce: s: skipping the rest of pass %s for this round\n", pass);
  return true;
}

/* Writes a better program to out_path, its hash to written_log first (see RedOptions). */
static bool write_out(const RedOptions *o, const char *text) {
  if (o->written_log) {
    char line[GIT_OID_HEXSZ + 2];
    content_hash(text, strlen(text), line);
    strcat(line, "\n");
    FILE *f = fopen(o->written_log, "a");
    bool ok = f && fputs(line, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) return false;
  }
  return file_replace(o->out_path, text, strlen(text));
}

static bool accept(Reducer *r, const RedPass *pass, RedPassStats *ps, Cand *c) {
  const RedOptions *o = r->o;
  /* A new best is saved before anything takes it: when FILE cannot be written (a full disk), the
     run ends on the program FILE holds, and says so, rather than on one it could not save. */
  bool best = c->calls < r->best_calls || (c->calls == r->best_calls && strlen(c->text) <= strlen(r->best));
  if (best && o->out_path && !write_out(o, c->text)) {
    snprintf(r->err, r->errlen, "cannot write %s (%s); it holds the last program saved", o->out_path, strerror(errno));
    return false;
  }
  if (o->verbose)
    fprintf(stderr, "rreduce: %s #%zu accepted: %zu -> %zu bytes, %zu -> %zu operator calls\n", pass->name, c->index,
            strlen(r->current), strlen(c->text), r->current_calls, c->calls);
  if (o->print_diff) {
    char *diff = text_diff(r->current, c->text, o->basename); /* libgit2 writes a/ and b/ */
    if (o->progress) fputs("\r\033[K", stderr); /* not on top of the status line */
    fprintf(stderr, "rreduce: %s #%zu accepted:\n%s", pass->name, c->index, diff ? diff : "(no diff: libgit2 failed)\n");
    free(diff);
  }
  if (o->history) {
    char msg[512], herr[256];
    snprintf(msg, sizeof msg, "%s: %zu -> %zu bytes, %zu -> %zu operator calls\n\nopportunity %zu; test: exit 0 (interesting)\n",
             pass->name, strlen(r->current), strlen(c->text), r->current_calls, c->calls, c->index);
    if (!red_history_commit(o->history, c->text, msg, herr, sizeof herr)) fprintf(stderr, "rreduce: %s\n", herr);
  }
  free(r->current);
  r->current = c->text;
  r->current_calls = c->calls;
  visit(r, r->current);
  c->text = NULL;
  r->generation++;
  r->st->accepted++;
  ps->accepted++;
  if (!best) return true; /* larger than the best so far, not simpler: FILE keeps the best */
  free(r->best);
  r->best = xstrdup(r->current);
  r->best_calls = r->current_calls;
  return true;
}

char *red_propose_range(const Program *cur, const RedPass *pass, size_t lo, size_t hi) {
  Program out;
  prog_clone(cur, &out);
  bool any = false;
  if (pass->apply_range && hi - lo > 1) any = pass->apply_range(&out, lo, hi);
  else
    for (size_t i = hi; i > lo; i--) any |= pass->apply(&out, i - 1); /* highest first: see RED_CHUNKS */
  char *text = any ? prog_print(&out, false) : NULL;
  prog_free(&out);
  return text;
}

char *red_propose(const Program *cur, const RedPass *pass, size_t i) { return red_propose_range(cur, pass, i, i + 1); }

/* Forgets the loaded program (it is not the current one any more, or its memory is wanted). */
static void drop_loaded(Reducer *r) {
  prog_free(&r->loaded);
  r->loaded_gen = 0;
}

/* The current program, parsed and typed once per accepted step (every candidate is built from a
   clone of it); NULL with the message in r->err when it cannot be loaded. */
static const Program *load_current(Reducer *r) {
  if (r->loaded_gen == r->generation + 1) return &r->loaded;
  drop_loaded(r);
  if (!prog_load_as(&r->loaded, "candidate", r->current, r->o->guard, r->err, r->errlen)) return NULL;
  r->loaded_gen = r->generation + 1;
  return &r->loaded;
}

/* Builds the candidate that applies opportunities [lo, hi) of `pass` into c.  False when it
   proposes nothing new, or the guard refuses it: the candidate as the test will see it must parse
   and type-check.  ps NULL: a speculative build, counted nowhere. */
static bool build(Reducer *r, const RedPass *pass, RedPassStats *ps, const Program *cur, size_t lo, size_t hi, Cand *c) {
  char *text = red_propose_range(cur, pass, lo, hi);
  if (!text) return false;
  if (!strcmp(text, r->current)) { /* a no-op proposal: nothing to test */
    free(text);
    return false;
  }
  if (ps) ps->tried++;
  Program check;
  char gerr[512];
  bool parses;
  if (!prog_load_as_parsed(&check, "candidate", text, r->o->guard, gerr, sizeof gerr, &parses)) {
    /* Not parsing is a pass's bug (the goal is none).  The type checker refusing a candidate is
       how a pass that changes types (shapes, attributes, literals) learns which changes keep the
       program well-typed: the guard checks, so passes need not check themselves. */
    if (!ps || *r->o->stop) { /* a speculative candidate: the sequential run counts it if it gets
                                 there; an interrupted parse is no verdict */
    } else if (parses) {
      r->st->ill_typed++;
      ps->ill_typed++;
    } else {
      r->st->guard_rejections++;
      ps->rejected_by_guard++;
    }
    if (ps && (r->o->verbose > 1 || (r->o->verbose && !parses)))
      fprintf(stderr, "rreduce: guard rejected a %s candidate: %s", pass->name, gerr);
    free(text);
    return false;
  }
  *c = (Cand){lo, hi, hi - lo, text, prog_count_calls_in_module(check.m), {NULL, NULL}, 0};
  prog_free(&check);
  return true;
}

/* Builds the next candidate of `pass`: the chunk of `size` opportunities at *i or after it (the
   first chunk that proposes something new); false when the pass has no more. */
static bool next_candidate(Reducer *r, const RedPass *pass, RedPassStats *ps, const Program **cur, size_t *i,
                           size_t size, Cand *c, bool *error) {
  for (;;) {
    if (*r->o->stop) return false;
    if (!*cur && !(*cur = load_current(r))) {
      *error = true;
      return false;
    }
    size_t n = pass->count(*cur);
    if (*i >= n) return false;
    size_t lo = *i, hi = n - lo > size ? lo + size : n;
    *i = hi;
    if (build(r, pass, ps, *cur, lo, hi, c)) return true;
  }
}

/* The cached verdict of the text with content hash `key`: 1 interesting, 0 not, -1 unknown (or
   no cache). */
static int cached_verdict(const Reducer *r, const char *key) {
  if (!r->o->use_cache) return -1;
  if (strset_contains(&r->cache.interesting, key)) return 1;
  return strset_contains(&r->cache.boring, key) ? 0 : -1;
}

/* Tests run at once: -j, at least 1, at most RED_MAX_JOBS. */
static unsigned job_count(const RedOptions *o) { return o->jobs ? (o->jobs > RED_MAX_JOBS ? RED_MAX_JOBS : o->jobs) : 1; }

/* Starts the test on a candidate, or answers from the cache. */
static bool launch(Reducer *r, Cand *c) {
  char key[GIT_OID_HEXSZ + 1];
  content_hash(c->text, strlen(c->text), key);
  if (strset_contains(&r->visited, key)) { /* interesting, but the run has been there: no cycles */
    r->st->cache_hits++;
    c->verdict = 0;
    return true;
  }
  int known = cached_verdict(r, key);
  if (known >= 0) {
    r->st->cache_hits++;
    c->verdict = known;
    return true;
  }
  for (size_t q = 0; q < r->npool; q++)
    if (!strcmp(r->pool[q].key, key)) { /* started ahead: the same test on the same text */
      c->job = r->pool[q].job;
      free(r->pool[q].text);
      r->pool[q] = r->pool[--r->npool];
      return true;
    }
  return oracle_start(&r->o->oracle, r->o->basename, c->text, strlen(c->text), &c->job, r->err, r->errlen);
}

/* Cancels the tests started ahead that nobody adopted. */
static void drop_pool(Reducer *r) {
  while (r->npool) {
    struct Spec *sp = &r->pool[--r->npool];
    Cand c = {0, 0, 1, sp->text, 0, sp->job, 0};
    collect(r, &c, true);
    free(sp->text);
  }
}

/* Starts the test of `text` ahead, unless its verdict is known (consumes text). */
static void start_ahead(Reducer *r, char *text) {
  struct Spec *sp = &r->pool[r->npool];
  content_hash(text, strlen(text), sp->key);
  char err[256] = "";
  if (cached_verdict(r, sp->key) < 0 && oracle_start(&r->o->oracle, r->o->basename, text, strlen(text), &sp->job, err, sizeof err)) {
    sp->text = text;
    r->npool++;
  } else {
    free(text);
  }
}

/* Starts the test of what a sequential run tries first from pass `from` on, on `cur`, in generation
   gen: the first candidate of the first pass that has one (a bisection's first probe, a chunked
   pass's chunk of everything, or the first opportunity that proposes something, from where a
   paused pass resumes).  Passes done in gen are skipped, as the run skips them, and so is a pass
   whose every opportunity proposes nothing; at most `span` passes are looked at, going on into
   the next round (pass 0 on) when span reaches past the last pass. */
static void start_first_of(Reducer *r, size_t from, size_t span, const Program *cur, size_t gen) {
  size_t npasses = r->o->npasses;
  for (size_t k = 0; k < span && r->npool < RED_MAX_JOBS && !*r->o->stop; k++) {
    size_t pj = (from + k) % npasses;
    const RedPass *pass = r->o->passes[pj];
    if (r->done_gen[pj] == gen) continue; /* the run skips it (never so for a bisected pass) */
    size_t n = pass->count(cur), start = r->resume[pj];
    if (start >= n) continue;
    Cand c;
    bool built = false, tried_all = false;
    if (pass->search == RED_FIRST) built = build(r, pass, NULL, cur, n / 2, n / 2 + 1, &c);
    else if (pass->search == RED_CHUNKS && start == 0 && n > 1) built = build(r, pass, NULL, cur, 0, n, &c);
    else {
      size_t i = start;
      for (; i < n && i < start + 8 && !built; i++) built = build(r, pass, NULL, cur, i, i + 1, &c);
      tried_all = !built && i == n;
    }
    if (built) start_ahead(r, c.text);
    /* a pass with candidates: the run stops there, whether or not this one proposed */
    if (!tried_all) return;
  }
}

/* Starts the test of what a sequential run tries next if `won` (of pass pi) is accepted: the pass's
   candidate at the same index on won's program, with the same chunk size, or when the pass has no
   more there, the first candidate of the passes after it, into the next round (an accepted step
   makes one).  Only its text is kept: when the run gets there, launch() finds the test running or
   done. */
static void start_after(Reducer *r, size_t pi, const Cand *won) {
  const RedPass *pass = r->o->passes[pi];
  Program next;
  if (r->npool >= RED_MAX_JOBS || !prog_load_as(&next, "candidate", won->text, r->o->guard, NULL, 0)) return;
  char *saved = r->current; /* build() compares with the current program: here, won's */
  r->current = won->text;
  size_t n = pass->count(&next), lo = won->index;
  for (; lo < n && !*r->o->stop; lo += won->size) {
    Cand c;
    if (!build(r, pass, NULL, &next, lo, n - lo > won->size ? lo + won->size : n, &c)) continue;
    start_ahead(r, c.text);
    break;
  }
  size_t npasses = r->o->npasses;
  if (lo >= n) start_first_of(r, pi + 1, r->o->fast ? npasses - pi - 1 : npasses - 1, &next, r->generation + 1);
  r->current = saved;
  prog_free(&next);
}

/* Starts the test of what a sequential run tries next if every candidate of pass pi fails: the
   first candidate of the passes after it, and of the next round's when this one has made progress. */
static void start_next_pass(Reducer *r, size_t pi, const Program *cur, bool progress_made) {
  size_t npasses = r->o->npasses;
  start_first_of(r, pi + 1, progress_made && !r->o->fast ? npasses - 1 : npasses - pi - 1, cur, r->generation);
}

/* Whether the pass's candidate in flight is more likely interesting than not, by the pass's record
   in this run (Laplace's rule: a pass not yet tested counts as even, and so as likely). */
static bool likely_interesting(const RedPassStats *ps) {
  unsigned long tested = ps->tried - ps->ill_typed - ps->rejected_by_guard - 1; /* not the one in flight */
  return 2 * (ps->accepted + 1) >= tested + 2;
}

/* Waits for batch[k]'s verdict (the others keep running), then collects it. */
static void await(Reducer *r, const char *pass, Cand *batch, size_t n, size_t k, unsigned *timeouts) {
  Cand *c = &batch[k];
  while (oracle_pending(&c->job) && !oracle_done(&c->job)) {
    OracleJob active[RED_MAX_JOBS];
    for (size_t q = 0; q < n; q++) active[q] = batch[q].job;
    oracle_wait(&r->o->oracle, active, n, 20);
    progress(r, pass);
  }
  if (oracle_pending(&c->job)) {
    unsigned long before = r->st->timeouts;
    c->verdict = collect(r, c, false);
    if (timeouts) *timeouts = r->st->timeouts > before ? *timeouts + 1 : 0;
  }
}

/* Drops flight[k] (its text too unless kept), cancelling its test if it is still running. */
static void land(Reducer *r, Cand *flight, size_t *n, size_t k) {
  if (oracle_pending(&flight[k].job)) collect(r, &flight[k], true);
  free(flight[k].text);
  flight[k] = flight[--*n];
}

/* A RED_FIRST pass: bisects for its first interesting opportunity, assuming those after an
   interesting one are interesting too, and accepts it.  log2(N) tests where trying them in order
   costs as many tests as the answer's index.  An opportunity that proposes nothing counts as not
   interesting.  With -j N the next probes of the bisection, breadth first (both halves' midpoints,
   then theirs; the half the last step went to first), are tested while the current one runs; only
   the current one decides, so every N takes the same steps to the same answer. */
static bool run_first(Reducer *r, size_t pi, bool *progress_made) {
  const RedPass *pass = r->o->passes[pi];
  RedPassStats *ps = &r->st->per_pass[pi];
  unsigned jobs = job_count(r->o);
  const Program *cur = load_current(r);
  if (!cur) return false;
  size_t lo = 0, hi = pass->count(cur), nflight = 0;
  Cand best = {0}, flight[RED_MAX_JOBS];
  bool ok = true, went_left = true;
  while (lo < hi && ok && !*r->o->stop && !skip_pressed(r, pass->name)) { /* skipped: the best so far stands */
    /* the probes the next steps may need, breadth first over the halves */
    size_t want[RED_MAX_JOBS], nwant = 0, qlo[2 * RED_MAX_JOBS + 2], qhi[2 * RED_MAX_JOBS + 2], qh = 0, qt = 0;
    qlo[qt] = lo, qhi[qt++] = hi;
    while (nwant < jobs && qh < qt) {
      size_t a = qlo[qh], b = qhi[qh++];
      if (a >= b) continue;
      size_t m = a + (b - a) / 2;
      want[nwant++] = m;
      /* the half the last step went to first: the answer's side tends to repeat (a crash near the
         end makes every probe before it uninteresting) */
      qlo[qt] = went_left ? a : m + 1, qhi[qt++] = went_left ? m : b;
      qlo[qt] = went_left ? m + 1 : a, qhi[qt++] = went_left ? b : m;
    }
    for (size_t w = 0; w < nwant && ok; w++) {
      bool flying = false;
      for (size_t q = 0; q < nflight; q++) flying |= flight[q].index == want[w];
      if (flying) continue;
      Cand *c = &flight[nflight++];
      if (!build(r, pass, ps, cur, want[w], want[w] + 1, c)) *c = (Cand){want[w], want[w] + 1, 1, NULL, 0, {NULL, NULL}, 0};
      else if (!launch(r, c)) ok = false;
      if (w == 0) drop_pool(r); /* the first probe adopted what was started ahead for it, if anything */
    }
    if (!ok) break;
    size_t k = 0;
    while (flight[k].index != want[0]) k++;
    await(r, pass->name, flight, nflight, k, NULL);
    if (*r->o->stop) break;
    if (flight[k].text && flight[k].verdict == 1) {
      free(best.text);
      best = flight[k];
      flight[k].text = NULL;
      hi = want[0];
      went_left = true;
    } else {
      lo = want[0] + 1;
      went_left = false;
    }
    land(r, flight, &nflight, k);
    for (size_t q = nflight; q-- > 0;) /* probes off the path the answer took */
      if (flight[q].index < lo || flight[q].index >= hi) land(r, flight, &nflight, q);
  }
  while (nflight) land(r, flight, &nflight, nflight - 1);
  if (best.text && ok && !*r->o->stop) {
    ok = accept(r, pass, ps, &best);
    *progress_made = true;
  }
  free(best.text);
  return ok;
}

/* Runs one pass over the current program; *progress_made when anything was accepted.  A RED_CHUNKS
   pass starts with one chunk of all its opportunities and halves the chunks after each sweep. */
static bool run_pass(Reducer *r, size_t pi, bool *progress_made) {
  const RedOptions *o = r->o;
  const RedPass *pass = o->passes[pi];
  if (pass->search == RED_FIRST) return run_first(r, pi, progress_made);
  if (r->done_gen[pi] == r->generation) return true; /* nothing changed since it found nothing */
  if (r->resume[pi] == 0) r->sweep_gen[pi] = r->generation;
  RedPassStats *ps = &r->st->per_pass[pi];
  unsigned jobs = job_count(o);
  size_t i = r->resume[pi], resume = 0, size = 1;
  unsigned failures = 0, timeouts = 0;
  bool ok = true, stuck = false, hot = false, skipped = false;
  const Program *cur = NULL; /* loaded when needed: a pass done on this program needs none */
  if (pass->search == RED_CHUNKS && i == 0) {
    if (!(cur = load_current(r))) return false;
    size_t n = pass->count(cur);
    size = n > 1 ? n : 1;
  }
  while (ok && !*o->stop && !stuck) {
    if ((skipped = skip_pressed(r, pass->name))) {
      r->resume[pi] = i; /* the next round goes on from here, as after a stuck guard */
      break;
    }
    /* a batch: the next candidates, up to one per job, stopping at a known winner */
    Cand batch[RED_MAX_JOBS];
    size_t n = 0;
    bool error = false;
    while (n + r->npool < jobs || n == 0) {
      if (!next_candidate(r, pass, ps, &cur, &i, size, &batch[n], &error)) {
        /* one slot left for what comes after this pass's last candidate: what the run tries next
           if it is accepted, or if it is not, whichever is likelier */
        if (!error && !*o->stop && size == 1 && n > 0 && n + r->npool < jobs && cur) {
          if (n == 1 && oracle_pending(&batch[0].job) && likely_interesting(ps)) start_after(r, pi, &batch[0]);
          else start_next_pass(r, pi, cur, *progress_made);
        }
        if (error || *o->stop || size == 1) break;
        /* the next sweep, with chunks half as large: what a sequential run tries next if all of
           this sweep fails, so the batch may go on into it */
        size = (size + 1) / 2;
        i = 0;
        continue;
      }
      batch[n].size = size;
      if (!launch(r, &batch[n])) {
        free(batch[n].text);
        error = true;
        break;
      }
      n++;
      if (n == 1) {
        drop_pool(r); /* what was started ahead for this step has been adopted, or is not needed */
        /* A pass whose last candidate was accepted often accepts the next too (attributes reset
           one after another, a size halved again): then the best use of a second job is what
           the run tries after accepting this candidate, not the one after it. */
        if (hot && jobs > 1 && oracle_pending(&batch[0].job)) start_after(r, pi, &batch[0]);
      }
      if (!oracle_pending(&batch[n - 1].job) && batch[n - 1].verdict) break;
    }
    if (error) ok = false;
    if (n == 0) break;
    /* verdicts in submission order */
    size_t winner = n;
    for (size_t k = 0; k < n && winner == n && ok; k++) {
      Cand *c = &batch[k];
      await(r, pass->name, batch, n, k, &timeouts);
      if (*o->stop) break; /* an interrupted test's verdict does not count */
      if (c->verdict == 1) winner = k;
      else failures += c->size == 1;
      /* the stuck guard looks at every verdict, as a sequential run would: any -j stops here */
      if ((o->max_failures && failures >= o->max_failures) || (o->max_timeouts && timeouts >= o->max_timeouts)) {
        stuck = true;
        resume = c->size == 1 ? c->end : 0;
        break;
      }
    }
    hot = winner < n;
    for (size_t k = 0; k < n; k++) {
      /* jobs whose verdict is not needed: after the winner, after a stuck guard, on errors */
      if (oracle_pending(&batch[k].job)) collect(r, &batch[k], true);
      if (k == winner && ok && !*o->stop) {
        ok = accept(r, pass, ps, &batch[k]);
        i = batch[k].index; /* the same index now names the next opportunity */
        size = batch[k].size;
        failures = timeouts = 0;
        *progress_made = true;
        cur = NULL; /* the next candidate is on the accepted program */
      }
      free(batch[k].text);
    }
    progress(r, pass->name);
    if (stuck) {
      ps->stuck++;
      r->resume[pi] = resume; /* the next round goes on from here */
      *progress_made = true;
      if (o->verbose)
        fprintf(stderr, "rreduce: pass %s paused until the next round: %u uninteresting candidates, %u timeouts in a row\n",
                pass->name, failures, timeouts);
      break;
    }
  }
  if (!stuck && !skipped && ok && !*o->stop) {
    r->resume[pi] = 0;
    if (r->sweep_gen[pi] == r->generation) r->done_gen[pi] = r->generation; /* found nothing */
    else *progress_made = true; /* the program changed under the sweep: sweep again */
  }
  if (!ok || *o->stop) drop_pool(r);
  return ok;
}

static void need_git(Reducer *r) {
  if (!r->git) git_libgit2_init();
  r->git = true;
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
    if (!oracle_done(job) && job_count(o) > 1 && input) {
      need_git(r);
      start_first_of(r, 0, o->npasses, input, r->generation);
    }
    while (!oracle_done(job)) {
      oracle_wait(&o->oracle, job, 1, 20);
      progress(r, "verify");
    }
    oracle_finish(&o->oracle, job, &res);
  }
  bool go = !*o->stop && (!o->on_input || o->on_input(o->on_input_ctx, r->current, o->verify ? &res : NULL));
  run_result_free(&res);
  if (!go) drop_pool(r);
  return go;
}

bool red_reduce(char **text, const RedOptions *o, RedStats *st, char *err, size_t errlen) {
  /* The input's test starts first, the set-up beside it; what only a run that goes on needs (a
     content hash of a large input, ...) waits for its verdict: an input refused at once costs
     little more than its test. */
  OracleJob input_test = {NULL, NULL};
  bool can_test = !o->verify || oracle_start(&o->oracle, o->basename, *text, strlen(*text), &input_test, err, errlen);
  Reducer r = {.o = o, .st = st, .current = *text, .start = clock_seconds(), .err = err, .errlen = errlen};
  strset_init(&r.cache.interesting);
  strset_init(&r.cache.boring);
  strset_init(&r.visited);
  st->per_pass = xcalloc(o->npasses ? o->npasses : 1, sizeof *st->per_pass);
  r.resume = xcalloc(o->npasses ? o->npasses : 1, sizeof *r.resume);
  r.sweep_gen = xcalloc(o->npasses ? o->npasses : 1, sizeof *r.sweep_gen);
  r.done_gen = xcalloc(o->npasses ? o->npasses : 1, sizeof *r.done_gen);
  for (size_t pi = 0; pi < o->npasses; pi++) r.done_gen[pi] = SIZE_MAX; /* none is done */
  st->bytes_before = strlen(*text);
  if (o->input && o->input->m) { /* the caller's load of *text: taken over, not repeated */
    r.loaded = *o->input;
    r.loaded_gen = 1;
    memset(o->input, 0, sizeof *o->input);
  }
  const Program *input = load_current(&r);
  int started = can_test ? test_input(&r, &input_test, input) : -1;
  bool ok = started >= 0, progress_made = started > 0;
  if ((st->started = started > 0)) {
    need_git(&r);
    visit(&r, *text);
    st->calls_before = r.current_calls = r.best_calls = input ? prog_count_calls_in_module(input->m) : 0;
    r.best = xstrdup(*text);
  }
  for (int round = 0; progress_made && ok && !*o->stop; round++) {
    progress_made = false;
    for (size_t pi = 0; pi < o->npasses && ok && !*o->stop; pi++) ok = run_pass(&r, pi, &progress_made);
    if (o->fast) break;
  }
  drop_pool(&r);
  size_t calls = r.current_calls; /* counted as it went: a parse of a large program to count them
                                     again would delay the end of an interrupted run by as long */
  if (r.best && strcmp(r.current, r.best) != 0) { /* the run ended on a larger program: the best stands (FILE has it) */
    free(r.current);
    r.current = r.best;
    r.best = NULL;
    calls = r.best_calls;
    drop_loaded(&r); /* it was the larger program's */
  }
  free(r.best);
  st->interrupted = *o->stop != 0;
  /* The final program: without TVM's comments unless asked to keep them (a test that greps them
     would notice, so it is still checked). */
  const Program *p;
  if (ok && st->started && !o->keep_comments && !*o->stop && (p = load_current(&r))) {
    Cand c = {0, 0, 1, prog_print(p, true), prog_count_calls_in_module(p->m), {NULL, NULL}, 0};
    drop_loaded(&r); /* before the test: its memory is the test's */
    if (strcmp(c.text, r.current) != 0 && launch(&r, &c) && (oracle_pending(&c.job) ? collect(&r, &c, false) : c.verdict) == 1 &&
        (!o->out_path || write_out(o, c.text))) { /* kept only once saved */
      free(r.current);
      r.current = c.text;
      c.text = NULL;
      calls = c.calls;
    }
    free(c.text);
  }
  if (o->progress) fputs("\r\033[K", stderr);
  *text = r.current;
  st->bytes_after = strlen(r.current);
  st->calls_after = calls;
  st->seconds = clock_seconds() - r.start;
  strset_free(&r.cache.interesting);
  strset_free(&r.cache.boring);
  strset_free(&r.visited);
  prog_free(&r.loaded);
  free(r.resume);
  free(r.sweep_gen);
  free(r.done_gen);
  if (r.git) git_libgit2_shutdown();
  return ok;
}
