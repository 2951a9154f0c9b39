#!/usr/bin/env bash
# Arm "hirgen": HirGen's loop as its experiments ran it (the experiment branch's run.py: run
# `hirgen -testing=df -coverage=yes`, which writes output.py and keeps its coverage guidance in
# cov.csv, then run output.py), for MINUTES. Each output.py runs under hirgen_case.py, which keeps
# the Relay text of the module each TVM step was given and says what happened (see there).
#   hirgen.sh ARMDIR MINUTES SEED      (bench/peers/run.sh runs it; lib.sh says what it leaves)
# PEER_HOME is the HirGen checkout: it is built (cmake, one job, niced) from a copy with
# patches/hirgen.patch into PEERS_CACHE/hirgen-HASH (once per source and patch, before the clock);
# case N of the trial seeds HirGen with SEED * 1000003 + N.
set -u
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
dir=$1 minutes=$2 seed=$3
home=${PEER_HOME:?hirgen.sh: PEER_HOME must be the HirGen checkout}
cache=${PEERS_CACHE:-$dir/cache}
hash=$( (cd "$home" && find CMakeLists.txt src include -type f | sort | xargs cat; cat "$peers_here/patches/hirgen.patch") | sha1sum | cut -c1-12)
build=$cache/hirgen-$hash
mkdir -p "$cache"
# two trials may start at once on two cores (run.sh --cpus): one builds, the other waits for it
exec 9> "$cache/hirgen-$hash.lock"
flock 9
if [ ! -x "$build/build/hirgen" ]; then
  peer_copy "$home" "$build" hirgen || exit 1
  { cmake -S "$build" -B "$build/build" -DCMAKE_BUILD_TYPE=Release && nice -n 5 cmake --build "$build/build" -j 1; } \
    > "$build/build.log" 2>&1 || {
    echo "hirgen.sh: building HirGen failed: $(tail -n 1 "$build/build.log") (see $build/build.log)" >&2
    exit 1
  }
fi
flock -u 9
mkdir -p "$dir/work" "$dir/cases"
cd "$dir/work" || exit 1
start_clock "$dir"
deadline=$(($(cat "$dir/started") + minutes * 60))
n=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  n=$((n + 1))
  case=$dir/cases/$n
  mkdir -p "$case"
  rm -f output.py
  HIRGEN_SEED=$((seed * 1000003 + n)) "$build/build/hirgen" -testing=df -coverage=yes > "$case/hirgen.log" 2>&1
  if [ ! -s output.py ]; then # HirGen made no test: not a program
    printf '%s\tnogen\n' "$n" >> "$dir/cases.tsv"
    continue
  fi
  cp output.py "$case/test.py"
  # 60 s a test, as GenCoG's loop and the oracle server give a program
  TVM_BACKTRACE=1 timeout -k 5 60 python3 "$peers_here/hirgen_case.py" "$case/test.py" "$case" > "$case/log" 2>&1
  printf '%s\t%s\n' "$n" "$?" >> "$dir/cases.tsv"
  grep -q '"verdict": "ok"' "$case/verdict.json" 2> /dev/null && rm -rf "$case"
done
python3 - "$dir" << 'EOF'
import json, os, shutil, sys
d = sys.argv[1]
stats = {"programs": 0, "invalid": 0, "timeouts": 0, "failures": 0}
peer = {"no_test": 0, "steps": {}, "unsaved": 0}
for line in open(d + "/cases.tsv") if os.path.exists(d + "/cases.tsv") else []:
    n, rc = line.split()
    if rc == "nogen":
        peer["no_test"] += 1
        continue
    stats["programs"] += 1
    case = "%s/cases/%s" % (d, n)
    if rc in ("124", "137"):  # timeout's own statuses: the test ran out of time
        stats["timeouts"] += 1
        continue
    if not os.path.isdir(case):  # passed (its case was removed)
        continue
    try:
        v = json.load(open(case + "/verdict.json"))
    except (OSError, ValueError):  # no verdict: the test died (a signal) in the step it was at
        try:
            step = json.load(open(case + "/step.json"))
        except (OSError, ValueError):
            step = {"step": None, "args": None}
        v = {"verdict": "failure", "step": "crash in %s" % step["step"], "args": step["args"]}
    if v["verdict"] == "invalid":
        stats["invalid"] += 1
        continue
    if v["verdict"] != "failure":
        continue
    stats["failures"] += 1
    peer["steps"][v["step"]] = peer["steps"].get(v["step"], 0) + 1
    if not v.get("args") or not os.path.exists(case + "/program.relay"):
        peer["unsaved"] += 1
        continue
    name = "%s/failures/hirgen-%s.relay" % (d, n)
    shutil.copyfile(case + "/program.relay", name)
    open(name + ".args", "w").write("\n".join(v["args"]) + "\n")
stats["valid"] = stats["programs"] - stats["invalid"] - stats["timeouts"]
stats["peer"] = peer
json.dump(stats, open(d + "/arm.json", "w"), indent=1)
EOF
