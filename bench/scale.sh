#!/usr/bin/env bash
# bench/scale.sh: time against program size on the generated chain (bench/chain.sh) of 10,000 and
# 50,000 bindings.  Linear tools take about 5x as long on the larger one; more means a quadratic
# step somewhere (symbol lookup, a rescan per binding, a re-parse per candidate).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
make -s -j2 bin/rcheck bin/rmutate bin/rreduce >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rkscale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\ngrep -q "nn.dense(" "$1" && grep -q sigmoid "$1"\n' > "$tmp/keep.sh"
chmod +x "$tmp/keep.sh"
secs() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN {printf "%.2f", e - s}'; }
printf '%-8s %10s %12s %22s %20s\n' lines bytes "rcheck s" "rmutate -n 20 -j1 s" "rreduce -j1 s"
for n in 10000 50000; do
  bash bench/chain.sh $n > "$tmp/c$n.relay"
  check=$(secs bin/rcheck "$tmp/c$n.relay")
  mutate=$(secs bin/rmutate "$tmp/c$n.relay" -n 20 --seed 1 -j1 -q -o "$tmp/m$n")
  cp "$tmp/c$n.relay" "$tmp/r$n.relay"
  reduce=$(secs bin/rreduce -j1 --tidy "$tmp/r$n.relay" "$tmp/keep.sh")
  printf '%-8s %10s %12s %22s %20s\n' $((n + 4)) "$(wc -c < "$tmp/c$n.relay")" "$check" "$mutate" "$reduce"
done
