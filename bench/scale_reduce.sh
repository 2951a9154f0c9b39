#!/usr/bin/env bash
# bench/scale_reduce.sh: rreduce's number of tests, wall time and CPU time against program size
# (issue 13), C-Vise beside it, and -j 1 against -j 2 with a slow test.  The input is
# `bench/chain.sh N softmax`: N bindings with one nn.softmax in the middle; the test keeps files
# that rcheck accepts and that still call nn.softmax; the hand-made minimum is `nn.softmax(%x)` of
# one input.
#
#   bash bench/scale_reduce.sh     (part of `make bench`; about 15 minutes on 2 cores)
#
# Environment: RBENCH_SIZES   the N to run (default "100 1000 10000 50000")
#              RBENCH_CAP     wall-clock cap per C-Vise run in seconds (default 120; a capped run
#                             gives the tokens of the best file it had written)
#              RBENCH_SLOW    the slow test's sleep in seconds for the -j comparison (default 0.5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sizes=${RBENCH_SIZES:-100 1000 10000 50000}
cap=${RBENCH_CAP:-120}
slow=${RBENCH_SLOW:-0.5}
make -s -j2 bin/rreduce bin/rcheck >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rkscalered.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tokens() { { grep -oE '[A-Za-z_%@][A-Za-z0-9_.]*|[0-9.]+|[^[:space:]]' "$1" || true; } | wc -l; }
printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 1), float32]) {\n  nn.softmax(%%x)\n}\n' > "$tmp/hand.relay"
hand=$(tokens "$tmp/hand.relay")

# write_test DIR SLEEP OP: DIR/test.sh keeps chain.relay (read by name in its working directory, as
# C-Vise runs it; rreduce also passes it as $1) while rcheck accepts it and it calls OP (so C-Vise,
# which cannot tell a well-formed program, is held to the same standard as rreduce's guard); one
# line per run in DIR/count; SLEEP seconds of sleep first (0: none).
write_test() {
  {
    echo '#!/bin/sh'
    echo "echo run >> \"$1/count\""
    [[ $2 == 0 ]] || echo "sleep $2"
    echo "\"$root/bin/rcheck\" chain.relay > /dev/null 2>&1 && grep -q \"$3\" chain.relay"
  } > "$1/test.sh"
  chmod +x "$1/test.sh"
}

# run_timed DIR CMD...: runs CMD in DIR; prints "wall cpu" in seconds (cpu: user + system of CMD
# and the tests it ran).
run_timed() {
  local dir=$1
  shift
  (cd "$dir" && /usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" > /dev/null 2>&1) || true
  tail -1 "$dir/time" | awk '{printf "%.1f %.1f\n", $1, $2 + $3}'
}

echo "| bindings | bytes | tool | tests | wall s | CPU s | tokens after | hand-made minimum |"
echo "|---:|---:|---|---:|---:|---:|---:|---:|"
for n in $sizes; do
  for tool in rreduce cvise; do
    d="$tmp/$tool$n"
    mkdir -p "$d"
    bash bench/chain.sh "$n" softmax > "$d/chain.relay"
    bytes=$(wc -c < "$d/chain.relay")
    write_test "$d" 0 "nn.softmax("
    case $tool in
      rreduce) read -r wall cpu < <(run_timed "$d" "$root/bin/rreduce" -j1 --tidy chain.relay ./test.sh) ;;
      cvise)
        if ! command -v cvise > /dev/null; then
          echo "| $n | $bytes | cvise | (not installed: apt-get install -y cvise) | | | | |"
          continue
        fi
        read -r wall cpu < <(run_timed "$d" timeout "$cap" cvise --not-c --n 1 --tidy ./test.sh chain.relay) ;;
    esac
    note=""
    awk -v w="$wall" -v c="$cap" 'BEGIN {exit !(w >= c - 1)}' && note=" (capped)"
    label="rreduce -j1"
    [[ $tool == cvise ]] && label="cvise --n 1"
    echo "| $n | $bytes | $label$note | $(wc -l < "$d/count") | $wall | $cpu | $(tokens "$d/chain.relay") | $hand |"
  done
done

echo
echo "-j 1 against -j 2 with a test that sleeps ${slow} s (rreduce; results compared byte for byte):"
for input in chain1000 resnet-18; do
  for j in 1 2; do
    d="$tmp/j$input-$j"
    mkdir -p "$d"
    if [[ $input == chain1000 ]]; then
      bash bench/chain.sh 1000 softmax > "$d/chain.relay"
      write_test "$d" "$slow" "nn.softmax("
    else
      cp ../shared/corpus/models/resnet-18.relay "$d/chain.relay"
      write_test "$d" "$slow" "nn.conv2d("
    fi
    read -r wall cpu < <(run_timed "$d" "$root/bin/rreduce" -j"$j" --tidy chain.relay ./test.sh)
    eval "wall$j=$wall"
    echo "  $input -j$j: $(wc -l < "$d/count") tests, ${wall} s wall"
  done
  cmp -s "$tmp/j$input-1/chain.relay" "$tmp/j$input-2/chain.relay" && same=identical || same=DIFFERENT
  awk -v a="$wall1" -v b="$wall2" -v s="$same" -v i="$input" 'BEGIN {printf "  %s: -j2 is %.2fx as fast as -j1; results %s\n", i, a / b, s}'
done
