/* --report FILE.md: a paste-ready bug-report fragment for a finished reduction. */
#ifndef RELAYKIT_REPORT_H
#define RELAYKIT_REPORT_H

#include "driver.h"

/* Writes the report: the reduced program, the test's command and its output on the reduced
   program (run once more here), sizes before and after, rreduce's and TVM's versions. */
bool red_write_report(const char *path, const char *program, const RedOptions *o, const char *match_text,
                      const RedStats *st, char *err, size_t errlen);

/* A shell line that reproduces the verdict on `program` (a file): copied under the input's name
   into a fresh directory (`pipeline`, a file or NULL, beside it as the test reads it), then the
   test run there, or its path sent to the server; paths absolute, so it runs from anywhere.  The
   recipe names the very file given, never the input it was reduced from (issue 30).  malloc'd. */
char *red_repro_recipe(const RedOptions *o, const char *program, const char *pipeline);

/* The test's verdict on the program once more, the pipeline (may be NULL) beside it, from a server
   started for this one question when the oracle is a server (the running ones may have drifted,
   or lack an environment variable set since): the final check of a --server run, the report's
   repro.  `started`, when not NULL, is that server, started earlier and asked nothing yet (the
   caller frees it).  False with err when it could not be asked. */
bool red_ask_fresh(const RedOptions *o, ServerPool *started, const char *program, const char *pipeline, RunResult *r,
                   char *err, size_t errlen);

#endif
