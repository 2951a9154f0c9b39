/* --report FILE.md: a paste-ready bug-report fragment for a finished reduction. */
#ifndef RELAYKIT_REPORT_H
#define RELAYKIT_REPORT_H

#include "driver.h"

/* Writes the report: the reduced program, the test's command and its output on the reduced
   program (run once more here), sizes before and after, rreduce's and TVM's versions. */
bool red_write_report(const char *path, const char *program, const RedOptions *o, const char *match_text,
                      const RedStats *st, char *err, size_t errlen);

#endif
