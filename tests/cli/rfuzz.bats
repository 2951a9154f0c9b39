#!/usr/bin/env bats
# rfuzz: campaigns against the fake `tvm` package (tests/cli/fake_tvm) with planted bugs of
# several kinds, through the real tvm-server in --args-beside mode; and, for the bookkeeping
# (resume, shards, determinism), against a tiny shell oracle that needs no Python.

load signal_helpers
load rfuzz_helpers

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  CORPUS=$ROOT/../shared/corpus
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  RFUZZ=$BIN/rfuzz
  T=$BATS_TEST_TMPDIR
  unset TVM_HOME FAKE_TVM_PLANTED
  export PYTHONPYCACHEPREFIX=$T/pycache
  # The stand-in oracle: a build crash on nn.softmax, ill-typed programs rejected cleanly.
  cat > "$T/oracle.sh" <<'EOF'
#!/bin/sh
while IFS= read -r p; do
  check=$(head -n 1 "$p.args" 2>/dev/null)
  if [ "$check" = typecheck ]; then echo "0 error: type mismatch"
  elif grep -q 'nn\.softmax(' "$p"; then echo "0 Check failed: fake softmax at 0x7f001234"
  else echo 1; fi
done
EOF
  chmod +x "$T/oracle.sh"
  ORACLE="$T/oracle.sh --args-beside"
}

@test "rfuzz: --help, --version, --list-passes; usage errors exit 2 with one line" {
  run "$RFUZZ" --help
  [ "$status" -eq 0 ] && [[ "$output" == *"--shard I/N"* ]] && [[ "$output" == *"--args-beside"* ]]
  run "$RFUZZ" --version
  [ "$status" -eq 0 ] && [[ "$output" == "rfuzz (relaykit) "* ]]
  run "$RFUZZ" --list-passes
  [ "$status" -eq 0 ] && [[ "$output" == *FoldConstant*FuseOps* ]]
  run "$RFUZZ" -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"--oracle CMD is required"* ]]
  run "$RFUZZ" --oracle "$T/oracle.sh" -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"--args-beside"* ]]
  run "$RFUZZ" --oracle "$ORACLE" --shard 3/2 -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"--shard takes I/N"* ]]
  run "$RFUZZ" --oracle "$ORACLE" --passes FoldConstant,Bogus -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"unknown pass 'Bogus'"* ]]
  printf '{"fuel": "x"}' > "$T/bad-policy.json"
  run "$RFUZZ" --oracle "$ORACLE" --passes FuseOps --policy "$T/bad-policy.json" -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"bad-policy.json"*"fuel"* ]]
  run "$RFUZZ" --oracle "$ORACLE" --known "$T/no-such-file" -o "$T/c"
  [ "$status" -eq 2 ] && [ "$(grep -c no-such-file <<<"$output")" -eq 1 ]
  printf 'fine\n(unclosed\n' > "$T/known"
  run "$RFUZZ" --oracle "$ORACLE" --known "$T/known" -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"known:2: "* ]]
  [ ! -e "$T/c" ] # nothing made before the options are known to be good
  run "$RFUZZ" --oracle "$ORACLE" --bogus -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"Try 'rfuzz --help'"* ]]
}

@test "rfuzz: --mix takes the kinds by name or their weights in order; a bad one exits 2 saying why" {
  # an oracle that logs each round's check: which kinds the rounds were
  cat > "$T/logging.sh" <<EOF
#!/bin/sh
while IFS= read -r p; do head -n 1 "\$p.args" >> "$T/checks"; echo 1; done
EOF
  chmod +x "$T/logging.sh"
  "$RFUZZ" --oracle "$T/logging.sh --args-beside" --mix diff=1 --rounds 12 --no-reduce -q -o "$T/d"
  [ "$(sort -u "$T/checks")" = diff ]
  rm "$T/checks"
  "$RFUZZ" --oracle "$T/logging.sh --args-beside" --mix 'build=0,ill-typed=3' --rounds 12 --no-reduce -q -o "$T/i"
  [ "$(sort -u "$T/checks")" = typecheck ]
  # the names, the positional form and the default are one campaign
  "$RFUZZ" --oracle "$ORACLE" --rounds 30 --no-reduce -q -o "$T/default"
  "$RFUZZ" --oracle "$ORACLE" --rounds 30 --no-reduce --mix 7,2,1 -q -o "$T/positional"
  "$RFUZZ" --oracle "$ORACLE" --rounds 30 --no-reduce --mix ill-typed=1,build=7,diff=2 -q -o "$T/named"
  [ "$(state "$T/default")" = "$(state "$T/positional")" ]
  [ "$(state "$T/default")" = "$(state "$T/named")" ]
  for bad in 'build=1,fuzz=2:unknown round kind '"'"'fuzz'"'"' (one of: build, diff, ill-typed)' \
             'diff=x:'"'"'x'"'"' is no weight' 'diff=1001:'"'"'1001'"'"' is no weight' 'build=1,build=2:build given twice' \
             '7,2:3 weights in the kinds'"'"' order' 'diff=0:not all 0'; do
    run "$RFUZZ" --oracle "$ORACLE" --mix "${bad%%:*}" -o "$T/bad"
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == "rfuzz: --mix"*"${bad#*:}"* ]]
  done
  [ ! -e "$T/bad" ]
  run "$RFUZZ" --help
  [[ "$output" == *"ill-typed   1  "* ]] # the kinds and their default weights, from the table
}

@test "rfuzz (fake TVM): a short campaign finds each planted bug, groups it once and reduces it" {
  use_fake_tvm
  export FAKE_TVM_PLANTED='build-segv:nn.softmax;pass-error:FoldConstant>FuseOps;diff:3:nn.relu'
  run "$RFUZZ" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" \
    --passes FoldConstant,FuseOps,SimplifyExpr --rounds 150 --json -q -o "$T/c"
  echo "$output"
  [ "$status" -eq 0 ]
  cat "$T/c/index.md"
  # each planted bug: exactly one group (met by build and diff rounds alike: the build crash is a
  # compile failure whoever met it), reduced to a program that still has the trigger
  for want in 'compile: signal SIGSEGV' \
    'compile: Check failed: fake pass order FoldConstant>FuseOps @ tvm::relay::FakeFuseOpsAfterFoldConstant' \
    'compare: results differ'; do
    [ "$(grep -c "\`$want" "$T/c/index.md")" -eq 1 ]
  done
  d=$(grep -l 'compile: signal SIGSEGV' "$T"/c/groups/*/signature | xargs dirname)
  grep -q 'nn.softmax(' "$d/reduced.relay"
  [ "$(grep -c '(' "$d/reduced.relay")" -le 3 ]
  grep -q 'tvm.relay' "$d/report.md" # the standalone Python repro
  # the report reproduces with the reduced program (under first.relay's name), not first.relay itself
  recipe=$(grep '^    d=\$(mktemp -d)' "$d/report.md")
  [[ "$recipe" == *"/reduced.relay' \"\$d/first.relay\""* ]]
  [[ "$recipe" != *"/first.relay' "* ]]
  d=$(grep -l 'compare: results differ' "$T"/c/groups/*/signature | xargs dirname)
  grep -q 'nn.relu(' "$d/reduced.relay"
  d=$(grep -l 'fake pass order' "$T"/c/groups/*/signature | xargs dirname)
  grep -qx FoldConstant "$d/args" # reduced under the pass list it was found with
  [ "$(wc -c < "$d/reduced.relay")" -lt "$(wc -c < "$d/first.relay")" ]
  # every failure is a bug here, logged with its group; the JSON summary agrees with the directory
  [ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["groups"]), d["bugs"], d["limitations"], d["failed"])' <<< "$output")" = \
    "3 $(wc -l < "$T/c/failures.jsonl") 0 $(wc -l < "$T/c/failures.jsonl")" ]
  # diff programs counted: run, compared, wrong results (each a failure of the comparison)
  python3 -c '
import json, sys
d = sys.argv[1]
n = json.load(open(d + "/campaign.json"))["counts"]
log = [json.loads(l) for l in open(d + "/failures.jsonl")]
wrong = sum(1 for f in log if f["round"] == "diff" and f["kind"] == "wrong-result")
assert n["diff_rounds"] > 0 and n["diff_wrong"] == wrong > 0, (n, wrong)
assert n["diff_wrong"] <= n["diff_compared"] <= n["diff_rounds"], n' "$T/c"
  grep -q "diff programs: [0-9]*, [0-9]* of them compared, [1-9][0-9]* wrong results" "$T/c/index.md"
  # bench/rfuzz_groups.py names each bug group by its reduced program, one row each
  run python3 "$ROOT/bench/rfuzz_groups.py" "$T/c"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^| 0' <<< "$output")" -eq 3 ]
  grep -q '| bug | .* B | `def @main(.*nn.softmax(.*` | `compile: signal SIGSEGV' <<< "$output"
  run python3 "$ROOT/bench/rfuzz_groups.py" "$T/nowhere"
  [ "$status" -eq 2 ]
}

@test "rfuzz: one planted crash met by build and diff rounds is one group (a stand-in server, then the fake TVM)" {
  # a plain server that says nothing but its answer: the crash's message is the whole key
  cat > "$T/dense.sh" <<'EOF'
#!/bin/sh
while IFS= read -r p; do
  if grep -q 'nn\.dense(' "$p"; then echo "0 Check failed: planted dense bug at 0x7f00$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')"
  else echo 1; fi
done
EOF
  chmod +x "$T/dense.sh"
  mkdir "$T/seeds"
  cp "$CORPUS/models/mlp.relay" "$CORPUS/models/resnet-18.relay" "$T/seeds/"
  "$RFUZZ" --oracle "$T/dense.sh --args-beside" --seeds "$T/seeds" --mix build=1,diff=1 --rounds 60 --no-reduce -q -o "$T/plain"
  python3 - "$T/plain" <<'PY'
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
groups = [g for g in c["groups"] if "planted dense bug" in g["key"]]
rounds = set(json.loads(l)["round"] for l in open(sys.argv[1] + "/failures.jsonl") if "planted dense" in l)
assert len(groups) == 1, [g["key"] for g in groups]
assert rounds == {"build", "diff"}, rounds  # both kinds met it
PY
  # the fake TVM (its outcome says the stage): the crash of relay.build, met by build and diff rounds
  use_fake_tvm
  export FAKE_TVM_PLANTED='build-segv:nn.dense'
  "$RFUZZ" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" --seeds "$T/seeds" \
    --mix build=1,diff=1 --rounds 40 -q -o "$T/fake"
  python3 - "$T/fake" <<'PY'
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
live = [g for g in c["groups"] if not g.get("merged_into")]
assert [g["key"] for g in live] == ["compile: signal SIGSEGV @ tvm::relay::backend::FakeCodegen_nn_dense"], \
    [g["key"] for g in live]
rounds = set(json.loads(l)["round"] for l in open(sys.argv[1] + "/failures.jsonl"))
assert rounds == {"build", "diff"}, rounds
PY
}

@test "rfuzz: a program with a dynamic detour (a dyn.* op) or a helper global is built and compared on the VM, the others as before" {
  # a stand-in server that keeps every program with its check
  mkdir "$T/cap"
  printf '%s\n' '#!/bin/sh' 'n=0' 'while IFS= read -r p; do' \
    '  n=$((n + 1)); cp "$p" "$CAP/$n.relay"; cp "$p.args" "$CAP/$n.args"; echo 1' 'done' > "$T/capture.sh"
  chmod +x "$T/capture.sh"
  CAP=$T/cap "$RFUZZ" --oracle "$T/capture.sh --args-beside" --rounds 200 --seed 1 --no-reduce -q -o "$T/c"
  python3 - "$T/cap" <<'PY'
import glob, re, sys
dynamic = helpers = static = to_static = several = 0
for path in glob.glob(sys.argv[1] + "/*.relay"):
    text = open(path).read()
    check = open(path[:-len("relay")] + "args").read().split("\n")
    vm = check[:3] == ["build", "--executor", "vm"] or check[:4] == ["pass", "--build", "--executor", "vm"]
    defs = re.findall(r"^def @(\w+)(.*)", text, re.M)  # each function's name and line (its parameters)
    if "dyn." in text:
        dynamic += 1
        # every dyn.* call is the detour's: its shape is what shape_of reads, never made up (but
        # in an ill-typed mutant, which breaks a call on purpose)
        for m in re.finditer(r"= dyn\.[a-z_]+\(%\w+, %(\w+)", text if check[0] != "typecheck" else ""):
            assert re.search(r"%%%s = shape_of\(" % m.group(1), text), (path, m.group(0))
        # a build on the coin runs DynamicToStatic first, as TVM's frontends do
        to_static += check[:1] == ["pass"] and "DynamicToStatic" in check
    elif len(defs) > 1:
        helpers += 1
        assert "DynamicToStatic" not in check or check[0] != "pass" or "DynamicToStatic" in check[5:], check
    else:
        static += 1
        assert "--executor" not in check, (path, check)
        continue
    several += any(p.count("%") > 1 for name, p in defs if name != "main")
    # the graph executor cannot allocate a `?`-shaped value nor call a Relay function: the VM
    # builds them, and diff compares the VM with itself at two opt levels, never with the graph
    # executor
    assert vm or check[:3] == ["diff", "--opt-levels", "0,3"] or check[0] == "typecheck", (path, check)
assert dynamic >= 10 and helpers >= 10 and static >= 80 and to_static >= 2 and several >= 5, \
    (dynamic, helpers, static, to_static, several)
PY
}

@test "rfuzz (fake TVM): limitations are counted apart and not reduced; a bad --limitations file stops it at once" {
  use_fake_tvm
  export FAKE_TVM_PLANTED='limit:nn.dense'
  mkdir "$T/seeds"
  cp "$CORPUS/models/mlp.relay" "$T/seeds/"
  run "$RFUZZ" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" --seeds "$T/seeds" \
    --mix build=1 --rounds 40 --json -q -o "$T/c"
  [ "$status" -eq 0 ]
  echo "$output" > "$T/summary.json"
  python3 - "$T/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lim = [g for g in d["groups"] if g["class"] == "limitation"]
assert lim and all("only supported with Hexagon" in g["key"] for g in lim), d["groups"]
assert all(g["status"].startswith("not reduced (a limitation") for g in lim)
assert d["limitations"] >= 1 and d["bugs"] + d["limitations"] + d["rejected"] == d["failed"]
PY
  grep -q '^## Limitations of TVM' "$T/c/index.md"
  printf 'limitation  fine\nbogus  rule\n' > "$T/lim"
  run "$RFUZZ" --oracle "$ORACLE" --limitations "$T/lim" -o "$T/d"
  [ "$status" -eq 2 ] && [[ "$output" == *"lim:2: expected"* ]] && [ ! -e "$T/d" ]
  printf 'limitation  (unclosed\n' > "$T/lim"
  run "$RFUZZ" --oracle "$ORACLE" --limitations "$T/lim" -o "$T/d"
  [ "$status" -eq 2 ] && [[ "$output" == *"lim:1: "* ]] && [ ! -e "$T/d" ]
  run "$RFUZZ" --oracle "$ORACLE" --reduce bogus -o "$T/d"
  [ "$status" -eq 2 ] && [ ! -e "$T/d" ]
}

@test "rfuzz: classes from evidence, each with its rule; one cause met at two dtypes is one root cause once reduced" {
  # A stand-in oracle that leaves TVM's outcome beside each program (PROTOCOL.md): nn.dense fails
  # inside FuseOps (TVM's words "not supported" there: a bug), with an innermost frame that names
  # the dtype (two groups at first sight); nn.batch_flatten fails in lowering with words that point
  # elsewhere (a limitation).
  cat > "$T/evidence.sh" <<'EOF'
#!/bin/sh
while IFS= read -r p; do
  if grep -q 'nn\.dense(' "$p"; then
    dt=f32; grep -q float32 "$p" || dt=f16 # a program of float16 alone
    printf '{"stage": "compile", "step": "build pass FuseOps", "kind": "check", "frames": ["tvm::relay::Caller_%s"]}' "$dt" > "$p.outcome"
    echo "0 Check failed: nn.dense with this layout is not supported yet"
  elif grep -q 'nn\.batch_flatten(' "$p"; then
    printf '{"stage": "compile", "step": "build after FuseOps", "kind": "check"}' > "$p.outcome"
    echo "0 Check failed: qnn.add is currently only supported with Hexagon. Please run QNN Canonicalize pass"
  else echo 1; fi
done
EOF
  chmod +x "$T/evidence.sh"
  # programs of these operators, at float32 or float16
  printf '{"allow_ops": ["nn.dense", "nn.relu", "nn.batch_flatten", "add"], "float_only": true,
    "float_dtypes": ["float16", "float16", "float32"], "fuel": 6}\n' > "$T/policy.json"
  run "$RFUZZ" --oracle "$T/evidence.sh --args-beside" --policy "$T/policy.json" --mix build=1 --rounds 60 \
    --reduce all --reduce-minutes 1 -q -o "$T/c"
  [ "$status" -eq 0 ]
  cat "$T/c/index.md"
  python3 - "$T/c" <<'PY'
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
dense = [g for g in c["groups"] if "nn.dense" in g["key"]]
assert sorted(g["key"].rsplit("_", 1)[1] for g in dense) == ["f16", "f32"], [g["key"] for g in dense]
assert all(g["class"] == "bug" and "inside the optimization pass FuseOps" in g["rule"] for g in dense), dense
# once reduced: one program up to its dtypes, one stage, one masked message: one root cause
assert len([g for g in dense if not g.get("merged_into")]) == 1, dense
flat = [g for g in c["groups"] if "Hexagon" in g["key"]]
assert flat and all(g["class"] == "limitation" and g["rule"].startswith("tvm-limitations.txt:") for g in flat), flat
PY
  grep -q '| why this class |' "$T/c/index.md"
  grep -q 'absorbed \[[0-9]*\](groups/[0-9]*/)' "$T/c/index.md"
  grep -q 'merged into \[[0-9]*\](groups/[0-9]*/): the same root cause once reduced' "$T/c/index.md"
  kept=$(python3 -c 'import json,sys; print([g["id"] for g in json.load(open(sys.argv[1]))["groups"] if "nn.dense" in g["key"] and not g.get("merged_into")][0])' "$T/c/campaign.json")
  issue=$(printf '%s/c/groups/%03d/issue.md' "$T" "$kept")
  grep -q '^# \[Relay\]\[FuseOps\] Check failed: nn.dense with this layout is not supported yet with nn.dense$' "$issue"
  grep -qF -- '- **Where:** inside the optimization pass FuseOps, run by relay.build' "$issue"
  grep -qF -- '- **Groups merged into this root cause:** ' "$issue"
}

# fake_tvm_build DIR VERSION: the fake tvm laid out as a TVM build of that release (DIR/python/tvm
# with _ffi/libinfo.py, DIR/build/libtvm.so), as rfuzz --tvm takes one.
fake_tvm_build() {
  mkdir -p "$1/python" "$1/build"
  cp -r "$ROOT/tests/cli/fake_tvm/tvm" "$1/python/"
  mkdir -p "$1/python/tvm/_ffi"
  printf '__version__ = "%s"\n' "$2" > "$1/python/tvm/_ffi/libinfo.py"
  : > "$1/build/libtvm.so"
}

@test "rfuzz --tvm: each bug group's reduced program asked of every TVM given; bad TVMs refused before anything" {
  use_fake_tvm
  fake_tvm_build "$T/tvm19" 0.19.0
  fake_tvm_build "$T/other19" 0.19.0
  fake_tvm_build "$T/tvm13" 0.13.0
  # the campaign's TVM is v0.13.0; the planted crash is fixed in v0.19.0
  export FAKE_TVM_PLANTED='build-segv:nn.softmax' FAKE_TVM_FIXED_IN=0.19 RELAYKIT_TVM_VERSION=0.13
  export PYTHONPATH=$T/tvm13/python
  run "$RFUZZ" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" --tvm "$T/tvm19" \
    --mix build=1 --rounds 40 --reduce-minutes 1 -q -o "$T/c"
  [ "$status" -eq 0 ]
  python3 - "$T/c" <<'PY'
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
g = [g for g in c["groups"] if "SIGSEGV" in g["key"] and not g.get("merged_into")]
assert len(g) == 1 and g[0]["tvm_verdicts"] == "v0.19.0: passes (fixed by v0.19.0)", g
PY
  grep -q 'on v0.13.0 (this campaign.s TVM): fails; v0.19.0: passes (fixed by v0.19.0)' "$T/c/index.md"
  # the report ready to file: a title, the versions, where, the reduced program, the Python repro
  issue=$(grep -l 'SIGSEGV' "$T"/c/groups/*/issue.md)
  grep -q '^# \[Relay\]\[.*\] signal SIGSEGV with nn.softmax$' "$issue"
  grep -qF -- '- **Fails on:** TVM v0.13.0 (the TVM this campaign ran); v0.19.0: passes (fixed by v0.19.0)' "$issue"
  grep -q '^## Reduced Relay program' "$issue" && grep -q '^## Standalone Python repro' "$issue"
  sed -n '/^```python/,/^```$/p' "$issue" | sed '1d;$d' > "$T/repro.py"
  python3 -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$T/repro.py"
  # not fixed there: it fails on both
  export FAKE_TVM_FIXED_IN=0.20
  "$RFUZZ" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" --tvm "$T/tvm19:$T/tvm19/build" \
    --mix build=1 --rounds 40 --reduce-minutes 1 -q -o "$T/d"
  python3 -c '
import json, sys
g = [g for g in json.load(open(sys.argv[1]))["groups"] if "SIGSEGV" in g["key"] and not g.get("merged_into")]
assert g[0]["tvm_verdicts"] == "v0.19.0: fails", g' "$T/d/campaign.json"
  # an existing campaign asked again, by rfuzz merge --tvm (here, a v0.19.0 that has fixed it)
  FAKE_TVM_FIXED_IN=0.19 run "$RFUZZ" merge --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" \
    --tvm "$T/tvm19" -o "$T/dm" "$T/d"
  [ "$status" -eq 0 ]
  grep -qF -- '- **Fails on:** TVM v0.13.0 (the TVM this campaign ran); v0.19.0: passes (fixed by v0.19.0)' "$T"/dm/groups/*/issue.md
  # a v0.19.0 that cannot read the program says nothing of the bug: not comparable, never fixed,
  # and never "fails differently" where the check calls every failure interesting (--other-status
  # 0, as the diff check that met 011 on the real v0.19.0 did)
  cp -r "$T/d" "$T/d0"
  python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
for g in c["groups"]:
    g["args"] += "--other-status\n0\n"
json.dump(c, open(sys.argv[1], "w"))' "$T/d0/campaign.json"
  for d in d d0; do
    rm -rf "$T/du"
    FAKE_TVM_UNREADABLE_IN=0.19 run "$RFUZZ" merge --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" \
      --tvm "$T/tvm19" -o "$T/du" "$T/$d"
    [ "$status" -eq 0 ]
    grep -qF -- '- **Fails on:** TVM v0.13.0 (the TVM this campaign ran); v0.19.0: not comparable (this release cannot read the program: ' "$T"/du/groups/*/issue.md
  done
  # a reduction the campaign's end stopped wrote no report: issue.md says so, and how to reproduce
  cp -r "$T/d" "$T/dn"
  rm "$T"/dn/groups/*/report.md
  run "$RFUZZ" merge -o "$T/dnm" "$T/dn"
  [ "$status" -eq 0 ]
  issue=$(ls "$T"/dnm/groups/*/issue.md | head -1)
  grep -q '^None was written: the reduction stopped before its last run' "$issue"
  grep -qF 'interestingness/tvm-server --args-from args' "$issue"
  ! grep -q 'report.md. beside this file' "$issue"
  run "$RFUZZ" merge --tvm "$T/tvm19" -o "$T/dm2" "$T/d"
  [ "$status" -eq 2 ] && [[ "$output" == *"--tvm needs --oracle"* ]] && [ ! -e "$T/dm2" ]
  # bad input: no TVM there, not built, a release given twice: exit 2 before anything is written
  run "$RFUZZ" --oracle "$ORACLE" --tvm "$T/nowhere" -o "$T/e"
  [ "$status" -eq 2 ] && [[ "$output" == *"--tvm $T/nowhere: "*"is not a directory"* ]] && [ ! -e "$T/e" ]
  mkdir "$T/empty"
  run "$RFUZZ" --oracle "$ORACLE" --tvm "$T/empty" -o "$T/e"
  [ "$status" -eq 2 ] && [[ "$output" == *"not a TVM"*"libinfo.py"* ]] && [ ! -e "$T/e" ]
  rm "$T/other19/build/libtvm.so"
  run "$RFUZZ" --oracle "$ORACLE" --tvm "$T/other19" -o "$T/e"
  [ "$status" -eq 2 ] && [[ "$output" == *"is not built: no libtvm.so"* ]] && [ ! -e "$T/e" ]
  : > "$T/other19/build/libtvm.so"
  run "$RFUZZ" --oracle "$ORACLE" --tvm "$T/tvm19" --tvm "$T/other19" -o "$T/e"
  [ "$status" -eq 2 ] && [[ "$output" == *"TVM 0.19.0 twice"* ]] && [ ! -e "$T/e" ]
}

@test "rfuzz (fake TVM): an ill-typed program that crashes the type checker is a bug; a diagnostic is not" {
  use_fake_tvm
  export FAKE_TVM_PLANTED='typecheck-abort:add'
  run "$RFUZZ" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" --mix 0,0,1 --rounds 40 \
    --seed 3 -q -o "$T/c"
  [ "$status" -eq 0 ]
  cat "$T/c/index.md"
  grep -q '`frontend: signal SIGABRT @ tvm::relay::FakeRel_add`' "$T/c/index.md"
  # ill-typed mutants never join the pool: mutation starts from well-typed programs only
  [ -z "$(ls "$T/c/pool")" ]
  d=$(grep -l 'frontend: signal SIGABRT' "$T"/c/groups/*/signature | xargs dirname)
  grep -q 'add(' "$d/reduced.relay"
  [ "$(wc -c < "$d/reduced.relay")" -lt "$(wc -c < "$d/first.relay")" ]
}

@test "rfuzz: the same seed gives the same campaign; a killed campaign continues where it stopped" {
  "$RFUZZ" --oracle "$ORACLE" --rounds 150 --no-reduce -q -o "$T/a"
  "$RFUZZ" --oracle "$ORACLE" --rounds 150 --no-reduce -q -o "$T/b" &
  pid=$!
  for _ in $(seq 100); do
    [ -f "$T/b/campaign.json" ] && grep -q '"programs": [1-9][0-9]' "$T/b/campaign.json" && break
    sleep 0.05
  done
  kill -9 $pid
  wait $pid || true
  n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"]["programs"])' "$T/b/campaign.json")
  [ "$n" -lt 150 ]
  run "$RFUZZ" --oracle "$ORACLE" --rounds 150 --no-reduce -o "$T/b"
  [ "$status" -eq 0 ]
  [[ "$output" == *"continuing $T/b at program $n"* ]]
  [ "$(state "$T/a")" = "$(state "$T/b")" ]
  diff -r "$T/a/pool" "$T/b/pool" # no temporary file of a write the kill cut short stays either
  touch "$T/b/pool/000001.relay.tmpAbC123" "$T/b/index.md.tmpXyZ789"
  "$RFUZZ" --oracle "$ORACLE" --rounds 150 --no-reduce -q -o "$T/b"
  [ ! -e "$T/b/pool/000001.relay.tmpAbC123" ] && [ ! -e "$T/b/index.md.tmpXyZ789" ]
  # another seed is another campaign, and a directory holding one refuses a different one
  run "$RFUZZ" --oracle "$ORACLE" --rounds 150 --no-reduce --seed 2 -o "$T/b"
  [ "$status" -eq 2 ] && [[ "$output" == *"holds a campaign with seed 1"* ]]
}

# start_campaign DIR PROGRAMS: a long campaign in DIR in the background ($pid), returning once
# its campaign.json counts programs matching the pattern PROGRAMS (or after 10 s).
start_campaign() {
  "$RFUZZ" --oracle "$ORACLE" --rounds 100000 -q -o "$1" &
  pid=$!
  for _ in $(seq 200); do
    [ -f "$1/campaign.json" ] && grep -q "\"programs\": $2" "$1/campaign.json" && break
    sleep 0.05
  done
}

@test "rfuzz: SIGTERM, SIGHUP and SIGQUIT stop it as Ctrl-C does: exit 130, the campaign saved" {
  for sig in TERM HUP QUIT; do
    start_campaign "$T/$sig" '[1-9]'
    stop_with $sig $pid
    [ "$rc" -eq 130 ]
    python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["counts"]["programs"] > 0' "$T/$sig/campaign.json"
  done
}

@test "rfuzz: Ctrl-C stops with exit 130 and the campaign continues; an unreduced group is reduced first" {
  start_campaign "$T/c" '[1-9][0-9]'
  stop_with INT $pid
  [ "$rc" -eq 130 ]
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/c/campaign.json"
  # a group left "new" (killed during its reduction) is reduced when the campaign continues
  python3 - "$T/c/campaign.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
c["groups"] = [dict(g, status="new", reduced_bytes=-1) for g in c["groups"]][:1]
json.dump(c, open(sys.argv[1], "w"))
EOF
  if python3 -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1]))["groups"])' "$T/c/campaign.json"; then
    rm -f "$T"/c/groups/001/reduced.relay
    n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"]["programs"])' "$T/c/campaign.json")
    run "$RFUZZ" --oracle "$ORACLE" --rounds "$((n + 1))" -q -o "$T/c"
    [ "$status" -eq 0 ]
    grep -q 'nn.softmax(' "$T/c/groups/001/reduced.relay"
  fi
}

@test "rfuzz: --known failures are counted, not grouped; which were met, and when, is said" {
  "$RFUZZ" --oracle "$ORACLE" --rounds 120 --no-reduce -q -o "$T/a"
  grep -q '^| \[.*fake softmax' "$T/a/index.md"
  printf '# planted\nfake softmax\n' > "$T/known"
  run "$RFUZZ" --oracle "$ORACLE" --rounds 120 --no-reduce --known "$T/known" -q -o "$T/b" --json
  [ "$status" -eq 0 ]
  ! grep -q '^| \[.*fake softmax' "$T/b/index.md" || false # in no group
  grep -q '^| fake softmax | [1-9][0-9]* | minute [0-9.]* | [0-9]* |$' "$T/b/index.md"
  python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["known"] > 0 and not j["groups"], j' <<< "$output"
  # the bugs.json form (../shared/realbugs): TVM's words, each bug met said by its id, with its minute
  printf '[{"id": "planted-softmax", "signature": "fake softmax at"}, {"id": "never", "signature": "no such words"}]\n' > "$T/bugs.json"
  "$RFUZZ" --oracle "$ORACLE" --rounds 120 --no-reduce --known "$T/bugs.json" -q -o "$T/c"
  python3 - "$T/c" <<'PY'
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
met = c["known_met"]
assert [m["id"] for m in met] == ["planted-softmax"], met
assert met[0]["count"] == c["counts"]["known"] > 0 and met[0]["first_minute"] >= 0 and met[0]["first_program"] >= 0, met
assert not c["groups"], c["groups"]
PY
  grep -q '^## Known bugs met' "$T/c/index.md"
  grep -q '^| planted-softmax | ' "$T/c/index.md"
  # resumed, the meeting is kept
  "$RFUZZ" --oracle "$ORACLE" --rounds 160 --no-reduce --known "$T/bugs.json" -q -o "$T/c"
  python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["known_met"]; assert [k["id"] for k in m] == ["planted-softmax"], m' "$T/c/campaign.json"
  # a known-bugs file that is not valid JSON, or an entry without its id: said before anything starts
  printf '[{"id": "x", "signature": "y"},\n' > "$T/bad.json"
  run "$RFUZZ" --oracle "$ORACLE" --rounds 10 --known "$T/bad.json" -o "$T/d"
  [ "$status" -eq 2 ] && [[ "$output" == *"--known $T/bad.json:"*"not valid JSON"* ]] && [ ! -e "$T/d" ]
  printf '[{"signature": "y"}]\n' > "$T/bad.json"
  run "$RFUZZ" --oracle "$ORACLE" --rounds 10 --known "$T/bad.json" -o "$T/d"
  [ "$status" -eq 2 ] && [[ "$output" == *"entry 1 has no \"id\""* ]] && [ ! -e "$T/d" ]
}

@test "rfuzz: shards make disjoint programs; merge joins their groups by signature" {
  "$RFUZZ" --oracle "$ORACLE" --rounds 80 --shard 1/2 --no-reduce -q -o "$T/s1"
  "$RFUZZ" --oracle "$ORACLE" --rounds 80 --shard 2/2 --no-reduce -q -o "$T/s2"
  # shard I makes the campaign's programs I-1, I-1+N, ...: the pool files never collide
  ! ls "$T/s1/pool" | grep -v seed | sed 's/\.relay//' | awk '$1 % 2 != 0' | grep . || false
  ! ls "$T/s2/pool" | grep -v seed | sed 's/\.relay//' | awk '$1 % 2 != 1' | grep . || false
  run "$RFUZZ" merge -o "$T/m" "$T/s1" "$T/s2"
  [ "$status" -eq 0 ]
  python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
s = [json.load(open("%s/%s/campaign.json" % (t, d))) for d in ("s1", "s2")]
m = json.load(open(t + "/m/campaign.json"))
keys = sorted(set(g["key"] for c in s for g in c["groups"]))
assert sorted(g["key"] for g in m["groups"]) == keys, (m["groups"], keys)
for g in m["groups"]:
    assert g["count"] == sum(h["count"] for c in s for h in c["groups"] if h["key"] == g["key"])
assert m["counts"]["programs"] == 160
EOF
  grep -q 'merged from 2 campaigns' "$T/m/index.md"
  for g in "$T"/m/groups/*; do [ -s "$g/first.relay" ]; done
  # merge --oracle reduces the groups no shard reduced, once each
  run "$RFUZZ" merge --oracle "$ORACLE" -o "$T/m2" "$T/s1" "$T/s2"
  [ "$status" -eq 0 ]
  grep -q 'nn.softmax(' "$T"/m2/groups/001/reduced.relay
  run "$RFUZZ" merge -o "$T/m3" "$T/nothing"
  [ "$status" -eq 2 ]
}

@test "rfuzz: an oracle that cannot start (no TVM) stops the campaign with exit 2 and says why" {
  printf '#!/bin/sh\necho "no TVM here" >&2\nexit 2\n' > "$T/dead.sh"
  chmod +x "$T/dead.sh"
  run "$RFUZZ" --oracle "$T/dead.sh --args-beside" --rounds 100 -q -o "$T/c"
  [ "$status" -eq 2 ]
  [[ "$output" == *"no TVM here"* ]]
  [[ "$output" == *"the oracle failed on 5 programs in a row"* ]]
  python3 -c 'import json,sys; n=json.load(open(sys.argv[1]))["counts"]["programs"]; assert n == 5, n' "$T/c/campaign.json"
}

@test "rfuzz: sibling operators of one defect are one root cause once reduced; rfuzz merge regroups a campaign" {
  # A stand-in oracle: a unary op of the trig family fails in codegen naming its TIR intrinsic
  # (TVM's "unknown intrinsic Op(tir.asin)"); each op its own key at first sight.
  cat > "$T/sib.sh" <<'EOF2'
#!/bin/sh
while IFS= read -r p; do
  op=$(grep -o '\b\(asin\|atan\|acosh\)(' "$p" | head -1 | tr -d '(')
  if [ -n "$op" ]; then
    printf '{"stage": "compile", "step": "build after FuseOps", "kind": "check", "frames": ["tvm::codegen::CodeGenLLVM::CreateIntrinsic"]}' > "$p.outcome"
    echo "0 TVMError: unknown intrinsic Op(tir.$op)"
  else echo 1; fi
done
EOF2
  chmod +x "$T/sib.sh"
  printf '{"allow_ops": ["asin", "atan", "acosh", "add"], "float_only": true, "fuel": 3}\n' > "$T/policy.json"
  run "$RFUZZ" --oracle "$T/sib.sh --args-beside" --policy "$T/policy.json" --mix build=1 --rounds 40 \
    --reduce-minutes 1 -q -o "$T/c"
  [ "$status" -eq 0 ]
  python3 - "$T/c" <<'PY'
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
trig = [g for g in c["groups"] if "unknown intrinsic" in g["key"]]
assert len(trig) >= 2, [g["key"] for g in trig]
roots = [g for g in trig if not g.get("merged_into")]
assert len(roots) == 1, [(g["key"], g.get("reduced_key"), g.get("merged_into")) for g in trig]
PY
  # the campaign merged alone: the same judgement (every pair, into the root)
  run "$RFUZZ" merge -o "$T/m" "$T/c"
  [ "$status" -eq 0 ]
  python3 -c '
import json, sys
a, b = (json.load(open(d + "/campaign.json"))["groups"] for d in sys.argv[1:])
assert [g.get("merged_into") for g in a] == [g.get("merged_into") for g in b], (a, b)' "$T/c" "$T/m"
  # and the root's report, written by the merge, names the groups it absorbed
  root=$(python3 -c '
import json, sys
g = [g for g in json.load(open(sys.argv[1]))["groups"] if "unknown intrinsic" in g["key"] and not g.get("merged_into")]
print("%03d" % g[0]["id"])' "$T/m/campaign.json")
  grep -q '^- \*\*Groups merged into this root cause:\*\* [0-9]' "$T/m/groups/$root/issue.md"
}
