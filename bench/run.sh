#!/usr/bin/env bash
# make bench: parse + lower + print throughput of relaykit on TVM's model zoo, beside the raw
# tree-sitter CLI parse of the same files (a peer doing strictly less work: no AST, no printing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
models=../shared/corpus/models
make -s build/rel/bench/bench_parse
echo "relaykit rfmt pipeline (parse + lower + print), per file:"
printf '%-28s %10s %10s %10s %10s %12s\n' file bytes code_bytes seconds MB/s code_MB/s
build/rel/bench/bench_parse "$models"/*.relay | tee /tmp/relaykit-bench.txt |
  awk '{printf "%-28s %10d %10d %10.6f %10.1f %12.1f\n", $1, $2, $3, $4, $5, $6}'
awk '{b += $2; t += $4} $2 == $3 {cb += $3; ct += $4} END {printf "all models: %.1f MB in %.3f s per pass: %.1f MB/s overall (metadata is one token); files without metadata: %.2f MB in %.4f s: %.1f MB/s\n", b/1e6, t, b/t/1e6, cb/1e6, ct, cb/ct/1e6}' /tmp/relaykit-bench.txt
if ts=$(scripts/tree-sitter-cli 2>/dev/null); then
  start=$(date +%s.%N)
  (cd parser && "$ts" parse --quiet "$root/$models"/*.relay >/dev/null 2>&1) || true
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" '{t += $4} END {printf "peer: tree-sitter CLI parse only (incl. its start-up and grammar loading): %.3f s for all models; relaykit full pipeline: %.3f s (ratio %.2fx)\n", e - s, t, (e - s) / t}' /tmp/relaykit-bench.txt
fi

echo
echo "rcheck (parse + lower + type inference) on the largest models, per file:"
printf '%-28s %10s %12s %10s\n' file bytes ms/file MB/s
for f in dqn.bound.fused.relay mlp.bound.relay lstm.fused.relay resnet-50.relay; do
  build/rel/bench/bench_parse --check "$models/$f" 2>/dev/null |
    awk '{printf "%-28s %10d %12.3f %10.1f\n", $1, $2, $4 * 1000, $5}' || echo "$f: rcheck rejects it"
done

echo
echo "rgen: programs per second on one core (default policy), and operator calls per program:"
tmp=$(mktemp -d)
for fuel in 32 64; do
  start=$(date +%s.%N)
  taskset -c 0 bin/rgen -n 2000 --seed 1 --fuel $fuel -o "$tmp/g$fuel" 2>/dev/null || bin/rgen -n 2000 --seed 1 --fuel $fuel -o "$tmp/g$fuel"
  end=$(date +%s.%N)
  calls=$(bin/rgen -n 2000 --seed 1 --fuel $fuel --stats | sed -n 's/^operators: [0-9]*, calls: \([0-9]*\)/\1/p')
  awk -v s="$start" -v e="$end" -v c="$calls" -v f="$fuel" 'BEGIN {printf "  --fuel %s: %.0f programs/s (2000 in %.2f s), %.1f operator calls per program\n", f, 2000 / (e - s), e - s, c / 2000}'
done
rm -rf "$tmp"
echo
echo "rgen --stats under the GenCoG common-operator policy (9,600 calls; GenCoG: vertex 0.335, edge 0.957):"
for seed in 1 2 3; do
  bin/rgen --policy examples/policy-gencog.json --seed $seed --stats --calls 9600 | grep -E '^(vertex|edge) diversity' | sed "s/^/  seed $seed: /"
done

echo
echo "rfuzz's grouping against ground truth, two baselines beside it (bench/triage.sh: planted bugs in the fake TVM; the real bugs with a TVM):"
bash bench/triage.sh

echo
echo "rmutate: mutants per second (bench/mutate.sh):"
bash bench/mutate.sh

echo
echo "time against program size, generated chains of 10,000 and 50,000 bindings (bench/scale.sh):"
bash bench/scale.sh

echo
echo "time against nesting depth: 500, 1,000 and 1,998 nested closures and ifs (bench/nesting.sh: under a minute):"
bash bench/nesting.sh

echo
echo "rmutate against rreduce on one large program, and untyped chained globals (bench/large_chain.sh: about 1 minute):"
bash bench/large_chain.sh

echo "time against the number of comments in one node: doubling them should about double the time (bench/comments.sh):"
bash bench/comments.sh

echo
echo "rreduce against program size, C-Vise beside it, -j1 against -j2 (bench/scale_reduce.sh: about 15 minutes):"
bash bench/scale_reduce.sh

echo
echo "rreduce --server against a command test that costs 1 s to start (bench/server.sh):"
bash bench/server.sh

echo
echo "reduction below the type checker, ill-typed mutants (bench/untyped.sh: about 15 minutes):"
bash bench/untyped.sh
echo
echo "reduction vs C-Vise and C-Reduce (bench/reduce.sh: about 25 minutes; rewrites its section of bench/RESULTS.md):"
bash bench/reduce.sh
