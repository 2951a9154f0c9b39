/*
 * Running an interestingness test safely, C-Reduce's way: a fresh temporary directory per run
 * holding the candidate under the input's basename, the path also passed as $1, its own TMPDIR,
 * its own process group (killed whole at the end: forking tests leave nothing behind), a timeout
 * (SIGTERM to the group, SIGKILL after a grace period), optional memory and CPU limits, and its
 * output captured up to a cap (a flooding test cannot exhaust memory).
 */
#ifndef RELAYKIT_RUN_H
#define RELAYKIT_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct RunOptions {
  double timeout;          /* seconds; 0 = none */
  double grace;            /* seconds between SIGTERM and SIGKILL */
  uint64_t limit_mem;      /* bytes of address space; 0 = none */
  uint64_t limit_cpu;      /* CPU seconds; 0 = none */
  size_t output_cap;       /* bytes of stdout+stderr kept */
  bool keep_temps;         /* leave the temporary directory (its path in RunResult.dir) */
  volatile sig_atomic_t *stop; /* when set (by a signal handler), the running test is killed */
  int nice;                /* added to a server's niceness (one started ahead of its use) */
} RunOptions;

void run_options_default(RunOptions *o);

/* Files beside the candidate (PROTOCOL.md, "side files"): each written as BASENAME.SUFFIX in the
   candidate's directory before the test starts (a check per candidate, a pipeline to run).  After
   the test, BASENAME.outcome, if the test left one, is read back into RunResult.outcome. */
enum { RUN_SIDE_MAX = 4 };
typedef struct RunSide {
  const char *suffix[RUN_SIDE_MAX]; /* "args", "pipeline" */
  const char *text[RUN_SIDE_MAX];
  size_t n;
} RunSide;

/* The environment variable a test finds set to 1 when its client reads BASENAME.outcome back. */
#define RUN_OUTCOME_ENV "RELAYKIT_ORACLE_OUTCOME"

typedef struct RunResult {
  int status;              /* exit status 0..255, or -1 when killed by a signal or timed out */
  bool timed_out;
  int signal;              /* the signal that ended the test, or 0 */
  char *output;            /* stdout and stderr, interleaved, at most output_cap bytes (malloc'd) */
  size_t output_len;
  double seconds;          /* from the start until the parent saw the end (later when it was busy) */
  char *dir;               /* the temporary directory when kept (malloc'd), else NULL */
  char *outcome;           /* BASENAME.outcome as the test left it (malloc'd; at most 4 MB), or NULL */
} RunResult;

void run_result_free(RunResult *r);

/* Runs `test` (an executable) on `text`, written as `basename` in a fresh directory.  Returns false
   only when the test could not be started at all (message in err); a test that fails, crashes or
   hangs is a result, not an error. */
bool run_candidate(const char *test, const char *basename, const char *text, size_t len, const RunOptions *o,
              RunResult *r, char *err, size_t errlen);

/* The same, started in the background: several tests run at once (rreduce -j). */
typedef struct RunJob RunJob;
/* Starts the test (NULL with a message when it cannot be started). */
RunJob *run_start(const char *test, const char *basename, const char *text, size_t len, const RunSide *side,
                  const RunOptions *o, char *err, size_t errlen);
/* Waits up to `ms` milliseconds for output or an end among the jobs (NULL entries are skipped),
   enforcing their timeouts. */
void run_wait(RunJob *const *jobs, size_t n, int ms);
bool run_done(const RunJob *j);
/* Kills a job whose verdict is no longer needed; run_finish still collects it. */
void run_cancel(RunJob *j);
/* Waits for the job's end, fills r and frees the job (and its directory unless keep_temps). */
void run_finish(RunJob *j, RunResult *r);

/* A fresh temporary directory (under $TMPDIR or /tmp) holding `text` as `basename`, the side files
   beside it (side may be NULL) and an empty tmp/ for the test's own TMPDIR; its path in dir, the
   file's in file. */
bool run_prepare_dir(const char *basename, const char *text, size_t len, const RunSide *side, char dir[4096],
                     char *file, size_t filelen, char *err, size_t errlen);
/* FILE.outcome, if a test left one (malloc'd, at most 4 MB), else NULL. */
char *run_read_outcome(const char *file);

/* Removes a directory tree (the test may have left anything in it). */
void run_remove_tree(const char *dir);

#endif
