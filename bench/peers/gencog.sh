#!/usr/bin/env bash
# Arm "gencog": GenCoG's own test loop (run_test.py: generate a graph, run it in a fresh
# `python3 _run_ps.py` that parses it, builds it at opt levels 0 to 4 and compares the results),
# for MINUTES, then GenCoG's own dedup_case.py over the cases it kept.
#   gencog.sh ARMDIR MINUTES SEED      (bench/peers/run.sh runs it; lib.sh says what it leaves)
# PEER_HOME is the GenCoG checkout; it runs from a copy with patches/gencog.patch (README.md).
# nnsmith.sh runs the same with PEERS_GENCOG_LOOP=run_nnsmith.py (patches/nnsmith.patch on top).
set -u
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
dir=$1 minutes=$2 seed=$3
loop=${PEERS_GENCOG_LOOP:-run_test.py}
arm=${loop%.py}
arm=${arm#run_}
[ "$arm" = test ] && arm=gencog
patches=(gencog)
[ "$arm" = nnsmith ] && patches+=(nnsmith)
src=$dir/peer
peer_copy "${PEER_HOME:?gencog.sh: PEER_HOME must be the GenCoG checkout}" "$src" "${patches[@]}" || exit 1
# run_test.py puts -r ROOT/python on its cases' PYTHONPATH: ROOT is the tree of the tvm we import
tvm_root=$(python3 -c 'import os, tvm; print(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(tvm.__file__)))))') || {
  echo "$arm.sh: no tvm importable by $python" >&2
  exit 1
}
mkdir -p "$dir/out"
start_clock "$dir"
# The patched loop stops between cases at RELAYKIT_DEADLINE, so that every process ends normally
# and writes its coverage (a signal would lose the loop's own: NNSmith converts models in it); the
# timeout only ends a loop stuck past a case's own 60 s (its case in flight is not counted).
(cd "$src" && RELAYKIT_DEADLINE=$(($(cat "$dir/started") + minutes * 60)) \
  timeout -s INT -k 30 "$((minutes * 60 + 90))" python3 "$loop" -r "$tvm_root" -s "$seed" -o "$dir/out") \
  > "$dir/loop.log" 2>&1
rc=$?
case $rc in 0 | 124) ;; *)
  echo "$arm.sh: $loop exited $rc: $(tail -n 1 "$dir/loop.log")" >&2
  exit 1
  ;;
esac
[ -s "$dir/out/cases.tsv" ] || {
  echo "$arm.sh: $loop ran no case: $(tail -n 1 "$dir/loop.log")" >&2
  exit 1
}
# GenCoG's own deduplication of its failures (edit distance of the error messages), on a copy
run=$(echo "$dir"/out/run-*)
rm -rf "$dir/dedup"
cp -r "$run" "$dir/dedup"
(cd "$src" && python3 dedup_case.py -d "$dir/dedup") > "$dir/dedup.log" 2>&1 ||
  echo "$arm.sh: dedup_case.py failed: $(tail -n 1 "$dir/dedup.log")" >&2
python3 "$peers_here/gencog_collect.py" "$dir/out" "$dir/dedup" "$dir" "$arm"
