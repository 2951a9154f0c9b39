#!/usr/bin/env bash
# bench/triage.sh [ROUNDS]: how well rfuzz's grouping matches real bugs (issue 27), against two
# baselines run on the same failures (bench/triage.py: pairwise precision and recall).
#
#  (a) planted bugs in the fake TVM (tests/cli/fake_tvm), several of each kind where it makes
#      grouping hard: two build crashes (the same message, "signal SIGSEGV", other frames), two
#      pass-order errors, a wrong result, a type-checker crash, a limitation; an rfuzz campaign
#      of build, diff and ill-typed rounds meets them through many programs; the fake labels
#      each failure with the rule that fired (FAKE_TVM_LABELS), the ground truth;
#  (b) with a real TVM importable (RELAYKIT_PYTHON, TVM_HOME): the ten real bugs of
#      ../shared/realbugs, each grown into five or more failing programs (joined into different
#      corpus models, mutated around the bug: tests/tvm/triage_realbugs.py), asked of tvm-server
#      with each bug's own check; labelled by the bug they were grown from.
# Part (b) is skipped, with a line saying so, without TVM.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-300}
CORPUS=$ROOT/../shared/corpus
PY=${RELAYKIT_PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/relaykit-triage.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

echo "## (a) planted bugs in the fake TVM, $ROUNDS rounds"
mkdir "$work/seeds"
cp "$CORPUS/models/mlp.relay" "$CORPUS/models/resnet-18.relay" "$CORPUS/models/dqn.relay" "$work/seeds/"
export FAKE_TVM_PLANTED='build-segv:nn.softmax;build-segv:nn.dense;pass-error:FoldConstant>FuseOps;pass-error:SimplifyExpr>AlterOpLayout;diff:3:nn.relu;typecheck-abort:add;limit:nn.batch_flatten'
export FAKE_TVM_LABELS=$work/labels PYTHONPATH=$ROOT/tests/cli/fake_tvm
for py in python3 /usr/bin/python3; do # tvm-diff's inputs need numpy
  if "$py" -c 'import numpy' 2> /dev/null; then export RELAYKIT_PYTHON=$py; break; fi
done
"$ROOT/bin/rfuzz" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 30" --seeds "$work/seeds" \
  --passes FoldConstant,FuseOps,SimplifyExpr,AlterOpLayout --mix build=6,diff=3,ill-typed=1 --rounds "$ROUNDS" \
  --reduce all --reduce-minutes 1 --seed 7 -q -o "$work/camp"
python3 - "$work/camp" "$work/labels" > "$work/scored.jsonl" <<'PY'
import json, sys
camp, labels_path = sys.argv[1], sys.argv[2]
labels = {}
for line in open(labels_path):
    h, rule = line.split()
    labels.setdefault(h, rule)
groups = {g["id"]: g.get("merged_into") or g["id"] for g in json.load(open(camp + "/campaign.json"))["groups"]}
last = {}
for line in open(camp + "/failures.jsonl"):
    f = json.loads(line)
    last[f["program"]] = f  # a resumed campaign's repeated rounds: the last line counts
unlabelled = 0
for f in last.values():
    label = labels.get(f["program_hash"])
    if label is None or f["group"] is None:
        unlabelled += 1
        continue
    print(json.dumps({"label": label, "rfuzz": groups[f["group"]], "signature": f["signature"],
                      "kind": f["kind"], "frames": f["frames"]}))
sys.stderr.write("(a) %d failures, %d without a planted label (not scored)\n" % (len(last), unlabelled))
PY
python3 "$ROOT/bench/triage.py" score "$work/scored.jsonl"

echo
echo "## (b) the real bugs of ../shared/realbugs, grown"
unset FAKE_TVM_PLANTED FAKE_TVM_LABELS PYTHONPATH RELAYKIT_PYTHON
if [ -n "${TVM_HOME:-}" ]; then export PYTHONPATH=$TVM_HOME/python; fi
if ! "$PY" -c 'import tvm, tvm.relay' > /dev/null 2>&1; then
  echo "skipped: no TVM importable ($PY)"
  exit 0
fi
"$PY" "$ROOT/tests/tvm/triage_realbugs.py" --bugs "$ROOT/../shared/realbugs" --out "$work/real.jsonl"
python3 "$ROOT/bench/triage.py" score "$work/real.jsonl"
