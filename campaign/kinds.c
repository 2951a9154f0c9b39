/* The kinds of rounds (kinds.def): for each, the check it asks of the oracle and how its answers
   read. */
#include <string.h>

#include "campaign.h"

/* ------------------------------------------------------------------ checks (args files) */

/* relay.build at opt level 3, after the round's passes when it has some (tvm-pass --build). */
static void check_build(StrBuf *args, const char *passes, bool coin) {
  (void)coin;
  if (!*passes) {
    sb_puts(args, "build\n--opt-level\n3\n");
    return;
  }
  sb_puts(args, "pass\n--build\n--opt-level\n3\n");
  for (const char *s = passes; *s; s++) sb_putc(args, *s == ';' ? '\n' : *s);
  sb_putc(args, '\n');
}

/* tvm-diff: the VM at opt levels 0 and 3, or (on the coin) the graph executor against the VM. */
static void check_diff(StrBuf *args, const char *passes, bool coin) {
  (void)passes;
  sb_puts(args, coin ? "diff\n--executors\ngraph,vm\n" : "diff\n--opt-levels\n0,3\n");
}

/* tvm-typecheck: TVM's type checker alone. */
static void check_typecheck(StrBuf *args, const char *passes, bool coin) {
  (void)passes, (void)coin;
  sb_puts(args, "typecheck\n");
}

/* ------------------------------------------------------------------ verdicts */

/* The check should pass: an answer that says anything (status 0: the stage under test failed;
   otherwise an earlier one, with its message) is a failure. */
static FuzzVerdict fails_when_answered(int status, const char *sig) {
  return status == 0 || (sig && *sig) ? FV_FAIL : FV_PASS;
}

/* The program is invalid: TVM must reject it with a diagnostic; a crash or a hang instead is the
   bug, silence an acceptance. */
static FuzzVerdict must_reject(int status, const char *sig) {
  if ((sig && !strncmp(sig, "signal ", 7)) || fail_is_timeout(false, sig)) return FV_FAIL;
  return status == 0 || (sig && *sig) ? FV_REJECTED : FV_ACCEPTED;
}

/* ------------------------------------------------------------------ the table */

const FuzzKind fuzz_kinds[FUZZ_NKINDS] = {
#define ROUND_KIND(kind_name, default_weight, text, ...)                                                     \
  {.name = kind_name, .weight = default_weight, .description = text, __VA_ARGS__},
#include "kinds.def"
#undef ROUND_KIND
};

const FuzzKind *fuzz_kind(const char *name) {
  for (size_t i = 0; i < FUZZ_NKINDS; i++)
    if (!strcmp(fuzz_kinds[i].name, name)) return &fuzz_kinds[i];
  return NULL;
}

FuzzVerdict fuzz_verdict(const FuzzKind *kind, int status, bool timed_out, const char *sig) {
  if (timed_out) return FV_FAIL;
  if (status == 2 || status < 0) return FV_ORACLE_ERROR;
  return kind->verdict(status, sig);
}
