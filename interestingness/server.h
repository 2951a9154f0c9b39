/*
 * The persistent oracle protocol (interestingness/PROTOCOL.md), client side: a pool of servers,
 * one per job slot, each started once as `sh -c CMD` in its own process group.  A query writes
 * the candidate to a fresh temporary directory, sends its absolute path as one line, and reads one
 * line back: `STATUS [SIGNATURE]`.  The client enforces the timeout (the server's whole group is
 * killed and a new server started), restarts a server that died (the query is retried once on
 * the new one, so nothing is lost), and treats a garbage answer as an error.
 *
 * Queries run asynchronously with the same shape as run.h's jobs, so rreduce -j uses either.
 */
#ifndef RELAYKIT_SERVER_H
#define RELAYKIT_SERVER_H

#include "run.h"

typedef struct ServerPool ServerPool;
typedef struct ServerJob ServerJob;

/* A pool of `slots` servers running `cmd`, all started at once (a dead one is restarted when
   needed).  The run options give the timeout
   per query, the grace period and the stop flag. */
ServerPool *server_pool_new(const char *cmd, unsigned slots, const RunOptions *o);
/* Stops every server (EOF on its stdin, then its group is killed) and frees the pool. */
void server_pool_free(ServerPool *p);
/* How many answers were garbage and how many servers were (re)started, for statistics. */
unsigned long server_pool_garbage(const ServerPool *p);
unsigned long server_pool_starts(const ServerPool *p);

/* Sends a candidate to a free server (waiting for one if all are busy).  NULL with a message
   when no server can be started.
   The side files (may be NULL) are written beside the candidate first: a server in per-candidate
   mode reads its check from BASENAME.args (tvm-server --args-beside), a pipeline-aware one the
   pipeline to run from BASENAME.pipeline (PROTOCOL.md). */
ServerJob *server_start(ServerPool *p, const char *basename, const char *text, size_t len, const RunSide *side,
                        char *err, size_t errlen);
/* Waits up to `ms` for answers among the jobs (NULL entries skipped). */
void server_wait(ServerPool *p, ServerJob *const *jobs, size_t n, int ms);
bool server_done(const ServerJob *j);
/* The verdict is no longer needed: the server finishes the query and its answer is dropped. */
void server_cancel(ServerJob *j);
/* The answer as a RunResult: status, the signature as output, timed_out, and the outcome the
   server left beside the candidate (PROTOCOL.md).  Frees the job. */
void server_finish(ServerPool *p, ServerJob *j, RunResult *r);

#endif
