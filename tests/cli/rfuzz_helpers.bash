# Helpers of rfuzz's bats files (rfuzz.bats, rfuzz_coverage.bats).

# A Python with numpy (tvm-diff's inputs) and the fake tvm on its path.
use_fake_tvm() {
  export PYTHONPATH=$ROOT/tests/cli/fake_tvm
  local py
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import numpy' 2>/dev/null; then export RELAYKIT_PYTHON=$py; return 0; fi
  done
  skip "no Python with numpy (apt-get install python3-numpy)"
}

# The campaign's state without the clock: what must be the same for the same seed and answers.
state() {
  python3 -c '
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
for g in c["groups"]:
    g.pop("first_seconds")
c.pop("seconds")
print(json.dumps(c, sort_keys=True))' "$1"
}
