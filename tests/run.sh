#!/usr/bin/env bash
# Runs every test suite and ends with one line: "N passed, N failed".
#   tests/run.sh            unit + CLI tests of the normal build, tree-sitter's corpus tests, and
#                           README's marked examples (scripts/check-docs)
#   tests/run.sh --full     also: the same under ASan+UBSan, the grammar staleness check, and
#                           a fixed libFuzzer run on each harness (what CI runs)
# Each suite's own output is shown; a suite that cannot run counts as failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
full=0
[ "${1:-}" = "--full" ] && full=1
passed=0 failed=0
# The suites expect what a machine without TVM gets: relaykit checks against the newest release it
# knows (typegen/ops/tvm_version.c), whatever TVM this machine can import; the tests of the default
# itself unset this.
export RELAYKIT_TVM_VERSION=0.19
log=$(mktemp)
pybin=$(mktemp -d)
trap 'rm -rf "$log" "$pybin"' EXIT
# Debian's python3, the one deps.sh installs numpy and setuptools for, whatever comes first on
# PATH: a version manager's shim (pyenv's is a chain of bash scripts) costs most of a second a
# start, and the suites start Python thousands of times
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
  ln -s /usr/bin/python3 "$pybin/python3"
  export PATH=$pybin:$PATH
fi

# cmocka: "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s), listed below:"
run_unit() { # build-dir
  local build=$1 t t0=$SECONDS
  for t in $(ls tests/unit/test_*.c | sed 's|tests/unit/||; s|\.c$||'); do
    echo "== unit: $t ($build)"
    "$build/tests/$t" > "$log" 2>&1
    local rc=$?
    cat "$log"
    local p f
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:.*/\1/p' "$log" | tail -1)
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
    if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "unit test binary $t exited $rc"; fi
  done
  echo "-- unit ($build): $((SECONDS - t0)) s"
}

# bats prints TAP: "ok N ..." / "not ok N ..."  Two tests at a time when GNU parallel is there
# (bats --jobs needs it): most wait on processes, timeouts and Python, not on a core.
run_bats() { # rfmt-path label
  local jobs=()
  command -v parallel > /dev/null && jobs=(--jobs 2)
  echo "== cli ($2)"
  local t0=$SECONDS
  RFMT=$1 bats --tap --timing "${jobs[@]}" tests/cli > "$log" 2>&1
  local rc=$?
  cat "$log"
  echo "-- cli ($2): $((SECONDS - t0)) s"
  local p f
  p=$(grep -c '^ok ' "$log"); f=$(grep -c '^not ok ' "$log")
  passed=$((passed + p)); failed=$((failed + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); echo "bats exited $rc"; fi
}

# A runner that prints its own closing "N passed, N failed" line.
run_counted() { # label command...
  local label=$1; shift
  echo "== $label"
  local t0=$SECONDS
  "$@" > "$log" 2>&1
  local rc=$?
  cat "$log"
  echo "-- $label: $((SECONDS - t0)) s"
  local line p f
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "$label exited $rc"; fi
}

# One check that is a single pass/fail.
run_one() { # label command...
  local label=$1; shift
  echo "== $label"
  local t0=$SECONDS
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $label"; fi
  echo "-- $label: $((SECONDS - t0)) s"
}

tree_sitter_cli() { "$root/scripts/tree-sitter-cli"; }

corpus_tests() { # tree-sitter's own corpus format, parser/test/corpus/*.txt
  local ts
  ts=$(tree_sitter_cli) || return 1
  (cd parser && "$ts" test) > "$log" 2>&1
  local rc=$?
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -v -i 'parser directories\|init-config\|configuration file\|language grammars'
  local p f
  p=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -c '✓'); f=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -c '✗')
  passed=$((passed + p)); failed=$((failed + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); fi
}

# libFuzzer on one harness (tests/fuzz/NAME.c: fuzz_parse for the parser and printer, fuzz_check
# for the type checker, fuzz_reduce for the reduction passes' contract) from a seed corpus of real
# programs plus every input that once broke us (tests/fuzz/regressions); fuzz_comments, whose
# inputs choose pieces of text rather than being text, starts from its own seeds
# (tests/fuzz/comments_seeds, the inputs that broke tree-sitter's runtime) and may take longer
# per input (texts of up to 1 MB, each read four times under ASan).  CI runs a fixed number
# of inputs from a fixed seed (under a minute each here), so every machine runs the same inputs: a
# fuzz failure in CI is reproducible, never luck.  FUZZ_SEED=0 (random) and a larger FUZZ_RUNS
# make a real campaign.
fuzz_smoke() { # harness runs [seed-dir timeout]: its seeds, or else real programs and the regressions
  make -s -j"$(nproc)" fuzz || return 1
  local seeds extra=tests/fuzz/regressions
  seeds=$(mktemp -d)
  if [ -n "${3:-}" ]; then cp "$3"/* "$seeds"/; extra=; else
    cp ../shared/corpus/tvm-tests/*.relay ../shared/corpus/features/*.relay "$seeds"/ 2>/dev/null; fi
  build/fuzz/"$1" -seed="${FUZZ_SEED:-1}" -runs="${FUZZ_RUNS:-$2}" -max_total_time=600 -max_len=4096 \
    -timeout="${4:-10}" -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="${FUZZ_ARTIFACTS:-./}" \
    "$seeds" $extra > "$log" 2>&1
  local rc=$?
  tail -n 12 "$log"
  rm -rf "$seeds"
  return $rc
}

run_unit build/rel
run_bats "$root/bin/rfmt" release
run_counted "typing cases (release)" env RCHECK="$root/bin/rcheck" bash tests/typecheck/run.sh
corpus_tests
run_counted "README examples (scripts/check-docs)" python3 scripts/check-docs
if [ $full -eq 1 ]; then
  t0=$SECONDS
  if make -s -j"$(nproc)" SAN=1 all $(ls tests/unit/test_*.c | sed 's|tests/unit/\(.*\)\.c|build/san/tests/\1|'); then
    echo "-- sanitizer build: $((SECONDS - t0)) s"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
    run_unit build/san
    # RELAYKIT_SAN: the tests that run none of the build's programs (the TVM scripts with the
    # fake TVM, fresh-check, the grammar's bindings, check-docs, installing) skip: they would
    # only run again what the release pass ran
    RELAYKIT_SAN=1 run_bats "$root/build/san/bin/rfmt" "asan+ubsan"
    run_counted "typing cases (asan+ubsan)" env RCHECK="$root/build/san/bin/rcheck" bash tests/typecheck/run.sh
  else
    failed=$((failed + 1)); echo "FAILED: sanitizer build"
  fi
  run_one "grammar is up to date" bash tests/grammar_check.sh
  run_one "libFuzzer smoke run: parser" fuzz_smoke fuzz_parse 100000
  run_one "libFuzzer smoke run: type checker" fuzz_smoke fuzz_check 75000
  run_one "libFuzzer smoke run: reduction passes" fuzz_smoke fuzz_reduce 25000
  run_one "libFuzzer smoke run: comments, strings, meta references, brackets" fuzz_smoke fuzz_comments 100 tests/fuzz/comments_seeds 60
fi
echo "(all suites: $SECONDS s)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
