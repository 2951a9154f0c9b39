/* Dispatch between command tests and oracle servers. */
#include "oracle.h"

#include <string.h>

bool oracle_start(const Oracle *o, const char *basename, const char *text, size_t len, const RunSide *side,
                  OracleJob *job, char *err, size_t errlen) {
  memset(job, 0, sizeof *job);
  if (o->pool) job->srv = server_start(o->pool, basename, text, len, side, err, errlen);
  else job->run = run_start(o->test, basename, text, len, side, &o->run, err, errlen);
  return oracle_pending(job);
}

bool oracle_pending(const OracleJob *job) { return job->run || job->srv; }

bool oracle_done(const OracleJob *job) { return job->run ? run_done(job->run) : job->srv ? server_done(job->srv) : true; }

void oracle_wait(const Oracle *o, OracleJob *jobs, size_t n, int ms) {
  if (o->pool) {
    server_wait(o->pool, NULL, 0, ms);
    return;
  }
  RunJob *active[64];
  size_t k = 0;
  for (size_t i = 0; i < n && k < 64; i++)
    if (jobs[i].run) active[k++] = jobs[i].run;
  run_wait(active, k, ms);
}

void oracle_cancel(OracleJob *job) {
  if (job->run) run_cancel(job->run);
  if (job->srv) server_cancel(job->srv);
}

void oracle_finish(const Oracle *o, OracleJob *job, RunResult *r) {
  if (job->run) run_finish(job->run, r);
  else if (job->srv) server_finish(o->pool, job->srv, r);
  else memset(r, 0, sizeof *r);
  memset(job, 0, sizeof *job);
}

bool oracle_run(const Oracle *o, const char *basename, const char *text, size_t len, RunResult *r, char *err,
                size_t errlen) {
  OracleJob job;
  if (!oracle_start(o, basename, text, len, NULL, &job, err, errlen)) return false;
  oracle_finish(o, &job, r);
  return true;
}
