#!/usr/bin/env bats
# Hostile input, round two (issue 29): deep nesting that type inference once took cubic time on,
# attribute values and shapes whose arithmetic overflows int64, and sizes that once made a
# recognizer count to 3 billion.  The inputs are generated, not stored.

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

nested_ifs() { # DEPTH: `if (%c) {` nested DEPTH deep in then-branches, over %x
  python3 -c "d = $1; print('#[version = \"0.0.5\"]\ndef @main(%c: bool, %x: Tensor[(2), float32]) {\n' + 'if (%c) { ' * d + '%x' + ' } else { %x }' * d + '\n}')"
}

@test "1,998 nested ifs or closures: rmutate -n 5 writes 5 distinct mutants, each within 40x the seed's size" {
  # Before: the ifs' values were no mutator's sites (TVM writes no type for an if), so only the
  # shape mutator applied, 4 distinct mutants, then 64 attempts at a fifth (77 s); and each
  # mutant, indented a level per if and with every closure's whole type written, was 12.8 MB
  # (ifs) or 26 MB (closures).
  nested_ifs 1998 > "$T/ifs.relay"
  nested_closures 1998 > "$T/fns.relay"
  for seed in ifs fns; do
    run timeout 60 "$BIN/rmutate" "$T/$seed.relay" -n 5 --seed 1 -j 1 -q -o "$T/$seed"
    [ "$status" -eq 0 ]
    [ "$(ls "$T/$seed"/*.relay | wc -l)" -eq 5 ]
    [ "$(md5sum "$T/$seed"/*.relay | cut -d' ' -f1 | sort -u | wc -l)" -eq 5 ]
    limit=$(( $(wc -c < "$T/$seed.relay") * 40 )) # they were 267x (ifs) and 1,300x (closures); now 6-17x
    for f in "$T/$seed"/*.relay; do
      [ "$(wc -c < "$f")" -lt "$limit" ]
      "$BIN/rcheck" "$f" > /dev/null
      # indentation stops growing at 64 columns; no type comment past 1 KB
      [ "$(awk '{ match($0, /^ */); if (RLENGTH > m) m = RLENGTH } END { print m + 0 }' "$f")" -eq 64 ]
      run grep -cE 'ty=[^*]{1026}' "$f" # a type of over 1,024 bytes, then ' */'
      [ "$output" = 0 ]
    done
  done
  grep -q 'ty=fn () -> fn () -> float32' "$T/fns/00001.relay" # the short types are still written
}

@test "shape arithmetic that overflows int64 is a located error, as TVM's would wrap around" {
  cat > "$T/corr.relay" <<'EOF'
#[version = "0.0.5"]
def @main(%a: Tensor[(1, 1, 8, 8), float32], %b: Tensor[(1, 1, 8, 8), float32]) {
  nn.correlation(%a, %b, kernel_size=1, max_displacement=9223372036854775807, stride1=1, stride2=1, padding=[0, 0], is_multiply=True, layout="NCHW")
}
EOF
  run "$BIN/rcheck" "$T/corr.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == "$T/corr.relay:3:3: error: nn.correlation: the shape arithmetic overflows int64"* ]]
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(5, 9223372036854775807, 4), float32]) {\n  nn.batch_flatten(%%x)\n}\n' > "$T/flat.relay"
  run "$BIN/rcheck" "$T/flat.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"error: nn.batch_flatten: the shape arithmetic overflows int64"* ]]
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 4, 8), float32]) {\n  nn.adaptive_avg_pool1d(%%x, output_size=[-5])\n}\n' > "$T/pool.relay"
  run "$BIN/rcheck" "$T/pool.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"output_size would make a negative dimension (-5)"* ]]
}

@test "a huge but valid shape: checked, and mutated without counting to its square root" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 9223372036854775807, 56, 56), float32]) {\n  nn.relu(%%x)\n}\n' > "$T/big.relay"
  run "$BIN/rcheck" "$T/big.relay"
  [ "$status" -eq 0 ]
  run timeout 60 "$BIN/rmutate" "$T/big.relay" -n 2 --seed 1 -j 1 -q -o "$T/mutants"
  [ "$status" -eq 0 ]
}

@test "a 10,000-binding chain: rmutate -n 2 -j 1 completes with two well-typed mutants, as rreduce does" {
  # issue 29: on a 100,000-binding chain rmutate was not done after 618 s where rreduce took
  # seconds; bench/large_chain.sh has the times (here only that both finish and are right)
  bash "$ROOT/bench/chain.sh" 10000 > "$T/chain.relay"
  run timeout 120 "$BIN/rmutate" "$T/chain.relay" -n 2 -j 1 --seed 1 -q -o "$T/mutants"
  [ "$status" -eq 0 ]
  for m in "$T/mutants/00001.relay" "$T/mutants/00002.relay"; do
    "$BIN/rcheck" "$m" > /dev/null
    ! "$BIN/rfmt" "$m" | cmp -s - <("$BIN/rfmt" "$T/chain.relay") || false
  done
  [ "$(ls "$T/mutants"/*.relay | wc -l)" -eq 2 ]
  printf '#!/bin/sh\nexit 0\n' > "$T/yes.sh"
  chmod +x "$T/yes.sh"
  run timeout 120 "$BIN/rreduce" -j 1 --tidy "$T/chain.relay" "$T/yes.sh"
  [ "$status" -eq 0 ]
  "$BIN/rcheck" "$T/chain.relay" > /dev/null
}
