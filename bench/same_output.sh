#!/usr/bin/env bash
# bench/same_output.sh BIN OUT: runs a fixed set of reductions and mutations with the programs in
# BIN and keeps every result under OUT, so that two builds can be compared byte for byte:
#
#   bash bench/same_output.sh /tmp/old-bin /tmp/old && bash bench/same_output.sh bin /tmp/new
#   diff -r /tmp/old /tmp/new && echo identical
#
# A refactoring that claims "no behaviour change" runs this before and after.  The cases: every
# `make bench` reduction case, the acceptance models with each op they contain, the 500-binding
# chain, a metadata model, and rmutate (well-typed and --ill-typed) on six corpus models with a
# fixed seed.  It takes a few minutes on 2 cores.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: bench/same_output.sh BIN OUT" >&2; exit 2; }
bin=$(cd "$1" && pwd)
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
models=${RBENCH_MODELS:-$root/../shared/corpus/models}
rm -rf "$out"
mkdir -p "$out/reduce" "$out/mutate"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/same.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# keep_test FILE OPS...: interesting while rcheck accepts the candidate and each OP( occurs in it.
keep_test() {
  local file=$1 op
  shift
  {
    echo '#!/bin/sh'
    echo "'$bin/rcheck' \"\$1\" >/dev/null 2>&1 || exit 1"
    for op in "$@"; do echo "grep -qF '$op(' \"\$1\" || exit 1"; done
  } > "$file"
  chmod +x "$file"
}

# reduce_case NAME INPUT OPS...: reduces a copy of INPUT; keeps the result and the exit status.
reduce_case() {
  local name=$1 input=$2
  shift 2
  keep_test "$tmp/$name.sh" "$@"
  cp "$input" "$tmp/$name.relay"
  local rc=0
  "$bin/rreduce" -j 1 "$tmp/$name.relay" "$tmp/$name.sh" > /dev/null 2>&1 || rc=$?
  cp "$tmp/$name.relay" "$out/reduce/$name.relay"
  echo "$rc" > "$out/reduce/$name.rc"
}

reduce_case mlp-dense "$models/mlp.relay" nn.dense
reduce_case dqn-dense "$models/dqn.relay" nn.dense
reduce_case resnet18-conv "$models/resnet-18.relay" nn.conv2d
reduce_case resnet18-bn-relu "$models/resnet-18.relay" nn.batch_norm nn.relu
for m in resnet-18 mobilenet squeezenet_v1.1 lstm dcgan resnet3d-18 resnet-18.fused; do
  [[ -f $models/$m.relay ]] || continue
  for op in nn.conv2d nn.dense add nn.batch_norm nn.conv2d_transpose reshape; do
    grep -qF "$op(" "$models/$m.relay" && reduce_case "$m-$op" "$models/$m.relay" "$op"
  done
done
bash "$root/bench/chain.sh" 500 > "$tmp/chain.in"
reduce_case chain500-dense "$tmp/chain.in" nn.dense
[[ -f $models/mlp.bound.relay ]] && reduce_case mlp-bound-dense "$models/mlp.bound.relay" nn.dense

for m in resnet-18 mobilenet lstm dcgan mlp.bound squeezenet_v1.1; do
  [[ -f $models/$m.relay ]] || continue
  "$bin/rmutate" -q -j 1 --seed 7 -n 40 -o "$out/mutate/$m" "$models/$m.relay" > /dev/null 2>&1 || true
  "$bin/rmutate" -q -j 1 --seed 7 -n 20 --ill-typed -o "$out/mutate/$m.ill" "$models/$m.relay" > /dev/null 2>&1 || true
done
echo "bench/same_output.sh: $(find "$out" -type f | wc -l) files in $out"
