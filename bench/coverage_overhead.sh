#!/usr/bin/env bash
# Issue 32's overhead: what the coverage feedback costs a program. The same N programs (rgen,
# GenCoG policy, seed 1) go through roracle -j 1 and one tvm-server (relay.build at opt level 3)
# of a TVM built by scripts/tvm-instrumented.sh, with the feedback (RELAYKIT_COVERAGE=1: the
# counters cleared before each candidate's child, read and encoded into its outcome after it, as
# rfuzz --feedback coverage asks) and without it, alternately ROUNDS times, so that a change of
# load falls on both sides alike. Prints each round's seconds per program both ways and the
# ratio, then the median ratio (the issue asks at most 1.10). With PLAIN=BUILD (an uninstrumented
# build of the same TVM) it also prints the instrumented build's own cost against it, which the
# feedback does not add (the counters are compiled in either way), for information.
#
#   TVM_HOME=SRC TVM_LIBRARY_PATH=BUILD RELAYKIT_PYTHON=python3 bench/coverage_overhead.sh [N] [ROUNDS]
set -u
cd "$(dirname "$0")/.." || exit 2
n=${1:-100}
rounds=${2:-3}
python=${RELAYKIT_PYTHON:-python3}
if ! "$python" -c 'import tvm' 2> /dev/null; then
  echo "skipped: no TVM importable (set TVM_HOME / PYTHONPATH / RELAYKIT_PYTHON)"
  exit 0
fi
[ -f "${TVM_LIBRARY_PATH:-}/librelaykit_cov.so" ] || {
  echo "coverage_overhead.sh: TVM_LIBRARY_PATH must be a build of scripts/tvm-instrumented.sh" >&2
  exit 2
}
make -s bin/rgen bin/roracle || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rcovover.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bin/rgen -n "$n" --seed 1 --policy examples/policy-gencog.json -o "$tmp/programs" 2> /dev/null || exit 1
server="$PWD/interestingness/tvm-server build --opt-level 3 --timeout 60"

# seconds per program of one pass over the programs; $1: RELAYKIT_COVERAGE's value, $2: the build
per_program() {
  local s e
  s=$(date +%s.%N)
  RELAYKIT_COVERAGE=$1 TVM_LIBRARY_PATH=$2 LLVM_PROFILE_FILE=/dev/null \
    bin/roracle -j 1 --timeout 90 --server "$server" "$tmp/programs" > /dev/null 2>&1
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" -v n="$n" 'BEGIN {printf "%.4f", (e - s) / n}'
}

ratios=()
plain_ratios=()
for r in $(seq 1 "$rounds"); do
  with=$(per_program 1 "$TVM_LIBRARY_PATH")
  without=$(per_program 0 "$TVM_LIBRARY_PATH")
  ratio=$(awk -v a="$with" -v b="$without" 'BEGIN {printf "%.3f", a / b}')
  ratios+=("$ratio")
  line="round $r: $n programs, with the feedback $with s/program, without $without s/program: x$ratio"
  if [ -n "${PLAIN:-}" ]; then
    plain=$(per_program 0 "$PLAIN")
    pr=$(awk -v a="$without" -v b="$plain" 'BEGIN {printf "%.3f", a / b}')
    plain_ratios+=("$pr")
    line="$line; the uninstrumented build $plain s/program (the instrumented build's own cost x$pr)"
  fi
  echo "$line, load $(cut -d' ' -f1-3 /proc/loadavg)"
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "the feedback's overhead per program, median of $rounds rounds: x$(median "${ratios[@]}") (the issue asks at most x1.10)"
[ -z "${PLAIN:-}" ] || echo "the instrumented build against the uninstrumented one, median: x$(median "${plain_ratios[@]}")"
