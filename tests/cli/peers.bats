#!/usr/bin/env bats
# bench/peers (issue 43): the driver's checks before any arm starts (a missing or wrong peer
# checkout, a TVM without the instrumented counters), the table writer on synthetic results, and
# the driver running stand-in arms end to end in dry mode on the fake TVM. The peers never run here.

load rfuzz_helpers
load release_pass

setup() {
  # the driver, its arms and reports are bash and Python; the programs of the build they run
  # (roracle --args-beside, rreduce --server) have their own tests in the sanitizer pass
  release_pass_only
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  T=$BATS_TEST_TMPDIR
  RUN=$ROOT/bench/peers/run.sh
  unset PEERS_DRY PEERS_ARMS_DIR PEERS_SNAPSHOT_SECONDS PEERS_KNOWN TVM_HOME TVM_LIBRARY_PATH LLVM_PROFILE_FILE
  export PEERS_BIN=$(dirname "$RFMT") PYTHONPYCACHEPREFIX=$T/pycache
  PY=python3 # the system's when there is one: a version manager's shim costs most of a second a start
  if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; fi
  # checkouts that have the files the driver looks for, and nothing else
  mkdir -p "$T/GenCoG/nnsmith" "$T/HirGen/src" "$T/HirGen/include"
  touch "$T/GenCoG/run_test.py" "$T/GenCoG/_run_ps.py" "$T/GenCoG/dedup_case.py" "$T/GenCoG/nnsmith/relay_gen.py"
  touch "$T/HirGen/CMakeLists.txt" "$T/HirGen/src/generate.cpp" "$T/HirGen/src/stringUtils.cpp" "$T/HirGen/include/generator.hpp"
}

@test "a missing peer checkout is a one-line error before any arm starts, and OUTDIR is not made" {
  use_fake_tvm
  run "$RUN" --gencog "$T/no-such" -o "$T/out" 1 1
  echo "$output"
  [ "$status" -eq 2 ]
  [ "$output" = "run.sh: --gencog $T/no-such: no such directory (expected a GenCoG checkout, github wzh99/GenCoG)" ]
  [ ! -e "$T/out" ]
  run "$RUN" --hirgen "$T/no-such" -o "$T/out" 1 1
  [ "$status" -eq 2 ]
  [ "$output" = "run.sh: --hirgen $T/no-such: no such directory (expected a HirGen checkout, github haoyang9804/HirGen)" ]
  [ ! -e "$T/out" ]
}

@test "a wrong peer checkout names the file it lacks, before any arm starts" {
  use_fake_tvm
  rm "$T/GenCoG/nnsmith/relay_gen.py"
  run "$RUN" --gencog "$T/GenCoG" --hirgen "$T/HirGen" -o "$T/out" 1 1
  echo "$output"
  [ "$status" -eq 2 ]
  [ "$output" = "run.sh: --gencog $T/GenCoG is not a GenCoG checkout (github wzh99/GenCoG): no nnsmith/relay_gen.py in it" ]
  # HirGen's checkout given for GenCoG
  run "$RUN" --gencog "$T/HirGen" -o "$T/out" 1 1
  [ "$status" -eq 2 ]
  [ "$output" = "run.sh: --gencog $T/HirGen is not a GenCoG checkout (github wzh99/GenCoG): no run_test.py in it" ]
  rm "$T/HirGen/src/generate.cpp"
  run "$RUN" --arms rfuzz --hirgen "$T/HirGen" -o "$T/out" 1 1
  [ "$status" -eq 2 ]
  [ "$output" = "run.sh: --hirgen $T/HirGen is not a HirGen checkout (github haoyang9804/HirGen): no src/generate.cpp in it" ]
  [ ! -e "$T/out" ]
}

@test "a TVM without the instrumented counters is an error unless PEERS_DRY=1; no TVM at all is a skip" {
  use_fake_tvm
  mkdir -p "$T/plain"
  touch "$T/plain/libtvm.so" # a build, but not scripts/tvm-instrumented.sh's
  TVM_LIBRARY_PATH=$T/plain run "$RUN" --gencog "$T/GenCoG" -o "$T/out" 1 1
  echo "$output"
  [ "$status" -eq 2 ]
  [[ "$output" == "run.sh: TVM_LIBRARY_PATH must be a build of scripts/tvm-instrumented.sh (no $T/plain/libtvm.so with librelaykit_cov.so beside it)"* ]]
  [ ! -e "$T/out" ]
  # usage errors come first, whatever the TVM
  run "$RUN" --arms rfuzz,afl -o "$T/out" 1 1
  [ "$status" -eq 2 ]
  [[ "$output" == "run.sh: --arms: no arm 'afl'"* ]]
  PYTHONPATH=$T/none RELAYKIT_PYTHON=python3 run "$RUN" -o "$T/out" 1 1
  [ "$status" -eq 0 ]
  [[ "$output" == *"skipped: no TVM importable"* ]]
  [ ! -e "$T/out" ]
}

# result ARM TRIAL BRANCHES PROGRAMS VALID INVALID FAILURES GROUPS BUGS KNOWN-IDS(json list)
result() {
  mkdir -p "$T/res/$1-$2"
  cat > "$T/res/$1-$2/result.json" <<EOF
{"arm": "$1", "trial": $2, "seed": $2, "minutes": 30, "seconds": 1800, "programs": $4, "valid": $5,
 "invalid": $6, "timeouts": 0, "failures": $7, "groups": $8, "bug_groups": $9, "known_bugs": ${10},
 "branches": $3, "coverage": {"relay": [$3, 50000], "src": [0, 0]},
 "over_time": [[600, $(($3 / 2))], [1200, $(($3 - 10))], [1800, $3]]}
EOF
}

@test "report.py: medians and ranges per arm, rfuzz's ratios, and whether a margin is inside the spread" {
  result rfuzz 1 1000 900 880 20 30 5 4 '["a"]'
  result rfuzz 2 1200 950 930 20 31 7 6 '["a", "b"]'
  result rfuzz 3 1100 1000 990 10 29 6 5 '[]'
  result gencog 1 800 500 400 100 10 3 2 '[]'
  result gencog 2 1150 520 410 110 12 4 6 '["a"]'
  result gencog 3 900 510 420 90 11 2 1 '[]'
  # a run that broke is listed, not counted
  mkdir -p "$T/res/hirgen-1"
  echo '{"arm": "hirgen", "trial": 1, "minutes": 30, "error": "the arm wrote no arm.json"}' > "$T/res/hirgen-1/result.json"
  run "$PY" "$ROOT/bench/peers/report.py" "$T/res" --table-only
  [ "$status" -eq 0 ]
  cat "$T/res/RESULTS.md"
  grep -qF "3 trials of 30 minutes per arm, each arm on one core, one arm at a time" "$T/res/RESULTS.md"
  grep -qxF '| rfuzz | 1100 (1000-1200) | 950 (900-1000) | 930 (880-990) | 20 (10-20) | 30 (29-31) | 6 (5-7) | 5 (4-6) | 1 (0-2) |' "$T/res/RESULTS.md"
  grep -qxF '| gencog | 900 (800-1150) | 510 (500-520) | 410 (400-420) | 100 (90-110) | 11 (10-12) | 3 (2-4) | 2 (1-6) | 0 (0-1) |' "$T/res/RESULTS.md"
  # rows in the arms' order: rfuzz first
  [ "$(grep -n '^| rfuzz |' "$T/res/RESULTS.md" | cut -d: -f1)" -lt "$(grep -n '^| gencog |' "$T/res/RESULTS.md" | cut -d: -f1)" ]
  grep -qxF -- "- rfuzz / gencog, src/relay branches: 1.22x (medians 1100 / 900); the margin is inside the trials' spread (ranges 1000-1200 and 800-1150 overlap)" "$T/res/RESULTS.md"
  grep -qxF -- "- rfuzz / gencog, bug groups: 2.50x (medians 5 / 2); the margin is inside the trials' spread (ranges 4-6 and 1-6 overlap)" "$T/res/RESULTS.md"
  grep -qxF -- '- hirgen-1 did not run to the end: the arm wrote no arm.json' "$T/res/RESULTS.md"
  ! grep -q '^| hirgen' "$T/res/RESULTS.md" || false
  # apart: every trial of rfuzz above every trial of gencog
  result gencog 2 950 520 410 110 12 4 3 '["a"]'
  "$PY" "$ROOT/bench/peers/report.py" "$T/res" --table-only
  grep -qxF -- "- rfuzz / gencog, src/relay branches: 1.22x (medians 1100 / 900); every trial of rfuzz is above every trial of gencog" "$T/res/RESULTS.md"
  grep -qxF -- "- rfuzz / gencog, bug groups: 2.50x (medians 5 / 2); every trial of rfuzz is above every trial of gencog" "$T/res/RESULTS.md"
}

# A stand-in arm: starts its clock, works a little, says what it did; with FAILURES 1 it leaves a
# failing program.
stand_in() { # NAME PROGRAMS FAILURES
  cat > "$T/arms/$1.sh" <<EOF
#!/usr/bin/env bash
dir=\$1 minutes=\$2 seed=\$3
date +%s > "\$dir/started"
sleep 1.5
"${RELAYKIT_PYTHON:-python3}" -c 'import json, os, sys; print(json.dumps({"programs": $2, "valid": $2 - 2, "invalid": 2, "timeouts": 0, "failures": $3,
  "peer": {"seed": int(sys.argv[1]), "minutes": int(sys.argv[2]), "home": os.environ.get("PEER_HOME"),
           "profile": os.environ.get("LLVM_PROFILE_FILE"), "cpus": len(os.sched_getaffinity(0)),
           "core": min(os.sched_getaffinity(0))}}))' "\$seed" "\$minutes" > "\$dir/arm.json"
[ $3 = 0 ] && exit 0
printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2), float32]) {\n  add(%%x, %%x) /* FAKE_BUILD_ERROR_$1 */\n}\n' > "\$dir/failures/$1-1.relay"
printf 'build\n' > "\$dir/failures/$1-1.relay.args"
EOF
}

@test "the driver runs stand-in arms end to end in dry mode: snapshots, triage, known bugs, RESULTS.md" {
  use_fake_tvm
  mkdir -p "$T/arms"
  stand_in rfuzz 40 0
  stand_in gencog 10 1
  touch "$T/arms/hirgen.sh"
  echo '[{"id": "standin-gencog", "signature": "fake build error gencog"}]' > "$T/bugs.json"
  PEERS_DRY=1 PEERS_ARMS_DIR=$T/arms PEERS_SNAPSHOT_SECONDS=1 PEERS_KNOWN=$T/bugs.json \
    run "$RUN" --gencog "$T/GenCoG" --arms rfuzz,gencog,hirgen -o "$T/out" 1 1
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"run.sh: hirgen skipped: no --hirgen PATH (a HirGen checkout)"* ]]
  [[ "$output" =~ "rfuzz-1: "[0-9]+" s, programs 40 (valid 38, invalid 2), failures 0, groups 0 (bugs 0), known bugs 0, src/relay branches 0" ]]
  [[ "$output" =~ "gencog-1: "[0-9]+" s, programs 10 (valid 8, invalid 2), failures 1, groups 1 (bugs 1), known bugs 1, src/relay branches 0" ]]
  [ ! -e "$T/out/hirgen-1" ]
  # what the arm was given: its seed and minutes, its peer, no profile (dry), one core
  "$PY" - "$T/out" "$T/GenCoG" <<'EOF'
import json, sys
out, gencog = sys.argv[1:]
g = json.load(open(out + "/gencog-1/result.json"))
assert g["peer"] == {"seed": 1, "minutes": 1, "home": gencog, "profile": "/dev/null", "cpus": 1,
                     "core": g["machine"]["cpu"]}, g["peer"]
assert g["machine"]["cpus"] == 1 and "load_start" in g["machine"] and "load_end" in g["machine"], g["machine"]
assert g["known_bugs"] == ["standin-gencog"], g
assert g["triage"]["still_failing"] == 1 and g["triage"]["classes"] == {"bug": 1}, g["triage"]
r = json.load(open(out + "/rfuzz-1/result.json"))
assert r["known_bugs"] == [] and r["peer"]["home"] == "" and r["groups"] == 0, r
# a snapshot each second of the arm's clock, then the end (dry: no branches counted)
rows = [l.split("\t") for l in open(out + "/rfuzz-1/coverage-over-time.tsv").read().splitlines()]
assert rows[0] == ["seconds", "branches"] and rows[1][0] == "1" and rows[-1][0] == str(r["seconds"]), rows
assert [int(s) for s, _ in rows[1:]] == sorted(set(int(s) for s, _ in rows[1:])), rows
assert all(b == "0" for _, b in rows[1:]), rows
EOF
  [ -d "$T/out/rfuzz-1/snap/1" ]
  grep -q 'fake build error gencog' "$T/out/gencog-1/triage.json"
  grep -qF '(no coverage measured: a dry run, PEERS_DRY=1)' "$T/out/RESULTS.md"
  grep -qxF '| rfuzz | 0 | 40 | 38 | 2 | 0 | 0 | 0 | 0 |' "$T/out/RESULTS.md"
  grep -qxF '| gencog | 0 | 10 | 8 | 2 | 1 | 1 | 1 | 1 |' "$T/out/RESULTS.md"
  grep -qF -- "rfuzz / gencog, src/relay branches: n/a (both 0)" "$T/out/RESULTS.md"
  # the plot, or the word that there is none
  [ -f "$T/out/coverage.png" ] || [[ "$output" == *"no matplotlib"* ]]
}

# rfuzz-1's failing programs big.relay and small.relay, each checked by `build`: big fails with the
# fake TVM's "shared" build error, small (the smaller) with error $1
two_failures() {
  mkdir -p "$T/out/rfuzz-1/failures"
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  %%0 = nn.relu(%%x);\n  %%1 = sigmoid(%%0);\n  add(%%1, %%0) /* FAKE_BUILD_ERROR_shared */\n}\n' > "$T/out/rfuzz-1/failures/big.relay"
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  add(%%x, %%x) /* FAKE_BUILD_ERROR_%s */\n}\n' "$1" > "$T/out/rfuzz-1/failures/small.relay"
  for f in big small; do printf 'build\n' > "$T/out/rfuzz-1/failures/$f.relay.args"; done
}

@test "reduce.py: a bug group met by two arms is reduced once, from the smaller file, under its own check" {
  use_fake_tvm
  mkdir -p "$T/out/rfuzz-1/failures" "$T/out/gencog-1/failures" "$T/out/gencog-2/failures"
  # the same failure in two arms (the gencog one smaller), and a wrong result only a diff check sees
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  %%0 = nn.relu(%%x);\n  %%1 = sigmoid(%%0);\n  %%2 = add(%%1, %%0) /* FAKE_BUILD_ERROR_shared */;\n  multiply(%%2, %%x)\n}\n' > "$T/out/rfuzz-1/failures/rfuzz-001.relay"
  printf 'build\n' > "$T/out/rfuzz-1/failures/rfuzz-001.relay.args"
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  %%0 = nn.relu(%%x);\n  add(%%0, %%x) /* FAKE_BUILD_ERROR_shared */\n}\n' > "$T/out/gencog-1/failures/gencog-7.relay"
  printf 'build\n--opt-level\n2\n' > "$T/out/gencog-1/failures/gencog-7.relay.args"
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  add(%%x, %%x) /* FAKE_DIFF_GRAPH_3 */\n}\n' > "$T/out/gencog-2/failures/gencog-3.relay"
  printf 'diff\n--configs\ngraph:0,graph:3\n' > "$T/out/gencog-2/failures/gencog-3.relay.args"
  for d in rfuzz-1 gencog-1 gencog-2; do
    "$PEERS_BIN/roracle" -j 1 --json --args-beside --server "$ROOT/interestingness/tvm-server --args-beside" \
      "$T/out/$d/failures" > "$T/out/$d/triage.json" || [ $? -eq 1 ]
  done
  RELAYKIT_BIN=$PEERS_BIN run "$PY" "$ROOT/bench/peers/reduce.py" "$T/out" --minutes 2 --cpus 0
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"2 distinct bug groups over 3 arm trials"* ]]
  "$PY" - "$T/out" "$ROOT/bench/peers" <<'PY'
import json, sys
out = sys.argv[1]
g = json.load(open(out + "/groups.json"))
assert [x["met"] for x in g] == [["rfuzz-1", "gencog-1"], ["gencog-2"]], g
assert g[0]["programs"] == 2 and g[0]["file"].endswith("gencog-7.relay"), g[0]
assert g[0]["status"] == "reduced" and g[1]["status"] == "reduced", g
first = open(out + "/groups/001/first.relay").read()
reduced = open(out + "/groups/001/reduced.relay").read()
assert len(reduced) < len(first) and "nn.relu" not in reduced and "FAKE_BUILD_ERROR_shared" in reduced, reduced
# reduced under its own check: the wrong result of the diff check is still there
assert "FAKE_DIFF_GRAPH_3" in open(out + "/groups/002/reduced.relay").read()
# the operators a reduced program calls, as the table lists them
sys.path.insert(0, sys.argv[2])
import reduce as r
open(out + "/ops.relay", "w").write('def @main(%x) {\n  %0 = nn.conv2d(%x, meta[relay.Constant][0]) /* ty=f(x) */;\n  %1 = @f(%0);\n  qnn.add(%1, %x)\n}\n')
assert r.operators(out + "/ops.relay") == ["nn.conv2d", "qnn.add"], r.operators(out + "/ops.relay")
PY
  grep -q '^| 001 | F01 | rfuzz-1 gencog-1 | 2 | [0-9]* B | .* | `compile: Check failed: fake build error shared`' "$T/out/groups.md"
  grep -qxF '| rfuzz-1 | 1 | 1 |' "$T/out/families.md"
  grep -qxF '| gencog-2 | 1 | 1 |' "$T/out/families.md"
  # run again: what was reduced is kept
  RELAYKIT_BIN=$PEERS_BIN run "$PY" "$ROOT/bench/peers/reduce.py" "$T/out" --minutes 2 --cpus 0
  [[ "$output" == *"group 001: kept"* ]]
}

@test "reduce.py: groups of one check named per operator or cut at another length are one family; --one-per-family reduces its smallest" {
  use_fake_tvm
  "$PY" - "$ROOT/bench/peers" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from reduce import family
same = [("compile: error: the operator sin does not have a registered gradient. @ tvm::relay::FirstOrderReverseAD::VisitExpr_",
         "compile: error: the operator nn.dilate does not have a registered gradient. @ tvm::relay::FirstOrderReverseAD::VisitExpr_"),
        ("compile: Check failed: undefined.size() == <n> (<n> vs. <n>) : In PrimFunc <fn> variables [i1] are us @ tvm::tir::MakePackedAPI",
         "compile: Check failed: undefined.size() == <n> (<n> vs. <n>) : In PrimFunc <fn> variables [i2] are used, but are not passed in @ tvm:"),
        ("compile: TVMError: unknown intrinsic Op(tir.acos) @ tvm::codegen::CodeGenLLVM::CreateIntrinsic",
         "compile: TVMError: unknown intrinsic Op(tir.atanh) @ tvm::codegen::CodeGenLLVM::CreateIntrinsic")]
apart = [("compile: Check failed: (data) is false: @ tvm::relay::ROIAlignRel",
          "compile: Check failed: (data) is false: @ tvm::relay::SequenceMaskRel"),
         ("compile: signal SIGFPE", "frontend: signal SIGFPE"),
         ("compile: TVMError: cannot make uint from negative value -<n> @ tvm::PrimExpr tvm::tir::MakeConstScalar<int>",
          "compile: TVMError: unknown intrinsic Op(tir.acos) @ tvm::codegen::CodeGenLLVM::CreateIntrinsic")]
for a, b in same:
    assert family(a) == family(b), (a, b, family(a), family(b))
for a, b in apart:
    assert family(a) != family(b), (a, b, family(a))
# a member of another rank and dtype than the file the group's match was made from: the key's pattern
import re
from reduce import key_pattern
p = key_pattern("compile: tensor type `Tensor[<shape>, <dtype>]` has <n> dimensions, while `<dtype>` has <n> dimensions @ tvm::x")
assert re.search(p, "tensor type `Tensor[(2), float32]` has 1 dimensions, while `float32` has 0 dimensions"), p
assert re.search(p, "tensor type `Tensor[(2, 3), float16]` has 2 dimensions, while `float16` has 0 dimensions"), p
assert not re.search(p, "tensor type `Tensor[(2), float32]` has 1 elements"), p
PY
  two_failures shared
  # two groups of one family, as an older triage wrote them (the same check cut at two lengths)
  "$PY" - "$T/out/rfuzz-1" <<'PY'
import json, os, sys
d = sys.argv[1]
sig = "compile: Check failed: undefined.size() == <n> (<n> vs. <n>) : In PrimFunc <fn> variables [i%d] are %s @ tvm::tir::MakePackedAPI"
groups = [{"class": "bug", "signature": sig % (1, "us"), "match": "fake build error shared", "count": 1,
           "smallest": d + "/failures/big.relay", "bytes": os.path.getsize(d + "/failures/big.relay")},
          {"class": "bug", "signature": sig % (3, "used, but are not"), "match": "fake build error shared", "count": 2,
           "smallest": d + "/failures/small.relay", "bytes": os.path.getsize(d + "/failures/small.relay")}]
json.dump(groups, open(d + "/triage.json", "w"))
PY
  RELAYKIT_BIN=$PEERS_BIN run "$PY" "$ROOT/bench/peers/reduce.py" "$T/out" --minutes 2 --cpus 0 --one-per-family
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"2 distinct bug groups over 1 arm trials"* ]]
  [[ "$output" == *"group 002: reduced"* && "$output" != *"group 001: reduced"* ]]
  [ -f "$T/out/groups/002/reduced.relay" ] && [ ! -e "$T/out/groups/001" ]
  grep -qxF '| rfuzz-1 | 2 | 1 |' "$T/out/families.md"
  grep -q '^| F01 | 001 002 | rfuzz-1 | 3 | 002: [0-9]* B[^|]* |' "$T/out/families.md"
  grep -q '^| 001 | F01 | rfuzz-1 | 1 | not reduced: one per family (F01) |' "$T/out/groups.md"
}

@test "reduce.py: a group's smallest member that fails otherwise when run again is passed over for the next" {
  use_fake_tvm
  two_failures other
  "$PY" - "$T/out/rfuzz-1" <<'PY'
import json, os, sys
d = sys.argv[1]
small, big = d + "/failures/small.relay", d + "/failures/big.relay"
json.dump([{"class": "bug", "signature": "compile: Check failed: fake build error shared", "match": "fake build error shared",
            "count": 2, "smallest": small, "bytes": os.path.getsize(small), "files": [small, big]}],
          open(d + "/triage.json", "w"))
PY
  RELAYKIT_BIN=$PEERS_BIN run "$PY" "$ROOT/bench/peers/reduce.py" "$T/out" --minutes 2 --cpus 0
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"group 001: reduced"* ]]
  [ "$(cat "$T/out/groups/001/from")" = "$T/out/rfuzz-1/failures/big.relay" ]
  grep -q FAKE_BUILD_ERROR_shared "$T/out/groups/001/reduced.relay"
  [ ! -e "$T/out/groups/001/probe.relay" ]
  # kept on a second run: the member it was reduced from is still the group's
  RELAYKIT_BIN=$PEERS_BIN run "$PY" "$ROOT/bench/peers/reduce.py" "$T/out" --minutes 2 --cpus 0
  [[ "$output" == *"group 001: kept"* ]]
}

@test "--cpus: as many arms at once as cores, each pinned to its own; TRIALS K-N adds trials to OUTDIR, never over one" {
  use_fake_tvm
  [ "$(nproc)" -ge 2 ] || skip "one core: nothing runs at once"
  mkdir -p "$T/arms"
  stand_in rfuzz 40 0
  stand_in gencog 10 1
  PEERS_DRY=1 PEERS_ARMS_DIR=$T/arms PEERS_SNAPSHOT_SECONDS=1 run "$RUN" --gencog "$T/GenCoG" --arms rfuzz,gencog --cpus 0,1 -o "$T/out" 1 1
  echo "$output"
  [ "$status" -eq 0 ]
  "$PY" - "$T/out" 1 <<'PY'
import json, sys
out, t = sys.argv[1], sys.argv[2]
r = json.load(open("%s/rfuzz-%s/result.json" % (out, t)))
g = json.load(open("%s/gencog-%s/result.json" % (out, t)))
# one arm a core, each where the driver says, and at the same time (each works 1.5 s)
assert (r["peer"]["core"], g["peer"]["core"]) == (0, 1), (r["peer"], g["peer"])
assert r["machine"]["cpu"] == 0 and g["machine"]["cpu"] == 1 and r["machine"]["cpus"] == 2, r["machine"]
assert r["peer"]["cpus"] == 1 and g["peer"]["cpus"] == 1
starts = [int(open("%s/%s-%s/started" % (out, a, t)).read()) for a in ("rfuzz", "gencog")]
assert abs(starts[0] - starts[1]) <= 1, starts
PY
  grep -qF '1 trial of 1 minute per arm, each arm on one core, 2 arms at a time on 2 cores' "$T/out/RESULTS.md"
  # trial 2 in a second sitting, into the same OUTDIR: the table has both
  PEERS_DRY=1 PEERS_ARMS_DIR=$T/arms PEERS_SNAPSHOT_SECONDS=1 run "$RUN" --gencog "$T/GenCoG" --arms rfuzz,gencog --cpus 0,1 -o "$T/out" 1 2-2
  [ "$status" -eq 0 ]
  [ -f "$T/out/rfuzz-1/result.json" ] && [ -f "$T/out/rfuzz-2/result.json" ]
  [ "$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["seed"])' "$T/out/gencog-2/result.json")" = 2 ]
  grep -qF '2 trials of 1 minute per arm' "$T/out/RESULTS.md"
  # a trial already there (TRIALS 2 means trials 1 and 2) is never run over: one error, nothing touched
  sum=$(find "$T/out" -type f -exec md5sum {} + | sort)
  PEERS_DRY=1 PEERS_ARMS_DIR=$T/arms run "$RUN" --gencog "$T/GenCoG" --arms rfuzz,gencog --cpus 0,1 -o "$T/out" 1 2
  echo "$output"
  [ "$status" -eq 2 ]
  [[ "$output" == "run.sh: $T/out/rfuzz-1 exists: trial 1 of rfuzz was run before"* ]]
  [ "$(find "$T/out" -type f -exec md5sum {} + | sort)" = "$sum" ]
  # bad values: said before any arm starts
  for bad in "--cpus 0,0" "--cpus 0,x" "--cpus $(nproc)"; do
    run "$RUN" $bad -o "$T/out2" 1 1
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == "run.sh: --cpus"* ]]
  done
  run "$RUN" -o "$T/out2" 1 3-2
  [ "$status" -eq 2 ]
  [ "$output" = "run.sh: TRIALS 3-2: an empty range" ]
  [ ! -e "$T/out2" ]
}

@test "--kept: trials kept from earlier runs join the table; a run's trials are added, never over another run's" {
  result rfuzz 3 1100 1000 990 10 29 6 5 '[]'
  result gencog 3 900 510 420 90 11 2 1 '[]'
  # kept from earlier machines: trials 1 and 2, one transcribed (no curve, a count of known bugs)
  mkdir -p "$T/kept"
  mv "$T/res/rfuzz-3" "$T/rfuzz-3" && mv "$T/res/gencog-3" "$T/gencog-3"
  result rfuzz 1 1000 900 880 20 30 5 4 '["a"]'
  result gencog 1 800 500 400 100 10 3 2 '[]'
  cp "$T/res/rfuzz-1/result.json" "$T/kept/rfuzz-1.json"
  cp "$T/res/gencog-1/result.json" "$T/kept/gencog-1.json"
  rm -r "$T/res"/*
  echo '{"arm": "rfuzz", "trial": 2, "minutes": 30, "programs": 950, "valid": 930, "invalid": 20, "failures": 31, "groups": 7, "bug_groups": 6, "known": 2, "branches": 1200, "coverage": {"relay": [1200, 50000]}, "over_time": [], "transcribed": "from bench/RESULTS.md (its files were lost)"}' > "$T/kept/rfuzz-2.json"
  echo '{"arm": "gencog", "trial": 2, "minutes": 30, "programs": 520, "valid": 410, "invalid": 110, "failures": 12, "groups": 4, "bug_groups": 6, "known": 1, "branches": 1150, "coverage": {"relay": [1150, 50000]}, "over_time": [], "transcribed": "from bench/RESULTS.md"}' > "$T/kept/gencog-2.json"
  mv "$T/rfuzz-3" "$T/gencog-3" "$T/res/"
  run "$PY" "$ROOT/bench/peers/report.py" "$T/res" --table-only --kept "$T/kept"
  echo "$output"
  [ "$status" -eq 0 ]
  cat "$T/res/RESULTS.md"
  # the same table as three trials in one OUTDIR (the report.py test above)
  grep -qF "3 trials of 30 minutes per arm" "$T/res/RESULTS.md"
  grep -qxF '| rfuzz | 1100 (1000-1200) | 950 (900-1000) | 930 (880-990) | 20 (10-20) | 30 (29-31) | 6 (5-7) | 5 (4-6) | 1 (0-2) |' "$T/res/RESULTS.md"
  grep -qxF '| gencog | 900 (800-1150) | 510 (500-520) | 410 (400-420) | 100 (90-110) | 11 (10-12) | 3 (2-4) | 2 (1-6) | 0 (0-1) |' "$T/res/RESULTS.md"
  grep -qxF -- '- rfuzz-2: from bench/RESULTS.md (its files were lost)' "$T/res/RESULTS.md"
  # this run's trials are kept now, as they were; running the report again changes nothing
  "$PY" -c 'import json, sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))' "$T/res/rfuzz-3/result.json" "$T/kept/rfuzz-3.json"
  [ -f "$T/kept/gencog-3.json" ]
  sum=$(md5sum "$T"/kept/* | sort)
  "$PY" "$ROOT/bench/peers/report.py" "$T/res" --table-only --kept "$T/kept"
  [ "$(md5sum "$T"/kept/* | sort)" = "$sum" ]
  # another run under a kept trial's number: an error, the kept one untouched
  result gencog 1 700 500 400 100 10 3 2 '[]'
  run "$PY" "$ROOT/bench/peers/report.py" "$T/res" --table-only --kept "$T/kept"
  [ "$status" -eq 2 ]
  [[ "$output" == "report.py: $T/kept/gencog-1.json holds another run of gencog's trial 1 than $T/res/gencog-1/result.json"* ]]
  [ "$(md5sum "$T"/kept/* | sort)" = "$sum" ]
  # the driver refuses, before any arm, to run a trial that is kept
  run "$RUN" --gencog "$T/GenCoG" --arms gencog --kept "$T/kept" -o "$T/out3" 1 2-2
  echo "$output"
  [ "$status" -eq 2 ]
  [ "$output" = "run.sh: $T/kept/gencog-2.json exists: trial 2 of gencog was kept from an earlier run (TRIALS K-N: run the trials after it)" ]
  [ ! -e "$T/out3" ]
}

@test "result.py: a known bug is met whatever numbers its error holds (the same check on another program), nothing else" {
  "$PY" - "$ROOT/bench/peers" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from result import words_found
w = "the function is provided too many arguments expected 1, found 7"
assert words_found("error: the function is provided too many arguments expected 1, found 3\n", w)
assert words_found(w, w)
assert not words_found("the function is provided too many arguments expected 1, found", w)
assert not words_found("the function is provided too few arguments expected 1, found 3", w)
assert words_found("x (3 vs. 0) y", "(0 vs. 0)") and not words_found("(a vs. 0)", "(0 vs. 0)")
assert words_found("a.b*c", "a.b*c") and not words_found("aXb*c", "a.b*c")  # the words are words, not a pattern
assert not words_found("anything", "")
PY
}

@test "a peer's missing Python module is an error naming it, before any arm starts" {
  use_fake_tvm
  # a Python that has everything but torch (NNSmith makes its models with it)
  printf '#!/bin/sh\n[ "$2" = "import %s" ] && exit 1\nexec "%s" "$@"\n' torch "$RELAYKIT_PYTHON" > "$T/python"
  chmod +x "$T/python"
  PEERS_DRY=1 RELAYKIT_PYTHON=$T/python run "$RUN" --gencog "$T/GenCoG" --arms nnsmith -o "$T/out" 1 1
  echo "$output"
  [ "$status" -eq 2 ]
  [[ "$output" == "run.sh: the nnsmith arm needs the Python modules "*"torch ($T/python cannot import them): bash scripts/deps.sh --peers" ]]
  [ ! -e "$T/out" ]
}

@test "the driver edited while it runs (a git pull during a long run) finishes as it started: no trial run again, none removed" {
  use_fake_tvm
  # a copy of the repository's tree whose run.sh can be rewritten in place, as an editor or git does
  mkdir -p "$T/root/bench/peers"
  for f in "$ROOT"/*; do [ "$(basename "$f")" = bench ] || ln -s "$f" "$T/root/"; done
  for f in "$ROOT"/bench/peers/*; do ln -s "$f" "$T/root/bench/peers/"; done
  rm "$T/root/bench/peers/run.sh"
  cp "$RUN" "$T/root/bench/peers/run.sh"
  mkdir -p "$T/arms"
  # the stand-in arm counts its starts
  printf '#!/usr/bin/env bash\necho start >> "%s/starts"\ndate +%%s > "$1/started"\nsleep 3\necho %s > "$1/arm.json"\n' \
    "$T" "'{\"programs\": 1, \"valid\": 1, \"invalid\": 0, \"timeouts\": 0, \"failures\": 0}'" > "$T/arms/rfuzz.sh"
  PEERS_DRY=1 PEERS_ARMS_DIR=$T/arms PEERS_SNAPSHOT_SECONDS=1 PEERS_KNOWN=/dev/null \
    "$T/root/bench/peers/run.sh" --arms rfuzz --cpus 0 -o "$T/out" 1 1 > "$T/log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do [ -e "$T/starts" ] && break; sleep 0.1; done
  # a comment more at its top, as long as the text from its job list to its wait for the arms:
  # bash, back from that wait, reads on at its old offset, which is now the job list again. The
  # new text goes into the same file (the same inode: what bash reads on from), as git writes it.
  a=$(grep -b -m1 '^failed=0' "$RUN" | cut -d: -f1)
  b=$(grep -b -m1 '^jobs=()' "$RUN" | cut -d: -f1)
  { printf '#%*s\n' $((a - b - 2)) ''; cat "$RUN"; } > "$T/new"
  cat "$T/new" > "$T/root/bench/peers/run.sh"
  status=0
  wait "$pid" || status=$?
  cat "$T/log"
  [ "$status" -eq 0 ]
  [ "$(wc -l < "$T/starts")" -eq 1 ]
  [ -f "$T/out/rfuzz-1/result.json" ] && [ -f "$T/out/RESULTS.md" ]
}
