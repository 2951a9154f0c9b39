#!/usr/bin/env bash
# bench/program_half.sh [RREDUCE...]: what is left between rreduce and a hand-made minimum on the
# cases of issue 28 item 4 (tuples consumed whole, bindings the test greps, #[metadata] constants)
# and issue 30 item 8 (spans), one row a case and rreduce binary: bytes before and after, tests, wall
# time.  The tests keep the result well-typed (rcheck) and the named text.  mobilenet with its
# params bound is made from the corpus by tests/cli/bind_params.py (22.8 MB; no TVM needed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/corpus}
bins=("${@:-$root/bin/rreduce}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
python3 "$root/tests/cli/bind_params.py" "$corpus/models/mobilenet.relay" > "$t/mobilenet.bound.relay"
python3 "$root/tests/cli/bind_params.py" "$corpus/models/mobilenet.relay" 27 > "$t/mobilenet3.bound.relay"
cases=(
  "$t/mobilenet.bound.relay|nn.batch_norm("
  "$t/mobilenet3.bound.relay|nn.batch_norm("
  "$corpus/models/synthetic.bound.relay|nn.batch_norm("
  "$corpus/models/mlp.bound.relay|nn.dense(|meta[relay.Constant]"
  "$corpus/models/resnet-18.relay|nn.conv2d(|add("
  "$corpus/models/squeezenet_v1.1.relay|concatenate("
  "$corpus/tvm-tests/printed/df_pattern_rewrite_test__1.relay|nn.conv2d(|nn.relu("
)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| input | keeps | rreduce | bytes before | bytes after | tests | wall s |"
echo "|---|---|---|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r file ops <<< "${c%%|*}|${c#*|}"
  IFS='|' read -ra keep <<< "$ops"
  { echo '#!/bin/sh'; echo "\"$root/bin/rcheck\" \"\$1\" >/dev/null 2>&1 || exit 1"
    for op in "${keep[@]}"; do echo "grep -qF '$op' \"\$1\" || exit 1"; done; } > "$t/keep.sh"
  chmod +x "$t/keep.sh"
  for bin in "${bins[@]}"; do
    cp "$file" "$t/in.relay"
    start=$(date +%s.%N)
    json=$("$bin" -j1 --json --tidy "$t/in.relay" "$t/keep.sh" 2>/dev/null)
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    tests=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["tests_run"])' <<< "$json")
    printf '| %s | %s | %s | %s | %s | %s | %.1f |\n' "$(basename "$file")" "${keep[*]}" "$bin" \
      "$(wc -c < "$file")" "$(wc -c < "$t/in.relay")" "$tests" "$wall"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
