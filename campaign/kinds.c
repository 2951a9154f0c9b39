/* The kinds of rounds (kinds.def): for each, the check it asks of the oracle and how its answers
   read. */
#include <string.h>

#include "campaign.h"

/* ------------------------------------------------------------------ checks (args files) */

/* relay.build at opt level 3, after the round's passes when it has some (tvm-pass --build). A
   program with a `?`-shaped value (rgen's dynamic detour) is built for the VM: the graph executor
   cannot allocate one (TVM's documented limit), and every such build would fail for that alone. */
static void check_build(StrBuf *args, const char *passes, bool coin, bool dynamic) {
  (void)coin;
  const char *vm = dynamic ? "--executor\nvm\n" : "";
  if (!*passes) {
    sb_printf(args, "build\n%s--opt-level\n3\n", vm);
    return;
  }
  sb_printf(args, "pass\n--build\n%s--opt-level\n3\n", vm);
  for (const char *s = passes; *s; s++) sb_putc(args, *s == ';' ? '\n' : *s);
  sb_putc(args, '\n');
}

/* tvm-diff: the VM at opt levels 0 and 3, or (on the coin) the graph executor against the VM; a
   program with a `?`-shaped value, the VM's two levels only (the graph executor cannot run it). */
static void check_diff(StrBuf *args, const char *passes, bool coin, bool dynamic) {
  (void)passes;
  sb_puts(args, coin && !dynamic ? "diff\n--executors\ngraph,vm\n" : "diff\n--opt-levels\n0,3\n");
}

/* tvm-typecheck: TVM's type checker alone. */
static void check_typecheck(StrBuf *args, const char *passes, bool coin, bool dynamic) {
  (void)passes, (void)coin, (void)dynamic;
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
