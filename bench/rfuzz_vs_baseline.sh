#!/usr/bin/env bash
# Issue 15's measurement: an rfuzz campaign against a real TVM, side by side with the open-loop
# baseline of the same length (rgen with the GenCoG policy, every program given to relay.build
# through roracle), each on its own core.  Needs `import tvm` (TVM_HOME / PYTHONPATH,
# RELAYKIT_PYTHON); run it outside CI:
#   bench/rfuzz_vs_baseline.sh [MINUTES] [OUTDIR]      (default 60, build/rfuzz-bench)
# OUTDIR/campaign is the campaign (index.md), OUTDIR/baseline.json roracle's groups; both are
# matched against ../shared/realbugs (bench/rfuzz_classify.py). OUTDIR/groups.md names each of
# the campaign's groups by its reduced program, bugs first (bench/rfuzz_groups.py).
set -u
cd "$(dirname "$0")/.."
minutes=${1:-60}
out=${2:-build/rfuzz-bench}
I=$PWD/interestingness
python=${RELAYKIT_PYTHON:-python3}
if ! "$python" -c 'import tvm' 2>/dev/null; then
  echo "skipped: no TVM importable (set TVM_HOME / PYTHONPATH / RELAYKIT_PYTHON)"
  exit 0
fi
make -s all || exit 1
mkdir -p "$out"
rm -rf "$out/campaign" "$out/baseline-programs"

bin/rgen -n 20000 --seed 1 --policy examples/policy-gencog.json -o "$out/baseline-programs"
start=$(date +%s)
bin/rfuzz --oracle "$I/tvm-server --args-beside --timeout 60" --minutes "$minutes" --reduce-minutes 5 \
  -q --json -o "$out/campaign" > "$out/campaign.json.summary" 2> "$out/campaign.log" &
fuzz=$!
# roracle reads the server's answers as rfuzz does (0, or a signature: a failure)
timeout -s INT "$((minutes * 60))" bin/roracle -j 1 --timeout 90 --json \
  --server "$I/tvm-server build --opt-level 3 --timeout 60" \
  "$out/baseline-programs" > "$out/baseline.json" 2> "$out/baseline.log"
wait $fuzz
echo "wall: $(( $(date +%s) - start )) s"
echo "== rfuzz"; head -n 3 "$out/campaign/index.md" | tail -n 1
grep -c '^| \[' "$out/campaign/index.md" | sed 's/^/groups: /'
echo "== baseline (rgen GenCoG policy -> roracle)"; tail -n 1 "$out/baseline.log"
python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["counts"]
print("failures by class: %d bugs, %d limitations, %d rejected inputs" % (n["bugs"], n["limitations"], n["rejected"]))
print("diff programs: %d, %d compared, %d wrong results" % (n["diff_rounds"], n["diff_compared"], n["diff_wrong"]))' \
  "$out/campaign/campaign.json"
for cls in bug limitation rejected; do
  echo "## ${cls}s"
  python3 bench/rfuzz_groups.py --class "$cls" "$out/campaign"
  echo
done > "$out/groups.md"
if [ -f ../shared/realbugs/bugs.json ]; then
  python3 bench/rfuzz_classify.py ../shared/realbugs/bugs.json "$out/campaign/campaign.json" "$out/baseline.json"
fi
