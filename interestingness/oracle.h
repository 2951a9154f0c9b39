/* One face for both kinds of interestingness test: a command run per candidate (run.h) or a
   persistent server answering one line per candidate (server.h).  rreduce and roracle see only
   this (rfuzz, whose oracle is always a server, uses server.h itself). */
#ifndef RELAYKIT_ORACLE_H
#define RELAYKIT_ORACLE_H

#include "run.h"
#include "server.h"

typedef struct Oracle {
  const char *test;   /* the command test, or NULL when `pool` answers */
  ServerPool *pool;
  RunOptions run;
} Oracle;

/* A query in flight (a value: both NULL once collected). */
typedef struct OracleJob {
  RunJob *run;
  ServerJob *srv;
} OracleJob;

/* Starts the test on a candidate, with side files beside it (side may be NULL; run.h). */
bool oracle_start(const Oracle *o, const char *basename, const char *text, size_t len, const RunSide *side,
                  OracleJob *job, char *err, size_t errlen);
bool oracle_pending(const OracleJob *job);
bool oracle_done(const OracleJob *job);
/* Waits up to `ms` for progress among the jobs. */
void oracle_wait(const Oracle *o, OracleJob *jobs, size_t n, int ms);
void oracle_cancel(OracleJob *job);
void oracle_finish(const Oracle *o, OracleJob *job, RunResult *r);
/* Start and finish: the test's verdict on one text. */
bool oracle_run(const Oracle *o, const char *basename, const char *text, size_t len, RunResult *r, char *err,
                size_t errlen);

#endif
