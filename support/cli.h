/* Small pieces every command-line tool needs the same way. */
#ifndef RELAYKIT_CLI_H
#define RELAYKIT_CLI_H

#include <stdbool.h>
#include <stddef.h>

/* The running tool's name ("rcheck"), for messages from shared code. */
const char *cli_tool(void);
/* Names the tool, not its path, in getopt's own messages ("rfmt: unrecognized option '--x'"). */
void cli_name(char **argv, const char *prog);
/* An unknown option or a missing argument (getopt said which): one line pointing at --help; 2. */
int cli_bad_option(const char *prog);
/* --version: "PROG (relaykit) VERSION" on stdout; 0. */
int cli_version(const char *prog);
/* Every main returns through this: standard output is flushed and closed, and if a write or the
   close failed (a full disk, /dev/full, a closed pipe with SIGPIPE ignored) the output is lost,
   so the run did not do its job whatever `status` says: "TOOL: cannot write to standard output"
   and 2.  Else `status`.  A standard output that was already closed (>&-) and never written to
   is no error (as GNU's close_stdout). */
int cli_exit(int status);

/* Sets `handler` (or SIG_DFL) for the signals a user stops a long run with: SIGINT, SIGTERM,
   SIGHUP, SIGQUIT (rreduce, rmutate, rfuzz, roracle). */
void cli_on_stop_signals(void (*handler)(int));

/* A regular file we may execute (a test script). */
bool cli_executable(const char *path);
/* The relaykit program `name` installed beside the running one, else `name` (found on PATH
   when run); malloc'd.  rmutate runs roracle so, rfuzz rreduce. */
char *cli_sibling(const char *name);
/* Whether the kernel can run `path` as a test: an executable regular file that starts with "#!"
   or is an ELF binary.  A script without "#!" runs from a shell but exec() refuses it, so every
   run would look "not interesting".  False with the reason ("not an executable file", "has no
   #! line") in why. */
bool cli_runnable(const char *path, char *why, size_t whylen);
/* Parses a whole number >= min for option `opt`; false with "PROG: OPT takes ..." on stderr. */
bool cli_count_arg(const char *prog, const char *opt, const char *arg, long min, long *out);

/* Whether `name` is one of the comma-separated names in `list` (--passes a,b; --mutators a,b). */
bool cli_in_list(const char *list, const char *name);
/* Whether every name in the comma-separated `list` given to option `opt` is one of the n `known`
   (a misspelt pass must not quietly select nothing); false with "PROG: OPT: unknown WHAT 'x'
   (one of: a, b, ...)" on stderr. */
bool cli_known_names(const char *prog, const char *opt, const char *what, const char *list, const char *const *known,
                     size_t n);

#endif
