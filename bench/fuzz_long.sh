#!/usr/bin/env bash
# A long libFuzzer campaign on every harness at once (issue 17: "run each harness for an hour
# locally, outside CI").  Each harness starts from the real programs plus every past regression
# and is restarted after a finding until its time is up, so one crash does not end the hour.
# Usage: bench/fuzz_long.sh [SECONDS] [OUTDIR]  (default 3600 s, build/fuzz-long)
# Findings land in OUTDIR/NAME/artifacts; copy each into tests/fuzz/regressions once fixed.
set -u
cd "$(dirname "$0")/.."
secs=${1:-3600}
out=${2:-build/fuzz-long}
make -s fuzz || exit 1
run_one() { # harness
  local dir="$out/$1" start=$SECONDS left
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp ../shared/corpus/tvm-tests/*.relay ../shared/corpus/features/*.relay "$dir/corpus"/ 2>/dev/null
  while left=$((secs - (SECONDS - start))); [ "$left" -gt 5 ]; do
    nice -n 19 build/fuzz/"$1" -max_total_time="$left" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" tests/fuzz/regressions \
      >> "$dir/log" 2>&1
    echo "== exit $? after $((SECONDS - start)) s" >> "$dir/log"
  done
}
for h in fuzz_parse fuzz_check fuzz_reduce; do run_one "$h" & done
wait
for h in fuzz_parse fuzz_check fuzz_reduce; do
  execs=$(grep -h 'stat::number_of_executed_units' "$out/$h/log" | awk '{s += $2} END {print s + 0}')
  echo "$h: $execs inputs in ${secs} s, findings $(ls "$out/$h/artifacts" | wc -l)"
done
