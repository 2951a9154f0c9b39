/*
 * Failure signatures (roracle): what a test's output says, with what varies from run to run
 * masked, so that failures with the same cause fall into one group.
 *
 * A signature is the normalised line that names the failure when there is one: the first line
 * holding a `Check failed:` (from its last one on: TVM wraps a failed check in another), else the
 * first diagnostic `error: ...` line, else the last exception line (`tvm.error.InternalError:
 * ...`, `ValueError: ...`, from the class name on; not one that only points at a traceback or at
 * diagnostics printed above).  Without one, when the output holds a stack trace (Python's
 * `File "x", line N, in f`, gdb's and ASan's `#3 0x... in f`, TVM's `3: tvm::relay::f` after a
 * `Stack trace:` or `Traceback` header, and `[bt] (3) lib(f+0x1b)`), the names of its top and
 * bottom frames ("stack: top | bottom"), as the Relay fuzzing RFC suggests; else the normalised
 * first and last non-empty lines of the output ("first | last").  Masked: the candidate's
 * directory and basename, /tmp/ paths (<tmp>, <file>), addresses 0x... (<addr>), hex runs of 7
 * or more with a digit (<hex>), numbers (<n>); white space is folded.  Digits inside identifiers
 * (conv2d, int32) stay.
 *
 * With it comes a pattern for `rreduce --match` (support/pattern.h's PCRE2, written with the
 * syntax POSIX EREs share) that matches the output, checked against it: the first line's (or the
 * longer frame name's) literal parts escaped, each masked part a pattern for what it stood for.
 */
#ifndef RELAYKIT_SIGNATURE_H
#define RELAYKIT_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>

#include "../support/strbuf.h"

/* What is masked besides the generic patterns; NULL or empty entries are skipped. */
enum { RUN_SIG_MAX_DIRS = 2 };
typedef struct RunSigMasks {
  const char *dirs[RUN_SIG_MAX_DIRS]; /* the candidate's directory, as created and as resolved */
  const char *basename;               /* the candidate's file name */
} RunSigMasks;

typedef struct RunSignature {
  char *text;  /* one line; NULL when the output has no non-empty line (malloc'd) */
  char *match; /* a pattern (support/pattern.h: what rreduce --match takes) that matches the
                  output; NULL when there is none (malloc'd) */
} RunSignature;

/* The signature of a test's output (`out` need not be NUL-terminated); m may be NULL. */
void run_signature(const char *out, size_t len, const RunSigMasks *m, RunSignature *s);
void run_signature_free(RunSignature *s);

/* One line, trimmed, masked and folded into norm, and in step into ere as a pattern matching the
   line (either may be NULL).  At most RUN_SIG_LINE_MAX bytes of a long line are kept. */
enum { RUN_SIG_LINE_MAX = 200 };
void run_signature_line(const char *s, size_t n, const RunSigMasks *m, StrBuf *norm, StrBuf *ere);
/* The same with another cap (group keys cut after masking: see fail_group_key). */
void run_signature_line_cap(const char *s, size_t n, const RunSigMasks *m, StrBuf *norm, StrBuf *ere, size_t cap);

/* A normalised line (run_signature_line's norm) with what tells one instance of a cause from
   another masked too, appended to out: names TVM generates for fused and lowered functions
   (<fn>), dtypes (<dtype>), shapes and other bracketed lists of numbers (<shape>), bracketed
   lists of loop variables ([<vars>]).  Group keys
   use it: one root cause, one group. */
void run_signature_root(const char *norm, StrBuf *out);

/* When `line` is a stack frame, points name at its function's name (arguments cut) and returns
   true.  `in_trace`: a `Stack trace:` or `Traceback` header came before, so bare numbered lines
   (`  3: f`) and gdb frames without an address count as frames too. */
bool run_signature_frame(const char *line, size_t n, bool in_trace, const char **name, size_t *name_len);

#endif
