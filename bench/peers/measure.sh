#!/usr/bin/env bash
# The branches of TVM that a profile took, as bench/coverage.sh's measure() counts them: merge the
# .profraw files of PROFDIR (llvm-profdata), then llvm-cov's summary of the instrumented libtvm.so
# over src/relay (and with "src", over all of src/):
#   measure.sh PROFDIR OUT.json [relay|src ...]     (default: relay src)
# writes {"relay": [covered, count], "src": [covered, count]} to OUT.json. Needs TVM_HOME (the
# sources the build was made from) and TVM_LIBRARY_PATH (the build of scripts/tvm-instrumented.sh).
# A snapshot copied while a process was writing its profile may be torn: such a file is left out
# (--failure-mode=all) and said on stderr; no profile at all counts as no branch.
set -u
prof=$1 out=$2
shift 2
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(relay src)
profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata) || exit 2
llvmcov=$(command -v llvm-cov-14 || command -v llvm-cov) || exit 2
lib=$TVM_LIBRARY_PATH/libtvm.so
merged=$(mktemp "${TMPDIR:-/tmp}/peers-measure.XXXXXX")
trap 'rm -f "$merged"' EXIT
shopt -s nullglob
raws=("$prof"/*.profraw)
result={}
if [ ${#raws[@]} -gt 0 ] && "$profdata" merge -sparse --failure-mode=all "${raws[@]}" -o "$merged"; then
  for part in "${parts[@]}"; do
    filter=$TVM_HOME/src
    [ "$part" = relay ] && filter=$TVM_HOME/src/relay
    branches=$("$llvmcov" export -summary-only "$lib" -instr-profile "$merged" "$filter" 2> /dev/null |
      python3 -c 'import json, sys; b = json.load(sys.stdin)["data"][0]["totals"]["branches"]; print(b["covered"], b["count"])') || exit 1
    result=$(python3 -c 'import json, sys; r = json.loads(sys.argv[1]); r[sys.argv[2]] = [int(x) for x in sys.argv[3].split()]; print(json.dumps(r))' \
      "$result" "$part" "$branches")
  done
else
  [ ${#raws[@]} -eq 0 ] || { echo "measure.sh: $prof: no profile could be merged" >&2; exit 1; }
  result=$(python3 -c 'import json, sys; print(json.dumps({p: [0, 0] for p in sys.argv[1:]}))' "${parts[@]}")
fi
echo "$result" > "$out"
