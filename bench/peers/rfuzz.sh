#!/usr/bin/env bash
# Arm "rfuzz": rfuzz as shipped (its default feedback: TVM's coverage when the oracle reports it,
# else features), run as bench/coverage.sh runs its arms a and b, for MINUTES with seed SEED.
#   rfuzz.sh ARMDIR MINUTES SEED      (bench/peers/run.sh runs it; lib.sh says what it leaves)
# rfuzz keeps the first program of each of its groups only: those are its failures/ files, under
# the check rfuzz found them with. Invalid: ill-typed mutants TVM rejected cleanly (rfuzz makes
# them on purpose) and failures of the class "rejected" (an input TVM refuses).
set -u
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
dir=$1 minutes=$2 seed=$3
start_clock "$dir"
"$bin/rfuzz" --oracle "$I/tvm-server --args-beside --timeout 60" --minutes "$minutes" --seed "$seed" \
  --no-reduce -q --json -o "$dir/campaign" > "$dir/summary.json" 2> "$dir/rfuzz.log" || {
  echo "rfuzz.sh: rfuzz failed: $(tail -n 1 "$dir/rfuzz.log")" >&2
  exit 1
}
python3 - "$dir" << 'EOF'
import json, os, shutil, sys
d = sys.argv[1]
c = json.load(open(d + "/campaign/campaign.json"))
n = c["counts"]
invalid = n["ill_rejected"] + n["rejected"]
saved = 0
for g in c["groups"]:
    if g["class"] == "rejected" or g["key"] == "timeout":
        continue
    src = "%s/campaign/groups/%03d" % (d, g["id"])
    name = "%s/failures/rfuzz-%03d.relay" % (d, g["id"])
    shutil.copyfile(src + "/first.relay", name)
    shutil.copyfile(src + "/args", name + ".args")
    saved += 1
json.dump({"programs": n["programs"], "invalid": invalid, "valid": n["programs"] - invalid,
           "timeouts": n["timeouts"], "failures": n["failed"] - n["rejected"] - n["timeouts"],
           "saved": saved, "peer": {"groups": len(c["groups"]), "feedback": c.get("feedback")}},
          open(d + "/arm.json", "w"), indent=1)
EOF
