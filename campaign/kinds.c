/* The kinds of rounds (kinds.def): for each, the check it asks of the oracle and how its answers
   read. */
#include <string.h>

#include "campaign.h"

/* ------------------------------------------------------------------ checks (args files) */

/* relay.build at opt level 3, after the round's passes when it has some (tvm-pass --build).  A
   program the graph executor cannot take (FUZZ_SHAPE_*) is built for the VM.  A program with a
   `?`-shaped value runs DynamicToStatic first on the coin, as TVM's frontends do on a model with
   dynamic shapes (from_onnx(freeze_params=True)): TVM's builds never run it themselves, and it
   rewrites the module's functions one by one, calls between them included. */
static void check_build(StrBuf *args, const char *passes, bool coin, unsigned shape) {
  const char *vm = shape ? "--executor\nvm\n" : "";
  bool to_static = coin && (shape & FUZZ_SHAPE_DYN) && !strstr(passes, "DynamicToStatic");
  if (!*passes && !to_static) {
    sb_printf(args, "build\n%s--opt-level\n3\n", vm);
    return;
  }
  sb_printf(args, "pass\n--build\n%s--opt-level\n3\n", vm);
  if (to_static) sb_puts(args, "DynamicToStatic\n");
  for (const char *s = passes; *s; s++) sb_putc(args, *s == ';' ? '\n' : *s);
  if (*passes) sb_putc(args, '\n');
}

/* tvm-diff: the VM at opt levels 0 and 3, or (on the coin) the graph executor against the VM; a
   program only the VM takes, the VM's two levels only. */
static void check_diff(StrBuf *args, const char *passes, bool coin, unsigned shape) {
  (void)passes;
  sb_puts(args, coin && !shape ? "diff\n--executors\ngraph,vm\n" : "diff\n--opt-levels\n0,3\n");
}

/* tvm-typecheck: TVM's type checker alone. */
static void check_typecheck(StrBuf *args, const char *passes, bool coin, unsigned shape) {
  (void)passes, (void)coin, (void)shape;
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
