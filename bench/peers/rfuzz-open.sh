#!/usr/bin/env bash
# Arm "rfuzz-open": rfuzz's open loop, as bench/coverage.sh's arm c: rgen with the GenCoG policy
# makes the programs before the clock starts, then roracle gives each one to relay.build at opt
# level 3 through the same server until MINUTES are over.
#   rfuzz-open.sh ARMDIR MINUTES SEED      (bench/peers/run.sh runs it; lib.sh says what it leaves)
# PEERS_OPEN_PROGRAMS programs are made (default 500 a minute, at most 20,000 as coverage.sh: more
# than one core builds in a minute, and 20,000 take minutes to generate). Invalid: failures of the
# class "rejected" (TVM refuses a program relaykit's checker accepts).
set -u
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
dir=$1 minutes=$2 seed=$3
n=${PEERS_OPEN_PROGRAMS:-$((minutes * 500 < 20000 ? minutes * 500 : 20000))}
"$bin/rgen" -n "$n" --seed "$seed" --policy "$root/examples/policy-gencog.json" -o "$dir/programs" 2> "$dir/rgen.log" || {
  echo "rfuzz-open.sh: rgen failed: $(tail -n 1 "$dir/rgen.log")" >&2
  exit 1
}
start_clock "$dir"
timeout --preserve-status -s INT "$((minutes * 60))" "$bin/roracle" -j 1 --timeout 90 --json --log-dir "$dir/log" \
  --server "$I/tvm-server build --opt-level 3 --timeout 60" "$dir/programs" > "$dir/roracle.json" 2> "$dir/roracle.log"
rc=$?
# 0 none failed, 1 some did, 130 the clock ran out (the files tested are still reported; timeout
# passes roracle's own status on, not its 124)
case $rc in 0 | 1 | 130) ;; *)
  echo "rfuzz-open.sh: roracle exited $rc: $(tail -n 1 "$dir/roracle.log")" >&2
  exit 1
  ;;
esac
python3 - "$dir" "$n" "$rc" << 'EOF'
import json, os, re, shutil, sys
d, n, rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
groups = json.load(open(d + "/roracle.json"))
m = re.search(r"interrupted after (\d+) of", open(d + "/roracle.log").read())
programs = int(m.group(1)) if m else n
failed = sum(g["count"] for g in groups)
invalid = sum(g["count"] for g in groups if g["class"] == "rejected")
timeouts = sum(g["count"] for g in groups if g["signature"] == "timeout")
keep = set(f for g in groups if g["class"] != "rejected" and g["signature"] != "timeout" for f in g["files"])
log = d + "/log"
for entry in sorted(os.listdir(log)) if os.path.isdir(log) else []:
    name = entry.split("-", 1)[1]
    if os.path.join(d, "programs", name) not in keep:
        continue
    shutil.copyfile(os.path.join(log, entry, name), os.path.join(d, "failures", "open-" + name))
    open(os.path.join(d, "failures", "open-" + name + ".args"), "w").write("build\n--opt-level\n3\n")
json.dump({"programs": programs, "invalid": invalid, "valid": programs - invalid, "timeouts": timeouts,
           "failures": failed - invalid - timeouts, "peer": {"generated": n}}, open(d + "/arm.json", "w"), indent=1)
EOF
