#!/usr/bin/env bats
# rmutate: distinct, well-typed, reproducible mutants; the manifest; ill-typed mode; git corpora.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  RMUTATE=$BIN/rmutate
  RCHECK=$BIN/rcheck
  CORPUS=$ROOT/../shared/corpus
  T=$BATS_TEST_TMPDIR
}

@test "mutants of resnet-18: all type-check, all distinct and different from the seed, manifest complete" {
  run "$RMUTATE" "$CORPUS/models/resnet-18.relay" -n 60 --seed 1 -o "$T/m" --json
  [ "$status" -eq 0 ]
  [ "$(ls "$T"/m/*.relay | wc -l)" -eq 60 ]
  for f in "$T"/m/*.relay; do "$RCHECK" "$f" > /dev/null; done
  n=$( (md5sum < "$CORPUS/models/resnet-18.relay"; for f in "$T"/m/*.relay; do md5sum < "$f"; done) | sort -u | wc -l)
  [ "$n" -eq 61 ]
  [ "$(wc -l < "$T/m/manifest.jsonl")" -eq 60 ]
  python3 - "$T/m" <<'PY'
import json, os, sys
d = sys.argv[1]
used = set()
for line in open(os.path.join(d, "manifest.jsonl")):
    e = json.loads(line)
    assert os.path.exists(os.path.join(d, e["file"])), e
    assert e["mutators"] and len(e["changes"]) == len(e["mutators"]), e
    for c in e["changes"]:
        l, col = map(int, c["mutant_at"].split(":"))
        assert l > 0 and col > 0, e
        text = open(os.path.join(d, e["file"])).read().splitlines()
        assert "rmutate-step-" in "\n".join(text[l - 1:]), e   # the change is at or after its line
    used.update(e["mutators"])
assert len(used) >= 4, used
PY
}

@test "the same --seed gives the same files for any -j; another seed differs" {
  "$RMUTATE" "$CORPUS/models/mobilenet.relay" -n 20 --seed 7 -o "$T/a" -j1
  "$RMUTATE" "$CORPUS/models/mobilenet.relay" -n 20 --seed 7 -o "$T/b" -j2
  diff -r "$T/a" "$T/b"
  "$RMUTATE" "$CORPUS/models/mobilenet.relay" -n 20 --seed 8 -o "$T/c" -j2
  ! diff -q "$T/a/00001.relay" "$T/c/00001.relay" > /dev/null || ! diff -q "$T/a/00002.relay" "$T/c/00002.relay" > /dev/null
}

@test "--depth chains mutations and records each" {
  run "$RMUTATE" "$CORPUS/models/mlp.relay" -n 10 --depth 3 -o "$T/d"
  [ "$status" -eq 0 ]
  python3 -c '
import json,sys
for l in open(sys.argv[1]): assert len(json.loads(l)["mutators"]) == 3
' "$T/d/manifest.jsonl"
  for f in "$T"/d/*.relay; do "$RCHECK" "$f" > /dev/null; done
}

@test "--depth 3: every change of the chain is in the mutant, located and spanned" {
  "$RMUTATE" "$CORPUS/models/resnet-18.relay" -n 50 --depth 3 --seed 4 -o "$T/p" -q
  python3 - "$T/p" <<'PY'
import json, os, re, sys
d = sys.argv[1]
n = 0
for line in open(os.path.join(d, "manifest.jsonl")):
    e = json.loads(line)
    text = open(os.path.join(d, e["file"])).read().splitlines()
    assert len(e["changes"]) == 3, e
    for i, c in enumerate(e["changes"]):
        assert ("parent_at" in c) == (i > 0), c   # a later step's place in the mutant it changed
        at = c["seed_at"]                          # every step's place in the seed
        l, col = map(int, c["mutant_at"].split(":"))
        assert l > 0 and col > 0, (e["file"], c)
        # the span comment back to where the node was in the seed, on the node at mutant_at
        span = "span=resnet-18.relay:%s rmutate-step-%d */" % (at, i)
        lines = [k for k, t in enumerate(text, 1) if span in t]
        assert len(lines) == 1 and lines[0] >= l, (e["file"], c, lines)
        n += 1
assert n == 150, n
PY
}

@test "--ill-typed: every mutant is rejected with the error its manifest records" {
  run "$RMUTATE" "$CORPUS/models/resnet-18.relay" --ill-typed -n 40 --seed 3 -o "$T/ill"
  [ "$status" -eq 0 ]
  [ "$(ls "$T"/ill/*.relay | wc -l)" -eq 40 ]
  python3 - "$T/ill" "$RCHECK" <<'PY'
import json, os, subprocess, sys
d, rcheck = sys.argv[1], sys.argv[2]
for line in open(os.path.join(d, "manifest.jsonl")):
    e = json.loads(line)
    p = subprocess.run([rcheck, os.path.join(d, e["file"])], capture_output=True, text=True)
    assert p.returncode != 0, e["file"]
    want = e["expected_error"].split("\n")[0].split("error: ", 1)[-1]
    assert want and want in p.stderr, (e["file"], want, p.stderr)
PY
}

@test "--git commits the mutants and the manifest; fsck is clean" {
  run "$RMUTATE" "$CORPUS/models/resnet-18.relay" -n 30 --seed 5 --git "$T/corpus.git" --batch 10
  [ "$status" -eq 0 ]
  git --git-dir="$T/corpus.git" fsck
  [ "$(git --git-dir="$T/corpus.git" ls-tree -r HEAD --name-only | grep -c '\.relay$')" -eq 30 ]
  [ "$(git --git-dir="$T/corpus.git" rev-list --count HEAD)" -eq 3 ]
  git --git-dir="$T/corpus.git" log -1 --format=%B | grep -q '"file":"00030.relay"'
}

@test "--donor enables crossover; --mutators and --weight select; --list-mutators" {
  mkdir "$T/donors"
  cp "$CORPUS/models/mobilenet.relay" "$CORPUS/models/squeezenet_v1.1.relay" "$T/donors/"
  run "$RMUTATE" "$CORPUS/models/resnet-18.relay" -n 10 --mutators crossover --donor "$T/donors" -o "$T/x" --json
  [ "$status" -eq 0 ]
  [[ "$output" == *'"crossover":10'* ]]
  run "$RMUTATE" --list-mutators
  [ "$status" -eq 0 ]
  [ "$(echo "$output" | wc -l)" -ge 7 ]
  run "$RMUTATE" "$CORPUS/models/resnet-18.relay" -n 3 --weight regenerate=0 --weight opswap=0 --weight insert=0 --weight share=0 --weight attrs=0 --weight crossover=0 -o "$T/s" --json
  [ "$status" -eq 0 ]
  [[ "$output" == *'"shape":3'* ]]
}

@test "bad input: an ill-typed seed, usage errors" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) { add(%%x, 1) }\n' > "$T/bad.relay"
  run "$RMUTATE" "$T/bad.relay" -n 3 -o "$T/o"
  [ "$status" -eq 1 ]
  [[ "$output" == *"bad.relay:2:"* ]]
  run "$RMUTATE" "$CORPUS/models/mlp.relay" -o "$T/o" -n
  [ "$status" -eq 2 ]
  run "$RMUTATE" "$CORPUS/models/mlp.relay" -n 0 -o "$T/o"
  [ "$status" -eq 2 ]
  run "$RMUTATE" --help
  [ "$status" -eq 0 ]
}

@test "--oracle runs a test over the mutants and groups the failures" {
  printf '#!/bin/sh\ngrep -q "nn.dense(" "$1" && { echo "TVMError: dense broke at 0x7f$$" >&2; exit 1; }\nexit 0\n' > "$T/orc.sh"
  chmod +x "$T/orc.sh"
  run "$RMUTATE" "$CORPUS/models/mlp.relay" -n 12 -o "$T/mo" --oracle "$T/orc.sh"
  [ "$status" -eq 1 ]
  [[ "$output" == *"TVMError: dense broke at <addr>"* ]]
  [[ "$output" == *"12 files:"* ]]
  run "$RMUTATE" "$CORPUS/models/mlp.relay" -n 2 --git "$T/g.git" --oracle "$T/orc.sh"
  [ "$status" -eq 2 ]
}

@test "without -o the mutants go beside the seed, in a directory named after it, said on stderr" {
  cp "$CORPUS/models/mlp.relay" "$T/resnet.relay"
  run "$RMUTATE" "$T/resnet.relay" -n 3 --seed 2
  [ "$status" -eq 0 ]
  [[ "$output" == *"writing the mutants to $T/resnet.mutants/"* ]]
  [ "$(ls "$T"/resnet.mutants/*.relay | wc -l)" -eq 3 ]
  [ -s "$T/resnet.mutants/manifest.jsonl" ]
  cp "$CORPUS/models/mlp.relay" "$T/noext"
  run "$RMUTATE" "$T/noext" -n 1
  [ "$status" -eq 0 ]
  [ -d "$T/noext.mutants" ]
}

@test "on a terminal, a progress line while the workers generate and while mutants are written; none with -q" {
  command -v script >/dev/null || skip "no script(1) for a terminal"
  script -qec "'$RMUTATE' '$CORPUS/models/resnet-18.relay' -n 30 -j 2 -o '$T/m'" /dev/null > "$T/out" 2>&1
  tr '\r' '\n' < "$T/out" | grep -aq 'rmutate: generating [0-9]*/30 mutants, [0-9]* retries, [0-9]* s'
  tr '\r' '\n' < "$T/out" | grep -aq 'rmutate: writing 30/30 mutants'
  [ "$(ls "$T/m"/*.relay | wc -l)" -eq 30 ]
  script -qec "'$RMUTATE' -q '$CORPUS/models/resnet-18.relay' -n 5 -o '$T/q'" /dev/null > "$T/out" 2>&1
  ! grep -aq 'mutants, ' "$T/out"
}

# wait_gone PATTERN: true once no process's command line matches (up to 5 s)
wait_gone() {
  for _ in $(seq 50); do pgrep -f "$1" > /dev/null || return 0; sleep 0.1; done
  return 1
}

@test "a signal stops rmutate: exit 130, its workers and temporary files gone, every mutant written complete" {
  for sig in TERM INT HUP; do
    mkdir -p "$T/tmp.$sig"
    TMPDIR="$T/tmp.$sig" "$RMUTATE" "$CORPUS/models/dqn.relay" -n 3000 -j 2 -o "$T/sig.$sig" 2> "$T/err.$sig" &
    pid=$!
    # some mutants written first, then the signal (the workers are done by then or not)
    for _ in $(seq 100); do [ -s "$T/sig.$sig/manifest.jsonl" ] && break; sleep 0.1; done
    kill -$sig $pid
    status=0
    wait $pid || status=$?
    [ "$status" -eq 130 ]
    grep -q 'interrupted by signal' "$T/err.$sig"
    wait_gone "sig[.]$sig"
    [ -z "$(ls -A "$T/tmp.$sig")" ]
    n=$(ls "$T/sig.$sig"/*.relay 2>/dev/null | wc -l)
    [ "$n" -eq "$(wc -l < "$T/sig.$sig/manifest.jsonl")" ]
    [ "$n" -eq 0 ] || "$RCHECK" "$T/sig.$sig"/*.relay > /dev/null # one rcheck for all: each is well-typed
  done
}

@test "rmutate killed outright takes its workers along" {
  "$RMUTATE" "$CORPUS/models/resnet-18.relay" -n 3000 -j 2 -o "$T/kill9" 2> /dev/null &
  pid=$!
  sleep 1
  kill -9 $pid
  wait $pid || true
  wait_gone "kill9"
}

@test "mutants keep the type limits: no tensor beyond the policy's sizes or the seed's own" {
  printf '{"max_rank": 2, "max_dim": 4, "max_elements": 16}\n' > "$T/tight.json"
  for seed in mlp dcgan; do
    "$RMUTATE" "$CORPUS/models/$seed.relay" -n 60 --depth 2 --seed 3 --policy "$T/tight.json" -o "$T/$seed" -q
    "$RCHECK" --annotate "$CORPUS/models/$seed.relay" > "$T/seed.txt"
    "$RCHECK" --annotate "$T/$seed"/*.relay > "$T/mutants.txt"
    python3 - "$T/seed.txt" "$T/mutants.txt" <<'PY'
import re, sys
def tensors(path):
    for m in re.finditer(r"Tensor\[\(([^)]*)\), *\w+\]", open(path).read()):
        dims = [int(x) for x in m.group(1).replace(" ", "").split(",") if x and x != "?"]
        size = 1
        for x in dims: size *= x
        yield m.group(0), len(dims), max(dims, default=0), size
seed = list(tensors(sys.argv[1]))
rank = max([2] + [t[1] for t in seed]); dim = max([4] + [t[2] for t in seed]); size = max([16] + [t[3] for t in seed])
n = 0
for text, r, d, e in tensors(sys.argv[2]):
    n += 1
    assert r <= rank and d <= dim and e <= size, (text, rank, dim, size)
assert n > 0
print(n, "tensor types within rank", rank, "size", dim, "elements", size)
PY
  done
}
