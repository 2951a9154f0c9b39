/*
 * One candidate's life (reducer.h): built from a fresh clone of the current program, printed and
 * guarded (parsed and type-checked again: no test is spent on an ill-formed program), answered
 * from the cache or tested, and, when interesting, accepted: FILE is written before anything takes
 * the new program.  Also the tests started ahead, outside the sweep in progress, for what a
 * sequential run tries next: launch() adopts them by content hash, so every -j gives the result a
 * sequential run gives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../interestingness/outcome.h"
#include "../support/fileio.h"
#include "../support/text_diff.h"
#include "../support/xalloc.h"
#include "reducer.h"

/* A guarded candidate's program is kept for adoption while the candidates in flight hold at most
   this much text between them (a program costs about 90 bytes a byte of text): past it, the
   accepted text is parsed again instead, as memory matters more than time on such inputs. */
enum { KEEP_TEXT_BUDGET = 16 << 20 };

size_t red_count(const Reducer *r, const RedPass *pass, const Program *cur) {
  if (pass->count_pipeline) return r->piped ? pass->count_pipeline(&r->pipe) : 0;
  return pass->count(cur);
}

/* The content hash a candidate is known by: its text, and the pipeline it runs (the same program
   under another pipeline is another test). */
static void cand_key(const char *text, const char *pipe, char key[CONTENT_HASH_HEX + 1]) {
  if (!pipe) {
    content_hash(text, strlen(text), key);
    return;
  }
  size_t n = strlen(text), m = strlen(pipe);
  char *both = xmalloc(n + m + 2);
  memcpy(both, text, n);
  both[n] = '\0'; /* no program text holds a NUL: text and pipeline cannot run into each other */
  memcpy(both + n + 1, pipe, m + 1);
  content_hash(both, n + m + 1, key);
  free(both);
}

/* A pipeline pass's candidate: the same program under the current pipeline with the chunk
   applied; false when it changes nothing. */
static bool build_pipeline(Reducer *r, const RedPass *pass, RedPassStats *ps, RedChunk chunk, Cand *c) {
  RedPipeline p;
  red_pipeline_copy(&p, &r->pipe);
  bool changed = pass->apply_pipeline(&p, chunk.lo, chunk.hi);
  char *json = changed ? red_pipeline_json(&p) : NULL;
  red_pipeline_free(&p);
  if (!json || !strcmp(json, r->pipe_json)) {
    free(json);
    return false;
  }
  if (ps) ps->tried++;
  c->text = xstrdup(r->current);
  c->pipe = json;
  c->calls = r->current_calls;
  return true;
}

unsigned red_job_count(const RedOptions *o) {
  return o->jobs ? (o->jobs > RED_MAX_JOBS ? RED_MAX_JOBS : o->jobs) : 1;
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

bool red_build(Reducer *r, const RedPass *pass, RedPassStats *ps, const Program *cur, const char *cur_text,
               RedChunk chunk, Cand *c) {
  *c = (Cand){.chunk = chunk};
  if (pass->apply_pipeline) return r->piped && build_pipeline(r, pass, ps, chunk, c);
  char *text = red_propose_range(cur, pass, chunk.lo, chunk.hi);
  if (!text) return false;
  if (!strcmp(text, cur_text)) { /* a no-op proposal: nothing to test */
    free(text);
    return false;
  }
  if (ps) ps->tried++;
  char gerr[512];
  bool parses;
  if (!prog_load_as_parsed(&c->prog, "candidate", text, r->o->guard, gerr, sizeof gerr, &parses)) {
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
    memset(&c->prog, 0, sizeof c->prog);
    return false;
  }
  c->text = text;
  c->pipe = r->piped ? xstrdup(r->pipe_json) : NULL;
  c->calls = prog_count_calls_in_module(c->prog.m);
  if (!ps || strlen(text) * red_job_count(r->o) > KEEP_TEXT_BUDGET) prog_free(&c->prog);
  return true;
}

/* The cached verdict of the text with content hash `key`: 1 interesting, 0 not, -1 unknown (or
   no cache). */
static int cached_verdict(const Reducer *r, const char *key) {
  if (!r->o->use_cache) return -1;
  if (strset_contains(&r->cache.interesting, key)) return 1;
  return strset_contains(&r->cache.boring, key) ? 0 : -1;
}

bool red_launch(Reducer *r, Cand *c) {
  char key[CONTENT_HASH_HEX + 1];
  cand_key(c->text, c->pipe, key);
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
  RunSide side = {{"pipeline"}, {c->pipe}, c->pipe ? 1 : 0};
  return oracle_start(&r->o->oracle, r->o->basename, c->text, strlen(c->text), &side, &c->job, r->err, r->errlen);
}

static void save_also(Reducer *r, const char *text) {
  const RedOptions *o = r->o;
  mkdir(o->also_dir, 0755);
  char path[4096];
  snprintf(path, sizeof path, "%s/%05lu.relay", o->also_dir, ++r->st->also_saved);
  if (!file_replace(path, text, strlen(text))) fprintf(stderr, "rreduce: cannot save %s\n", path);
}

int red_collect(Reducer *r, Cand *c, bool cancelled) {
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
  if (v && c->pipe && res.outcome) { /* what ran under this pipeline: the next pipeline steps' ground */
    Outcome f;
    outcome_read(&f, res.outcome);
    free(c->ran);
    c->ran = f.pipeline ? xstrdup(f.pipeline) : NULL;
    outcome_free(&f);
  }
  run_result_free(&res);
  if (r->o->use_cache) {
    char key[CONTENT_HASH_HEX + 1];
    cand_key(c->text, c->pipe, key);
    strset_add(v ? &r->cache.interesting : &r->cache.boring, key);
  }
  return v;
}

void red_cand_free(Reducer *r, Cand *c) {
  if (oracle_pending(&c->job)) red_collect(r, c, true);
  free(c->text);
  free(c->pipe);
  free(c->ran);
  c->pipe = c->ran = NULL;
  prog_free(&c->prog);
  c->text = NULL;
}

void red_visit(Reducer *r, const char *text) {
  char key[CONTENT_HASH_HEX + 1];
  cand_key(text, r->piped ? r->pipe_json : NULL, key);
  strset_add(&r->visited, key);
}

/* Takes the pipeline an accepted candidate ran as the current one (what ran under it too), and
   writes it beside the result (OUT.pipeline), so the user has the pipeline the bug needs. */
static void take_pipeline(Reducer *r, Cand *c) {
  char err[256];
  RedPipeline p, ran;
  if (!red_pipeline_parse(&p, c->pipe, "candidate pipeline", err, sizeof err)) return;
  if (c->ran && red_pipeline_parse(&ran, c->ran, "outcome", err, sizeof err)) {
    for (size_t i = 0; i < p.nran; i++) free(p.ran[i]);
    free(p.ran);
    p.ran = ran.ran, p.nran = ran.nran;
    ran.ran = NULL, ran.nran = 0;
    red_pipeline_free(&ran);
  } else { /* the test said nothing of it: what ran before, as far as it goes */
    for (size_t i = 0; i < p.nran; i++) free(p.ran[i]);
    free(p.ran);
    RedPipeline copy;
    red_pipeline_copy(&copy, &r->pipe);
    p.ran = copy.ran, p.nran = copy.nran;
    copy.ran = NULL, copy.nran = 0;
    red_pipeline_free(&copy);
  }
  red_pipeline_free(&r->pipe);
  r->pipe = p;
  free(r->pipe_json);
  r->pipe_json = c->pipe;
  c->pipe = NULL;
  if (r->o->pipeline_out && !file_replace(r->o->pipeline_out, r->pipe_json, strlen(r->pipe_json)))
    fprintf(stderr, "rreduce: cannot write %s\n", r->o->pipeline_out);
}

bool red_write_out(const RedOptions *o, const char *text) {
  if (o->written_log) {
    char line[CONTENT_HASH_HEX + 2];
    content_hash(text, strlen(text), line);
    strcat(line, "\n");
    FILE *f = fopen(o->written_log, "a");
    bool ok = f && fputs(line, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) return false;
  }
  return file_replace(o->out_path, text, strlen(text));
}

/* -v, --print-diff and --history on an accepted step. */
static void tell_accepted(Reducer *r, const RedPass *pass, const Cand *c) {
  const RedOptions *o = r->o;
  if (o->verbose)
    fprintf(stderr, "rreduce: %s #%zu accepted: %zu -> %zu bytes, %zu -> %zu operator calls\n", pass->name, c->chunk.lo,
            strlen(r->current), strlen(c->text), r->current_calls, c->calls);
  if (o->print_diff) {
    char *diff = text_diff(r->current, c->text, o->basename); /* libgit2 writes a/ and b/ */
    if (o->progress == RED_PROGRESS_TERMINAL) fputs("\r\033[K", stderr); /* not on top of the status line */
    fprintf(stderr, "rreduce: %s #%zu accepted:\n%s", pass->name, c->chunk.lo, diff ? diff : "(no diff: libgit2 failed)\n");
    free(diff);
  }
  if (o->history) {
    char msg[512], herr[256];
    snprintf(msg, sizeof msg, "%s: %zu -> %zu bytes, %zu -> %zu operator calls\n\nopportunity %zu; test: exit 0 (interesting)\n",
             pass->name, strlen(r->current), strlen(c->text), r->current_calls, c->calls, c->chunk.lo);
    if (!red_history_commit(o->history, c->text, msg, herr, sizeof herr)) fprintf(stderr, "rreduce: %s\n", herr);
  }
}

bool red_accept(Reducer *r, const RedPass *pass, RedPassStats *ps, Cand *c) {
  const RedOptions *o = r->o;
  /* A new best is saved before anything takes it: when FILE cannot be written (a full disk), the
     run ends on the program FILE holds, and says so, rather than on one it could not save. */
  bool best = c->calls < r->best_calls || (c->calls == r->best_calls && strlen(c->text) <= strlen(r->best));
  if (best && o->out_path && !red_write_out(o, c->text)) {
    snprintf(r->err, r->errlen, "cannot write %s (%s); it holds the last program saved", o->out_path, strerror(errno));
    return false;
  }
  tell_accepted(r, pass, c);
  bool same_program = !strcmp(c->text, r->current);
  if (c->pipe && r->pipe_json && strcmp(c->pipe, r->pipe_json)) take_pipeline(r, c);
  free(r->current);
  r->current = c->text;
  r->current_calls = c->calls;
  red_visit(r, r->current);
  c->text = NULL;
  r->generation++;
  if (same_program && r->loaded_gen) { /* a pipeline step: the program loaded is still the one */
    r->loaded_gen = r->generation + 1;
  } else {
    red_drop_loaded(r);
  }
  if (!same_program && c->prog.m) { /* the guard's load of it: the passes propose on it next */
    r->loaded = c->prog;
    r->loaded_gen = r->generation + 1;
    memset(&c->prog, 0, sizeof c->prog);
  }
  r->st->accepted++;
  ps->accepted++;
  if (!best) return true; /* larger than the best so far, not simpler: FILE keeps the best */
  free(r->best);
  r->best = xstrdup(r->current);
  r->best_calls = r->current_calls;
  return true;
}

void red_drop_loaded(Reducer *r) {
  prog_free(&r->loaded);
  r->loaded_gen = 0;
}

const Program *red_load_current(Reducer *r) {
  if (r->loaded_gen == r->generation + 1) return &r->loaded;
  red_drop_loaded(r);
  if (!prog_load_as(&r->loaded, "candidate", r->current, r->o->guard, r->err, r->errlen)) return NULL;
  r->loaded_gen = r->generation + 1;
  return &r->loaded;
}

/* ------------------------------------------------------------------ tests started ahead */

void red_drop_pool(Reducer *r) {
  while (r->npool) {
    Spec *sp = &r->pool[--r->npool];
    Cand c = {.text = sp->text, .job = sp->job};
    red_collect(r, &c, true);
    free(sp->text);
  }
  r->pool_after_pass = false;
}

/* Starts the test of c's text ahead, unless its verdict is known (takes the text). */
static void start_ahead(Reducer *r, Cand *c) {
  Spec *sp = &r->pool[r->npool];
  cand_key(c->text, c->pipe, sp->key);
  char err[256] = "";
  RunSide side = {{"pipeline"}, {c->pipe}, c->pipe ? 1 : 0};
  if (cached_verdict(r, sp->key) < 0 &&
      oracle_start(&r->o->oracle, r->o->basename, c->text, strlen(c->text), &side, &sp->job, err, sizeof err)) {
    sp->text = c->text;
    r->npool++;
  } else {
    free(c->text);
  }
  c->text = NULL;
  free(c->pipe);
  c->pipe = NULL;
  prog_free(&c->prog);
}

/* Walks a fresh copy of the sweep the pass would run on cur and starts the first candidate that
   proposes something, trying at most `tries` chunks; false when the sweep ended first (the run
   goes on to the next pass: so does the look ahead). */
static bool start_first_proposal(Reducer *r, const RedPass *pass, RedSweep *s, const Program *cur,
                                 const char *cur_text, unsigned tries) {
  if (pass->count_pipeline) return r->piped && pass->count_pipeline(&r->pipe) > 0; /* not looked ahead */
  size_t n = pass->count(cur);
  RedChunk ch;
  for (unsigned t = 0; t < tries && !*r->o->stop; t++) {
    if (!red_sweep_next(s, n, &ch)) return false;
    Cand c;
    if (red_build(r, pass, NULL, cur, cur_text, ch, &c)) {
      start_ahead(r, &c);
      return true;
    }
    if (!red_sweep_accepts_at_once(s)) red_sweep_verdict(s, false); /* proposing nothing: not interesting */
  }
  return true;
}

void red_start_first_of(Reducer *r, size_t from, size_t span, const Program *cur, const char *cur_text, size_t gen) {
  size_t npasses = r->o->npasses;
  for (size_t k = 0; k < span && r->npool < RED_MAX_JOBS && !*r->o->stop; k++) {
    size_t pj = (from + k) % npasses;
    const RedPass *pass = r->o->passes[pj];
    if (r->done_gen[pj] == gen) continue; /* the run skips it (never so for a bisected pass) */
    RedSweep s;
    red_sweep_start(&s, pass->search, red_count(r, pass, cur), pass->search == RED_FIRST ? 0 : r->resume[pj]);
    /* a pass with candidates: the run stops there, whether or not these proposed */
    if (start_first_proposal(r, pass, &s, cur, cur_text, 8)) return;
  }
}

void red_start_after(Reducer *r, size_t pi, const Cand *won, const RedSweep *sweep) {
  const RedPass *pass = r->o->passes[pi];
  if (r->npool >= RED_MAX_JOBS || pass->count_pipeline) return; /* a pipeline's next: not looked ahead */
  Program loaded = {0};
  const Program *next = won->prog.m ? &won->prog : &loaded;
  if (!won->prog.m && !prog_load_as(&loaded, "candidate", won->text, r->o->guard, NULL, 0)) return;
  RedSweep s = *sweep;
  red_sweep_verdict(&s, true);
  if (!start_first_proposal(r, pass, &s, next, won->text, (unsigned)-1)) {
    size_t npasses = r->o->npasses;
    red_start_first_of(r, pi + 1, r->o->fast ? npasses - pi - 1 : npasses - 1, next, won->text, r->generation + 1);
  }
  prog_free(&loaded);
}
