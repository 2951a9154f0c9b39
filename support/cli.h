/* Small pieces every command-line tool needs the same way. */
#ifndef RELAYKIT_CLI_H
#define RELAYKIT_CLI_H

#include <stdbool.h>

/* A regular file we may execute (a test script). */
bool cli_executable(const char *path);
/* Parses a whole number >= min for option `opt`; false with "PROG: OPT takes ..." on stderr. */
bool cli_count_arg(const char *prog, const char *opt, const char *arg, long min, long *out);

/* Whether `name` is one of the comma-separated names in `list` (--passes a,b; --mutators a,b). */
bool cli_in_list(const char *list, const char *name);

#endif
