#!/usr/bin/env bats
# Logarithmic search (issue 13): the driver bisects truncate and cuts in chunks, so a long chain
# with one interesting call in the middle takes a number of tests that grows with log(N), and the
# result is the same for every -j.  Counts, not times: timing belongs to `make bench`.

load rreduce_helpers

# count_tests N JOBS: reduces bench/chain.sh N softmax to $T/cN-jJOBS.relay; prints the test runs.
count_tests() {
  local n=$1 j=$2 f="$T/c$1-j$2.relay"
  bash "$ROOT/bench/chain.sh" "$n" softmax > "$f"
  printf '#!/bin/sh\necho run >> "%s"\ngrep -q "nn.softmax(" "$1"\n' "$T/count$n-$j" > "$T/soft$n-$j.sh"
  chmod +x "$T/soft$n-$j.sh"
  "$RREDUCE" -j "$j" --tidy "$f" "$T/soft$n-$j.sh" > /dev/null 2>&1
  wc -l < "$T/count$n-$j"
}

@test "a chain with one softmax in the middle reduces to it in a logarithmic number of tests" {
  small=$(count_tests 100 1)
  large=$(count_tests 3000 1)
  # one test per binding would be thousands; bisection and halving chunks add a few per doubling
  [ "$large" -le 50 ] || { echo "3000 bindings: $large tests"; return 1; }
  [ "$((large - small))" -le 16 ] || { echo "100: $small tests, 3000: $large tests"; return 1; }
  # the hand-made minimum: the softmax of one input
  grep -qE '^  nn\.softmax\(%[a-z0-9_]+\)$' "$T/c3000-j1.relay"
  [ "$(grep -c '=' "$T/c3000-j1.relay")" -eq 1 ] # only the version header has one
  "$RCHECK" "$T/c3000-j1.relay"
}

@test "the chunked and bisected search gives the same file for every -j" {
  count_tests 600 1 > /dev/null
  count_tests 600 2 > /dev/null
  count_tests 600 3 > /dev/null
  cmp "$T/c600-j1.relay" "$T/c600-j2.relay"
  cmp "$T/c600-j1.relay" "$T/c600-j3.relay"
}

@test "the result is never larger than the input without being simpler" {
  # @main's body as a parameter is a step through a larger program (its tuple type is twice as
  # long as the tuple of literals it replaces); the result is smaller or the input stands.  (The
  # fields pass then deletes one field a test: 500 tests here; at 2,000 fields this test took
  # minutes of CI under ASan.)
  python3 -c "import sys; sys.stdout.write('#[version = \"0.0.5\"]\ndef @main() { (' + '1f, ' * 500 + ') }\n')" > "$T/wide.relay"
  printf '#!/bin/sh\nexit 0\n' > "$T/yes.sh"
  chmod +x "$T/yes.sh"
  run "$RREDUCE" -j1 --tidy "$T/wide.relay" "$T/yes.sh"
  [ "$status" -eq 0 ]
  [ "$(wc -c < "$T/wide.relay")" -le 2040 ]
  "$RCHECK" "$T/wide.relay"
}
