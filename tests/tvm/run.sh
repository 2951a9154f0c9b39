#!/usr/bin/env bash
# make check-tvm: relaykit proven on a real TVM (issue 14). When TVM cannot be imported it says
# "skipped: no TVM" and succeeds (CI has none; tests/cli/tvm_scripts.bats covers the scripts'
# logic with a fake tvm package). A quick subset by default; FULL=1 runs everything.
#
#   1. the TVM tests on the ten real bugs (tests/tvm/realbugs.py)
#   2. the Python module and tvm-server --check (tests/tvm/test_module.py), relaykit.reduce in a
#      Python session (tests/tvm/python_session.py)
#   3. relaykit's type checker against TVM's InferType (tests/tvm/fidelity.py, global_uses.py)
#   4. the real bugs inflated and reduced end to end (tests/tvm/reduce_realbugs.py)
#   5. their pipelines reduced with the program, tvm-bisect's culprits, a 22-pass sequence
#      (tests/tvm/pipeline_realbugs.py; issue 28)
#
# Environment: RELAYKIT_PYTHON (the Python TVM is installed for; default python3), TVM_HOME,
# PYTHONPATH, TVM_LIBRARY_PATH, as for the scripts (interestingness/README.md).  ONLY=GROUP,... runs
# some of the groups: bugs, module, fidelity, reduce, pipeline (default all).  N_GEN, N_MUT, N_ILL set the
# fidelity's scale (rgen programs per policy and seed, mutants and ill-typed mutants per model).
# relaykit's tools check against the importable TVM's release (RELAYKIT_TVM_VERSION, exported).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/tests/tvm
SHARED=$ROOT/../shared
PY=${RELAYKIT_PYTHON:-python3}
FULL=${FULL:-0}
ONLY=${ONLY:-bugs,module,fidelity,reduce,pipeline}
wanted() { [[ ",$ONLY," == *",$1,"* ]]; }
export TOPHUB_LOCATION=${TOPHUB_LOCATION:-NONE}
if [ -n "${TVM_HOME:-}" ]; then export PYTHONPATH=$TVM_HOME/python${PYTHONPATH:+:$PYTHONPATH}; fi
if ! why=$("$PY" -c 'import tvm, tvm.relay' 2>&1); then
  echo "check-tvm: skipped: no TVM ($PY cannot import tvm: $(tail -1 <<<"$why"))"
  echo "0 passed, 0 failed"
  exit 0
fi
export RELAYKIT_PYTHON=$PY
# relaykit's tools check against this TVM's release (typegen/ops/tvm_version.c); said by rcheck.
RELAYKIT_TVM_VERSION=$("$PY" -c 'import tvm; print(tvm.__version__)')
export RELAYKIT_TVM_VERSION
echo "check-tvm: TVM $RELAYKIT_TVM_VERSION from $("$PY" -c 'import os, tvm; print(os.path.dirname(tvm.__file__))'), FULL=$FULL"
"$ROOT/bin/rcheck" --version | sed -n 's/^/check-tvm: relaykit /; 2p'
TMP=$(mktemp -d "${TMPDIR:-/tmp}/relaykit-check-tvm.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
step() { # NAME COMMAND...: one step, its own verdict
  local name=$1
  shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); echo "-- $name: ok"; else failed=$((failed + 1)); echo "-- $name: FAILED"; fi
}

wanted bugs && step "TVM tests on the real bugs" "$PY" "$HERE/realbugs.py" --bugs "$SHARED/realbugs"
wanted module && step "Python module and tvm-server --check" "$PY" "$HERE/test_module.py"
wanted module && step "relaykit.reduce in a Python session (mobilenet, params)" "$PY" "$HERE/python_session.py"

# Fidelity: programs from rgen (two policies, several seeds), rmutate (and its --ill-typed
# mutants) of corpus models, and TVM's own test programs.
fidelity() {
if [ "$FULL" = 1 ]; then n_gen=1250 n_mut=500 n_ill=200 models="$SHARED/corpus/models/*.relay"
else n_gen=50 n_mut=10 n_ill=10 models="$SHARED/corpus/models/mlp.relay $SHARED/corpus/models/resnet-18.relay"; fi
# A scale between the two (a slower machine, a second TVM): N_GEN programs per policy and seed,
# N_MUT mutants per model, N_ILL ill-typed mutants per model; said, so a result names its scale.
n_gen=${N_GEN:-$n_gen} n_mut=${N_MUT:-$n_mut} n_ill=${N_ILL:-$n_ill}
echo "fidelity at: $((4 * n_gen)) rgen programs, $n_mut mutants of each of $(set -- $models; echo $#) models, $n_ill ill-typed of each of 3"
mkdir -p "$TMP/gen" "$TMP/mut" "$TMP/ill"
for seed in 1 2; do
  "$ROOT/bin/rgen" -n "$n_gen" --seed "$seed" -o "$TMP/gen/default-$seed"
  "$ROOT/bin/rgen" -n "$n_gen" --seed "$seed" --policy "$ROOT/examples/policy-gencog.json" -o "$TMP/gen/gencog-$seed"
done
for m in $models; do
  b=$(basename "$m" .relay)
  "$ROOT/bin/rmutate" "$m" -n "$n_mut" --seed 1 -o "$TMP/mut/$b" > /dev/null 2>&1 || echo "(rmutate $b: exit $?)"
done
ill_models="$SHARED/corpus/models/mlp.relay $SHARED/corpus/models/dqn.relay $SHARED/corpus/models/resnet-18.relay"
for m in $ill_models; do
  b=$(basename "$m" .relay)
  "$ROOT/bin/rmutate" --ill-typed "$m" -n "$n_ill" --seed 1 -o "$TMP/ill/$b" > /dev/null 2>&1 || echo "(rmutate --ill-typed $b: exit $?)"
done
mkdir -p "$ROOT/build/check-tvm"
step "fidelity: rgen programs" "$PY" "$HERE/fidelity.py" --rcheck "$ROOT/bin/rcheck" --name rgen --json "$ROOT/build/check-tvm/fidelity-rgen.json" "$TMP/gen"
step "fidelity: rmutate mutants" "$PY" "$HERE/fidelity.py" --rcheck "$ROOT/bin/rcheck" --name rmutate --json "$ROOT/build/check-tvm/fidelity-rmutate.json" "$TMP/mut"
step "fidelity: ill-typed mutants" "$PY" "$HERE/fidelity.py" --rcheck "$ROOT/bin/rcheck" --name ill-typed --json "$ROOT/build/check-tvm/fidelity-ill.json" "$TMP/ill"
step "fidelity: TVM's test programs" "$PY" "$HERE/fidelity.py" --rcheck "$ROOT/bin/rcheck" --name tvm-tests --json "$ROOT/build/check-tvm/fidelity-tvm-tests.json" "$SHARED/corpus/tvm-tests"
step "fidelity: uses of globals typed by their annotations" "$PY" "$HERE/global_uses.py" --rcheck "$ROOT/bin/rcheck" --corpus "$SHARED/corpus"
}
wanted fidelity && fidelity

if ! wanted reduce; then :
elif [ "$FULL" = 1 ]; then
  step "real bugs reduced end to end" "$PY" "$HERE/reduce_realbugs.py" --bugs "$SHARED/realbugs" --cvise 600 --markdown "$ROOT/build/check-tvm/reduce.md"
else
  step "real bugs reduced end to end (two)" "$PY" "$HERE/reduce_realbugs.py" --bugs "$SHARED/realbugs" \
    --model "$SHARED/corpus/models/mlp.relay" --only tvm15393-divide-by-zero-const,tvm11679-strided-slice-empty-axes
fi
if ! wanted pipeline; then :
elif [ "$FULL" = 1 ]; then
  step "pipelines reduced with the programs, bisected" "$PY" "$HERE/pipeline_realbugs.py" --bugs "$SHARED/realbugs" \
    --cap 600 --json "$ROOT/build/check-tvm/pipeline.json"
else
  step "pipelines reduced with the programs (two), bisected" "$PY" "$HERE/pipeline_realbugs.py" --bugs "$SHARED/realbugs" \
    --part rows,bisect --only tvm10528-conv2d-squeeze-alterlayout,hirgen-dynamic-to-static-global-call
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
