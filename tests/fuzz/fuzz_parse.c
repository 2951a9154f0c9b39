/*
 * libFuzzer harness: parse arbitrary bytes; whatever parses must print, the printout must parse
 * again to the same AST, and printing must be idempotent (round_trip.h).  Any violation aborts.
 */
#include "round_trip.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  AstModule *m = fuzz_parse((const char *)data, size);
  if (!m) return 0;
  AstModule *again;
  free(fuzz_round_trip(m, &again));
  ast_free(again);
  ast_free(m);
  return 0;
}
