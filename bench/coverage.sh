#!/usr/bin/env bash
# Issue 32's measurement: TVM's branch coverage reached in the same wall time by
#   (a) rfuzz with coverage feedback beside its features (--feedback both: Tzer's loop, --nmax
#       $COVERAGE_NMAX, default 1: a program's passes are mutated alone while that reaches new edges,
#       then with its program; measured, a pass-only round earned an entry half as often as a
#       program's mutation did (11% against 21%), so Tzer's 5 (a 4-hour campaign) starve a half-hour one),
#   (b) rfuzz with feature feedback only (the ablation: what coverage adds),
#   (c) the open loop: rgen with the GenCoG policy, every program given to relay.build at opt
#       level 3 through roracle and the same server,
# TRIALS times each, one arm after another (each on one core: one oracle server, one job), on a
# TVM built by scripts/tvm-instrumented.sh. Every server child writes its source-based counts
# (LLVM_PROFILE_FILE, merged online); llvm-cov then counts the branches of src/relay/** and of
# all of src/ that each arm's programs took. Run it outside CI:
#
#   TVM_HOME=SRC TVM_LIBRARY_PATH=BUILD RELAYKIT_PYTHON=python3 bench/coverage.sh [MINUTES] [TRIALS] [OUTDIR]
#
# (COVERAGE_AT_ONCE=3: a trial's three arms run at the same time instead, sharing the machine and
# its load alike.)
# (defaults 30, 3, build/coverage-bench). OUTDIR/ARM-TRIAL/ holds each run (a campaign for a and
# b, programs and roracle's log for c, coverage.json); OUTDIR/RESULTS.md the table (median and
# range per arm, and whether (a) beat (b) in every trial), OUTDIR/plot.png|svg rfuzz's edges and
# bug groups over time of (a) and (b). Branches of a crashed or timed-out program are not counted
# (its child dies before it writes them), in every arm alike. COVERAGE_DRY=1 runs the arms with
# no measurement, to try the script on any TVM (the tests' fake one).
set -u
cd "$(dirname "$0")/.." || exit 2
minutes=${1:-30}
trials=${2:-3}
out=${3:-build/coverage-bench}
dry=${COVERAGE_DRY:-0}
at_once=${COVERAGE_AT_ONCE:-1}
case $at_once in 1 | 3) ;; *) echo "coverage.sh: COVERAGE_AT_ONCE is 1 (one arm after another) or 3 (a trial's arms at once)" >&2; exit 2 ;; esac
I=$PWD/interestingness
python=${RELAYKIT_PYTHON:-python3}
profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata || true)
llvmcov=$(command -v llvm-cov-14 || command -v llvm-cov || true)
lib=${TVM_LIBRARY_PATH:-}/libtvm.so
if ! "$python" -c 'import tvm' 2> /dev/null; then
  echo "skipped: no TVM importable (set TVM_HOME / PYTHONPATH / RELAYKIT_PYTHON)"
  exit 0
fi
if [ "$dry" != 1 ]; then
  [ -n "$profdata" ] && [ -n "$llvmcov" ] || { echo "coverage.sh: llvm-profdata-14 and llvm-cov-14 are needed (apt-get install llvm-14)" >&2; exit 2; }
  [ -f "$lib" ] && [ -f "${TVM_LIBRARY_PATH}/librelaykit_cov.so" ] || {
    echo "coverage.sh: TVM_LIBRARY_PATH must be a build of scripts/tvm-instrumented.sh (no $lib with librelaykit_cov.so beside it)" >&2
    exit 2
  }
  src=${TVM_HOME:?coverage.sh: TVM_HOME must be the TVM source tree the build was made from}
fi
make -s all || exit 1
mkdir -p "$out"
oracle="$I/tvm-server --args-beside --timeout 60"

# ARM-TRIAL's branches, from its profile: {"relay": [covered, count], "src": [covered, count]}
measure() {
  local dir=$1
  if [ "$dry" = 1 ]; then echo '{"relay": [0, 0], "src": [0, 0]}' > "$dir/coverage.json"; return; fi
  "$profdata" merge -sparse "$dir"/prof/*.profraw -o "$dir/all.profdata" || return 1
  local part
  for part in relay src; do
    local filter=$src/src
    [ $part = relay ] && filter=$src/src/relay
    "$llvmcov" export -summary-only "$lib" -instr-profile "$dir/all.profdata" "$filter" 2> /dev/null |
      python3 -c 'import json, sys; b = json.load(sys.stdin)["data"][0]["totals"]["branches"]; print(b["covered"], b["count"])' \
        > "$dir/$part.branches" || return 1
  done
  python3 -c '
import json, sys
d = sys.argv[1]
json.dump({p: [int(x) for x in open("%s/%s.branches" % (d, p)).read().split()] for p in ("relay", "src")},
          open(d + "/coverage.json", "w"))' "$dir"
  rm -f "$dir/all.profdata" "$dir"/prof/*.profraw
}

run_arm() { # ARM TRIAL
  local arm=$1 t=$2 dir=$out/$1-$2
  rm -rf "$dir"
  mkdir -p "$dir/prof"
  local profile=/dev/null
  [ "$dry" = 1 ] || profile=$dir/prof/%m.profraw
  # the open loop's programs are made before its clock starts (20,000 take minutes to generate)
  [ "$arm" = c ] && bin/rgen -n 20000 --seed "$t" --policy examples/policy-gencog.json -o "$dir/programs" 2> "$dir/rgen.log"
  local start
  start=$(date +%s)
  case $arm in
  a | b)
    local feedback=(--feedback both --nmax "${COVERAGE_NMAX:-1}")
    [ "$arm" = b ] && feedback=(--feedback features)
    LLVM_PROFILE_FILE=$profile bin/rfuzz --oracle "$oracle" "${feedback[@]}" --seed "$t" --minutes "$minutes" \
      --no-reduce -q --json -o "$dir/campaign" > "$dir/summary.json" 2> "$dir/rfuzz.log"
    ;;
  c)
    LLVM_PROFILE_FILE=$profile timeout -s INT "$((minutes * 60))" bin/roracle -j 1 --timeout 90 --json \
      --server "$I/tvm-server build --opt-level 3 --timeout 60" "$dir/programs" > "$dir/roracle.json" 2> "$dir/roracle.log"
    ;;
  esac
  echo "$(($(date +%s) - start))" > "$dir/seconds"
  measure "$dir" || { echo "coverage.sh: $dir: no coverage measured (is $lib instrumented?)" >&2; return 1; }
  echo "$arm-$t: $(cat "$dir/seconds") s, branches $(cat "$dir/coverage.json"), load $(cut -d' ' -f1-3 /proc/loadavg)"
  cut -d' ' -f1-3 /proc/loadavg > "$dir/load"
}

# COVERAGE_AT_ONCE=3 runs a trial's three arms at the same time, under the same load (on a
# machine of fewer than three cores they share them: say so beside the numbers)
for t in $(seq 1 "$trials"); do
  if [ "$at_once" = 3 ]; then
    pids=()
    for arm in a b c; do
      run_arm "$arm" "$t" &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || exit 1; done
  else
    for arm in a b c; do run_arm "$arm" "$t" || exit 1; done
  fi
done

python3 - "$out" "$trials" "$minutes" "$at_once" "$(nproc)" > "$out/RESULTS.md" << 'EOF'
import json, statistics, sys
out, trials, minutes, at_once, cores = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
names = {"a": "rfuzz, coverage feedback (with features)", "b": "rfuzz, feature feedback", "c": "open loop (rgen GenCoG -> roracle)"}
cov = {a: [json.load(open("%s/%s-%d/coverage.json" % (out, a, t))) for t in range(1, trials + 1)] for a in "abc"}
load = {a: [open("%s/%s-%d/load" % (out, a, t)).read().strip() for t in range(1, trials + 1)] for a in "abc"}
def pct(x):
    return 100.0 * x[0] / x[1] if x[1] else 0.0
if at_once == "3":
    print("%d trials of %s minutes per arm, a trial's three arms at once on %d cores\n" % (trials, minutes, cores))
else:
    print("%d trials of %s minutes per arm, one after another, one core each\n" % (trials, minutes))
print("| arm | src/relay branches (median, range) | src/ branches (median, range) | load (1/5/15 min) per trial |")
print("|---|---|---|---|")
for a in "abc":
    rel = [c["relay"][0] for c in cov[a]]
    alls = [c["src"][0] for c in cov[a]]
    total = cov[a][0]["relay"][1]
    print("| (%s) %s | %d (%.2f%%), %d-%d | %d, %d-%d | %s |" % (
        a, names[a], statistics.median(rel), pct([statistics.median(rel), total]), min(rel), max(rel),
        statistics.median(alls), min(alls), max(alls), "; ".join(load[a])))
ma = statistics.median(c["relay"][0] for c in cov["a"])
mc = statistics.median(c["relay"][0] for c in cov["c"])
print("\n(a) / (c), src/relay, medians: %.2fx (the issue asks >= 1.3x)" % (ma / mc if mc else float("inf")))
wins = sum(cov["a"][i]["relay"][0] > cov["b"][i]["relay"][0] for i in range(trials))
print("(a) beat (b) in %d of %d trials (src/relay branches, trial by trial)" % (wins, trials))
EOF
campaigns=()
for t in $(seq 1 "$trials"); do campaigns+=("$out/a-$t/campaign" "$out/b-$t/campaign"); done
bin/rfuzz plot -o "$out/plot" --title "rfuzz: coverage (a) and features (b) feedback" "${campaigns[@]}" || true
cat "$out/RESULTS.md"
