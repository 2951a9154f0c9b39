/* roracle: run an oracle (a test) over a corpus of Relay programs; group the failures by signature. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strays.h"
#include "../support/cli.h"
#include "../support/fileio.h"
#include "../support/strbuf.h"
#include "../support/strset.h"
#include "../support/version.h"
#include "../support/xalloc.h"
#include "oracle.h"
#include "outcome.h"
#include "signature.h"
#include "tvms.h"

static const char usage[] =
    "usage: roracle [options] DIR TEST\n"
    "Runs TEST on every .relay file in DIR (sorted by name) and groups the failures by signature.\n"
    "TEST runs as under rreduce: in a fresh directory holding the file under its own name, its path\n"
    "also passed as $1, with its own TMPDIR; but here a non-zero exit status means \"this program\n"
    "fails\" (a timeout is a failure too, signature \"timeout\").  The signature is the first and\n"
    "last non-empty lines of TEST's output (stdout+stderr), or the top and bottom frames of a stack\n"
    "trace in it, with addresses, numbers, hashes and temporary paths masked.\n"
    "\n"
    "options:\n"
    "  -j N, --jobs N     tests run at once (default: the number of cores); the output is the same\n"
    "                     for every N\n"
    "      --timeout S    seconds per test (default 60)\n"
    "      --limit-mem MB, --limit-cpu S   resource limits for the test\n"
    "  -r, --recursive    also the .relay files in DIR's subdirectories\n"
    "      --max-files N  only the first N files\n"
    "      --keep-going   run every file (the default);  -x, --fail-fast  stop at the first\n"
    "                     failure in file order\n"
    "      --json         print the groups as a JSON list of {\"signature\", \"count\", \"smallest\",\n"
    "                     \"bytes\", \"match\", \"files\"}\n"
    "      --server CMD   ask a persistent oracle server (interestingness/PROTOCOL.md) instead of\n"
    "                     running TEST per file: roracle [options] --server CMD DIR\n"
    "      --args-beside  with --server in per-candidate mode (tvm-server --args-beside): each\n"
    "                     FILE's own check, FILE.args beside it, goes with it (failures that came\n"
    "                     from different checks, as rfuzz's and its peers', each under its own)\n"
    "      --known FILE   signatures of known bugs, one regex a line (# comments): failures they\n"
    "                     match are counted as known, not grouped\n"
    "      --limitations FILE  rules `limitation REGEX` / `rejected REGEX` read before the shipped\n"
    "                     ones (interestingness/tvm-limitations.txt): each group says whether it is\n"
    "                     a bug, a limitation TVM states or an input TVM rejects\n"
    "      --tvm HOME[:LIB]  another TVM build you have (TVM_HOME, and TVM_LIBRARY_PATH when libtvm.so\n"
    "                     is not in HOME/build or HOME/lib), once per release: each bug group's\n"
    "                     smallest file is checked on it too (\"v0.19.0: passes (fixed by v0.19.0)\")\n"
    "      --log-dir DIR  keep each failure's program, check, whole output and outcome in\n"
    "                     DIR/NNNNN-NAME/, so that a group can be audited\n"
    "  -h, --help         show this help;  --version\n"
    "\n"
    "Output: one row per group (count, bytes and path of its smallest file, signature), most\n"
    "frequent first, then a line of totals.  To shrink a group's smallest file with rreduce, which\n"
    "wants a test that exits 0 while the failure reproduces, wrap TEST and keep the same error:\n"
    "  printf '%s\\n' '#!/bin/sh' '! /path/to/TEST \"$1\"' > fails.sh; chmod +x fails.sh\n"
    "  rreduce --match REGEX FILE ./fails.sh\n"
    "REGEX is the group's \"match\" (a Perl/Python regex for the signature's stable part), printed under\n"
    "each row with the whole command.\n"
    "\n"
    "exit status: 0 no failures, 1 some file fails, 2 usage or I/O error, 130 interrupted\n"
    "             (SIGINT, SIGTERM, SIGHUP, SIGQUIT: the files whose test ended are still reported)\n";

/* One file of the corpus and what TEST said of it. */
typedef struct Entry {
  char *path;      /* DIR/name, as the user spelled DIR */
  size_t bytes;
  bool done, failed, timed_out;
  bool known;      /* a failure --known names: counted, not grouped */
  FailClass cls;   /* a failure's class */
  char *rule;      /* the rule that made it that class (failures only) */
  char *signature; /* failures only */
  char *key;       /* what groups it: fail_group_key (outcome.h), as rfuzz's groups */
  char *match;     /* a pattern for rreduce --match, or NULL */
  char *args;      /* --args-beside: FILE.args, its check; else NULL */
} Entry;
typedef VEC(Entry) Entries;

/* A group of failures with one signature; members index the entries, in path order. */
typedef struct Group {
  const char *signature, *match; /* signature: the group's key */
  const char *rule; /* its first file's */
  char *tvm_verdicts; /* what each --tvm says of its smallest file, or NULL */
  FailClass cls;  /* its first file's */
  size_t smallest;
  VEC(size_t) members;
} Group;
typedef VEC(Group) Groups;

enum { MAX_JOBS = 64 };
enum { OPT_TIMEOUT = 256, OPT_MEM, OPT_CPU, OPT_MAX, OPT_KEEP, OPT_JSON, OPT_VERSION, OPT_SERVER, OPT_KNOWN,
       OPT_LIMITATIONS, OPT_LOG_DIR, OPT_TVM, OPT_ARGS_BESIDE };

/* What a failure is and where it is kept: --known, the classes' rules, --log-dir. */
typedef struct Triage {
  VEC(Pattern *) known;
  FailRules rules;
  const char *log_dir;    /* or NULL */
  const char *check;      /* the test or the server command, for the logs */
  bool server;            /* check is an oracle server: an answer 0 (or a signature) is the failure */
  char *rcheck;           /* relaykit's checker, asked of a program TVM refuses before any pass */
  bool log_failed;        /* a log could not be written: said once */
} Triage;

static volatile sig_atomic_t stop_flag = 0;
static void on_signal(int sig) {
  (void)sig;
  stop_flag = 1;
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* The .relay files in dir (and below it with `recursive`), unsorted; false on an I/O error. */
/* Whether the file or directory st names was met before (symlinks are followed: a link may lead
   back up the tree, or to a file listed under another name).  Marks it met. */
static bool met_before(StrSet *seen, const struct stat *st) {
  char key[64];
  snprintf(key, sizeof key, "%llu:%llu", (unsigned long long)st->st_dev, (unsigned long long)st->st_ino);
  return !strset_add(seen, key);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The .relay files in dir (and below it, recursive), each file and directory once: the first path
   to it in name order, so a symlink loop or a second name adds nothing and the result does not
   depend on the order readdir gives. */
static bool walk_dir(const char *dir, bool recursive, Entries *out, StrSet *seen) {
  DIR *d = opendir(dir);
  if (!d) return fprintf(stderr, "roracle: %s: %s\n", dir, strerror(errno)), false;
  VEC(char *) names = {0};
  struct dirent *de;
  while ((de = readdir(d)))
    if (de->d_name[0] != '.') VEC_PUSH(names, xstrdup(de->d_name));
  closedir(d);
  if (names.len) qsort(names.items, names.len, sizeof *names.items, by_name);
  bool ok = true;
  for (size_t i = 0; i < names.len; i++) {
    size_t n = strlen(dir) + strlen(names.items[i]) + 2;
    char *path = xmalloc(n);
    snprintf(path, n, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", names.items[i]);
    struct stat st;
    bool exists = ok && stat(path, &st) == 0;
    if (exists && S_ISREG(st.st_mode) && ends_with(names.items[i], ".relay") && !met_before(seen, &st)) {
      VEC_PUSH(*out, ((Entry){.path = path, .bytes = (size_t)st.st_size}));
      path = NULL;
    } else if (exists && recursive && S_ISDIR(st.st_mode) && !met_before(seen, &st)) {
      ok = walk_dir(path, true, out, seen);
    }
    free(path);
    free(names.items[i]);
  }
  free(names.items);
  return ok;
}

static bool list_dir(const char *dir, bool recursive, Entries *out) {
  StrSet seen;
  strset_init(&seen);
  struct stat st;
  if (stat(dir, &st) == 0) met_before(&seen, &st); /* a link back to the top adds nothing either */
  bool ok = walk_dir(dir, recursive, out, &seen);
  strset_free(&seen);
  return ok;
}

static int by_path(const void *a, const void *b) { return strcmp(((const Entry *)a)->path, ((const Entry *)b)->path); }

static const char *basename_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static void describe(Entry *e, const RunResult *r);

/* --log-dir: the failure's program, its check, TEST's whole output and its outcome, in
   DIR/NNNNN-NAME/ (NNNNN: the file's place in path order). */
static void log_failure(Triage *t, size_t index, const Entry *e, const RunResult *r, const Outcome *f) {
  if (!t->log_dir) return;
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/%05zu-%s", t->log_dir, index + 1, basename_of(e->path));
  size_t len;
  char *program = file_read(e->path, &len);
  StrBuf out;
  sb_init(&out);
  sb_putn(&out, r->output ? r->output : "", r->output_len);
  if (*f->output) sb_printf(&out, "%s--- TVM's output (the outcome) ---\n%s", out.len ? "\n" : "", f->output);
  bool ok = (mkdir(dir, 0777) == 0 || errno == EEXIST) && program;
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/%s", dir, basename_of(e->path));
  ok = ok && file_replace(path, program, len);
  snprintf(path, sizeof path, "%s/check", dir);
  ok = ok && file_replace(path, t->check, strlen(t->check));
  snprintf(path, sizeof path, "%s/args", dir);
  if (e->args) ok = ok && file_replace(path, e->args, strlen(e->args));
  snprintf(path, sizeof path, "%s/output", dir);
  ok = ok && file_replace(path, out.data ? out.data : "", out.len);
  snprintf(path, sizeof path, "%s/outcome.json", dir);
  if (ok && r->outcome) ok = file_replace(path, r->outcome, strlen(r->outcome));
  if (!ok && !t->log_failed) fprintf(stderr, "roracle: cannot write the log of %s in %s\n", e->path, dir);
  t->log_failed |= !ok;
  sb_free(&out);
  free(program);
}

/* Whether relaykit's checker accepts e's program, asked only where it decides the class: TVM
   refusing the program before any pass (outcome.h, FailAccepted). */
static FailAccepted relaykit_accepts(Triage *t, const Entry *e, const Outcome *f) {
  if (strcmp(f->stage, "frontend") || (strcmp(f->kind, "check") && strcmp(f->kind, "exception")) || !t->rcheck)
    return ACCEPTED_UNKNOWN;
  size_t len;
  char *text = file_read(e->path, &len);
  if (!text) return ACCEPTED_UNKNOWN;
  RunOptions ro;
  run_options_default(&ro);
  ro.timeout = 120;
  RunResult r;
  char err[256];
  FailAccepted a = ACCEPTED_UNKNOWN;
  if (run_candidate(t->rcheck, basename_of(e->path), text, len, &ro, &r, err, sizeof err)) {
    if (!r.timed_out && (r.status == 0 || r.status == 1)) a = r.status == 0 ? ACCEPTED_YES : ACCEPTED_NO;
    run_result_free(&r);
  }
  free(text);
  return a;
}

/* What TEST said of e (the index-th file): passed, or failed with a signature, a class, maybe
   known; logged with --log-dir. */
static void record(Triage *t, size_t index, Entry *e, const RunResult *r) {
  e->done = true;
  e->timed_out = r->timed_out;
  /* A test's exit status other than 0 says "this program fails"; a server's answer says it the
     other way round (PROTOCOL.md: 0, the failure is there; another status with a signature, an
     earlier stage broke; 2, the program could not be checked), as rfuzz reads it. */
  if (t->server) e->failed = r->timed_out || r->status != 1 || (r->output && *r->output);
  else e->failed = r->timed_out || r->status != 0;
  if (!e->failed) return;
  Outcome f;
  outcome_read(&f, r->outcome);
  describe(e, r);
  /* the test's own words first (its outcome), then roracle's signature of its output */
  const char *words = *f.signature ? f.signature : e->signature;
  if (*f.signature && strcmp(f.signature, e->signature)) {
    free(e->signature);
    e->signature = xstrdup(f.signature); /* a log line above the error is not the failure */
    free(e->match);
    RunSignature s;
    run_signature(f.signature, strlen(f.signature), NULL, &s);
    e->match = s.match;
    free(s.text);
  }
  char *match = NULL;
  fail_group_key(&f, e->timed_out, e->signature, &e->key, &match);
  free(match);
  e->cls = fail_classify(&t->rules, words, &f, relaykit_accepts(t, e, &f), &e->rule);
  for (size_t k = 0; k < t->known.len && !e->known; k++)
    e->known = pattern_search(t->known.items[k], e->signature, strlen(e->signature)) ||
               pattern_search(t->known.items[k], words, strlen(words));
  log_failure(t, index, e, r, &f);
  outcome_free(&f);
}

/* e's signature and match, from TEST's output. */
static void describe(Entry *e, const RunResult *r) {
  if (r->timed_out) {
    e->signature = xstrdup("timeout");
    return;
  }
  char resolved[PATH_MAX];
  RunSigMasks m = {{r->dir, r->dir && realpath(r->dir, resolved) ? resolved : NULL}, basename_of(e->path)};
  RunSignature s;
  run_signature(r->output, r->output_len, &m, &s);
  if (!s.text) {
    char buf[64];
    if (r->status < 0) snprintf(buf, sizeof buf, "(no output, signal %d)", r->signal);
    else snprintf(buf, sizeof buf, "(no output, exit %d)", r->status);
    s.text = xstrdup(buf);
  }
  e->signature = s.text;
  e->match = s.match;
}

static void progress(size_t done, size_t n, size_t failed) {
  fprintf(stderr, "\rroracle: %zu/%zu files, %zu failed ", done, n, failed);
}

/*
 * Runs TEST over the entries, `jobs` at once.  Results land in each entry, so the order in which
 * tests end does not matter.  With fail_fast the run stops at the first failure in file order
 * (*n becomes the count of files up to it).  Returns 0, 2 (I/O error) or 130 (interrupted).
 */
static int run_all(Entries *files, size_t *n, const Oracle *oracle, unsigned jobs, bool fail_fast, Triage *t) {
  OracleJob slot[MAX_JOBS] = {{0}};
  size_t which[MAX_JOBS] = {0}, next = 0, running = 0, finished = 0, failed = 0, prefix = 0;
  bool show = isatty(STDERR_FILENO), stopping = false;
  int status = 0;
  char err[2048];
  while (running || (next < *n && !stopping)) {
    if (stop_flag && !stopping) stopping = true, status = 130;
    for (unsigned s = 0; s < jobs && next < *n && !stopping; s++) {
      if (oracle_pending(&slot[s])) continue;
      Entry *e = &files->items[next];
      size_t len;
      char *text = file_read(e->path, &len);
      RunSide side = {{"args"}, {e->args}, e->args ? 1 : 0}; /* --args-beside: the file's own check */
      bool started = text && oracle_start(oracle, basename_of(e->path), text, len, &side, &slot[s], err, sizeof err);
      free(text);
      if (!started) {
        if (text) fprintf(stderr, "roracle: %s\n", err);
        stopping = true;
        status = 2;
        break;
      }
      e->bytes = len;
      which[s] = next++;
      running++;
    }
    if (stopping)
      for (unsigned s = 0; s < jobs; s++)
        if (oracle_pending(&slot[s])) oracle_cancel(&slot[s]);
    oracle_wait(oracle, slot, jobs, 50);
    for (unsigned s = 0; s < jobs; s++) {
      if (!oracle_pending(&slot[s]) || !oracle_done(&slot[s])) continue;
      RunResult r;
      oracle_finish(oracle, &slot[s], &r);
      running--;
      if (!stopping) {
        record(t, which[s], &files->items[which[s]], &r);
        finished++;
        failed += files->items[which[s]].failed;
      }
      if (r.dir) run_remove_tree(r.dir);
      run_result_free(&r);
      if (show) progress(finished, *n, failed);
    }
    /* --fail-fast: the first failure in file order ends the run (the same one for every -j). */
    for (; fail_fast && !stopping && prefix < next && files->items[prefix].done; prefix++) {
      if (!files->items[prefix].failed) continue;
      *n = prefix + 1;
      for (unsigned s = 0; s < jobs; s++)
        if (oracle_pending(&slot[s]) && which[s] > prefix) oracle_cancel(&slot[s]);
      break;
    }
  }
  if (show) fputs("\r\033[K", stderr);
  return status;
}

/* Failure indices by signature, then path (qsort has no context argument: the entries are here). */
static const Entries *sort_files;
static int by_signature(const void *a, const void *b) {
  const Entry *e = sort_files->items;
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  int c = strcmp(e[i].key, e[j].key);
  return c ? c : i < j ? -1 : i > j;
}

static int by_count(const void *a, const void *b) {
  const Group *g = a, *h = b;
  if (g->members.len != h->members.len) return g->members.len > h->members.len ? -1 : 1;
  return strcmp(g->signature, h->signature);
}

/* The failures, grouped; the groups sorted by count (descending), then signature. */
static Groups group(const Entries *files, size_t n) {
  VEC(size_t) fails = {0};
  for (size_t i = 0; i < n; i++)
    if (files->items[i].failed && !files->items[i].known) VEC_PUSH(fails, i);
  if (fails.len) {
    sort_files = files;
    qsort(fails.items, fails.len, sizeof *fails.items, by_signature);
  }
  Groups groups = {0};
  for (size_t k = 0; k < fails.len; k++) {
    const Entry *e = &files->items[fails.items[k]];
    if (!groups.len || strcmp(groups.items[groups.len - 1].signature, e->key))
      VEC_PUSH(groups, ((Group){.signature = e->key, .rule = e->rule, .smallest = fails.items[k], .cls = e->cls}));
    Group *g = &groups.items[groups.len - 1];
    VEC_PUSH(g->members, fails.items[k]);
    if (e->bytes < files->items[g->smallest].bytes) g->smallest = fails.items[k];
  }
  for (size_t k = 0; k < groups.len; k++) groups.items[k].match = files->items[groups.items[k].smallest].match;
  if (groups.len) qsort(groups.items, groups.len, sizeof *groups.items, by_count);
  free(fails.items);
  return groups;
}

/* s as one word for a POSIX shell: itself when it is safe, else in single quotes. */
static void shell_quote(StrBuf *sb, const char *s) {
  if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-=:,@%") == strlen(s)) {
    sb_puts(sb, s);
    return;
  }
  sb_putc(sb, '\'');
  for (; *s; s++)
    if (*s == '\'') sb_puts(sb, "'\\''");
    else sb_putc(sb, *s);
  sb_putc(sb, '\'');
}

/* A JSON string; bytes that are not UTF-8 (a file name) become '?'. */
static json_t *jstr(const char *s) {
  json_t *j = json_string(s);
  if (j) return j;
  char *copy = xstrdup(s);
  for (char *p = copy; *p; p++)
    if ((unsigned char)*p >= 0x80) *p = '?';
  j = json_string(copy);
  free(copy);
  return j;
}

static void print_json(const Entries *files, const Group *groups, size_t ngroups) {
  json_t *list = json_array();
  for (size_t k = 0; k < ngroups; k++) {
    const Group *g = &groups[k];
    json_t *members = json_array();
    for (size_t i = 0; i < g->members.len; i++) json_array_append_new(members, jstr(files->items[g->members.items[i]].path));
    const Entry *small = &files->items[g->smallest];
    json_array_append_new(list, json_pack("{s:o, s:s, s:o, s:I, s:o, s:I, s:o, s:o}", "signature", jstr(g->signature),
                                          "class", fail_class_names[g->cls], "rule", jstr(g->rule ? g->rule : ""),
                                          "count", (json_int_t)g->members.len, "smallest", jstr(small->path), "bytes",
                                          (json_int_t)small->bytes, "match", g->match ? jstr(g->match) : json_null(),
                                          "files", members));
    if (g->tvm_verdicts)
      json_object_set_new(json_array_get(list, json_array_size(list) - 1), "tvm_verdicts", jstr(g->tvm_verdicts));
  }
  json_dumpf(list, stdout, JSON_INDENT(2));
  fputc('\n', stdout);
  json_decref(list);
}

/* The recipe for a wrapper that makes TEST an rreduce test (exit 0 while the failure reproduces):
   a script whose one line is before, the test, after. */
static void print_wrapper(const char *name, const char *before, const char *test, const char *after) {
  StrBuf line, cmd;
  sb_init(&line);
  sb_init(&cmd);
  sb_puts(&line, before);
  shell_quote(&line, test);
  sb_puts(&line, after);
  sb_puts(&cmd, "printf '%s\\n' '#!/bin/sh' ");
  shell_quote(&cmd, line.data);
  printf("%s: %s > %s; chmod +x %s\n", name, cmd.data, name, name);
  sb_free(&line);
  sb_free(&cmd);
}

static void print_table(const Entries *files, const Group *groups, size_t ngroups, const char *test, double timeout) {
  int w = (int)strlen("smallest");
  for (size_t k = 0; k < ngroups; k++) {
    int n = (int)strlen(files->items[groups[k].smallest].path);
    if (n > w) w = n;
  }
  if (ngroups) printf("%5s  %-10s  %8s  %-*s  %s\n", "count", "class", "bytes", w, "smallest", "signature");
  bool hangs = false;
  StrBuf sb;
  sb_init(&sb);
  for (size_t k = 0; k < ngroups; k++) {
    const Group *g = &groups[k];
    const Entry *small = &files->items[g->smallest];
    printf("%5zu  %-10s  %8zu  %-*s  %s\n", g->members.len, fail_class_names[g->cls], small->bytes, w, small->path,
           g->signature);
    if (g->rule) printf("%5s  %-10s  %8s  why: %s\n", "", "", "", g->rule);
    if (g->tvm_verdicts) printf("%5s  %-10s  %8s  on %s\n", "", "", "", g->tvm_verdicts);
    if (!test) continue; /* a server: its answers, not a command rreduce can wrap */
    sb.len = 0;
    if (g->match) {
      sb_puts(&sb, "rreduce --match ");
      shell_quote(&sb, g->match);
    } else {
      sb_puts(&sb, "rreduce");
    }
    sb_putc(&sb, ' ');
    shell_quote(&sb, small->path);
    bool hang = !strcmp(g->signature, "timeout") || ends_with(g->signature, ": timeout");
    hangs |= hang;
    sb_puts(&sb, hang ? " ./hangs.sh" : " ./fails.sh");
    printf("%5s  %-10s  %8s  %s\n", "", "", "", sb.data);
  }
  if (ngroups && test) {
    char abs[PATH_MAX];
    const char *t = realpath(test, abs) ? abs : test;
    print_wrapper("fails.sh", "! ", t, " \"$1\"");
    if (hangs) {
      char timeout_cmd[64];
      snprintf(timeout_cmd, sizeof timeout_cmd, "timeout %.0f ", timeout);
      print_wrapper("hangs.sh", timeout_cmd, t, " \"$1\"; [ $? -eq 124 ]");
    }
  }
  sb_free(&sb);
}

/* What the command line asks for. */
typedef struct Options {
  RunOptions ro; /* how each test runs: timeout, limits */
  unsigned jobs;
  long max_files; /* -1: every file */
  bool json, recursive, fail_fast;
  bool args_beside;       /* each file's check is FILE.args, sent beside it to the server */
  const char *server;     /* --server CMD, or NULL */
  const char *dir, *test; /* test is NULL with --server */
  const char *known_path, *limitations_path, *log_dir;
  Tvms tvms; /* --tvm: other TVM builds each bug group's smallest file is asked of */
} Options;

/* Reads the command line into o, checking DIR and TEST; -1 to go on, else the exit status (0 after
   --help or --version, 2 after a usage error). */
static int read_options(int argc, char **argv, Options *o) {
  static const struct option longopts[] = {
      {"jobs", required_argument, NULL, 'j'},        {"timeout", required_argument, NULL, OPT_TIMEOUT},
      {"limit-mem", required_argument, NULL, OPT_MEM}, {"limit-cpu", required_argument, NULL, OPT_CPU},
      {"recursive", no_argument, NULL, 'r'},         {"max-files", required_argument, NULL, OPT_MAX},
      {"keep-going", no_argument, NULL, OPT_KEEP},   {"fail-fast", no_argument, NULL, 'x'},
      {"json", no_argument, NULL, OPT_JSON},         {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, OPT_VERSION},   {"server", required_argument, NULL, OPT_SERVER},
      {"known", required_argument, NULL, OPT_KNOWN}, {"limitations", required_argument, NULL, OPT_LIMITATIONS},
      {"log-dir", required_argument, NULL, OPT_LOG_DIR}, {"tvm", required_argument, NULL, OPT_TVM},
      {"args-beside", no_argument, NULL, OPT_ARGS_BESIDE},
      {NULL, 0, NULL, 0},
  };
  *o = (Options){.max_files = -1};
  run_options_default(&o->ro);
  o->ro.timeout = 60;
  o->ro.keep_temps = true; /* the signature masks the directory's path; roracle removes it after */
  o->ro.stop = &stop_flag;
  long cores = sysconf(_SC_NPROCESSORS_ONLN), v;
  o->jobs = cores < 1 ? 1 : cores > MAX_JOBS ? MAX_JOBS : (unsigned)cores;
  int c;
  cli_name(argv, "roracle");
  while ((c = getopt_long(argc, argv, "j:rxh", longopts, NULL)) != -1) {
    char *end;
    switch (c) {
    case 'j':
      if (!cli_count_arg("roracle", "-j", optarg, 1, &v)) return 2;
      o->jobs = v > MAX_JOBS ? MAX_JOBS : (unsigned)v;
      break;
    case OPT_TIMEOUT:
      o->ro.timeout = strtod(optarg, &end);
      if (*end || end == optarg || !(o->ro.timeout > 0))
        return fprintf(stderr, "roracle: --timeout takes seconds\n"), 2;
      break;
    case OPT_MEM:
      if (!cli_count_arg("roracle", "--limit-mem", optarg, 1, &v)) return 2;
      o->ro.limit_mem = (uint64_t)v * 1024 * 1024;
      break;
    case OPT_CPU:
      if (!cli_count_arg("roracle", "--limit-cpu", optarg, 1, &v)) return 2;
      o->ro.limit_cpu = (uint64_t)v;
      break;
    case 'r': o->recursive = true; break;
    case OPT_MAX:
      if (!cli_count_arg("roracle", "--max-files", optarg, 1, &o->max_files)) return 2;
      break;
    case OPT_KEEP: o->fail_fast = false; break;
    case 'x': o->fail_fast = true; break;
    case OPT_JSON: o->json = true; break;
    case OPT_VERSION: return cli_version("roracle");
    case OPT_SERVER: o->server = optarg; break;
    case OPT_KNOWN: o->known_path = optarg; break;
    case OPT_LIMITATIONS: o->limitations_path = optarg; break;
    case OPT_LOG_DIR: o->log_dir = optarg; break;
    case OPT_ARGS_BESIDE: o->args_beside = true; break;
    case OPT_TVM: {
      char err[4096 + 256];
      if (!tvm_add(&o->tvms, optarg, err, sizeof err)) return fprintf(stderr, "roracle: %s\n", err), 2;
      break;
    }
    case 'h': fputs(usage, stdout); return 0;
    default: return cli_bad_option("roracle");
    }
  }
  if (argc - optind != (o->server ? 1 : 2)) {
    fputs(o->server ? "roracle: with --server, expected only DIR\n" : "roracle: expected DIR and TEST\n",
          stderr);
    fputs(usage, stderr);
    return 2;
  }
  if (o->args_beside && !o->server)
    return fputs("roracle: --args-beside needs --server: a server in per-candidate mode (tvm-server "
                 "--args-beside) reads each file's check from FILE.args\n",
                 stderr),
           2;
  o->dir = argv[optind];
  o->test = o->server ? NULL : argv[optind + 1];
  if (o->test && is_dir(o->test) && cli_executable(o->dir)) { /* TEST DIR: the other order */
    const char *t = o->dir;
    o->dir = o->test;
    o->test = t;
  }
  if (!is_dir(o->dir)) return fprintf(stderr, "roracle: %s: not a directory\n", o->dir), 2;
  char why[128];
  if (o->test && !cli_runnable(o->test, why, sizeof why))
    return fprintf(stderr, "roracle: %s: the test %s\n", o->test, why), 2;
  return -1;
}

/* --known, the classes' rules and --log-dir, ready before any test runs; false (having said why,
   with the file and line of a bad rule) when one of them is not usable. */
static bool prepare_triage(const Options *o, Triage *t) {
  char err[512];
  t->check = o->server ? o->server : o->test;
  t->server = o->server != NULL;
  t->rcheck = cli_sibling("rcheck");
  t->log_dir = o->log_dir;
  if (o->known_path) {
    size_t len;
    char *text = file_read_text(o->known_path, &len);
    if (!text) return false; /* it said why */
    unsigned line = 0;
    bool ok = true;
    for (char *s = text, *next; ok && s && *s; s = next) {
      next = strchr(s, '\n');
      if (next) *next++ = 0;
      line++;
      while (*s == ' ' || *s == '\t') s++;
      if (!*s || *s == '#') continue;
      Pattern *p = pattern_compile(s, err, sizeof err);
      if (p) VEC_PUSH(t->known, p);
      else ok = !fprintf(stderr, "roracle: %s:%u: %s\n", o->known_path, line, err);
    }
    free(text);
    if (!ok) return false;
  }
  if ((o->limitations_path && !fail_rules_load(&t->rules, o->limitations_path, err, sizeof err)) ||
      !fail_rules_shipped(&t->rules, err, sizeof err))
    return fprintf(stderr, "roracle: --limitations %s\n", err), false;
  if (o->log_dir && mkdir(o->log_dir, 0777) != 0 && errno != EEXIST)
    return fprintf(stderr, "roracle: --log-dir %s: %s\n", o->log_dir, strerror(errno)), false;
  if (o->log_dir && access(o->log_dir, W_OK) != 0)
    return fprintf(stderr, "roracle: --log-dir %s: %s\n", o->log_dir, strerror(errno)), false;
  return true;
}

static void triage_free(Triage *t) {
  for (size_t i = 0; i < t->known.len; i++) pattern_free(t->known.items[i]);
  free(t->known.items);
  fail_rules_free(&t->rules);
  free(t->rcheck);
}

/* --args-beside: every file's FILE.args, read before any test runs, so that a missing one stops
   the run at once rather than as a failure of its file; false (having said which) if one lacks it. */
static bool read_args_beside(Entries *files, size_t n) {
  for (size_t i = 0; i < n; i++) {
    Entry *e = &files->items[i];
    StrBuf path;
    sb_init(&path);
    sb_printf(&path, "%s.args", e->path);
    size_t len;
    bool there = access(path.data, F_OK) == 0;
    e->args = there ? file_read_text(path.data, &len) : NULL; /* unreadable: it said why */
    if (!there) fprintf(stderr, "roracle: %s: no such file (--args-beside: each file's check beside it)\n", path.data);
    sb_free(&path);
    if (!e->args) return false;
  }
  return true;
}

/* After an interruption: the files whose test ended, moved to the front in path order (what was
   tested is reported all the same); returns their count. */
static size_t keep_done(Entries *files, size_t n) {
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (files->items[i].done) {
      Entry e = files->items[kept];
      files->items[kept++] = files->items[i];
      files->items[i] = e;
    }
  fprintf(stderr, "roracle: interrupted after %zu of %zu files; the groups below are theirs\n", kept, n);
  return kept;
}

/* The groups of the first n files and a line of totals (or the JSON list); 1 if any failed, else 0. */
/* --tvm: each bug group's smallest file checked on every TVM given, as it was checked here. */
static void ask_tvms(const Entries *files, Groups *groups, const Options *o) {
  for (size_t k = 0; k < groups->len && o->tvms.len && !stop_flag; k++) {
    Group *g = &groups->items[k];
    if (g->cls != FAIL_BUG) continue;
    const Entry *small = &files->items[g->smallest];
    size_t len;
    char *text = file_read(small->path, &len);
    if (!text) continue;
    TvmCheck check = {.server = o->server, .args = small->args, .test = o->test,
                      .basename = basename_of(small->path), .timeout = o->ro.timeout};
    StrBuf sb;
    sb_init(&sb);
    tvm_verdicts(&o->tvms, &check, text, g->signature, getenv("RELAYKIT_TVM_VERSION"), &sb);
    g->tvm_verdicts = sb_take(&sb);
    free(text);
  }
}

static int report(const Entries *files, size_t n, const Options *o) {
  Groups groups = group(files, n);
  ask_tvms(files, &groups, o);
  size_t failed = 0, timed_out = 0, known = 0, by_class[FAIL_NCLASSES] = {0};
  for (size_t i = 0; i < n; i++) {
    const Entry *e = &files->items[i];
    failed += e->failed;
    timed_out += e->timed_out;
    known += e->failed && e->known;
    if (e->failed && !e->known) by_class[e->cls]++;
  }
  if (o->json) print_json(files, groups.items, groups.len);
  else {
    print_table(files, groups.items, groups.len, o->test, o->ro.timeout);
    printf("%zu file%s: %zu passed, %zu failed (%zu timed out), %zu group%s", n, n == 1 ? "" : "s", n - failed, failed,
           timed_out, groups.len, groups.len == 1 ? "" : "s");
    /* the classes once anything is not a plain bug */
    if (by_class[FAIL_LIMITATION] || by_class[FAIL_REJECTED] || known)
      printf("; the failures: %zu bugs, %zu limitations, %zu rejected, %zu known", by_class[FAIL_BUG],
             by_class[FAIL_LIMITATION], by_class[FAIL_REJECTED], known);
    putchar('\n');
  }
  for (size_t k = 0; k < groups.len; k++) free(groups.items[k].members.items), free(groups.items[k].tvm_verdicts);
  free(groups.items);
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  Options o;
  int status = read_options(argc, argv, &o);
  if (status >= 0) return tvms_free(&o.tvms), cli_exit(status);
  Triage triage = {0};
  fail_rules_init(&triage.rules);
  Oracle oracle = {o.test, NULL, o.ro};
  Entries files = {0};
  status = 2;
  if (!prepare_triage(&o, &triage)) goto done;
  if (o.server) oracle.pool = server_pool_new(o.server, o.jobs, &o.ro);
  if (!list_dir(o.dir, o.recursive, &files)) goto done;
  if (!files.len) {
    fprintf(stderr, "roracle: no .relay files in %s%s\n", o.dir,
            o.recursive ? "" : " (-r: also in its subdirectories)");
    goto done;
  }
  qsort(files.items, files.len, sizeof *files.items, by_path);
  size_t n = o.max_files > 0 && (size_t)o.max_files < files.len ? (size_t)o.max_files : files.len;
  if (o.args_beside && !read_args_beside(&files, n)) goto done;

  cli_on_stop_signals(on_signal);
  status = run_all(&files, &n, &oracle, o.jobs, o.fail_fast, &triage);
  bool interrupted = status == 130;
  if (interrupted) n = keep_done(&files, n);
  else if (status) goto done;
  status = report(&files, n, &o);
  if (interrupted) status = 130;
done:
  server_pool_free(oracle.pool);
  for (int i = 0; i < 8 && strays_reap(); i++) {} /* a stray's own strays come to this process next */
  for (size_t i = 0; i < files.len; i++) {
    free(files.items[i].path);
    free(files.items[i].signature);
    free(files.items[i].key);
    free(files.items[i].args);
    free(files.items[i].rule);
    free(files.items[i].match);
  }
  free(files.items);
  triage_free(&triage);
  tvms_free(&o.tvms);
  return cli_exit(status);
}
