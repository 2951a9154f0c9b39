/* rreduce: shrink a Relay program while an interestingness test keeps exiting 0. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../interestingness/strays.h"
#include "../support/cli.h"
#include "../support/clock.h"
#include "../support/content_hash.h"
#include "../support/fileio.h"
#include "../support/strbuf.h"
#include "../support/xalloc.h"
#include "../support/version.h"
#include "../typegen/ops/ops.h"
#include "driver.h"
#include "keys.h"
#include "report.h"

static const char usage[] =
    "usage: rreduce [options] FILE TEST     (or TEST FILE: the executable one is the test)\n"
    "       rreduce [options] --server CMD FILE\n"
    "Shrinks FILE, a Relay program, while TEST still exits 0 on it (C-Reduce's protocol:\n"
    "TEST runs in a fresh directory holding the candidate under FILE's name, also passed as $1).\n"
    "FILE is replaced in place after every success (backup FILE.orig); every candidate is parsed\n"
    "and type-checked before TEST sees it (when FILE itself does not type-check: parsed and\n"
    "scope-checked, or only parsed, whatever FILE passes).\n"
    "\n"
    "options:\n"
    "  -o OUT             write the result to OUT and leave FILE alone\n"
    "      --tidy         no FILE.orig backup\n"
    "      --timeout S    seconds per test run (default 300); a timed-out candidate is not interesting\n"
    "      --limit-mem MB, --limit-cpu S   resource limits for the test\n"
    "  -j N               tests run at once (default: the number of cores); the result is the same\n"
    "                     for every N: verdicts are taken in submission order\n"
    "      --server CMD   ask a persistent oracle server instead of running TEST per candidate: CMD\n"
    "                     (run by sh, once per job) reads candidate paths, one per line, and answers\n"
    "                     one line each, `STATUS [SIGNATURE]` (interestingness/PROTOCOL.md); a server\n"
    "                     that hangs, dies or answers garbage is killed and restarted\n"
    "      --match REGEX  interesting also needs TEST's output (stdout+stderr) to match REGEX (a\n"
    "                     Perl/Python regex searched as re.search(REGEX, output, re.MULTILINE)):\n"
    "                     keeps the same error, not another one\n"
    "      --frame NAME   interesting also needs the outcome TEST leaves (PROTOCOL.md) to name NAME\n"
    "                     as TVM's innermost frame: the same crash, not another with its message\n"
    "      --also-interesting N   save candidates on which TEST exits N in FILE.also-interesting/\n"
    "      --history DIR.git      record every accepted step as a commit in a git repository\n"
    "      --report FILE.md       write a paste-ready bug-report fragment\n"
    "      --trivial-is-error     exit 3 when the result has no operator call left (the test is\n"
    "                     probably not checking the bug); without it this is a warning\n"
    "      --require-typed        refuse an input that does not type-check (by default it is reduced\n"
    "                     under a weaker guard: every candidate parses and binds its names)\n"
    "      --stuck-after K        pause a pass for the round after K uninteresting candidates in a\n"
    "                     row (default 200; 0: never); --stuck-timeouts K: after K timeouts (default 3)\n"
    "      --no-cache     run the test even on a candidate seen before\n"
    "      --passes A,B   only these passes;  --skip-passes A,B  not these;  --list-passes\n"
    "      --fast         one round of the passes instead of a fixpoint\n"
    "      --slow         no stuck guards: every opportunity of every pass is tried\n"
    "      --keep-comments  keep comments (TVM's /* ty= */ too) in the result; a ty= comment whose\n"
    "                     node's type changed is rewritten to it (or loses its ty= part)\n"
    "      --strip-spans  drop TVM's /* span= */ comments too (by default every node that survives\n"
    "                     keeps its span, as the input wrote it)\n"
    "      --save-temps   keep the tests' temporary directories\n"
    "      --json         print statistics as one JSON object on standard output\n"
    "      --print-diff   show each accepted step as a unified diff on standard error\n"
    "      --progress-lines  the status line even when standard error is not a terminal, as whole\n"
    "                     lines (`progress PASS B -> B bytes ...`), for a program that shows it\n"
    "      --no-verify    do not test FILE first: take it as interesting (saves one slow test)\n"
    "      --no-pipeline  reduce the program alone: by default, when the test says which pipeline it\n"
    "                     runs (relaykit's TVM tests do: tvm-pass's passes, a build's opt level and\n"
    "                     the passes that ran), it is reduced with the program, and the result's is\n"
    "                     written to FILE.pipeline (interestingness/PROTOCOL.md, side files)\n"
    "      --pipeline FILE  the pipeline to start from (its JSON), for a test that reads it beside\n"
    "                     the candidate but does not say what it runs\n"
    OP_TVM_VERSION_HELP
    "  -v                 log every accepted step on standard error\n"
    "  -h, --help         show this help;  --version\n"
    "\n"
    "On a terminal, press s to skip the rest of the current pass for this round.\n"
    "\n"
    "exit status: 0 reduced, 1 the input is ill-formed or not interesting, 2 usage or I/O error,\n"
    "             3 trivial result with --trivial-is-error, 4 with --server: the result is not\n"
    "             interesting to a fresh server (its answers cannot be trusted; FILE.orig holds the\n"
    "             input), 130 interrupted (FILE holds the best program found so far; run the same\n"
    "             command again to continue)\n";


static volatile sig_atomic_t stop_flag = 0;
static size_t parse_cancel; /* tree-sitter's cancellation flag: a long parse stops too */

static void on_signal(int sig) {
  (void)sig;
  stop_flag = 1;
  __atomic_store_n(&parse_cancel, 1, __ATOMIC_RELAXED);
}

enum { OPT_TIMEOUT = 256, OPT_MEM, OPT_CPU, OPT_NOCACHE, OPT_PASSES, OPT_SKIP, OPT_LIST, OPT_FAST, OPT_SLOW,
       OPT_KEEP, OPT_TEMPS, OPT_JSON, OPT_TIDY, OPT_MATCH, OPT_ALSO, OPT_HISTORY, OPT_REPORT, OPT_TRIVIAL, OPT_REQUIRE_TYPED, OPT_STUCK,
       OPT_STUCK_TIMEOUTS, OPT_VERSION, OPT_SERVER, OPT_STATS, OPT_PRINT_DIFF, OPT_NO_VERIFY, OPT_FRAME,
       OPT_NO_PIPELINE, OPT_PIPELINE, OPT_STRIP_SPANS, OPT_PROGRESS_LINES };

/* FILE.rreduce-last (malloc'd). */
static char *last_record_path(const char *file) {
  size_t n = strlen(file) + 32;
  char *last = xmalloc(n);
  snprintf(last, n, "%s.rreduce-last", file);
  return last;
}

/*
 * The backup.  FILE.orig keeps the input.  A rerun on a file rreduce itself left (its hash is in
 * FILE.rreduce-last, which gets the hash of every program written to FILE before it is written,
 * so a run killed outright counts too) continues the reduction and keeps the backup; a new input
 * copied over FILE gets a new backup, and the old one moves to FILE.orig.N: nothing is ever lost.
 */
static bool backup(const char *file, const char *text, size_t len) {
  size_t n = strlen(file) + 32;
  char *orig = xmalloc(n), *last = last_record_path(file);
  snprintf(orig, n, "%s.orig", file);
  bool ok = true;
  if (access(orig, F_OK) == 0) {
    char want[CONTENT_HASH_HEX + 2];
    size_t hl;
    char *recorded = access(last, F_OK) == 0 ? file_read(last, &hl) : NULL;
    content_hash(text, len, want);
    strcat(want, "\n");
    bool ours = false; /* FILE holds a program some run of rreduce wrote */
    for (const char *l = recorded; l && *l && !ours; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
      ours = !strncmp(l, want, CONTENT_HASH_HEX + 1);
    free(recorded);
    if (ours) goto done; /* continuing an earlier run */
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

/* Starts FILE.rreduce-last with the program in FILE (see backup); the driver appends the rest. */
static void record_last(const char *file, const char *text) {
  char hash[CONTENT_HASH_HEX + 2];
  content_hash(text, strlen(text), hash);
  strcat(hash, "\n");
  char *last = last_record_path(file);
  file_replace(last, hash, strlen(hash));
  free(last);
}

/* Takes FILE.rreduce-lock (flock, held until exit); NULL with a message when another rreduce holds
   it. */
static char *lock_file(const char *file, int *fd) {
  size_t n = strlen(file) + 32;
  char *path = xmalloc(n);
  snprintf(path, n, "%s.rreduce-lock", file);
  *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (*fd < 0) {
    fprintf(stderr, "rreduce: cannot create %s: %s\n", path, strerror(errno));
    free(path);
    return NULL;
  }
  if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
    fprintf(stderr, "rreduce: another rreduce is reducing %s (it holds %s); wait for it, or stop it first\n", file,
            path);
    close(*fd);
    free(path);
    return NULL;
  }
  return path;
}

/* Candidates the test found uninteresting (the guard's rejections never reached it). */
static unsigned long failures(const RedPassStats *p) {
  return p->tried - p->accepted - p->rejected_by_guard - p->ill_typed;
}

/* --stats: the numbers --json gives, as a table on standard error. */
static void print_stats(const RedStats *st, const RedOptions *o) {
  fprintf(stderr, "rreduce statistics:\n"
                  "  tests run %lu, cache hits %lu, timeouts %lu, accepted %lu, cancelled (speculative) %lu\n"
                  "  guard rejections %lu (candidates a pass proposed that did not parse: a bug)\n"
                  "  ill-typed %lu (candidates the type checker refused, never tested)\n"
                  "  %zu -> %zu bytes, %zu -> %zu operator calls, %.1f s\n"
                  "  %-10s %8s %10s %9s %8s %10s %7s\n",
          st->tests_run, st->cache_hits, st->timeouts, st->accepted, st->cancelled, st->guard_rejections,
          st->ill_typed, st->bytes_before, st->bytes_after, st->calls_before, st->calls_after, st->seconds, "pass",
          "tried", "successes", "failures", "guard", "ill-typed", "paused");
  for (size_t i = 0; i < o->npasses; i++) {
    const RedPassStats *p = &st->per_pass[i];
    fprintf(stderr, "  %-10s %8lu %10lu %9lu %8lu %10lu %7lu\n", o->passes[i]->name, p->tried, p->accepted,
            failures(p), p->rejected_by_guard, p->ill_typed, p->stuck);
  }
}

static void print_json(const RedStats *st, const RedOptions *o) {
  json_t *passes = json_object();
  for (size_t i = 0; i < o->npasses; i++)
    json_object_set_new(passes, o->passes[i]->name,
                        json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "tried", (json_int_t)st->per_pass[i].tried,
                                  "successes", (json_int_t)st->per_pass[i].accepted, "failures",
                                  (json_int_t)failures(&st->per_pass[i]),
                                  "guard_rejections", (json_int_t)st->per_pass[i].rejected_by_guard, "ill_typed",
                                  (json_int_t)st->per_pass[i].ill_typed, "paused", (json_int_t)st->per_pass[i].stuck));
  json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:b, s:o}", "tests_run",
                        (json_int_t)st->tests_run, "cache_hits", (json_int_t)st->cache_hits, "timeouts",
                        (json_int_t)st->timeouts, "guard_rejections", (json_int_t)st->guard_rejections, "accepted",
                        (json_int_t)st->accepted, "bytes_before", (json_int_t)st->bytes_before, "bytes_after",
                        (json_int_t)st->bytes_after, "calls_before", (json_int_t)st->calls_before, "calls_after",
                        (json_int_t)st->calls_after, "seconds", st->seconds, "interrupted", st->interrupted,
                        "passes", passes);
  json_object_set_new(j, "ill_typed", json_integer((json_int_t)st->ill_typed));
  json_object_set_new(j, "tvm_version", json_string(op_tvm_name()));
  json_object_set_new(j, "cancelled", json_integer((json_int_t)st->cancelled));
  json_object_set_new(j, "also_interesting", json_integer((json_int_t)st->also_saved));
  json_object_set_new(j, "jobs", json_integer((json_int_t)o->jobs));
  if (st->pipeline_after) {
    json_object_set_new(j, "pipeline_before", json_loads(st->pipeline_before, 0, NULL));
    json_object_set_new(j, "pipeline_after", json_loads(st->pipeline_after, 0, NULL));
    json_object_set_new(j, "pipeline_minimal", json_boolean(st->pipeline_minimal));
  }
  if (o->oracle.pool) {
    json_object_set_new(j, "server_starts", json_integer((json_int_t)server_pool_starts(o->oracle.pool)));
    json_object_set_new(j, "server_garbage", json_integer((json_int_t)server_pool_garbage(o->oracle.pool)));
  }
  json_dumpf(j, stdout, JSON_COMPACT);
  fputc('\n', stdout);
  json_decref(j);
}

/* The reproduction recipe for a test that does not find the input interesting. */
static void not_interesting(const char *file, const char *test, const RedOptions *o, const RunResult *r, bool by_match) {
  if (by_match && o->match && !pattern_search(o->match, r->output, r->output_len))
    fprintf(stderr, "rreduce: the test exits 0 on %s, but its output does not match --match.", file);
  else if (by_match)
    fprintf(stderr, "rreduce: the test exits 0 on %s, but its outcome does not name --frame %s as TVM's innermost "
                    "frame.", file, o->frame);
  else if (r->timed_out)
    fprintf(stderr, "rreduce: the test does not find %s interesting (it timed out after %.0f s).", file, o->oracle.run.timeout);
  else if (r->status < 0 && !test)
    fprintf(stderr, "rreduce: the oracle server gave no answer to trust on %s.", file);
  else if (r->status < 0)
    fprintf(stderr, "rreduce: the test does not find %s interesting (killed by signal %d).", file, r->signal);
  else
    fprintf(stderr, "rreduce: the test does not find %s interesting (exit status %d).", file, r->status);
  char *recipe = red_repro_recipe(o, file, NULL);
  fprintf(stderr, "  Reproduce it with:\n  %s%s\n", recipe, test ? "; echo $?" : "");
  free(recipe);
  if (r->output_len) fprintf(stderr, "its output:\n%.*s\n", (int)(r->output_len > 2000 ? 2000 : r->output_len), r->output);
}

/* What rreduce does when the driver has the input's verdict (RedOptions.on_input). */
typedef struct Start {
  RedOptions *o;         /* rreduce's own options: written_log and history are set here */
  const char *file, *test, *history_dir;
  bool keep_backup;      /* FILE.orig and FILE.rreduce-last (not with -o or --tidy) */
  char *last_path;       /* FILE.rreduce-last, once made (malloc'd) */
  int status;            /* rreduce's exit status when the run does not go on */
} Start;

/* The input must be interesting, or there is nothing to keep; then the backup and --history, before
   the first step is written. */
static bool on_input(void *ctx, const char *text, const RunResult *test) {
  Start *s = ctx;
  if (test && !red_verdict(test, s->o)) {
    not_interesting(s->file, s->test, s->o, test, test->status == 0);
    s->status = 1;
    return false;
  }
  if (s->keep_backup) {
    if (!backup(s->o->out_path, text, strlen(text))) return false;
    record_last(s->o->out_path, text);
    s->o->written_log = s->last_path = last_record_path(s->o->out_path);
  }
  char err[2048];
  if (s->history_dir && !(s->o->history = red_history_open(s->history_dir, s->o->basename, text, err, sizeof err))) {
    fprintf(stderr, "rreduce: --history %s\n", err);
    return false;
  }
  return true;
}

/* argv as one shell command line: each word in single quotes unless it is plainly safe. */
static char *shell_quoted(int argc, char **argv) {
  StrBuf b = {NULL, 0, 0};
  sb_puts(&b, "rreduce");
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+") == strlen(a);
    sb_puts(&b, " ");
    if (plain) {
      sb_puts(&b, a);
      continue;
    }
    sb_puts(&b, "'");
    for (const char *c = a; *c; c++) sb_puts(&b, *c == '\'' ? "'\\''" : (char[2]){*c, 0});
    sb_puts(&b, "'");
  }
  return b.data;
}

/* What the command line asks for, beside the driver's own options. */
typedef struct Cli {
  RedOptions o;
  const char *file, *test;     /* FILE and TEST (test NULL with --server) */
  ServerPool *check;           /* --server: the server kept for the result's check (start_servers) */
  TvmRelease servers_release;  /* the TVM release the servers were started under */
  const char *only, *skip, *out, *match, *history, *report;
  bool json, stats, tidy, trivial_is_error, require_typed, verify;
  bool strip_spans;            /* --strip-spans: the spans pass runs */
  bool progress_lines;         /* --progress-lines */
  Pattern *re;                 /* --match, compiled */
  const char *pipeline_path;   /* --pipeline FILE */
  char *pipeline_text;         /* its content, checked */
  char *pipeline_out;          /* FILE.pipeline (or OUT.pipeline) */
  const RedPass *passes[RED_NPASSES];
  char *also_dir, *target;     /* FILE.also-interesting; FILE's real path when it is a link */
} Cli;

static void cli_defaults(Cli *c) {
  *c = (Cli){.verify = true};
  RedOptions *o = &c->o;
  run_options_default(&o->oracle.run);
  o->use_cache = true;
  o->stop = &stop_flag;
  o->oracle.run.stop = &stop_flag;
  o->also_interesting = -1;
  o->max_failures = 200;
  o->max_timeouts = 3;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores < 1 ? 1 : cores > RED_MAX_JOBS ? RED_MAX_JOBS : (unsigned)cores;
}

/* An option that takes a number or a value that needs checking; false after saying why. */
static bool numeric_option(Cli *c, int opt, const char *arg) {
  RedOptions *o = &c->o;
  long v;
  char *end;
  switch (opt) {
  case 'j':
    if (!cli_count_arg("rreduce", "-j", arg, 1, &v)) return false;
    o->jobs = v > RED_MAX_JOBS ? RED_MAX_JOBS : (unsigned)v;
    return true;
  case OPT_TIMEOUT:
    o->oracle.run.timeout = strtod(arg, &end);
    if (*end || end == arg || !(o->oracle.run.timeout > 0)) return fprintf(stderr, "rreduce: --timeout takes seconds\n"), false;
    return true;
  case OPT_MEM:
    if (!cli_count_arg("rreduce", "--limit-mem", arg, 1, &v)) return false;
    o->oracle.run.limit_mem = (uint64_t)v * 1024 * 1024;
    return true;
  case OPT_CPU:
    if (!cli_count_arg("rreduce", "--limit-cpu", arg, 1, &v)) return false;
    o->oracle.run.limit_cpu = (uint64_t)v;
    return true;
  case OPT_ALSO:
    if (!cli_count_arg("rreduce", "--also-interesting", arg, 1, &v)) return false;
    if (v > 255) return fprintf(stderr, "rreduce: --also-interesting takes an exit status 1..255\n"), false;
    o->also_interesting = (int)v;
    return true;
  case OPT_STUCK:
    if (!cli_count_arg("rreduce", "--stuck-after", arg, 0, &v)) return false;
    o->max_failures = (unsigned)v;
    return true;
  default: /* OPT_STUCK_TIMEOUTS */
    if (!cli_count_arg("rreduce", "--stuck-timeouts", arg, 0, &v)) return false;
    o->max_timeouts = (unsigned)v;
    return true;
  }
}

/* The options; -1 to go on, else the exit status (--help, --version, --list-passes, errors). */
static int parse_options(int argc, char **argv, Cli *c) {
  static const struct option longopts[] = {
      {"timeout", required_argument, NULL, OPT_TIMEOUT}, {"limit-mem", required_argument, NULL, OPT_MEM},
      {"limit-cpu", required_argument, NULL, OPT_CPU},   {"no-cache", no_argument, NULL, OPT_NOCACHE},
      {"passes", required_argument, NULL, OPT_PASSES},   {"skip-passes", required_argument, NULL, OPT_SKIP},
      {"list-passes", no_argument, NULL, OPT_LIST},      {"fast", no_argument, NULL, OPT_FAST},
      {"slow", no_argument, NULL, OPT_SLOW},             {"keep-comments", no_argument, NULL, OPT_KEEP},
      {"stats", no_argument, NULL, OPT_STATS},
      {"save-temps", no_argument, NULL, OPT_TEMPS},      {"json", no_argument, NULL, OPT_JSON},
      {"tidy", no_argument, NULL, OPT_TIDY},             {"help", no_argument, NULL, 'h'},
      {"match", required_argument, NULL, OPT_MATCH},     {"also-interesting", required_argument, NULL, OPT_ALSO},
      {"history", required_argument, NULL, OPT_HISTORY}, {"report", required_argument, NULL, OPT_REPORT},
      {"trivial-is-error", no_argument, NULL, OPT_TRIVIAL}, {"stuck-after", required_argument, NULL, OPT_STUCK},
      {"require-typed", no_argument, NULL, OPT_REQUIRE_TYPED}, {"print-diff", no_argument, NULL, OPT_PRINT_DIFF},
      {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
      {"stuck-timeouts", required_argument, NULL, OPT_STUCK_TIMEOUTS}, {"version", no_argument, NULL, OPT_VERSION},
      {"jobs", required_argument, NULL, 'j'},            {"server", required_argument, NULL, OPT_SERVER},
      {"frame", required_argument, NULL, OPT_FRAME},     {"no-pipeline", no_argument, NULL, OPT_NO_PIPELINE},
      {"pipeline", required_argument, NULL, OPT_PIPELINE}, {"strip-spans", no_argument, NULL, OPT_STRIP_SPANS},
      {"progress-lines", no_argument, NULL, OPT_PROGRESS_LINES},
      OP_TVM_VERSION_OPTION,                               {NULL, 0, NULL, 0},
  };
  RedOptions *o = &c->o;
  int opt;
  while ((opt = getopt_long(argc, argv, "o:j:vh", longopts, NULL)) != -1) {
    switch (opt) {
    case 'o': c->out = optarg; break;
    case 'j': case OPT_TIMEOUT: case OPT_MEM: case OPT_CPU: case OPT_ALSO: case OPT_STUCK: case OPT_STUCK_TIMEOUTS:
      if (!numeric_option(c, opt, optarg)) return 2;
      break;
    case 'v': o->verbose = 1; break;
    case OPT_NOCACHE: o->use_cache = false; break;
    case OPT_PASSES: c->only = optarg; break;
    case OPT_SKIP: c->skip = optarg; break;
    case OPT_LIST:
      for (size_t i = 0; i < RED_NPASSES; i++) printf("%-10s %s\n", red_passes[i]->name, red_passes[i]->description);
      return 0;
    case OPT_FAST: o->fast = true; break;
    case OPT_SLOW: o->fast = false; o->max_failures = o->max_timeouts = 0; break;
    case OPT_KEEP: o->keep_comments = true; break;
    case OPT_STRIP_SPANS: c->strip_spans = true; break;
    case OPT_PROGRESS_LINES: c->progress_lines = true; break;
    case OPT_TEMPS: o->oracle.run.keep_temps = true; break;
    case OPT_JSON: c->json = true; break;
    case OPT_STATS: c->stats = true; break;
    case OPT_TIDY: c->tidy = true; break;
    case OPT_PRINT_DIFF: o->print_diff = true; break;
    case OPT_NO_VERIFY: c->verify = false; break;
    case OPT_MATCH: c->match = optarg; break;
    case OPT_FRAME: o->frame = optarg; break;
    case OPT_NO_PIPELINE: o->no_pipeline = true; break;
    case OPT_PIPELINE: c->pipeline_path = optarg; break;
    case OPT_HISTORY: c->history = optarg; break;
    case OPT_SERVER: o->server_cmd = optarg; break;
    case OPT_REPORT: c->report = optarg; break;
    case OPT_TRIVIAL: c->trivial_is_error = true; break;
    case OPT_REQUIRE_TYPED: c->require_typed = true; break;
    case OP_OPT_TVM_VERSION:
      if (!op_tvm_option(optarg)) return 2;
      break;
    case OPT_VERSION: return op_tvm_print_version("rreduce");
    case 'h': fputs(usage, stdout); return 0;
    default: return cli_bad_option("rreduce");
    }
  }
  return -1;
}

/* --pipeline FILE: read and checked before any test runs (a pipeline that names no pass of TVM's,
   or holds something else than a pipeline, is the user's mistake, said with the file); -1 to go
   on, else 2. */
static int read_pipeline(Cli *c) {
  if (!c->pipeline_path) return -1;
  if (c->o.no_pipeline) return fprintf(stderr, "rreduce: --pipeline and --no-pipeline contradict each other\n"), 2;
  size_t len;
  c->pipeline_text = file_read_text(c->pipeline_path, &len);
  if (!c->pipeline_text) return 2; /* it said why */
  RedPipeline p;
  char err[512];
  if (!red_pipeline_parse(&p, c->pipeline_text, c->pipeline_path, err, sizeof err))
    return fprintf(stderr, "rreduce: --pipeline %s\n", err), 2;
  bool ok = red_pipeline_check(&p, c->pipeline_path, err, sizeof err);
  red_pipeline_free(&p);
  if (!ok) return fprintf(stderr, "rreduce: --pipeline %s\n", err), 2;
  c->o.pipeline = c->pipeline_text;
  return -1;
}

/* FILE and TEST (either order), --match, the passes, where the result goes; -1 to go on, else the
   exit status. */
static int check_arguments(int argc, char **argv, Cli *c) {
  RedOptions *o = &c->o;
  if (argc - optind != (o->server_cmd ? 1 : 2)) {
    fputs(o->server_cmd ? "rreduce: with --server, expected only FILE\n" : "rreduce: expected FILE and TEST\n", stderr);
    fputs(usage, stderr);
    return 2;
  }
  c->file = argv[optind];
  c->test = o->server_cmd ? NULL : argv[optind + 1];
  if (c->test && !cli_executable(c->test) && cli_executable(c->file)) {
    const char *t = c->file;
    c->file = c->test;
    c->test = t;
  }
  char why[128];
  if (c->test && !cli_runnable(c->test, why, sizeof why)) return fprintf(stderr, "rreduce: %s: the test %s\n", c->test, why), 2;
  if (c->match) {
    char msg[256];
    if (!(c->re = pattern_compile(c->match, msg, sizeof msg)))
      return fprintf(stderr, "rreduce: --match '%s': %s\n", c->match, msg), 2;
    o->match = c->re;
  }
  const char *pass_names[RED_NPASSES];
  for (size_t i = 0; i < RED_NPASSES; i++) pass_names[i] = red_passes[i]->name;
  if (!cli_known_names("rreduce", "--passes", "pass", c->only, pass_names, RED_NPASSES) ||
      !cli_known_names("rreduce", "--skip-passes", "pass", c->skip, pass_names, RED_NPASSES))
    return 2;
  for (size_t i = 0; i < RED_NPASSES; i++) {
    if ((c->only && !cli_in_list(c->only, red_passes[i]->name)) || (c->skip && cli_in_list(c->skip, red_passes[i]->name)))
      continue;
    if (o->keep_comments && red_passes[i] == &red_pass_comments) continue;
    if (!c->strip_spans && red_passes[i] == &red_pass_spans) continue; /* spans stay by default */
    c->passes[o->npasses++] = red_passes[i];
  }
  o->passes = c->passes;
  o->oracle.test = c->test;
  const char *slash = strrchr(c->file, '/');
  o->basename = slash ? slash + 1 : c->file;
  /* Reducing through a symlink updates the file it points to and keeps the link. */
  c->target = c->out ? NULL : realpath(c->file, NULL);
  struct stat link_st;
  bool via_link = c->target && lstat(c->file, &link_st) == 0 && S_ISLNK(link_st.st_mode);
  o->out_path = c->out ? c->out : via_link ? c->target : c->file;
  o->progress = c->progress_lines ? RED_PROGRESS_LINES : isatty(STDERR_FILENO) && !o->verbose ? RED_PROGRESS_TERMINAL : 0;
  c->also_dir = xmalloc(strlen(o->out_path) + 32);
  sprintf(c->also_dir, "%s.also-interesting", o->out_path);
  o->also_dir = c->also_dir;
  c->pipeline_out = xmalloc(strlen(o->out_path) + 16);
  sprintf(c->pipeline_out, "%s.pipeline", o->out_path);
  o->pipeline_out = c->pipeline_out;
  return read_pipeline(c);
}

/* Loads FILE typed, or under the weakest guard it passes (a type checker's bug report, an
   --ill-typed mutant); -1 to go on, else the exit status. */
static int load_input(Cli *c, const char *text, Program *p) {
  char err[2048];
  bool parsed;
  double load_start = clock_seconds();
  if (!prog_load_parsed(p, c->file, text, true, err, sizeof err, &parsed)) {
    char werr[2048];
    if (!parsed) { /* a syntax error, or a text refused before its parse (too large for memory) */
      fprintf(stderr, "rreduce: %s could not be read as Relay text, so there is nothing to reduce:\n%s", c->file, err);
      return 1;
    }
    if (c->require_typed || !prog_load_as(p, c->file, text, PROG_PARSED, werr, sizeof werr)) {
      fprintf(stderr, "rreduce: %s is not a well-typed Relay program, which %s:\n%s", c->file,
              c->require_typed ? "--require-typed asks for" : "rreduce needs", c->require_typed ? err : werr);
      return 1;
    }
    const char *first = strstr(err, "error: ");
    size_t flen = first ? strcspn(first, "\n") : 0;
    fprintf(stderr, "rreduce: %s does not type-check (%.*s); reducing under a weaker guard: every candidate %s (--require-typed refuses instead)\n",
            c->file, (int)flen, first ? first : "", p->guard == PROG_SCOPED ? "parses and binds its names" : "parses");
    c->o.guard = p->guard;
  }
  c->o.input = p; /* the driver's first load (a parse as long as this one on a large input) */
  c->o.input_load_seconds = clock_seconds() - load_start;
  return -1;
}

/* After the run: the statistics, the summary, the warnings, --report; the exit status. */
static int summarize(Cli *c, const char *text, const RedStats *st, bool ok) {
  const RedOptions *o = &c->o;
  /* -o OUT always gets the result, even when nothing could be removed */
  if (c->out && !st->accepted && !file_replace(c->out, text, strlen(text))) {
    fprintf(stderr, "rreduce: cannot write %s\n", c->out);
    ok = false;
  }
  if (c->stats) print_stats(st, o);
  if (c->json) print_json(st, o);
  else if (!st->interrupted && !c->stats)
    fprintf(stderr, "rreduce: %zu -> %zu bytes, %zu -> %zu operator calls; %lu tests (%lu cached), %lu accepted, %.1f s\n",
            st->bytes_before, st->bytes_after, st->calls_before, st->calls_after, st->tests_run, st->cache_hits,
            st->accepted, st->seconds);
  if (st->pipeline_after && !c->json) {
    RedPipeline before = {.opt_level = -1}, after;
    char err[256], *b = NULL, *a = NULL;
    if (red_pipeline_parse(&before, st->pipeline_before, "", err, sizeof err)) b = red_pipeline_describe(&before);
    if (red_pipeline_parse(&after, st->pipeline_after, "", err, sizeof err)) a = red_pipeline_describe(&after);
    fprintf(stderr, "rreduce: pipeline: %s -> %s%s (in %s)\n", b ? b : "?", a ? a : "?",
            st->pipeline_minimal ? "; 1-minimal" : "", o->pipeline_out);
    free(b);
    free(a);
    red_pipeline_free(&before);
    red_pipeline_free(&after);
  }
  int status = ok ? 0 : 2;
  if (st->interrupted) {
    fprintf(stderr, "rreduce: interrupted; %s holds the smallest interesting program found; run the same command to "
                    "continue\n", o->out_path);
    status = 130;
  } else if (ok && st->calls_after == 0 && st->calls_before > 0) {
    fprintf(stderr, "rreduce: %s: the result has no operator call left: the test may not be checking the bug "
                    "(consider --match)\n", c->trivial_is_error ? "error" : "warning");
    if (c->trivial_is_error) status = 3;
  }
  char err[2048];
  if (ok && c->report && !st->interrupted && !red_write_report(c->report, text, o, c->match, st, err, sizeof err)) {
    fprintf(stderr, "rreduce: --report: %s\n", err);
    status = 2;
  }
  if (o->oracle.pool && server_pool_garbage(o->oracle.pool))
    fprintf(stderr, "rreduce: warning: the oracle server answered garbage %lu times (each time it was restarted and "
                    "the candidate counted as not interesting)\n", server_pool_garbage(o->oracle.pool));
  return status;
}

/* --server: the result asked once more, of a server started for it alone, before rreduce says it
   is done.  A plain server's answers are taken one line at a time, and one that slipped a line in
   for another query (a surplus the client could not tell from an answer) may have let an
   uninteresting program through: then FILE holds it, and this says so.  -1: the result is
   interesting (or was never changed); else the exit status. */
static int check_result(const Cli *c, const char *text, const RedStats *st) {
  const RedOptions *o = &c->o;
  if (!o->server_cmd || !st->accepted) return -1;
  RunResult r = {0};
  char err[512];
  bool ran = red_ask_fresh(o, c->check, text, st->pipeline_after, &r, err, sizeof err);
  int status = -1;
  if (*o->stop) {
    fprintf(stderr, "rreduce: interrupted during the check of the result; %s holds it\n", o->out_path);
    status = 130;
  } else if (!ran) {
    fprintf(stderr, "rreduce: cannot check the result with a fresh oracle server: %s\n", err);
    status = 2;
  } else if (!red_verdict(&r, o)) {
    not_interesting(o->out_path, NULL, o, &r, r.status == 0);
    fprintf(stderr, "rreduce: error: that is the result of the reduction, asked once more of a fresh server: the "
                    "server's answers during the reduction cannot be trusted%s%s%s\n",
            !c->out && !c->tidy ? "; the input is in " : "", !c->out && !c->tidy ? c->file : "",
            !c->out && !c->tidy ? ".orig" : "");
    status = 4;
  }
  run_result_free(&r);
  return status;
}

/* --server: the servers start before FILE is read, so that their start-up (a second or more for
   TVM's import) overlaps its reading instead of adding to it: -j of them for the reduction, and one
   kept for the result's check, asked nothing until then (so nothing the others said can be in its
   answer) and started at a lower priority, so that its start-up costs the others nothing. */
static void start_servers(Cli *c) {
  RedOptions *o = &c->o;
  if (!o->server_cmd) return;
  server_pool_free(o->oracle.pool);
  server_pool_free(c->check);
  c->servers_release = op_tvm(); /* resolved first: the servers' relaykit tools inherit it (not asking again) */
  o->oracle.pool = server_pool_new(o->server_cmd, o->jobs, &o->oracle.run);
  RunOptions later = o->oracle.run;
  later.nice = 10;
  c->check = server_pool_new(o->server_cmd, 1, &later);
}

/* The reduction itself, from the lock to the summary; the exit status. */
static int reduce_file(Cli *c, char **text, int argc, char **argv, char **last_path) {
  RedOptions *o = &c->o;
  RedStats st = {0};
  /* Every way a user stops rreduce ends it cleanly (its tests killed, FILE the best so far);
     from here on, including during the first test. */
  cli_on_stop_signals(on_signal);
  ast_parse_cancel_on(&parse_cancel);
  /* The input's test runs in the driver, the first candidate beside it with -j 2 or more. */
  if (!c->verify) fprintf(stderr, "rreduce: --no-verify: %s is taken as interesting without testing it\n", c->file);
  Start start = {o, c->file, c->test, c->history, !c->out && !c->tidy, NULL, 2};
  o->verify = c->verify;
  o->on_input = on_input;
  o->on_input_ctx = &start;
  char *command_line = shell_quoted(argc, argv);
  o->command_line = command_line;
  o->keys = red_keys_start(); /* `s` skips a pass; the terminal's modes come back at exit */
  char err[2048];
  bool ok = red_reduce(text, o, &st, err, sizeof err);
  red_keys_stop();
  *last_path = start.last_path;
  if (!ok) fprintf(stderr, "rreduce: %s\n", err);
  int status;
  if (!st.started) { /* nothing was written */
    if (ok && st.interrupted) fprintf(stderr, "rreduce: interrupted during the first test; %s is unchanged\n", c->file);
    status = !ok ? 2 : st.interrupted ? 130 : start.status;
  } else {
    int checked = ok && !st.interrupted ? check_result(c, *text, &st) : -1;
    if (checked >= 0) c->report = NULL; /* no bug report of a result that is not the bug */
    status = summarize(c, *text, &st, ok);
    if (checked >= 0 && status != 2) status = checked;
  }
  free(st.per_pass);
  free(st.pipeline_before);
  free(st.pipeline_after);
  free(command_line);
  return status;
}

int main(int argc, char **argv) {
  Cli c;
  cli_defaults(&c);
  cli_name(argv, "rreduce");
  int status = parse_options(argc, argv, &c);
  if (status < 0) status = check_arguments(argc, argv, &c);
  if (status >= 0) {
    pattern_free(c.re);
    free(c.also_dir);
    free(c.target);
    free(c.pipeline_text);
    free(c.pipeline_out);
    return cli_exit(status);
  }
  status = 2;
  char *lock_path = NULL, *last_path = NULL;
  int lock_fd = -1;
  size_t len;
  char *text = file_read_text(c.file, &len);
  Program p = {0};
  if (!text) {
    if (errno == EILSEQ) status = 1; /* a NUL byte: ill-formed, not an I/O error */
    goto done;
  }
  start_servers(&c);
  ast_parse_for(AST_TOOL_REDUCE); /* the input is refused if its reduction cannot fit in memory */
  status = load_input(&c, text, &p);
  ast_parse_for(AST_TOOL_READ); /* a candidate needs only its reading */
  if (status >= 0) goto done;
  /* FILE settled the release on an older one (op_tvm_first_check): the servers' tools must agree */
  if (c.o.oracle.pool && op_tvm() != c.servers_release) start_servers(&c);
  status = 2;
  /* One rreduce per FILE: a second one would take the first one's intermediate programs for a new
     input.  The lock dies with the process, however it ends. */
  if (!c.out && !(lock_path = lock_file(c.o.out_path, &lock_fd))) goto done;
  file_remove_stale_temps_of(c.o.out_path); /* what a kill left of a write (FILE.tmpXXXXXX, FILE.orig.tmp...) */
  status = reduce_file(&c, &text, argc, argv, &last_path);
done:
  prog_free(&p);
  server_pool_free(c.o.oracle.pool);
  server_pool_free(c.check);
  for (int i = 0; i < 8 && strays_reap(); i++) {} /* a stray's own strays come to this process next */
  red_history_close(c.o.history);
  pattern_free(c.re);
  free(text);
  free(c.also_dir);
  free(c.target);
  free(c.pipeline_text);
  free(c.pipeline_out);
  free(last_path);
  if (lock_path) { /* removed before it is released: a waiting run finds no stale file */
    unlink(lock_path);
    close(lock_fd);
    free(lock_path);
  }
  return cli_exit(status);
}
