#!/usr/bin/env bash
# bench/same_tvm_output.sh DIR OUT: runs the TVM checks of the interestingness folder DIR (its
# tvm-* scripts and tvm-server) on a fixed set of cases and keeps everything they say under OUT
# (stdout, stderr, exit status, and the side files: outcome, repro), so that two versions of the
# Python side can be compared byte for byte, as bench/same_output.sh does for the programs:
#
#   cp -a interestingness /tmp/old-int && ln -s "$PWD/bin" /tmp/bin   # before the change
#   bash bench/same_tvm_output.sh /tmp/old-int /tmp/old && bash bench/same_tvm_output.sh interestingness /tmp/new
#   diff -r /tmp/old /tmp/new && echo identical
#
# (tvm-bisect finds rfmt in DIR/../bin: keep a copy of the folder beside a bin/ as above.)
# The cases: every script's --help and usage errors, tvm-server's usage; each check on candidates
# with the fake TVM's markers (tests/cli/fake_tvm: errors, crashes, a hang, --match, --timeout,
# --other-status); tvm-diff and tvm-bisect on planted bugs; tvm-server with fixed arguments,
# --args-beside, --args-from, a pipeline side file and the echo extension.  With REAL_TVM=1 the
# cases run on the TVM the environment imports (TVM_HOME, PYTHONPATH, RELAYKIT_PYTHON) instead:
# the fake's markers are comments there, so they are ordinary programs (slower: minutes).
# tvm-diff needs numpy: RELAYKIT_PYTHON (default /usr/bin/python3 when it has numpy).  180 cases, about
# 4 minutes on 2 cores with the fake TVM.
set -uo pipefail
[[ $# -eq 2 ]] || { echo "usage: bench/same_tvm_output.sh DIR OUT" >&2; exit 2; }
dir=$(cd "$1" && pwd)
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
w=$(mktemp -d "${TMPDIR:-/tmp}/same_tvm.XXXXXX")
trap 'rm -rf "$w"' EXIT

unset TVM_HOME_UNUSED RELAYKIT_TVM_REEXEC RELAYKIT_ORACLE_ECHO RELAYKIT_COVERAGE FAKE_TVM_PLANTED
export PYTHONDONTWRITEBYTECODE=1
if [[ ${REAL_TVM:-0} != 1 ]]; then
  unset TVM_HOME
  export PYTHONPATH=$root/tests/cli/fake_tvm
fi
if [[ -z ${RELAYKIT_PYTHON:-} ]] && /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  export RELAYKIT_PYTHON=/usr/bin/python3
fi

n=0
# case NAME COMMAND...: runs COMMAND in $w with stdin from $w/stdin (if any); keeps its words.
case_() {
  local name=$1
  shift
  n=$((n + 1))
  local k
  k=$(printf '%03d-%s' "$n" "$name")
  rm -f "$w"/*.outcome "$w/repro.py"
  local rc=0
  (cd "$w" && RELAYKIT_ORACLE_OUTCOME=1 RELAYKIT_REPRO=$w/repro.py "$@" < "${STDIN:-/dev/null}" \
    > "$out/$k.out" 2> "$out/$k.err") || rc=$?
  echo "$rc" > "$out/$k.rc"
  printf '%q ' "$@" | sed "s|$dir|DIR|g" > "$out/$k.cmd"
  for f in "$w"/*.outcome "$w/repro.py"; do
    [[ -f $f ]] && cp "$f" "$out/$k.$(basename "$f")"
  done
  # the work folder and the scripts' folder are not the same from one run to the next
  sed -i "s|$w|W|g; s|$dir|DIR|g" "$out/$k".*
}

prog() { # NAME COMMENT: a small typed program with a comment (the fake TVM's markers)
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 3), float32]) {\n  %%0 = add(%%x, %%x);\n  nn.relu(%%0) /* %s */\n}\n' "$2" > "$w/$1.relay"
}

# ---------------------------------------------------------------- help and usage
for s in "$dir"/tvm-*; do
  b=$(basename "$s")
  [[ -x $s && $b != *.txt ]] || continue
  case_ "help-$b" "$s" --help
  case_ "noargs-$b" "$s"
done
case_ server-help "$dir/tvm-server" --help
case_ server-build-help "$dir/tvm-server" build --help
case_ server-unknown "$dir/tvm-server" nosuch
case_ server-args-from-missing "$dir/tvm-server" --args-from "$w/none.args"
prog ok ""
case_ usage-missing-file "$dir/tvm-build" "$w/none.relay"
case_ usage-bad-match "$dir/tvm-build" --match '(' ok.relay
case_ usage-one-config "$dir/tvm-diff" --configs vm:0 ok.relay
case_ usage-bad-level "$dir/tvm-diff" --configs vm:5,vm:0 ok.relay
case_ usage-executor "$dir/tvm-diff" --executors vm,jit ok.relay
case_ usage-no-passes "$dir/tvm-pass" ok.relay
case_ usage-run-no-build "$dir/tvm-pass" --run FoldConstant ok.relay
case_ usage-bad-pass "$dir/tvm-pass" 'FuseOps(x' ok.relay
case_ usage-unknown-pass "$dir/tvm-pass" NoSuchPass ok.relay
case_ usage-no-script "$dir/tvm-check" none.py ok.relay
case_ usage-params "$dir/tvm-build" --params none.npz ok.relay
case_ usage-config "$dir/tvm-build" --config novalue ok.relay

# ---------------------------------------------------------------- each check on each marker
cat > "$w/check.py" <<'EOF'
def check(mod):
    text = mod.astext() if hasattr(mod, "astext") else str(mod)
    if "USER_FAILS" in text:
        raise RuntimeError("the user's check says no")
    return "USER_FALSE" not in text
EOF
printf 'import sys\nsys.exit(3)\n' > "$w/exits.py"
markers="none FAKE_PARSE_ERROR FAKE_TYPE_ERROR FAKE_BUILD_ERROR_dtype FAKE_BUILD_SEGV FAKE_BUILD_ABORT_oops
FAKE_PARSE_SEGV FAKE_PASS_ERROR_x FAKE_PASS_SEGV FAKE_PRINTS_BAD FAKE_UNEQUAL USER_FAILS USER_FALSE"
for m in $markers; do
  prog "$m" "$m"
  case_ "parse-$m" "$dir/tvm-parse" "$m.relay"
  case_ "typecheck-$m" "$dir/tvm-typecheck" "$m.relay"
  case_ "build-$m" "$dir/tvm-build" "$m.relay"
  case_ "build-run-$m" "$dir/tvm-build" -q --run --opt-level 2 "$m.relay"
  case_ "pass-$m" "$dir/tvm-pass" FoldConstant 'FuseOps(fuse_opt_level=2)' --infer-after "$m.relay"
  case_ "pass-build-$m" "$dir/tvm-pass" --build --run SimplifyExpr "$m.relay"
  case_ "roundtrip-$m" "$dir/tvm-roundtrip" --infer "$m.relay"
  case_ "check-$m" "$dir/tvm-check" check.py "$m.relay"
done
case_ match-yes "$dir/tvm-build" --match 'Check failed: .*dtype' FAKE_BUILD_ERROR_dtype.relay
case_ match-no "$dir/tvm-build" --match 'something else' --other-status 3 FAKE_BUILD_ERROR_dtype.relay
case_ match-signal "$dir/tvm-build" --match 'signal SIGSEGV' FAKE_BUILD_SEGV.relay
case_ other-stage "$dir/tvm-build" --other-status 4 FAKE_TYPE_ERROR.relay
case_ check-exits "$dir/tvm-check" exits.py ok.relay
prog hang FAKE_BUILD_HANG
case_ timeout "$dir/tvm-build" --timeout 1 hang.relay
case_ options "$dir/tvm-build" --opt-level 1 --config relay.FuseOps.max_depth=10 --disabled-pass AlterOpLayout,FoldScaleAxis \
  --required-pass FastMath --target 'llvm -mcpu=core-avx2' --executor vm ok.relay
printf '{"passes": ["FoldConstant"]}\n' > "$w/piped.relay.pipeline"
prog piped ""
case_ pipeline "$dir/tvm-pass" FuseOps piped.relay
printf 'not json\n' > "$w/badpipe.relay.pipeline"
prog badpipe ""
case_ bad-pipeline "$dir/tvm-pass" FuseOps badpipe.relay

# ---------------------------------------------------------------- tvm-diff and tvm-bisect
prog diff ""
case_ diff-default "$dir/tvm-diff" diff.relay
case_ diff-levels "$dir/tvm-diff" --opt-levels 0,1,2,3,4 diff.relay
case_ diff-executors "$dir/tvm-diff" --executors debug,graph,vm,aot --opt-level 2 diff.relay
prog diffg FAKE_DIFF_GRAPH_3
case_ diff-graph3 "$dir/tvm-diff" --configs vm:0,vm:3,graph:3 diffg.relay
case_ diff-atol "$dir/tvm-diff" --executors vm,graph --atol 1 diffg.relay
prog nan FAKE_NAN
case_ diff-nan "$dir/tvm-diff" nan.relay
prog index FAKE_INDEX
case_ diff-index "$dir/tvm-diff" --seed 7 --opt-levels 1,3 index.relay
prog positive FAKE_POSITIVE
case_ diff-positive "$dir/tvm-diff" --positive positive.relay
for s in 0 1 2 3; do
  FAKE_TVM_PLANTED='trap:nn.relu' case_ "diff-trap-$s" "$dir/tvm-diff" --seed "$s" diff.relay
  FAKE_TVM_PLANTED='nan:nn.relu' case_ "diff-nanref-$s" "$dir/tvm-diff" --seed "$s" diff.relay
done
FAKE_TVM_PLANTED='nan:nn.relu;diff:3:nn.relu' case_ diff-wrong "$dir/tvm-diff" --positive diff.relay
FAKE_TVM_PLANTED='break:CanonicalizeOps' case_ bisect-list "$dir/tvm-bisect" SimplifyExpr CanonicalizeOps FuseOps ok.relay
FAKE_TVM_PLANTED='break:AlterOpLayout' case_ bisect-build "$dir/tvm-bisect" -q ok.relay
FAKE_TVM_PLANTED='build-order:FoldConstant>FuseOps' case_ bisect-order "$dir/tvm-bisect" -q --match 'pass order' ok.relay
FAKE_TVM_PLANTED='pass-error:SimplifyExpr>FuseOps' case_ bisect-then-build "$dir/tvm-bisect" -q --build SimplifyExpr ok.relay
FAKE_TVM_PLANTED='break:FuseOps' case_ bisect-run "$dir/tvm-bisect" --run FoldConstant FuseOps ok.relay
case_ bisect-none "$dir/tvm-bisect" -q FoldConstant FuseOps ok.relay
FAKE_TVM_PLANTED='build-segv:nn.relu' case_ planted-segv "$dir/tvm-build" ok.relay
FAKE_TVM_PLANTED='typecheck-abort:nn.relu' case_ planted-abort "$dir/tvm-typecheck" ok.relay
FAKE_TVM_PLANTED='limit:nn.relu' case_ planted-limit "$dir/tvm-build" ok.relay

# ---------------------------------------------------------------- tvm-server
printf '%s\n' ok.relay FAKE_BUILD_ERROR_dtype.relay none.relay FAKE_BUILD_SEGV.relay "" FAKE_TYPE_ERROR.relay \
  hang.relay piped.relay badpipe.relay > "$w/paths"
STDIN=$w/paths case_ server-build "$dir/tvm-server" build --timeout 1 -v
STDIN=$w/paths case_ server-match "$dir/tvm-server" build --timeout 1 --match dtype --other-status 3
STDIN=$w/paths RELAYKIT_ORACLE_ECHO=1 case_ server-echo "$dir/tvm-server" pass FoldConstant --timeout 1
STDIN=$w/paths case_ server-check "$dir/tvm-server" --check check.py --timeout 1
printf 'build\n--opt-level\n1\n' > "$w/ok.relay.args"
printf 'pass\nFoldConstant\n' > "$w/FAKE_BUILD_ERROR_dtype.relay.args"
printf 'nosuch\n' > "$w/FAKE_BUILD_SEGV.relay.args"
printf '\n\n' > "$w/FAKE_TYPE_ERROR.relay.args"
printf -- '--check\ncheck.py\n' > "$w/piped.relay.args"
printf 'diff\n--opt-levels\n0\n' > "$w/badpipe.relay.args"
printf 'pass\nNoSuchPass\n' > "$w/hang.relay.args"
STDIN=$w/paths case_ server-beside "$dir/tvm-server" --args-beside --timeout 1 -v
printf 'typecheck\n' > "$w/fixed.args"
STDIN=$w/paths case_ server-args-from "$dir/tvm-server" --args-from fixed.args --timeout 1
printf 'check\nexits.py\n' > "$w/exits.args"
STDIN=$w/paths case_ server-args-from-bad "$dir/tvm-server" --args-from exits.args
echo "$n cases in $out"
