/*
 * The driver: for each pass in order, for each of its opportunities, build the candidate from a
 * fresh copy of the current program, print it, guard it (parse + type-check: no test is spent on
 * an ill-formed program), look it up in the cache, run the test; keep it if interesting.  Passes
 * repeat until none makes progress (llvm-reduce's fixpoint).  The best program is written after
 * every success, so an interrupt leaves an interesting file.
 */
#include "driver.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../support/fileio.h"
#include "../support/strset.h"
#include "../support/xalloc.h"
#include "../typegen/infer.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t calls_of(const char *text, char *err, size_t errlen) {
  RedProgram p;
  if (!red_program_load(&p, text, err, errlen)) return 0;
  size_t n = 0;
  for (size_t i = 0; i < p.m->ndefs; i++)
    if (p.m->defs[i]->kind == AST_DEF_FN) n += red_count_calls(p.m->defs[i]->fn->body);
  if (p.m->body) n += red_count_calls(p.m->body);
  red_program_free(&p);
  return n;
}

/* Test outcomes by content hash (git's blob hash, from libgit2). */
typedef struct Cache {
  StrSet interesting, boring;
} Cache;

static void hash_of(const char *text, char out[GIT_OID_HEXSZ + 1]) {
  git_oid oid;
  git_odb_hash(&oid, text, strlen(text), GIT_OBJECT_BLOB);
  git_oid_tostr(out, GIT_OID_HEXSZ + 1, &oid);
}

/* Runs the test on a candidate (or answers from the cache).  1 interesting, 0 not, -1 error. */
static int interesting(const char *cand, const RedOptions *o, Cache *cache, RedStats *st, char *err, size_t errlen) {
  char key[GIT_OID_HEXSZ + 1];
  if (o->use_cache) {
    hash_of(cand, key);
    if (strset_contains(&cache->interesting, key) || strset_contains(&cache->boring, key)) {
      st->cache_hits++;
      return strset_contains(&cache->interesting, key);
    }
  }
  RunResult r;
  if (!run_candidate(o->test, o->basename, cand, strlen(cand), &o->run, &r, err, errlen)) return -1;
  st->tests_run++;
  st->timeouts += r.timed_out;
  int verdict = r.status == 0;
  run_result_free(&r);
  if (o->use_cache) strset_add(verdict ? &cache->interesting : &cache->boring, key);
  return verdict;
}

static void progress(const RedOptions *o, const RedStats *st, const char *pass, size_t bytes, double start) {
  if (!o->progress) return;
  fprintf(stderr, "\r\033[K%-10s tests %lu  size %zu bytes  accepted %lu  %.0fs", pass, st->tests_run, bytes,
          st->accepted, now() - start);
  fflush(stderr);
}

bool red_reduce(char **text, const RedOptions *o, RedStats *st, char *err, size_t errlen) {
  double start = now();
  git_libgit2_init();
  Cache cache;
  strset_init(&cache.interesting);
  strset_init(&cache.boring);
  st->per_pass = xcalloc(o->npasses ? o->npasses : 1, sizeof *st->per_pass);
  st->bytes_before = strlen(*text);
  st->calls_before = calls_of(*text, err, errlen);
  char *current = *text;
  bool ok = true, progress_made = true;
  for (int round = 0; progress_made && ok && !*o->stop; round++) {
    progress_made = false;
    for (size_t pi = 0; pi < o->npasses && ok && !*o->stop; pi++) {
      const RedPass *pass = o->passes[pi];
      RedProgram cur = {0};
      for (size_t i = 0;; i++) {
        if (*o->stop) break;
        /* a fresh copy unless the last opportunity left it untouched (see RedPass.apply) */
        if (!cur.m && !red_program_load(&cur, current, err, errlen)) {
          ok = false;
          break;
        }
        size_t n = pass->count(&cur);
        if (i >= n) break;
        if (!pass->apply(&cur, i)) continue;
        char *cand = red_program_print(&cur, false);
        red_program_free(&cur);
        if (!strcmp(cand, current)) { /* a no-op proposal */
          free(cand);
          continue;
        }
        st->per_pass[pi].tried++;
        RedProgram check;
        char gerr[512];
        if (!red_program_load(&check, cand, gerr, sizeof gerr)) {
          /* the guard: a pass proposed an ill-typed program; the test never sees it */
          st->guard_rejections++;
          st->per_pass[pi].rejected_by_guard++;
          if (o->verbose) fprintf(stderr, "rreduce: guard rejected a %s candidate: %s", pass->name, gerr);
          free(cand);
          continue;
        }
        red_program_free(&check);
        int v = interesting(cand, o, &cache, st, err, errlen);
        if (v < 0) {
          free(cand);
          ok = false;
          break;
        }
        progress(o, st, pass->name, strlen(current), start);
        if (v == 1) {
          if (o->verbose)
            fprintf(stderr, "rreduce: %s #%zu accepted: %zu -> %zu bytes\n", pass->name, i, strlen(current), strlen(cand));
          free(current);
          current = cand;
          st->accepted++;
          st->per_pass[pi].accepted++;
          progress_made = true;
          if (o->out_path && !file_replace(o->out_path, current, strlen(current))) {
            snprintf(err, errlen, "cannot write %s", o->out_path);
            ok = false;
            break;
          }
          i--; /* the same index now names the next opportunity */
        } else {
          free(cand);
        }
      }
      if (cur.m) red_program_free(&cur);
    }
    if (o->fast) break;
  }
  st->interrupted = *o->stop != 0;
  /* The final program: without TVM's comments unless asked to keep them (no test needed: comments
     do not change the program, but a test that greps them would notice, so it is still checked). */
  if (ok && !o->keep_comments && !*o->stop) {
    RedProgram p;
    if (red_program_load(&p, current, err, errlen)) {
      char *stripped = red_program_print(&p, true);
      red_program_free(&p);
      if (strcmp(stripped, current) != 0 && interesting(stripped, o, &cache, st, err, errlen) == 1) {
        free(current);
        current = stripped;
        if (o->out_path) file_replace(o->out_path, current, strlen(current));
      } else {
        free(stripped);
      }
    }
  }
  if (o->progress) fputs("\r\033[K", stderr);
  *text = current;
  st->bytes_after = strlen(current);
  char e2[256];
  st->calls_after = calls_of(current, e2, sizeof e2);
  st->seconds = now() - start;
  strset_free(&cache.interesting);
  strset_free(&cache.boring);
  git_libgit2_shutdown();
  return ok;
}
