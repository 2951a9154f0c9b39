/* rreduce: shrink a Relay program while an interestingness test keeps exiting 0. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/fileio.h"
#include "../support/xalloc.h"
#include "driver.h"

#include <git2.h>

static const char usage[] =
    "usage: rreduce [options] FILE TEST     (or TEST FILE: the executable one is the test)\n"
    "Shrinks FILE, a well-typed Relay program, while TEST still exits 0 on it (C-Reduce's protocol:\n"
    "TEST runs in a fresh directory holding the candidate under FILE's name, also passed as $1).\n"
    "FILE is replaced in place after every success (backup FILE.orig); every candidate is parsed\n"
    "and type-checked before TEST sees it.\n"
    "\n"
    "options:\n"
    "  -o OUT             write the result to OUT and leave FILE alone\n"
    "      --tidy         no FILE.orig backup\n"
    "      --timeout S    seconds per test run (default 300); a timed-out candidate is not interesting\n"
    "      --limit-mem MB, --limit-cpu S   resource limits for the test\n"
    "  -j N               parallel jobs (accepted; this version runs the candidates in order)\n"
    "      --no-cache     run the test even on a candidate seen before\n"
    "      --passes A,B   only these passes;  --skip-passes A,B  not these;  --list-passes\n"
    "      --fast         one round of the passes instead of a fixpoint\n"
    "      --keep-comments  keep TVM's /* ty= */ and /* span= */ comments in the result\n"
    "      --save-temps   keep the tests' temporary directories\n"
    "      --json         print statistics as one JSON object on standard output\n"
    "  -v                 log every accepted step on standard error\n"
    "  -h, --help         show this help\n"
    "\n"
    "exit status: 0 reduced, 1 the input is ill-formed or not interesting, 2 usage or I/O error,\n"
    "             130 interrupted (FILE holds the best program found so far)\n";

/* Largest cuts first: whole bodies, then suffixes, then unwrapped closures, then single values. */
static const RedPass *const all_passes[] = {&red_pass_comments, &red_pass_body, &red_pass_truncate, &red_pass_unwrap,
                                            &red_pass_dce, &red_pass_inline, &red_pass_fold, &red_pass_globals,
                                            &red_pass_cut};
enum { NPASSES = sizeof all_passes / sizeof all_passes[0] };

static volatile sig_atomic_t stop_flag = 0;
static void on_signal(int sig) {
  (void)sig;
  stop_flag = 1;
}

enum { OPT_TIMEOUT = 256, OPT_MEM, OPT_CPU, OPT_NOCACHE, OPT_PASSES, OPT_SKIP, OPT_LIST, OPT_FAST, OPT_SLOW,
       OPT_KEEP, OPT_TEMPS, OPT_JSON, OPT_TIDY };

/* git's blob hash of a text, as hex. */
static void blob_hash(const char *text, size_t len, char out[GIT_OID_HEXSZ + 1]) {
  git_oid oid;
  git_odb_hash(&oid, text, len, GIT_OBJECT_BLOB);
  git_oid_tostr(out, GIT_OID_HEXSZ + 1, &oid);
}

/*
 * The backup.  FILE.orig keeps the input.  A rerun on a file rreduce itself left (its hash is in
 * FILE.rreduce-last) continues the reduction and keeps the backup; a new input copied over FILE
 * gets a new backup, and the old one moves to FILE.orig.N: nothing is ever lost.
 */
static bool backup(const char *file, const char *text, size_t len) {
  size_t n = strlen(file) + 32;
  char *orig = xmalloc(n), *last = xmalloc(n);
  snprintf(orig, n, "%s.orig", file);
  snprintf(last, n, "%s.rreduce-last", file);
  bool ok = true;
  if (access(orig, F_OK) == 0) {
    char want[GIT_OID_HEXSZ + 1], got[GIT_OID_HEXSZ + 1] = "";
    size_t hl;
    char *recorded = access(last, F_OK) == 0 ? file_read(last, &hl) : NULL;
    blob_hash(text, len, want);
    if (recorded) snprintf(got, sizeof got, "%.*s", GIT_OID_HEXSZ, recorded);
    free(recorded);
    if (!strcmp(want, got)) goto done; /* continuing an earlier run */
    for (unsigned k = 1;; k++) {
      char *moved = xmalloc(n + 16);
      snprintf(moved, n + 16, "%s.orig.%u", file, k);
      bool free_slot = access(moved, F_OK) != 0;
      if (free_slot && rename(orig, moved) != 0) {
        fprintf(stderr, "rreduce: cannot move the old backup %s aside: %s\n", orig, strerror(errno));
        ok = false;
      }
      free(moved);
      if (free_slot) break;
    }
  }
  ok = ok && file_replace(orig, text, len);
done:
  free(orig);
  free(last);
  return ok;
}

/* Records which program rreduce left in FILE (see backup). */
static void record_last(const char *file, const char *text) {
  char hash[GIT_OID_HEXSZ + 2];
  blob_hash(text, strlen(text), hash);
  strcat(hash, "\n");
  size_t n = strlen(file) + 32;
  char *last = xmalloc(n);
  snprintf(last, n, "%s.rreduce-last", file);
  file_replace(last, hash, strlen(hash));
  free(last);
}

static bool in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return true;
    p = comma ? comma + 1 : NULL;
  }
  return false;
}

static bool executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static void print_json(const RedStats *st, const RedOptions *o) {
  json_t *passes = json_object();
  for (size_t i = 0; i < o->npasses; i++)
    json_object_set_new(passes, o->passes[i]->name,
                        json_pack("{s:I, s:I, s:I}", "tried", (json_int_t)st->per_pass[i].tried, "successes",
                                  (json_int_t)st->per_pass[i].accepted, "guard_rejections",
                                  (json_int_t)st->per_pass[i].rejected_by_guard));
  json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:b, s:o}", "tests_run",
                        (json_int_t)st->tests_run, "cache_hits", (json_int_t)st->cache_hits, "timeouts",
                        (json_int_t)st->timeouts, "guard_rejections", (json_int_t)st->guard_rejections, "accepted",
                        (json_int_t)st->accepted, "bytes_before", (json_int_t)st->bytes_before, "bytes_after",
                        (json_int_t)st->bytes_after, "calls_before", (json_int_t)st->calls_before, "calls_after",
                        (json_int_t)st->calls_after, "seconds", st->seconds, "interrupted", st->interrupted,
                        "passes", passes);
  json_dumpf(j, stdout, JSON_COMPACT);
  fputc('\n', stdout);
  json_decref(j);
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"timeout", required_argument, NULL, OPT_TIMEOUT}, {"limit-mem", required_argument, NULL, OPT_MEM},
      {"limit-cpu", required_argument, NULL, OPT_CPU},   {"no-cache", no_argument, NULL, OPT_NOCACHE},
      {"passes", required_argument, NULL, OPT_PASSES},   {"skip-passes", required_argument, NULL, OPT_SKIP},
      {"list-passes", no_argument, NULL, OPT_LIST},      {"fast", no_argument, NULL, OPT_FAST},
      {"slow", no_argument, NULL, OPT_SLOW},             {"keep-comments", no_argument, NULL, OPT_KEEP},
      {"save-temps", no_argument, NULL, OPT_TEMPS},      {"json", no_argument, NULL, OPT_JSON},
      {"tidy", no_argument, NULL, OPT_TIDY},             {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  RedOptions o = {0};
  run_options_default(&o.run);
  o.use_cache = true;
  o.stop = &stop_flag;
  o.run.stop = &stop_flag;
  const char *only = NULL, *skip = NULL, *out = NULL;
  bool json = false, tidy = false;
  int c;
  while ((c = getopt_long(argc, argv, "o:j:vh", longopts, NULL)) != -1) {
    char *end;
    switch (c) {
    case 'o': out = optarg; break;
    case 'j':
      if (strtol(optarg, &end, 10) < 1 || *end) return fprintf(stderr, "rreduce: -j takes a positive count\n"), 2;
      break;
    case 'v': o.verbose = 1; break;
    case OPT_TIMEOUT:
      o.run.timeout = strtod(optarg, &end);
      if (*end || o.run.timeout <= 0) return fprintf(stderr, "rreduce: --timeout takes seconds\n"), 2;
      break;
    case OPT_MEM: o.run.limit_mem = strtoull(optarg, NULL, 10) * 1024 * 1024; break;
    case OPT_CPU: o.run.limit_cpu = strtoull(optarg, NULL, 10); break;
    case OPT_NOCACHE: o.use_cache = false; break;
    case OPT_PASSES: only = optarg; break;
    case OPT_SKIP: skip = optarg; break;
    case OPT_LIST:
      for (size_t i = 0; i < NPASSES; i++) printf("%-10s %s\n", all_passes[i]->name, all_passes[i]->description);
      return 0;
    case OPT_FAST: o.fast = true; break;
    case OPT_SLOW: o.fast = false; break;
    case OPT_KEEP: o.keep_comments = true; break;
    case OPT_TEMPS: o.run.keep_temps = true; break;
    case OPT_JSON: json = true; break;
    case OPT_TIDY: tidy = true; break;
    case 'h': fputs(usage, stdout); return 0;
    default: fputs(usage, stderr); return 2;
    }
  }
  if (argc - optind != 2) {
    fputs("rreduce: expected FILE and TEST\n", stderr);
    fputs(usage, stderr);
    return 2;
  }
  const char *file = argv[optind], *test = argv[optind + 1];
  if (!executable(test) && executable(file)) {
    const char *t = file;
    file = test;
    test = t;
  }
  if (!executable(test)) return fprintf(stderr, "rreduce: %s: the test is not an executable file\n", test), 2;
  const RedPass *passes[NPASSES];
  for (size_t i = 0; i < NPASSES; i++) {
    if ((only && !in_list(only, all_passes[i]->name)) || (skip && in_list(skip, all_passes[i]->name))) continue;
    passes[o.npasses++] = all_passes[i];
  }
  o.passes = passes;
  o.test = test;
  const char *slash = strrchr(file, '/');
  o.basename = slash ? slash + 1 : file;
  o.out_path = out ? out : file;
  o.progress = isatty(STDERR_FILENO) && !o.verbose;

  size_t len;
  char *text = file_read(file, &len);
  if (!text) return 2;
  char err[2048];
  RedProgram p;
  if (!red_program_load(&p, text, err, sizeof err)) {
    fprintf(stderr, "rreduce: %s is not a well-typed Relay program, which rreduce needs:\n%s", file, err);
    free(text);
    return 1;
  }
  red_program_free(&p);

  /* The original must be interesting, or there is nothing to keep. */
  RunResult r;
  if (!run_candidate(test, o.basename, text, len, &o.run, &r, err, sizeof err)) {
    fprintf(stderr, "rreduce: %s\n", err);
    free(text);
    return 2;
  }
  if (r.status != 0) {
    fprintf(stderr,
            "rreduce: the test does not find %s interesting (%s%d%s).  Reproduce it with:\n"
            "  d=$(mktemp -d); cp '%s' \"$d/%s\"; cd \"$d\"; '%s' '%s'; echo $?\n",
            file, r.timed_out ? "it timed out after " : "exit status ", r.timed_out ? (int)o.run.timeout : r.status,
            r.timed_out ? " s" : "", file, o.basename, test, o.basename);
    if (r.output_len) fprintf(stderr, "its output:\n%.*s\n", (int)(r.output_len > 2000 ? 2000 : r.output_len), r.output);
    run_result_free(&r);
    free(text);
    return 1;
  }
  run_result_free(&r);

  if (!out && !tidy && !backup(file, text, len)) {
    free(text);
    return 2;
  }
  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);

  RedStats st = {0};
  bool ok = red_reduce(&text, &o, &st, err, sizeof err);
  if (!ok) fprintf(stderr, "rreduce: %s\n", err);
  if (json) print_json(&st, &o);
  else if (!st.interrupted)
    fprintf(stderr, "rreduce: %zu -> %zu bytes, %zu -> %zu operator calls; %lu tests (%lu cached), %lu accepted, %.1f s\n",
            st.bytes_before, st.bytes_after, st.calls_before, st.calls_after, st.tests_run, st.cache_hits, st.accepted,
            st.seconds);
  if (!out && !tidy) record_last(file, text);
  free(st.per_pass);
  free(text);
  if (st.interrupted) {
    fprintf(stderr, "rreduce: interrupted; %s holds the smallest interesting program found\n", o.out_path);
    return 130;
  }
  return ok ? 0 : 2;
}
