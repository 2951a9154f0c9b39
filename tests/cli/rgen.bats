#!/usr/bin/env bats
# rgen's command line: determinism, --type, policies, statistics, and well-typed output.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  RGEN=$BIN/rgen
  RCHECK=$BIN/rcheck
  T=$BATS_TEST_TMPDIR
}

@test "rgen --help and usage errors exit 2 with a message" {
  run "$RGEN" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: rgen"* ]]
  run "$RGEN" -n lots
  [ "$status" -eq 2 ]
  [[ "$output" == *"-n takes a count"* ]]
  run "$RGEN" --weight nosuch=3
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown construct"* ]]
  run "$RGEN" --ops add,no.such.op
  [ "$status" -eq 2 ]
  [[ "$output" == *"no.such.op is not an operator the generator knows"* ]]
  run "$RGEN" --type 'Tensor[(2), float32'
  [ "$status" -eq 2 ]
}

@test "a broken policy file is reported with its location" {
  printf '{"fuel": 3,\n "weights": {"op": }\n}\n' > "$T/bad.json"
  run "$RGEN" --policy "$T/bad.json"
  [ "$status" -eq 2 ]
  [[ "$output" == *"bad.json:2:"* ]]
  printf '{"fule": 3}\n' > "$T/typo.json"
  run "$RGEN" --policy "$T/typo.json"
  [ "$status" -eq 2 ]
  [[ "$output" == *'unknown key or wrong kind of value: "fule"'* ]]
}

@test "the same seed gives the same programs, and a larger -n only adds files" {
  "$RGEN" -n 4 --seed 7 -o "$T/a"
  "$RGEN" -n 8 --seed 7 -o "$T/b"
  [ "$(ls "$T/a" | wc -l)" -eq 4 ]
  [ "$(ls "$T/b" | wc -l)" -eq 8 ]
  for f in "$T"/a/*.relay; do cmp "$f" "$T/b/$(basename "$f")"; done
  run "$RGEN" -n 1 --seed 8 -o "$T/c"
  ! cmp -s "$T/a/00000.relay" "$T/c/00000.relay"
}

@test "--type sets what @main returns" {
  for seed in 1 2 3 4 5 6; do
    "$RGEN" --seed $seed --type 'Tensor[(1, 3, 8, 8), float32]' > "$T/t.relay"
    grep -q '^def @main(.*) -> Tensor\[(1, 3, 8, 8), float32\] {$' "$T/t.relay"
    "$RCHECK" "$T/t.relay"
  done
  "$RGEN" --seed 1 --type '(float32, Tensor[(2), int32])' > "$T/u.relay"
  grep -q -- '-> (float32, Tensor\[(2), int32\]) {$' "$T/u.relay"
  "$RCHECK" "$T/u.relay"
}

@test "generated programs type-check and are canonical" {
  "$RGEN" -n 150 --seed 11 -o "$T/g"
  [ "$(ls "$T"/g/*.relay | wc -l)" -eq 150 ]
  # one process for all of them (a process a file took a minute and a half under ASan); a refusal
  # names its file
  "$RCHECK" "$T"/g/*.relay
  "$RFMT" --check "$T"/g/*.relay
}

@test "--ops restricts the operators (zeros and ones stay for constants)" {
  "$RGEN" -n 30 --seed 3 --ops add,nn.relu,reshape -o "$T/r"
  calls=$(grep -ohE '(^|[ (=,])[a-z][a-z0-9_.]*\(' "$T"/r/*.relay | sed -E 's/^[ (=,]//; s/\($//' | sort -u | tr '\n' ' ')
  for c in $calls; do
    case $c in add|nn.relu|reshape|zeros|ones|ref|ref_read|ref_write|fn|if|match) ;;
      *) echo "unexpected call $c"; return 1 ;;
    esac
  done
}

@test "--list-ops prints the operators the generator knows" {
  run "$RGEN" --list-ops
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -ge 150 ]
  [[ "$output" == *"nn.conv2d"* ]]
  [[ "$output" != *"memory.kill"* ]]
  run "$RGEN" --list-ops --ops add,nn.relu
  [ "${#lines[@]}" -eq 2 ]
  # only what the type limits let it make: a 3-D convolution needs rank 5
  [ "$("$RGEN" --list-ops | grep -cx nn.conv3d)" -eq 0 ]
  [ "$("$RGEN" --list-ops --max-rank 6 --max-dim 16 | grep -cx nn.conv3d)" -eq 1 ]
}

@test "--stats reports the histogram and diversities" {
  run "$RGEN" --stats --calls 400 --seed 2 --policy "$ROOT/examples/policy-gencog.json"
  [ "$status" -eq 0 ]
  [[ "$output" == *"calls: 400"* ]]
  [[ "$output" == *"vertex diversity: 0."* ]]
  [[ "$output" == *"edge diversity: 0."* ]]
  "$RGEN" --stats --json -n 20 > "$T/s.json"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["calls"] > 0 and 0 < d["edge_diversity"] <= 1' "$T/s.json"
}

@test "--type never prints a program rcheck rejects: it generates, or says why it cannot (exit 2)" {
  for t in 'Tensor[(2, 3), float32]' 'fn (float32) -> Tensor[(2), int8]' 'ref(float32)' '(int32, (float16,))' \
           'Tensor[(?, 3), float32]' 'List[float32]' 'Option[int32]' 'Storage' '(float32, List[int32])'; do
    run "$RGEN" --type "$t" --seed 3
    if [ "$status" -eq 0 ]; then
      printf '%s\n' "$output" > "$T/g.relay"
      "$RCHECK" "$T/g.relay" > /dev/null || { echo "--type $t: rcheck rejects the output"; return 1; }
    else
      [ "$status" -eq 2 ] || { echo "--type $t: exit $status"; return 1; }
      [[ "$output" == "rgen: --type $t: "* ]] || { echo "--type $t: $output"; return 1; }
    fi
  done
  run "$RGEN" --type 'Tensor[(?, 3), float32]'
  [[ "$output" == *"give each \`?\` dimension a size"* ]]
  run "$RGEN" --type 'List[float32]'
  [[ "$output" == *"no values of ADT types"* ]]
}

@test "--policy policy-forward.json: 50 programs type-check, none makes a tensor from zeros" {
  "$RGEN" -n 50 -o "$T/f" --seed 7 --policy "$ROOT/examples/policy-forward.json"
  [ "$(ls "$T/f" | wc -l)" -eq 50 ]
  for f in "$T"/f/*.relay; do
    "$RCHECK" "$f" > /dev/null || { cat "$f"; return 1; }
  done
  run grep -l 'zeros(' "$T"/f/*.relay
  [ "$status" -eq 1 ]
}

@test "--stats: with the forward policy most calls depend on an input, far more than with gencog's" {
  share() { # policy file -> the input-dependent share in percent (from --json)
    "$RGEN" -n 50 --seed 7 --stats --json --policy "$1" |
      python3 -c 'import json,sys; d=json.load(sys.stdin)["input_dependence"]; print(100 * d["input_dependent_calls"] // d["calls"])'
  }
  forward=$(share "$ROOT/examples/policy-forward.json")
  gencog=$(share "$ROOT/examples/policy-gencog.json")
  echo "# input-dependent calls: forward $forward%, gencog $gencog%" >&3
  [ "$forward" -ge 80 ]
  [ "$gencog" -lt "$forward" ]
  run "$RGEN" -n 5 --seed 7 --stats --policy "$ROOT/examples/policy-forward.json"
  [ "$status" -eq 0 ]
  [[ "$output" =~ "calls depending on an input: "[0-9]+" of "[0-9]+" ("[0-9.]+"%" ]]
}

@test "--forward is deterministic for a seed and is the policy file's \"forward\": true" {
  "$RGEN" -n 20 --seed 7 --policy "$ROOT/examples/policy-forward.json" -o "$T/a"
  "$RGEN" -n 20 --seed 7 --policy "$ROOT/examples/policy-forward.json" -o "$T/b"
  "$RGEN" -n 20 --seed 7 --policy "$ROOT/examples/policy-gencog.json" --forward -o "$T/c"
  diff -r "$T/a" "$T/b"
  diff -r "$T/a" "$T/c"
  "$RGEN" -n 20 --seed 7 --policy "$ROOT/examples/policy-gencog.json" -o "$T/d"
  ! diff -rq "$T/a" "$T/d" > /dev/null
}

@test "--type nested past the parser's limit says so, without echoing kilobytes of it" {
  deep=$(python3 -c "print('(' * 3000 + 'float32' + ',)' * 3000)")
  run "$RGEN" --type "$deep"
  [ "$status" -eq 2 ]
  [[ "$output" == *"nested too deeply (the limit is 2000 levels)"* ]]
  [ "${#output}" -lt 300 ]
  run "$RGEN" --type "Tensor[(2), float32"
  [ "$status" -eq 2 ]
  [[ "$output" == "rgen: not a type: Tensor[(2), float32: syntax error: expected ']'" ]]
}

# tensor_limits MAX_ELEMENTS MAX_RANK MAX_DIM FILE...: every tensor type rcheck infers (every typed
# expression, binder and parameter, as --annotate prints them) keeps the limits.
tensor_limits() {
  local e=$1 r=$2 d=$3
  shift 3
  "$RCHECK" --annotate "$@" | python3 -c '
import re, sys
e, r, d = map(int, sys.argv[1:4])
n = bad = 0
for m in re.finditer(r"Tensor\[\(([^)]*)\), *\w+\]", sys.stdin.read()):
    dims = [int(x) for x in m.group(1).replace(" ", "").split(",") if x and x != "?"]
    size = 1
    for x in dims: size *= x
    n += 1
    if len(dims) > r or any(x > d for x in dims) or size > e:
        bad += 1
        if bad <= 5: print("beyond the limits:", m.group(0))
print(n, "tensor types,", bad, "beyond the limits")
sys.exit(1 if bad or n == 0 else 0)' "$e" "$r" "$d"
}

@test "the type limits bound every type: 1,000 programs under --max-elements 64 --max-rank 4 --max-dim 4" {
  "$RGEN" -n 1000 --seed 7 --max-elements 64 --max-rank 4 --max-dim 4 -o "$T/g"
  [ "$(ls "$T"/g/*.relay | wc -l)" -eq 1000 ]
  tensor_limits 64 4 4 "$T"/g/*.relay
  # the same with the forward policy's adapters and GenCoG's operators
  "$RGEN" -n 200 --seed 3 --policy "$ROOT/examples/policy-forward.json" --max-elements 64 --max-rank 4 --max-dim 4 -o "$T/f"
  tensor_limits 64 4 4 "$T"/f/*.relay
}

@test "--type beyond the limits widens them to that type and no further" {
  "$RGEN" -n 20 --seed 2 --type 'Tensor[(2, 9, 3), float32]' --max-elements 64 --max-rank 2 --max-dim 4 -o "$T/w"
  tensor_limits 64 3 9 "$T"/w/*.relay
}

@test "--stats gives GenCoG's vertex diversity too; a directed run is the same for a seed, and -n 5 starts -n 10" {
  run "$RGEN" --policy "$ROOT/examples/policy-gencog.json" --stats --calls 600 --seed 1
  [ "$status" -eq 0 ]
  [[ "$output" == *"vertex diversity, GenCoG's definition: 0."*"over its 21 operators"* ]]
  "$RGEN" --policy "$ROOT/examples/policy-gencog.json" -n 10 --seed 4 -o "$T/a"
  "$RGEN" --policy "$ROOT/examples/policy-gencog.json" -n 10 --seed 4 -o "$T/b"
  "$RGEN" --policy "$ROOT/examples/policy-gencog.json" -n 5 --seed 4 -o "$T/c"
  diff -r "$T/a" "$T/b"
  for f in "$T"/c/*.relay; do cmp "$f" "$T/a/$(basename "$f")"; done
  "$RCHECK" "$T"/a/*.relay > /dev/null
  tensor_limits 1024 5 4 "$T"/a/*.relay
}
