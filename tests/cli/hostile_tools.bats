#!/usr/bin/env bats
# Hostile input, round two (issue 29): deep nesting that type inference once took cubic time on.
# The inputs are generated, not stored.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  T=$BATS_TEST_TMPDIR
}

nested_closures() { # DEPTH: `fn () {` nested DEPTH deep, returning 1f
  python3 -c "d = $1; print('#[version = \"0.0.5\"]\ndef @main() {\n' + 'fn () { ' * d + '1f' + ' }' * d + '\n}')"
}

@test "1,998 nested closures (the parser's limit is 2,000) type-check in well under a second, and mutate" {
  nested_closures 1998 > "$T/deep.relay"
  # 6-9 s before type inference stopped re-resolving the chain of unknown result types at every level
  run timeout 10 "$BIN/rcheck" "$T/deep.relay"
  [ "$status" -eq 0 ]
  nested_closures 500 > "$T/nest.relay"
  run timeout 60 "$BIN/rmutate" "$T/nest.relay" -n 2 --seed 1 -j 1 -q -o "$T/mutants"
  [ "$status" -eq 0 ]
  [ -f "$T/mutants/00002.relay" ]
}
