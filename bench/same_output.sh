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
# fixed seed.  It takes a few minutes on 2 cores.  The TVM checks' Python side has its own:
# bench/same_tvm_output.sh.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: bench/same_output.sh BIN OUT" >&2; exit 2; }
bin=$(cd "$1" && pwd)
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
models=${RBENCH_MODELS:-$root/../shared/corpus/models}
rm -rf "$out"
mkdir -p "$out/reduce" "$out/mutate" "$out/jobs" "$out/rfmt" "$out/rcheck" "$out/rgen" "$out/rfuzz"
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
# The bench cases at -j1, -j2 and -j4: the same file and the same count of tests.  The test
# sleeps 0.3 s so that which speculative test finishes first does not depend on the load.
for c in mlp-dense dqn-dense resnet18-conv; do
  sed -i "2i sleep 0.3" "$tmp/$c.sh"
done
for j in 1 2 4; do
  for c in mlp-dense dqn-dense resnet18-conv; do
    case $c in mlp-dense) in=$models/mlp.relay ;; dqn-dense) in=$models/dqn.relay ;; *) in=$models/resnet-18.relay ;; esac
    cp "$in" "$tmp/j.relay"
    "$bin/rreduce" -j "$j" --json "$tmp/j.relay" "$tmp/$c.sh" 2> /dev/null |
      python3 -c 'import json,sys; print(json.load(sys.stdin).get("tests_run"))' > "$tmp/tests" || true
    # -j1's count is exact; above it, a speculative test that ends before it is cancelled counts
    # too, which depends on timing: those counts are printed, not kept
    if [[ $j == 1 ]]; then cp "$tmp/tests" "$out/jobs/$c.j1.tests"; else echo "$c -j$j: $(cat "$tmp/tests") tests"; fi
    cp "$tmp/j.relay" "$out/jobs/$c.j$j.relay"
  done
done

# rfmt, rcheck --annotate and rcheck --json on every corpus file (the exit status appended).
while IFS= read -r f; do
  key=$(echo "${f#"$models/../"}" | tr / _)
  for run in "rfmt:$out/rfmt/$key" "rcheck --annotate:$out/rcheck/$key.annotate" "rcheck --json:$out/rcheck/$key.json"; do
    rc=0
    # shellcheck disable=SC2086 # the tool's name and its option
    "$bin"/${run%%:*} "$f" > "${run#*:}" 2>&1 || rc=$?
    echo "exit $rc" >> "${run#*:}"
  done
done < <(find "$models/.." -name '*.relay' -size -2M | sort)

# rgen: both policies, two seeds, and the statistics.
for seed in 1 2; do
  "$bin/rgen" -n 100 --seed "$seed" -o "$out/rgen/default-$seed" > /dev/null 2>&1 || true
  "$bin/rgen" -n 100 --seed "$seed" --policy "$root/examples/policy-gencog.json" -o "$out/rgen/gencog-$seed" > /dev/null 2>&1 || true
  "$bin/rgen" -n 200 --seed "$seed" --stats > "$out/rgen/stats-$seed" 2>&1 || true
done

# rfuzz: a fixed-seed campaign against a stand-in oracle (crashes on nn.softmax and nn.dense,
# ill-typed programs rejected), reductions included: campaign.json without its clock readings,
# the pool and the groups' programs.
cat > "$tmp/oracle.sh" <<'ORACLE'
#!/bin/sh
while IFS= read -r p; do
  check=$(head -n 1 "$p.args" 2>/dev/null)
  if [ "$check" = typecheck ]; then echo "0 error: type mismatch"
  elif grep -q 'nn\.softmax(' "$p"; then echo "0 Check failed: fake softmax at 0x7f001234"
  elif grep -q 'nn\.dense(' "$p"; then echo "0 Check failed: fake dense at 0x7f005678"
  else echo 1; fi
done
ORACLE
chmod +x "$tmp/oracle.sh"
"$bin/rfuzz" -q --oracle "$tmp/oracle.sh --args-beside" --seed 5 --rounds 60 --timeout 20 \
  --rreduce "$bin/rreduce" -o "$tmp/camp" > /dev/null 2>&1 || true
python3 - "$tmp/camp/campaign.json" > "$out/rfuzz/campaign.json" 2>&1 <<'PY' || true
import json, sys
def strip(x):  # the clock readings differ from run to run
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "second" not in k and "time" not in k and k != "oracle"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
print(json.dumps(strip(json.load(open(sys.argv[1]))), sort_keys=True, indent=1))
PY
[[ -d $tmp/camp/pool ]] && cp -r "$tmp/camp/pool" "$out/rfuzz/pool"
if [[ -d $tmp/camp/groups ]]; then
  find "$tmp/camp/groups" -name '*.relay' | sort | while read -r g; do
    cp "$g" "$out/rfuzz/$(echo "${g#"$tmp/camp/groups/"}" | tr / _)"
  done
fi

echo "bench/same_output.sh: $(find "$out" -type f | wc -l) files in $out"
