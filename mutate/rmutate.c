/* rmutate: many distinct, well-typed mutants of a real Relay program. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../support/cli.h"
#include "../support/clock.h"
#include "../support/content_hash.h"
#include "../support/fileio.h"
#include "../support/git_repo.h"
#include "../support/strset.h"
#include "../support/version.h"
#include "../support/xalloc.h"
#include "../typegen/infer/infer.h"
#include "../typegen/gen/gen.h"
#include "driver.h"

static const char usage[] =
    "usage: rmutate [options] SEED.relay -n N [-o DIR]    (or --git REPO.git instead of, or with, -o)\n"
    "Writes N distinct mutants of SEED, each replacing parts of it with generated or borrowed parts of\n"
    "the same type, so every mutant still type-checks (each is checked before it is written).\n"
    "\n"
    "options:\n"
    "  -n N               how many mutants (default 100)\n"
    "  -o DIR             write DIR/00001.relay ... and DIR/manifest.jsonl (one JSON line per mutant);\n"
    "                     without -o and --git: SEED.mutants/ beside SEED (resnet.relay: resnet.mutants/)\n"
    "      --git REPO     commit the mutants and the manifest into a bare git repository, one commit\n"
    "                     per batch (--batch B, default 500), the manifest in the commit message\n"
    "      --seed S       random seed (default 1): the same seed gives the same mutants\n"
    "      --depth K      mutations per mutant, a chain (default 1)\n"
    "      --mutators A,B only these mutators;  --weight NAME=W  a mutator's weight;  --list-mutators\n"
    "      --policy FILE  the generator's policy for generated parts (JSON, as rgen --policy)\n"
    "      --fuel F       operator calls per generated part, roughly (default 3)\n"
    "      --donor DIR    programs (.relay) to transplant subtrees from (the crossover mutator;\n"
    "                     without it, the seed itself is the donor)\n"
    "      --ill-typed    mutants with one controlled type error each; the manifest records the error\n"
    "                     relaykit's checker gives (for testing that TVM rejects them cleanly)\n"
    "      --oracle TEST  then run TEST over the mutants (needs -o) and group the failures by\n"
    "                     signature, as roracle does (TEST exits non-zero when a program fails);\n"
    "                     --oracle-server CMD: the same with a persistent oracle server;\n"
    "                     --oracle-timeout S: seconds per program (default 60)\n"
    OP_TVM_VERSION_HELP
    "  -j N               parallel workers (default: cores); the files are the same for every N\n"
    "      --json         print a summary as one JSON object on standard output\n"
    "  -q                 no progress line\n"
    "  -h, --help         this help;  --version\n"
    "\n"
    "exit status: 0 all mutants written, 1 the seed is ill-formed or cannot be mutated, 2 usage or\n"
    "             I/O error, 130 interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT: the mutants written so far\n"
    "             are complete, the workers and temporary files gone); with --oracle, roracle's:\n"
    "             0 no failures, 1 some mutant fails\n";


enum { OPT_GIT = 256, OPT_SEED, OPT_DEPTH, OPT_MUTATORS, OPT_WEIGHT, OPT_LIST, OPT_POLICY, OPT_FUEL, OPT_DONOR,
       OPT_ILL, OPT_JSON, OPT_BATCH, OPT_VERSION, OPT_ORACLE, OPT_ORACLE_SERVER, OPT_ORACLE_TIMEOUT };

/* ------------------------------------------------------------------ results through files (-j) */

static json_t *result_json(const MutResult *r) {
  json_t *steps = json_array();
  for (size_t i = 0; i < r->nsteps; i++)
    json_array_append_new(
        steps, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I}", "mutator", r->steps[i].mutator, "what",
                         r->steps[i].what, "sl", (json_int_t)r->steps[i].seed_line, "sc",
                         (json_int_t)r->steps[i].seed_col, "pl", (json_int_t)r->steps[i].parent_line, "pc",
                         (json_int_t)r->steps[i].parent_col, "l", (json_int_t)r->steps[i].line, "c",
                         (json_int_t)r->steps[i].col));
  json_t *j = json_pack("{s:o}", "steps", steps); /* the text travels as a file of its own */
  if (r->expected_error) json_object_set_new(j, "error", json_string(r->expected_error));
  return j;
}

/* Mutator names in results read back point into this table (the result owns no names). */
static const char *intern_name(const char *name) {
  const Mutator *mu = mut_find(name);
  return mu ? mu->name : "ill-typed";
}

static bool result_from_json(json_t *j, char *text, MutResult *r) {
  memset(r, 0, sizeof *r);
  json_t *steps = json_object_get(j, "steps");
  if (!text || !json_is_array(steps)) {
    free(text);
    return false;
  }
  r->text = text;
  r->nsteps = json_array_size(steps);
  r->steps = xcalloc(r->nsteps ? r->nsteps : 1, sizeof *r->steps);
  for (size_t i = 0; i < r->nsteps; i++) {
    json_t *s = json_array_get(steps, i);
    r->steps[i].mutator = intern_name(json_string_value(json_object_get(s, "mutator")));
    r->steps[i].what = xstrdup(json_string_value(json_object_get(s, "what")));
    r->steps[i].seed_line = (unsigned)json_integer_value(json_object_get(s, "sl"));
    r->steps[i].seed_col = (unsigned)json_integer_value(json_object_get(s, "sc"));
    r->steps[i].parent_line = (unsigned)json_integer_value(json_object_get(s, "pl"));
    r->steps[i].parent_col = (unsigned)json_integer_value(json_object_get(s, "pc"));
    r->steps[i].line = (unsigned)json_integer_value(json_object_get(s, "l"));
    r->steps[i].col = (unsigned)json_integer_value(json_object_get(s, "c"));
  }
  const char *e = json_string_value(json_object_get(j, "error"));
  if (e) r->expected_error = xstrdup(e);
  return true;
}

/* ------------------------------------------------------------------ signals */

/* SIGINT, SIGTERM, SIGHUP, SIGQUIT: the workers die at once, the run stops at the next mutant
   (a parse in progress is cancelled), the temporary directory goes, and rmutate exits 130 with
   what it wrote (each mutant is complete: written atomically, its manifest line after it). */
static volatile sig_atomic_t stop_signal;
static size_t parse_cancel;
static pid_t worker_pid[64];
/* Non-zero while the process may not end on the spot: a mutant and its manifest line being
   written, a git batch being committed, a temporary directory to remove, the run's own ending.
   Outside those (computing a mutant: on a 100 MB seed a check alone takes a minute, and type
   inference cannot be interrupted) the handler ends the process at once: nothing is half done. */
static volatile sig_atomic_t careful;

static void on_signal(int sig) {
  stop_signal = sig;
  __atomic_store_n(&parse_cancel, 1, __ATOMIC_RELAXED);
  for (size_t w = 0; w < sizeof worker_pid / sizeof *worker_pid; w++)
    if (worker_pid[w] > 0) kill(worker_pid[w], SIGKILL);
  if (!careful) {
    static const char msg[] = "rmutate: interrupted; the mutants written so far are complete\n";
    ssize_t unused = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)unused;
    _exit(130);
  }
}

/* Worker w of n computes first attempts of mutants w, w+n, ... into dir/K.json. */
static void worker(const Program *seed, const MutOptions *o, size_t count, unsigned w, unsigned n, const char *dir) {
  for (size_t k = w; k < count; k += n) {
    MutResult r;
    char err[512], path[4096 + 64]; /* dir is at most 4095 bytes (run_all's buffer) */
    if (!mut_make(seed, o, k, 0, &r, err, sizeof err)) continue; /* the parent retries it */
    snprintf(path, sizeof path, "%s/%zu.relay", dir, k);
    if (!file_replace(path, r.text, strlen(r.text))) continue;
    snprintf(path, sizeof path, "%s/%zu.json", dir, k); /* written last: its presence means complete */
    json_t *j = result_json(&r);
    json_dump_file(j, path, JSON_COMPACT);
    json_decref(j);
    mut_result_free(&r);
  }
}

/* ------------------------------------------------------------------ the run */

typedef struct Run {
  const char *seed_text, *seed_name;
  const Program *seed;  /* seed_text, parsed and typed */
  const MutOptions *mo;
  size_t count;
  unsigned jobs;
  const char *out_dir;
  GitRepo *git;
  unsigned batch;
  bool progress;
  StrSet seen;          /* content hashes: the seed and every mutant written */
  FILE *manifest;
  StrBuf batch_manifest;
  size_t written, retries, steps_total;
  unsigned long per_mutator[MUT_NMUTATORS + 1];
  double start, drawn_at; /* the progress line: when the run began and the line was last drawn */
  bool io_error;          /* a write failed (full disk, ...): exit 2, not 1 */
} Run;

static char *manifest_line(const Run *run, size_t k, uint64_t attempt, const MutResult *r) {
  json_t *muts = json_array(), *changes = json_array();
  for (size_t i = 0; i < r->nsteps; i++) {
    json_array_append_new(muts, json_string(r->steps[i].mutator));
    char at_seed[32], at_parent[32], at_mut[32];
    snprintf(at_seed, sizeof at_seed, "%u:%u", r->steps[i].seed_line, r->steps[i].seed_col);
    snprintf(at_parent, sizeof at_parent, "%u:%u", r->steps[i].parent_line, r->steps[i].parent_col);
    snprintf(at_mut, sizeof at_mut, "%u:%u", r->steps[i].line, r->steps[i].col);
    json_t *change = json_pack("{s:s, s:s, s:s}", "mutator", r->steps[i].mutator, "what", r->steps[i].what,
                               "seed_at", at_seed);
    /* a later step of a chain changed the previous step's mutant: its place there too */
    if (i > 0) json_object_set_new(change, "parent_at", json_string(at_parent));
    json_object_set_new(change, "mutant_at", json_string(at_mut));
    json_array_append_new(changes, change);
  }
  char file[32];
  snprintf(file, sizeof file, "%05zu.relay", k + 1);
  json_t *j = json_pack("{s:s, s:s, s:I, s:I, s:I, s:o, s:o, s:I, s:I}", "file", file, "seed_file", run->seed_name,
                        "seed", (json_int_t)run->mo->seed, "index", (json_int_t)k, "attempt", (json_int_t)attempt,
                        "mutators", muts, "changes", changes, "bytes", (json_int_t)strlen(r->text), "seed_bytes",
                        (json_int_t)strlen(run->seed_text));
  if (r->expected_error) json_object_set_new(j, "expected_error", json_string(r->expected_error));
  char *line = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return line;
}

static bool write_mutant(Run *run, size_t k, uint64_t attempt, const MutResult *r, char *err, size_t errlen) {
  careful++;
  char name[32];
  snprintf(name, sizeof name, "%05zu.relay", k + 1);
  char *line = manifest_line(run, k, attempt, r);
  bool ok = true;
  if (run->out_dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", run->out_dir, name);
    if (!file_replace(path, r->text, strlen(r->text))) {
      snprintf(err, errlen, "cannot write %.1000s", path);
      ok = false;
    }
    if (ok && (fprintf(run->manifest, "%s\n", line) < 0 || fflush(run->manifest) != 0)) {
      snprintf(err, errlen, "cannot write %.1000s/manifest.jsonl", run->out_dir);
      ok = false;
    }
  }
  if (ok && run->git) {
    ok = git_repo_add(run->git, name, r->text, strlen(r->text), err, errlen);
    sb_puts(&run->batch_manifest, line);
    sb_puts(&run->batch_manifest, "\n");
  }
  free(line);
  for (size_t i = 0; i < r->nsteps; i++)
    for (size_t m = 0; m <= MUT_NMUTATORS; m++)
      if (m == MUT_NMUTATORS || !strcmp(mut_mutators[m].name, r->steps[i].mutator)) {
        run->per_mutator[m]++;
        break;
      }
  run->steps_total += r->nsteps;
  run->written++;
  run->io_error |= !ok;
  careful--;
  return ok;
}

static bool commit_batch(Run *run, size_t first, size_t last, char *err, size_t errlen) {
  if (!run->git || !run->batch_manifest.len) return true;
  StrBuf msg;
  sb_init(&msg);
  sb_printf(&msg, "rmutate: mutants %zu-%zu of %s (seed %llu)\n\n", first + 1, last, run->seed_name,
            (unsigned long long)run->mo->seed);
  sb_puts(&msg, run->batch_manifest.data);
  bool ok = git_repo_add(run->git, "manifest.jsonl", run->batch_manifest.data, run->batch_manifest.len, err, errlen) &&
            git_repo_commit(run->git, msg.data, err, errlen);
  free(msg.data);
  run->batch_manifest.len = 0;
  if (run->batch_manifest.data) run->batch_manifest.data[0] = '\0';
  return ok;
}

/* The progress line on a terminal, redrawn at most ten times a second: a mutant of a large model
   can take seconds, each of its attempts re-checking the whole program. */
static void show_progress(Run *run, const char *phase, size_t done, const char *doing) {
  if (!run->progress) return;
  double now = clock_seconds();
  if (now - run->drawn_at < 0.1 && done < run->count) return; /* the last count is always shown */
  run->drawn_at = now;
  fprintf(stderr, "\r\033[Krmutate: %s %zu/%zu mutants, %zu retries, %.0f s  %s", phase, done, run->count,
          run->retries, now - run->start, doing);
  fflush(stderr);
}

/* How many mutants the workers have finished (each writes K.json last). */
static size_t finished_in(const char *dir) {
  size_t n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    n += len > 5 && !strcmp(e->d_name + len - 5, ".json");
  }
  if (d) closedir(d);
  return n;
}

/* Mutant k: the worker's first attempt if it left one, else computed here; attempts go on until
   the mutant differs from the seed and from every earlier mutant. */
static bool produce(Run *run, size_t k, const char *tmp, char *err, size_t errlen) {
  for (uint64_t attempt = 0; attempt < 64 && !stop_signal; attempt++) {
    MutResult r;
    bool got = false;
    if (attempt) {
      char doing[64];
      snprintf(doing, sizeof doing, "(mutant %zu: attempt %llu)", k + 1, (unsigned long long)attempt + 1);
      show_progress(run, "writing", k, doing);
    }
    if (attempt == 0 && tmp) {
      char path[4096 + 64];
      snprintf(path, sizeof path, "%s/%zu.json", tmp, k);
      json_t *j = json_load_file(path, 0, NULL);
      if (j) {
        size_t len;
        snprintf(path, sizeof path, "%s/%zu.relay", tmp, k);
        got = result_from_json(j, file_read(path, &len), &r);
      }
      json_decref(j);
    }
    if (!got && !(attempt == 0 && tmp)) got = mut_make(run->seed, run->mo, k, attempt, &r, err, errlen);
    if (!got) continue;
    char h[CONTENT_HASH_HEX + 1];
    content_hash(r.text, strlen(r.text), h);
    if (strset_contains(&run->seen, h)) {
      run->retries++;
      mut_result_free(&r);
      continue;
    }
    strset_add(&run->seen, h);
    bool ok = write_mutant(run, k, attempt, &r, err, errlen);
    mut_result_free(&r);
    return ok;
  }
  if (!*err) snprintf(err, errlen, "no new mutant after 64 attempts");
  return false;
}

static bool run_all(Run *run, char *err, size_t errlen) {
  char tmp[4096] = "";
  pid_t pids[64];
  unsigned nworkers = 0;
  if (run->jobs > 1 && run->count > 1) {
    const char *base = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/rmutate.XXXXXX", base && *base ? base : "/tmp");
    careful++; /* until the directory is gone */
    if (!mkdtemp(tmp)) return careful--, snprintf(err, errlen, "cannot create a temporary directory"), false;
    fflush(NULL);
    pid_t parent = getpid();
    for (unsigned w = 0; w < run->jobs && w < 64 && !stop_signal; w++) {
      pid_t pid = fork();
      if (pid == 0) {
        cli_on_stop_signals(SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a parent killed outright takes its workers along */
        if (getppid() != parent) _exit(1);
        worker(run->seed, run->mo, run->count, w, run->jobs, tmp);
        _exit(0);
      }
      if (pid > 0) worker_pid[nworkers] = pids[nworkers] = pid, nworkers++;
      if (stop_signal && pid > 0) kill(pid, SIGKILL); /* forked just after the handler ran */
    }
    for (unsigned alive = nworkers; alive;) { /* the workers' progress while they run */
      for (unsigned w = 0; w < nworkers; w++)
        if (pids[w] && waitpid(pids[w], NULL, stop_signal ? 0 : WNOHANG) == pids[w])
          worker_pid[w] = pids[w] = 0, alive--;
      if (alive) {
        show_progress(run, "generating", finished_in(tmp), "");
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
      }
    }
  }
  bool ok = true;
  size_t batch_start = 0;
  for (size_t k = 0; k < run->count && ok && !stop_signal; k++) {
    err[0] = '\0';
    ok = produce(run, k, *tmp ? tmp : NULL, err, errlen);
    if (ok && run->git && (k + 1) % run->batch == 0) {
      ok = commit_batch(run, batch_start, k + 1, err, errlen);
      run->io_error |= !ok;
      batch_start = k + 1;
    }
    show_progress(run, *tmp ? "writing" : "generating", k + 1, "");
  }
  if (ok) {
    ok = commit_batch(run, batch_start, run->count, err, errlen);
    run->io_error |= !ok;
  }
  if (run->progress) fputs("\r\033[K", stderr);
  if (*tmp) {
    DIR *d = opendir(tmp);
    struct dirent *e;
    while (d && (e = readdir(d)))
      if (e->d_name[0] != '.') {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        unlink(path);
      }
    if (d) closedir(d);
    rmdir(tmp);
    careful--;
  }
  if (stop_signal) { /* what failed under the signal (a cancelled parse) is no error of its own */
    snprintf(err, errlen, "interrupted by signal %d; %zu mutants written, each complete", (int)stop_signal, run->written);
    return false;
  }
  return ok;
}

/* ------------------------------------------------------------------ --oracle */

/* roracle over the mutants: the binary beside this one (or on PATH); its exit status. */
static int run_oracle(const char *dir, const char *test, const char *server, const char *timeout, unsigned jobs,
                      bool json) {
  char *roracle = cli_sibling("roracle");
  char j[16];
  snprintf(j, sizeof j, "%u", jobs);
  const char *argv[12];
  int k = 0;
  argv[k++] = roracle;
  argv[k++] = "-j";
  argv[k++] = j;
  argv[k++] = "--timeout";
  argv[k++] = timeout;
  if (json) argv[k++] = "--json";
  if (server) {
    argv[k++] = "--server";
    argv[k++] = server;
  }
  argv[k++] = dir;
  if (!server) argv[k++] = test;
  argv[k] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[0], (char *const *)argv);
    fprintf(stderr, "rmutate: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(2);
  }
  int st = 0;
  bool waited = pid > 0 && waitpid(pid, &st, 0) == pid;
  free(roracle);
  return waited && WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}

/* ------------------------------------------------------------------ inputs */

static bool typed(const char *path, const char *text, Program *p, bool quiet) {
  Diag d;
  diag_init(&d, path, text, strlen(text));
  bool ok = prog_check(p, text, false, &d);
  if (!ok && !quiet) fprintf(stderr, "%s", d.out.data ? d.out.data : "");
  diag_free(&d);
  return ok;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The donors: every .relay file in dir that type-checks, in name order. */
static size_t load_donors(const char *dir, MutDonor **out) {
  DIR *d = opendir(dir);
  if (!d) return fprintf(stderr, "rmutate: --donor %s: %s\n", dir, strerror(errno)), 0;
  VEC(char *) names = {0};
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n > 6 && !strcmp(e->d_name + n - 6, ".relay")) VEC_PUSH(names, xstrdup(e->d_name));
  }
  closedir(d);
  if (names.len) qsort(names.items, names.len, sizeof *names.items, by_name);
  VEC(MutDonor) donors = {0};
  for (size_t i = 0; i < names.len; i++) {
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, names.items[i]);
    size_t len;
    char *text = file_read_text(path, &len);
    MutDonor dn = {{0}, names.items[i]};
    if (text && typed(path, text, &dn.prog, true)) VEC_PUSH(donors, dn);
    else {
      fprintf(stderr, "rmutate: donor %s does not type-check; skipped\n", path);
      free(names.items[i]);
    }
    free(text);
  }
  free(names.items);
  *out = donors.items;
  return donors.len;
}

/* The command line. */
typedef struct Cli {
  const char *seed_path, *out_dir, *git_path, *only, *policy_path, *donor_dir;
  const char *oracle_test, *oracle_server, *oracle_timeout;
  long count, jobs;
  unsigned batch;
  bool json, quiet;
  MutOptions mo;                   /* the seed, depth, fuel, weights, --ill-typed so far */
  char default_dir[PATH_MAX - 64]; /* SEED.mutants; room for "/manifest.jsonl" and mutant names */
} Cli;

/* A whole-number option's value into *out; false after saying what it takes. */
static bool count_option(const char *opt, long min, unsigned *out) {
  long v;
  if (!cli_count_arg("rmutate", opt, optarg, min, &v)) return false;
  *out = (unsigned)v;
  return true;
}

/* --weight NAME=W */
static bool weight_option(MutOptions *mo) {
  const char *eq = strchr(optarg, '=');
  size_t i = 0;
  for (; eq && i < MUT_NMUTATORS; i++)
    if (strlen(mut_mutators[i].name) == (size_t)(eq - optarg) && !strncmp(optarg, mut_mutators[i].name, eq - optarg))
      break;
  long v;
  if (!eq || i == MUT_NMUTATORS || !cli_count_arg("rmutate", "--weight", eq + 1, 0, &v))
    return fprintf(stderr, "rmutate: --weight takes NAME=W with a mutator's name (--list-mutators)\n"), false;
  mo->weights[i] = (unsigned)v;
  return true;
}

/* The options after getopt: the seed, where the mutants go, which mutators; -1 to go on, else the
   exit status. */
static int check_options(int argc, char **argv, Cli *cli) {
  if (argc - optind != 1) return fputs("rmutate: expected one SEED file\n", stderr), fputs(usage, stderr), 2;
  cli->seed_path = argv[optind];
  if (!cli->out_dir && !cli->git_path) {
    /* the design card's `rmutate resnet.relay -n 500`: mutants beside the seed, named after it */
    const char *seed = cli->seed_path, *dot = strrchr(seed, '.'), *slash = strrchr(seed, '/');
    int stem = dot && (!slash || dot > slash) ? (int)(dot - seed) : (int)strlen(seed);
    snprintf(cli->default_dir, sizeof cli->default_dir, "%.*s.mutants", stem, seed);
    cli->out_dir = cli->default_dir;
    fprintf(stderr, "rmutate: writing the mutants to %s/ (-o DIR to choose)\n", cli->out_dir);
  }
  if ((cli->oracle_test || cli->oracle_server) && !cli->out_dir) return fputs("rmutate: --oracle needs -o DIR\n", stderr), 2;
  char why[128];
  if (cli->oracle_test && !cli_runnable(cli->oracle_test, why, sizeof why))
    return fprintf(stderr, "rmutate: --oracle %s: the test %s\n", cli->oracle_test, why), 2;
  const char *mutator_names[MUT_NMUTATORS];
  for (size_t i = 0; i < MUT_NMUTATORS; i++) mutator_names[i] = mut_mutators[i].name;
  if (!cli_known_names("rmutate", "--mutators", "mutator", cli->only, mutator_names, MUT_NMUTATORS)) return 2;
  size_t nm = 0;
  for (size_t i = 0; i < MUT_NMUTATORS; i++) {
    if (cli->only && !cli_in_list(cli->only, mut_mutators[i].name)) cli->mo.weights[i] = 0;
    nm += cli->mo.weights[i] > 0;
  }
  if (!nm && !cli->mo.ill_typed) return fputs("rmutate: no mutator left (see --mutators, --weight)\n", stderr), 2;
  return -1;
}

/* Reads the command line into cli; -1 to go on, else the exit status (after --help, a bad option). */
static int parse_options(int argc, char **argv, Cli *cli) {
  static const struct option longopts[] = {
      {"git", required_argument, NULL, OPT_GIT},       {"seed", required_argument, NULL, OPT_SEED},
      {"depth", required_argument, NULL, OPT_DEPTH},   {"mutators", required_argument, NULL, OPT_MUTATORS},
      {"weight", required_argument, NULL, OPT_WEIGHT}, {"list-mutators", no_argument, NULL, OPT_LIST},
      {"policy", required_argument, NULL, OPT_POLICY}, {"fuel", required_argument, NULL, OPT_FUEL},
      {"donor", required_argument, NULL, OPT_DONOR},   {"ill-typed", no_argument, NULL, OPT_ILL},
      {"json", no_argument, NULL, OPT_JSON},           {"batch", required_argument, NULL, OPT_BATCH},
      {"version", no_argument, NULL, OPT_VERSION},     {"help", no_argument, NULL, 'h'},
      {"oracle", required_argument, NULL, OPT_ORACLE}, {"oracle-server", required_argument, NULL, OPT_ORACLE_SERVER},
      {"oracle-timeout", required_argument, NULL, OPT_ORACLE_TIMEOUT},
      OP_TVM_VERSION_OPTION,                           {NULL, 0, NULL, 0},
  };
  memset(cli, 0, sizeof *cli);
  cli->count = 100;
  cli->jobs = sysconf(_SC_NPROCESSORS_ONLN);
  cli->batch = 500;
  cli->oracle_timeout = "60";
  mut_options_init(&cli->mo);
  MutOptions *mo = &cli->mo;
  int c;
  while ((c = getopt_long(argc, argv, "n:o:j:qh", longopts, NULL)) != -1) {
    switch (c) {
    case 'n':
      if (!cli_count_arg("rmutate", "-n", optarg, 1, &cli->count)) return 2;
      break;
    case 'o': cli->out_dir = optarg; break;
    case 'j':
      if (!cli_count_arg("rmutate", "-j", optarg, 1, &cli->jobs)) return 2;
      break;
    case 'q': cli->quiet = true; break;
    case OPT_GIT: cli->git_path = optarg; break;
    case OPT_SEED: {
      char *end;
      errno = 0;
      mo->seed = strtoull(optarg, &end, 10);
      if (errno || *end || end == optarg) return fprintf(stderr, "rmutate: --seed takes a whole number\n"), 2;
      break;
    }
    case OPT_DEPTH:
      if (!count_option("--depth", 1, &mo->depth)) return 2;
      break;
    case OPT_MUTATORS: cli->only = optarg; break;
    case OPT_WEIGHT:
      if (!weight_option(mo)) return 2;
      break;
    case OPT_LIST:
      for (size_t i = 0; i < MUT_NMUTATORS; i++)
        printf("%-11s weight %u  %s\n", mut_mutators[i].name, mut_mutators[i].weight, mut_mutators[i].description);
      return 0;
    case OPT_POLICY: cli->policy_path = optarg; break;
    case OPT_FUEL:
      if (!count_option("--fuel", 0, &mo->fuel)) return 2;
      break;
    case OPT_DONOR: cli->donor_dir = optarg; break;
    case OPT_ILL: mo->ill_typed = true; break;
    case OPT_JSON: cli->json = true; break;
    case OPT_BATCH:
      if (!count_option("--batch", 1, &cli->batch)) return 2;
      break;
    case OP_OPT_TVM_VERSION:
      if (!op_tvm_option(optarg)) return 2;
      break;
    case OPT_VERSION: return op_tvm_print_version("rmutate");
    case OPT_ORACLE: cli->oracle_test = optarg; break;
    case OPT_ORACLE_SERVER: cli->oracle_server = optarg; break;
    case OPT_ORACLE_TIMEOUT: cli->oracle_timeout = optarg; break;
    case 'h': fputs(usage, stdout); return 0;
    default: return cli_bad_option("rmutate");
    }
  }
  return check_options(argc, argv, cli);
}

/* What the run reads: the generator's policy, the seed (parsed and typed once), the donors. */
typedef struct Inputs {
  GenPolicy policy;
  Arena policy_arena;
  char *seed_text;
  Program seed;
  MutDonor *donors; /* without --donor, the seed itself (donors[0].prog is `seed`) */
  size_t ndonors;
} Inputs;

/* Reads them and completes cli->mo; -1 to go on, else the exit status. */
static int load_inputs(Cli *cli, Inputs *in) {
  char err[2048];
  gen_policy_default(&in->policy);
  if (cli->policy_path && !gen_policy_load(&in->policy, cli->policy_path, &in->policy_arena, err, sizeof err))
    return fprintf(stderr, "rmutate: %s\n", err), 2;
  size_t len;
  if (!(in->seed_text = file_read_text(cli->seed_path, &len))) return errno == EILSEQ ? 1 : 2; /* 1: a NUL byte */
  if (!typed(cli->seed_path, in->seed_text, &in->seed, false)) {
    /* the reason is above: a syntax or type error, or a text too large for memory */
    fprintf(stderr, "rmutate: cannot mutate %s (above): rmutate needs a Relay module it can read and type-check\n",
            cli->seed_path);
    return 1;
  }
  const char *slash = strrchr(cli->seed_path, '/');
  if (cli->donor_dir) {
    in->ndonors = load_donors(cli->donor_dir, &in->donors);
  } else { /* no donors given: the seed lends its own subtrees (a value moved to another place) */
    in->donors = xmalloc(sizeof *in->donors);
    in->donors[0] = (MutDonor){in->seed, xstrdup(slash ? slash + 1 : cli->seed_path)};
    in->ndonors = 1;
  }
  MutOptions *mo = &cli->mo;
  mo->seed_name = slash ? slash + 1 : cli->seed_path;
  mo->policy = &in->policy;
  mo->donors = in->donors;
  mo->ndonors = in->ndonors;
  mo->stop = &stop_signal;
  return -1;
}

static void free_inputs(const Cli *cli, Inputs *in) {
  for (size_t i = 0; i < in->ndonors; i++) {
    prog_free(&in->donors[i].prog);
    free((char *)in->donors[i].name);
  }
  free(in->donors);
  if (cli->donor_dir || !in->ndonors) prog_free(&in->seed); /* else the seed is donors[0], freed above */
  free(in->seed_text);
  arena_free(&in->policy_arena);
}

/* The run's outputs: the directory and its manifest, the git repository; -1 to go on, else 2. */
static int open_outputs(const Cli *cli, const Inputs *in, Run *run) {
  char err[2048];
  if (cli->out_dir && mkdir(cli->out_dir, 0755) != 0 && errno != EEXIST)
    return fprintf(stderr, "rmutate: cannot create %s: %s\n", cli->out_dir, strerror(errno)), 2;
  GitRepo *git = NULL;
  if (cli->git_path && !(git = git_repo_open(cli->git_path, "rmutate", err, sizeof err)))
    return fprintf(stderr, "rmutate: --git %s\n", err), 2;
  *run = (Run){.seed_text = in->seed_text, .seed_name = cli->mo.seed_name, .seed = &in->seed, .mo = &cli->mo,
               .count = (size_t)cli->count, .jobs = (unsigned)(cli->jobs > 64 ? 64 : cli->jobs),
               .out_dir = cli->out_dir, .git = git, .batch = cli->batch,
               .progress = !cli->quiet && isatty(STDERR_FILENO), .seen = run->seen};
  run->start = clock_seconds();
  char seed_hash[CONTENT_HASH_HEX + 1];
  content_hash(in->seed_text, strlen(in->seed_text), seed_hash);
  strset_add(&run->seen, seed_hash); /* no mutant equals the seed */
  if (cli->out_dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.jsonl", cli->out_dir);
    if (!(run->manifest = fopen(path, "w")))
      return fprintf(stderr, "rmutate: cannot write %s: %s\n", path, strerror(errno)), 2;
  }
  return -1;
}

/* --json: the summary, one object on standard output. */
static void print_summary(const Run *run) {
  json_t *per = json_object();
  for (size_t i = 0; i < MUT_NMUTATORS; i++)
    json_object_set_new(per, mut_mutators[i].name, json_integer((json_int_t)run->per_mutator[i]));
  if (run->per_mutator[MUT_NMUTATORS])
    json_object_set_new(per, "ill-typed", json_integer((json_int_t)run->per_mutator[MUT_NMUTATORS]));
  json_t *j = json_pack("{s:I, s:I, s:I, s:o, s:s}", "mutants", (json_int_t)run->written, "retries",
                        (json_int_t)run->retries, "mutations", (json_int_t)run->steps_total, "per_mutator", per,
                        "tvm_version", op_tvm_name());
  json_dumpf(j, stdout, JSON_COMPACT);
  fputc('\n', stdout);
  json_decref(j);
}

/* The mutants, the manifest closed, the summary, --oracle; the exit status. */
static int mutate_all(const Cli *cli, Run *run) {
  char err[2048];
  cli_on_stop_signals(on_signal);
  ast_parse_cancel_on(&parse_cancel);
  if (run->git) careful++; /* the mutants of the batch in progress get their commit: the loop stops instead */
  bool ok = run_all(run, err, sizeof err);
  careful++; /* the ending: manifest closed, summary, --oracle */
  if (run->manifest && fclose(run->manifest) != 0) {
    if (ok) snprintf(err, sizeof err, "cannot write %.1000s/manifest.jsonl: %s", cli->out_dir, strerror(errno));
    ok = false;
    run->io_error = true;
  }
  run->manifest = NULL;
  if (!ok) fprintf(stderr, "rmutate: %s\n", err);
  int status = ok ? 0 : stop_signal ? 130 : run->io_error ? 2 : 1; /* a seed that cannot be mutated, or a write that failed */
  if (cli->json) print_summary(run);
  if (ok && (cli->oracle_test || cli->oracle_server))
    status = run_oracle(cli->out_dir, cli->oracle_test, cli->oracle_server, cli->oracle_timeout, (unsigned)cli->jobs,
                        cli->json);
  return status;
}

int main(int argc, char **argv) {
  cli_name(argv, "rmutate");
  Cli cli;
  int status = parse_options(argc, argv, &cli);
  if (status >= 0) return cli_exit(status);
  Inputs in = {0};
  arena_init(&in.policy_arena);
  Run run = {0};
  strset_init(&run.seen);
  ast_parse_for(AST_TOOL_MUTATE); /* the seed is refused if mutating it cannot fit in memory */
  status = load_inputs(&cli, &in);
  ast_parse_for(AST_TOOL_READ); /* a mutant needs only its reading */
  if (status < 0) status = open_outputs(&cli, &in, &run);
  if (status < 0) status = mutate_all(&cli, &run);
  if (run.manifest) fclose(run.manifest);
  free(run.batch_manifest.data);
  strset_free(&run.seen);
  git_repo_close(run.git);
  free_inputs(&cli, &in);
  return cli_exit(status);
}
