/* The reduction driver: passes to a fixpoint, every candidate guarded, tested, cached. */
#ifndef RELAYKIT_DRIVER_H
#define RELAYKIT_DRIVER_H

#include <signal.h>
#include <stdio.h>

#include "../interestingness/oracle.h"
#include "../support/pattern.h"
#include "history.h"
#include "reduce.h"

enum { RED_MAX_JOBS = 64 };

enum { RED_PROGRESS_TERMINAL = 1, RED_PROGRESS_LINES = 2 };

typedef struct RedOptions {
  Oracle oracle;             /* the interestingness test: a command, or a server (--server) */
  const char *server_cmd;    /* --server's command, for messages */
  const char *command_line;  /* rreduce's own, shell-quoted, for --report */
  const char *basename;      /* the candidate's file name in the test's directory */
  const char *out_path;      /* where every better program is written (atomically) */
  const char *written_log;   /* or NULL: each such program's content hash is appended here just
                                before it is written, so a rerun after a kill knows out_path
                                holds rreduce's own work, not a new input (FILE.rreduce-last) */
  const RedPass *const *passes;
  size_t npasses;
  unsigned jobs;             /* candidates tested at once (speculatively, committed in order) */
  bool use_cache;
  bool keep_comments;        /* keep TVM's ty= and span= comments in the result */
  ProgGuard guard;           /* what every candidate must pass: what the input passed (below
                                PROG_TYPED passes use the types known and skip the rest) */
  Program *input;            /* or NULL: the caller's load of the input under `guard`, which
                                red_reduce takes over (and empties): on a 100 MB input a second
                                parse costs as long as the first */
  double input_load_seconds; /* how long that load took: about what building a candidate costs */
  bool fast;                 /* one round of the passes, no fixpoint */
  const Pattern *match;      /* when set, interesting also needs the test's output to match */
  const char *frame;         /* when set, interesting also needs the test's outcome (PROTOCOL.md) to
                                name this function as TVM's innermost frame: the same failure, not
                                another with the same message (rfuzz's groups of crashes) */
  int also_interesting;      /* a second exit status whose candidates are saved aside (-1: none) */
  const char *also_dir;      /* ... in this directory */
  RedHistory *history;       /* every accepted step becomes a commit (or NULL) */
  unsigned max_failures;     /* stuck guard: a pass stops for the round after this many
                                uninteresting candidates in a row (0: never) */
  unsigned max_timeouts;     /* ... or this many timed-out ones in a row (0: never) */
  int verbose;               /* 1: a line per accepted step on stderr */
  bool print_diff;           /* each accepted step as a unified diff on stderr (--print-diff) */
  bool keys;                 /* `s` on the terminal skips the rest of the current pass (keys.h) */
  int progress;              /* a status on stderr: RED_PROGRESS_TERMINAL one line redrawn in place,
                                RED_PROGRESS_LINES whole lines for a program showing it; 0 none */
  volatile sig_atomic_t *stop; /* set by SIGINT: finish at once, keeping the best program */
  bool verify;               /* test the input first: it must be interesting (rreduce's --no-verify: false) */
  /* The pipeline (pipeline.h): reduced with the program when the input's test reports one in
     its outcome, or when given (--pipeline: its JSON, also written beside the input's test). */
  bool no_pipeline;          /* --no-pipeline: the program alone */
  const char *pipeline;      /* or NULL */
  const char *pipeline_out;  /* where the current pipeline is written after each step (OUT.pipeline), or NULL */
  /* Called once, before any step: with the input's test result (NULL when not verified), the
     caller decides whether the run goes on (false: it ends at once, nothing written) and prepares
     what the run writes to (rreduce: the backup, FILE.rreduce-last, --history; it may set
     written_log and history here).  The input's test runs in the driver so that with -j 2 or more
     the first candidate is tested beside it.  NULL: go on. */
  bool (*on_input)(void *ctx, const char *input, const RunResult *test);
  void *on_input_ctx;
} RedOptions;

typedef struct RedPassStats {
  unsigned long tried, accepted, stuck;
  unsigned long rejected_by_guard; /* candidates that did not parse: a pass's bug */
  unsigned long ill_typed;         /* candidates the type checker refused */
} RedPassStats;

typedef struct RedStats {
  unsigned long tests_run, cache_hits, timeouts, accepted, cancelled, also_saved;
  unsigned long guard_rejections; /* candidates that did not parse (a pass's bug: the goal is none) */
  unsigned long ill_typed;        /* candidates the type checker refused (never tested) */
  size_t bytes_before, bytes_after;
  size_t calls_before, calls_after;
  double seconds;
  RedPassStats *per_pass;    /* one per pass in RedOptions order (malloc'd) */
  bool interrupted;
  bool started;              /* past the input's test and on_input: steps may have been taken */
  /* The pipeline, when reduced: as the input's test ran it and as the result needs it (JSON,
     malloc'd; NULL when there was none), and whether the end was checked 1-minimal (each
     pipeline pass's last sweep over it found nothing: removing any one remaining pass, or
     disabling any one that still runs, loses the bug). */
  char *pipeline_before, *pipeline_after;
  bool pipeline_minimal;
} RedStats;

/* Candidate i of `pass` on `cur`, printed (malloc'd), as the driver builds every candidate: the pass
   changes a clone of cur, which is discarded afterwards, so cur never changes.  NULL when the pass
   proposes nothing there.  The guard (parse + type-check) comes after, in the driver. */
char *red_propose(const Program *cur, const RedPass *pass, size_t i);
/* The candidate that applies opportunities [lo, hi) together (a RED_CHUNKS pass), highest first. */
char *red_propose_range(const Program *cur, const RedPass *pass, size_t lo, size_t hi);

/* Whether a finished test found its candidate interesting: exit 0, and the output matches. */
bool red_verdict(const RunResult *r, const RedOptions *o);

/* Reduces *text (checked under o->guard) in place, after testing it (o->verify) and asking o->on_input.
   Returns false with a message when the program cannot be read or the test cannot be run.  A run
   that on_input ends, or that is stopped during the input's test, returns true with *text as it was
   and nothing written; stats->started tells. */
bool red_reduce(char **text, const RedOptions *o, RedStats *stats, char *err, size_t errlen);

#endif
