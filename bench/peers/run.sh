#!/usr/bin/env bash
# Issue 43: rfuzz side by side with its peers, on the same TVM build, for the same minutes, one
# core each. The arms (one script each, beside this one; lib.sh says what an arm leaves):
#   rfuzz       rfuzz as shipped (default feedback)            rfuzz.sh
#   rfuzz-open  rfuzz's open loop: rgen -> roracle (relay.build) rfuzz-open.sh
#   gencog      GenCoG's run_test.py loop, then dedup_case.py  gencog.sh   (--gencog PATH)
#   nnsmith     NNSmith's Relay generator in GenCoG's loop     nnsmith.sh  (--gencog PATH)
#   hirgen      HirGen's loop, its tests kept as Relay text    hirgen.sh   (--hirgen PATH)
#
#   bench/peers/run.sh [--gencog PATH] [--hirgen PATH] [--arms ARM,...] [--cpus LIST] [-o OUTDIR]
#                      [--kept DIR] MINUTES TRIALS
#
# TRIALS times each (N: trials 1 to N; K-N: trials K to N, so that a long run can be made in
# sittings into one OUTDIR; a trial already there is an error, never run over), trial t with
# seed t, each arm pinned (taskset) to one core of --cpus (default the last core; with several,
# as many arms run at once, one per core), on a TVM built by scripts/tvm-instrumented.sh
# (TVM_HOME, TVM_LIBRARY_PATH, RELAYKIT_PYTHON as for bench/coverage.sh). Every TVM process of an arm writes
# its counts to OUTDIR/ARM-TRIAL/prof/ (LLVM_PROFILE_FILE), copied every PEERS_SNAPSHOT_SECONDS
# (default 180) of the arm's clock into snap/SECONDS/; after the arm, llvm-cov counts the src/relay
# branches of each copy and of the end (coverage-over-time.tsv, coverage.json). Then the arm's
# failing programs (failures/*.relay) go through relaykit's own triage (roracle, each program under
# the check it failed: failures/NAME.relay.args) and the known bugs of ../shared/realbugs/bugs.json
# (PEERS_KNOWN) met are counted: ARM-TRIAL/result.json. OUTDIR (default build/peers-bench) gets
# RESULTS.md (the table) and coverage.png|svg (report.py). An arm whose peer is not given is skipped. PEERS_DRY=1 runs
# the arms without measuring coverage, on any TVM (a plain build, the tests' fake one);
# PEERS_ARMS_DIR takes the arm scripts from another folder (the tests' stand-ins). --kept DIR
# (e.g. bench/peers/results/v0.13.0-instrumented): the trials kept from earlier runs, on other
# machines; this run's finished trials are added to it and the table and plot cover both
# (report.py --kept).
set -u
# The whole script is one block, read before any of it runs: bash reads a script as it goes, and a
# run lasts hours, so a `git pull` or an edit of this file in the meantime made a running driver
# read the rest at a shifted place: it started its arms again, removing a finished trial first.
{
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.." || exit 2
usage() { echo "usage: bench/peers/run.sh [--gencog PATH] [--hirgen PATH] [--arms ARM,...] [--cpus LIST] [-o OUTDIR] [--kept DIR] MINUTES TRIALS"; }
die() { # STATUS MESSAGE: before any arm starts, so OUTDIR is left as it was
  echo "run.sh: $2" >&2
  exit "$1"
}
all_arms=" rfuzz rfuzz-open gencog nnsmith hirgen "
gencog='' hirgen='' arm_list=rfuzz,rfuzz-open,gencog,nnsmith,hirgen out=build/peers-bench cpu_list=${PEERS_CPU:-} kept=
while [ $# -gt 0 ]; do
  case $1 in
  --gencog | --hirgen | --arms | --cpus | -o | --kept)
    [ $# -ge 2 ] || die 2 "$1 needs a value"
    case $1 in --gencog) gencog=$2 ;; --hirgen) hirgen=$2 ;; --arms) arm_list=$2 ;; --cpus) cpu_list=$2 ;; -o) out=$2 ;; --kept) kept=$2 ;; esac
    shift 2
    ;;
  -h | --help) usage && exit 0 ;;
  -*) usage >&2 && die 2 "unknown option $1" ;;
  *) break ;;
  esac
done
[ $# -eq 2 ] || { usage >&2 && exit 2; }
minutes=$1 trials=$2 first=1
[[ $trials =~ ^([1-9][0-9]*)-([1-9][0-9]*)$ ]] && first=${BASH_REMATCH[1]} trials=${BASH_REMATCH[2]}
[[ $minutes =~ ^[1-9][0-9]*$ && $trials =~ ^[1-9][0-9]*$ ]] || die 2 "MINUTES and TRIALS are whole numbers above 0 (TRIALS may be a range K-N)"
[ "$first" -le "$trials" ] || die 2 "TRIALS $first-$trials: an empty range"
cpus=()
if [ -n "$cpu_list" ]; then
  IFS=, read -ra cpus <<< "$cpu_list"
  for c in "${cpus[@]}"; do
    [[ $c =~ ^[0-9]+$ ]] && [ "$c" -lt "$(nproc)" ] || die 2 "--cpus $cpu_list: each a core of this machine, 0 to $(($(nproc) - 1))"
  done
  [ "$(printf '%s\n' "${cpus[@]}" | sort -u | wc -l)" -eq ${#cpus[@]} ] || die 2 "--cpus $cpu_list: a core named twice (one arm a core)"
fi
dry=${PEERS_DRY:-0}
every=${PEERS_SNAPSHOT_SECONDS:-180}
[[ $every =~ ^[1-9][0-9]*$ ]] || die 2 "PEERS_SNAPSHOT_SECONDS is a whole number of seconds above 0"
arms_dir=${PEERS_ARMS_DIR:-$here}
IFS=, read -ra asked <<< "$arm_list"
# The peers' checkouts: a path given must be the peer's, whether or not its arm runs
if [ -n "$gencog" ]; then
  [ -d "$gencog" ] || die 2 "--gencog $gencog: no such directory (expected a GenCoG checkout, github wzh99/GenCoG)"
  for f in run_test.py _run_ps.py dedup_case.py nnsmith/relay_gen.py; do
    [ -f "$gencog/$f" ] || die 2 "--gencog $gencog is not a GenCoG checkout (github wzh99/GenCoG): no $f in it"
  done
  gencog=$(cd "$gencog" && pwd)
fi
if [ -n "$hirgen" ]; then
  [ -d "$hirgen" ] || die 2 "--hirgen $hirgen: no such directory (expected a HirGen checkout, github haoyang9804/HirGen)"
  for f in CMakeLists.txt src/generate.cpp src/stringUtils.cpp include/generator.hpp; do
    [ -f "$hirgen/$f" ] || die 2 "--hirgen $hirgen is not a HirGen checkout (github haoyang9804/HirGen): no $f in it"
  done
  hirgen=$(cd "$hirgen" && pwd)
fi
arms=() skipped=()
for arm in "${asked[@]}"; do
  [[ $all_arms == *" $arm "* ]] || die 2 "--arms: no arm '$arm' (the arms:$all_arms)"
  [ -f "$arms_dir/$arm.sh" ] || die 2 "no arm script $arms_dir/$arm.sh"
  case $arm in
  gencog | nnsmith) [ -n "$gencog" ] || { skipped+=("$arm skipped: no --gencog PATH (a GenCoG checkout)") && continue; } ;;
  hirgen) [ -n "$hirgen" ] || { skipped+=("$arm skipped: no --hirgen PATH (a HirGen checkout)") && continue; } ;;
  esac
  arms+=("$arm")
done
[ ${#arms[@]} -gt 0 ] || die 2 "no arm to run"
# A trial already in OUTDIR is measured data (hours of it): never made again over itself
for t in $(seq "$first" "$trials"); do
  for arm in "${arms[@]}"; do
    [ ! -e "$out/$arm-$t" ] || die 2 "$out/$arm-$t exists: trial $t of $arm was run before (TRIALS K-N runs trials K to N only; remove $arm-$t to run it again)"
    [ -z "$kept" ] || [ ! -e "$kept/$arm-$t.json" ] || die 2 "$kept/$arm-$t.json exists: trial $t of $arm was kept from an earlier run (TRIALS K-N: run the trials after it)"
  done
done
python=${RELAYKIT_PYTHON:-python3}
if ! "$python" -c 'import tvm' 2> /dev/null; then
  echo "skipped: no TVM importable (set TVM_HOME / PYTHONPATH / RELAYKIT_PYTHON)"
  exit 0
fi
if [ "$dry" != 1 ]; then
  lib=${TVM_LIBRARY_PATH:-}/libtvm.so
  if [ ! -f "$lib" ] || [ ! -f "${TVM_LIBRARY_PATH}/librelaykit_cov.so" ]; then
    die 2 "TVM_LIBRARY_PATH must be a build of scripts/tvm-instrumented.sh (no $lib with librelaykit_cov.so beside it); PEERS_DRY=1 runs the arms without coverage"
  fi
  if ! command -v llvm-profdata-14 > /dev/null || ! command -v llvm-cov-14 > /dev/null; then
    die 2 "llvm-profdata-14 and llvm-cov-14 are needed (apt-get install llvm-14)"
  fi
  [ -n "${TVM_HOME:-}" ] || die 2 "TVM_HOME must be the TVM source tree the build was made from"
  command -v flock > /dev/null || die 2 "flock is needed (util-linux)"
fi
command -v taskset > /dev/null || die 2 "taskset is needed (util-linux)"
# The peers' own Python imports (a missing one stopped NNSmith's arm at its start, after an hour of
# the arms before it); the tests' stand-in arms import nothing
if [ "$arms_dir" = "$here" ]; then
  for arm in "${arms[@]}"; do
    mods="z3 bitarray tqdm colorama graphviz Levenshtein numpy" # GenCoG's loop, NNSmith's too
    case $arm in
    gencog) ;;
    nnsmith) mods="$mods onnx torch multipledispatch omegaconf" ;;
    *) continue ;;
    esac
    missing=$(for m in $mods; do "$python" -c "import $m" 2> /dev/null || printf '%s ' "$m"; done)
    [ -z "$missing" ] || die 2 "the $arm arm needs the Python modules ${missing% } ($python cannot import them): bash scripts/deps.sh --peers"
  done
fi
[ ${#cpus[@]} -gt 0 ] || cpus=($(($(nproc) - 1)))
bin=${PEERS_BIN:-$PWD/bin}
if [ -z "${PEERS_BIN:-}" ]; then make -s all || exit 1; fi
bugs=${PEERS_KNOWN:-$PWD/../shared/realbugs/bugs.json}
[ -f "$bugs" ] || echo "run.sh: no $bugs: no known bug is counted"
mkdir -p "$out" || exit 2
for s in "${skipped[@]}"; do echo "run.sh: $s"; done
out=$(cd "$out" && pwd)
export RELAYKIT_ROOT=$PWD RELAYKIT_BIN=$bin PEERS_DRY=$dry PEERS_CACHE=$out/cache
I=$PWD/interestingness

# Copies of ARMDIR's profile every $every s of the arm's clock (from ARMDIR/started) until ARMDIR/ended.
snapshots() {
  local dir=$1 k=1 f snap
  while [ ! -e "$dir/ended" ] && [ ! -s "$dir/started" ]; do sleep 1; done
  [ -s "$dir/started" ] || return 0
  local started
  started=$(cat "$dir/started")
  while [ ! -e "$dir/ended" ]; do
    if [ "$(date +%s)" -ge $((started + k * every)) ]; then
      snap=$dir/snap/$((k * every))
      mkdir -p "$snap"
      # LLVM's runtime holds an exclusive flock while it merges a process's counts into a file
      for f in "$dir"/prof/*.profraw; do [ ! -e "$f" ] || flock -s "$f" cp "$f" "$snap/"; done
      k=$((k + 1))
    fi
    sleep 0.5
  done
}

# ARMDIR's branches at the end (coverage.json) and over time (coverage-over-time.tsv): each
# snapshot, then the end; the profiles go once counted, as bench/coverage.sh's do.
measure_all() { # ARMDIR CPU (llvm-cov runs on the arm's core: an arm may be running on the other)
  local dir=$1 cpu=$2 s b=0 last=0 tsv=$1/coverage-over-time.tsv snaps
  printf 'seconds\tbranches\n' > "$tsv"
  if [ "$dry" = 1 ]; then
    echo '{"relay": [0, 0], "src": [0, 0]}' > "$dir/coverage.json"
  elif ! taskset -c "$cpu" bash "$here/measure.sh" "$dir/prof" "$dir/coverage.json" relay src; then
    echo "run.sh: $dir: no coverage measured (is $lib instrumented?)" >&2
  fi
  snaps=$(find "$dir/snap" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -n)
  for s in $snaps; do
    b=0
    if [ "$dry" != 1 ] && taskset -c "$cpu" bash "$here/measure.sh" "$dir/snap/$s" "$dir/snap/$s/coverage.json" relay; then
      b=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["relay"][0])' "$dir/snap/$s/coverage.json")
    fi
    printf '%s\t%s\n' "$s" "$b" >> "$tsv"
    rm -f "$dir/snap/$s"/*.profraw
    last=$s
  done
  b=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1])).get("relay", [0])[0])' "$dir/coverage.json" 2> /dev/null || echo 0)
  [ "$(cat "$dir/seconds")" -le "$last" ] || printf '%s\t%s\n' "$(cat "$dir/seconds")" "$b" >> "$tsv"
  rm -f "$dir"/prof/*.profraw
}

# relaykit's triage of ARMDIR/failures: each program asked again, fresh, under the check it failed
# (NAME.relay.args: rfuzz's pass sequence, GenCoG's opt level and comparison, HirGen's step), so
# that what did not reproduce counts for no arm; --log-dir keeps each failure's output for the
# known bugs.
triage() { # ARMDIR CPU
  local dir=$1 cpu=$2
  rm -rf "$dir/triage"
  mkdir -p "$dir/triage"
  if ! compgen -G "$dir/failures/*.relay" > /dev/null; then
    echo '[]' > "$dir/triage.json"
    return
  fi
  LLVM_PROFILE_FILE=/dev/null TVM_NUM_THREADS=1 taskset -c "$cpu" "$bin/roracle" -j 1 --timeout 90 --json \
    --args-beside --log-dir "$dir/triage" --server "$I/tvm-server --args-beside --timeout 60" "$dir/failures" > "$dir/triage.json" 2> "$dir/triage.log"
  case $? in 0 | 1) ;; *)
    echo "run.sh: $dir: roracle failed: $(tail -n 1 "$dir/triage.log")" >&2
    echo '[]' > "$dir/triage.json"
    ;;
  esac
}

run_arm() { # ARM TRIAL CPU
  local arm=$1 t=$2 cpu=$3 dir=$out/$1-$2 home='' profile=/dev/null
  rm -rf "$dir"
  mkdir -p "$dir/prof" "$dir/failures" "$dir/snap"
  case $arm in gencog | nnsmith) home=$gencog ;; hirgen) home=$hirgen ;; esac
  [ "$dry" = 1 ] || profile=$dir/prof/%m.profraw
  snapshots "$dir" &
  local snapper=$! start rc
  start=$(date +%s)
  # the machine's load over the arm's minutes, for RESULTS (the arms beside it count in it)
  local load_start
  load_start=$(cut -d' ' -f1 /proc/loadavg)
  # one core, one TVM thread; setup (programs made, HirGen built) may take PEERS_SETUP_MINUTES more
  LLVM_PROFILE_FILE=$profile PEER_HOME=$home TVM_NUM_THREADS=1 OMP_NUM_THREADS=1 \
    timeout -k 60 "$(((minutes + ${PEERS_SETUP_MINUTES:-30}) * 60))" \
    taskset -c "$cpu" bash "$arms_dir/$arm.sh" "$dir" "$minutes" "$t" > "$dir/arm.log" 2>&1
  rc=$?
  local end started
  end=$(date +%s)
  touch "$dir/ended"
  printf '{"cpu": %s, "cpus": %s, "load_start": %s, "load_end": %s}\n' "$cpu" "${#cpus[@]}" "$load_start" \
    "$(cut -d' ' -f1 /proc/loadavg)" > "$dir/machine.json"
  wait "$snapper"
  started=$(cat "$dir/started" 2> /dev/null || echo "$start")
  echo "$((end - started))" > "$dir/seconds"
  [ "$rc" -eq 0 ] || echo "run.sh: $arm-$t: the arm exited $rc: $(tail -n 1 "$dir/arm.log")" >&2
  measure_all "$dir" "$cpu"
  triage "$dir" "$cpu"
  "$python" "$here/result.py" "$dir" "$arm" "$t" "$minutes" "$bugs" || return 1
  "$python" -c '
import json, sys
r = json.load(open(sys.argv[1]))
if "error" in r:
    print("%s-%d: %s" % (r["arm"], r["trial"], r["error"]))
else:
    print("%s-%d: %s s, programs %d (valid %d, invalid %d), failures %d, groups %d (bugs %d), known bugs %d, src/relay branches %d"
          % (r["arm"], r["trial"], r["seconds"], r["programs"], r["valid"], r["invalid"], r["failures"],
             r["groups"], r["bug_groups"], len(r["known_bugs"]), r["branches"]))' "$dir/result.json"
  return "$rc"
}

# Every (trial, arm) in order, dealt round-robin to the cores: each core runs its share one after
# another, so that at most one arm runs on a core at any time.
jobs=()
for t in $(seq "$first" "$trials"); do
  for arm in "${arms[@]}"; do jobs+=("$arm $t"); done
done
workers=()
for i in "${!cpus[@]}"; do
  (
    bad=0
    for ((j = i; j < ${#jobs[@]}; j += ${#cpus[@]})); do
      # shellcheck disable=SC2086  # "ARM TRIAL"
      run_arm ${jobs[j]} "${cpus[i]}" || bad=1
    done
    exit "$bad"
  ) &
  workers+=($!)
done
failed=0
for w in "${workers[@]}"; do wait "$w" || failed=1; done
kept_args=()
[ -n "$kept" ] && kept_args=(--kept "$kept")
"$python" "$here/report.py" "$out" "${kept_args[@]}" || failed=1
cat "$out/RESULTS.md"
exit "$failed"
}
