#!/usr/bin/env bash
# bench/mutate.sh: rmutate's throughput, mutants per second, on the largest model (the 9 MB
# dqn.bound.fused.relay, almost all #[metadata]) and on resnet-50, with one worker and with -j2.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
make -s -j2 bin/rmutate >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rmbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for spec in dqn.bound.fused:40 resnet-50:200; do
  m=${spec%%:*} n=${spec##*:}
  for j in 1 2; do
    s=$(date +%s.%N)
    bin/rmutate "../shared/corpus/models/$m.relay" -n "$n" --seed 1 -j$j -q -o "$tmp/$m-$j"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" -v n="$n" -v m="$m" -v j="$j" -v b="$(wc -c < "../shared/corpus/models/$m.relay")" \
      'BEGIN {printf "%-18s %9d bytes  -j%d: %4d mutants in %6.2f s = %7.1f mutants/s\n", m, b, j, n, e - s, n / (e - s)}'
  done
  diff -rq "$tmp/$m-1" "$tmp/$m-2" > /dev/null && echo "  -j1 and -j2 wrote identical files" || echo "  -j1 and -j2 DIFFER"
done
