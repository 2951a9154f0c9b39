#!/usr/bin/env python3
# Ground truth for rfuzz's grouping on real TVM bugs (issue 27; bench/triage.sh part b): each of
# the ten bugs of ../shared/realbugs grown into several failing programs (its repro joined into
# different corpus models with `rfmt --join`, then rmutate mutants of those around the bug),
# each kept only when TVM still fails on it in the bug's stage with the bug's error, asked of
# tvm-server with the bug's own check (without --match: the answer says what TVM says), and
# written as one line {"label": BUG, "rfuzz": KEY, "signature", "kind", "frames"} for
# bench/triage.py, KEY being what `rfuzz key` gives the failure.
"""triage_realbugs.py --out FILE.jsonl [--bugs DIR] [--per-bug N] [--only ID,...]"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import realbugs  # noqa: E402  pylint: disable=wrong-import-position

BIN = os.path.join(ROOT, "bin")
MODELS = ("mlp", "resnet-18", "dqn", "mobilenet", "squeezenet_v1.1", "dcgan", "lstm", "resnet3d-18",
          "inception_v3", "vgg-16")


def ask(server, paths, check):
    """[(answer line, outcome object or None)] of tvm-server for the programs, with `check`."""
    work = tempfile.mkdtemp(prefix="relaykit-triage-")
    args = os.path.join(work, "check.args")
    with open(args, "w") as f:
        f.write("\n".join(check) + "\n")
    env = dict(os.environ, RELAYKIT_ORACLE_OUTCOME="1")
    p = subprocess.run([server, "--args-from", args, "--timeout", "300"], input="".join(p + "\n" for p in paths),
                       capture_output=True, text=True, env=env)
    answers = p.stdout.splitlines()
    out = []
    for path, answer in zip(paths, answers):
        try:
            with open(path + ".outcome") as f:
                outcome = json.load(f)
        except (IOError, ValueError):
            outcome = None
        out.append((answer, outcome))
    shutil.rmtree(work, ignore_errors=True)
    return out


def grow(bug_dir, bid, per_bug, work):
    """Programs grown from the bug's repro: joined into models, then mutants of those."""
    repro = os.path.join(bug_dir, bid, "repro.relay")
    out = []
    for model in MODELS:
        src = os.path.join(ROOT, "..", "shared", "corpus", "models", model + ".relay")
        if not os.path.exists(src):
            continue
        dst = os.path.join(work, "%s-join-%s.relay" % (bid, model))
        with open(dst, "w") as f:
            if subprocess.call([os.path.join(BIN, "rfmt"), "--join", src, repro], stdout=f, stderr=subprocess.DEVNULL):
                continue
        out.append(dst)
    # mutants of the repro itself: the bug's operators stay (rmutate changes one subtree)
    mut = os.path.join(work, bid + "-mutants")
    subprocess.call([os.path.join(BIN, "rmutate"), repro, "-n", str(per_bug * 2), "--seed", "1", "-o", mut, "-q"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out += sorted(glob.glob(os.path.join(mut, "*.relay")))
    return out


def keys(records):
    """`rfuzz key` over (signature, outcome) pairs."""
    lines = "".join(json.dumps({"signature": s, "outcome": o}) + "\n" for s, o in records)
    p = subprocess.run([os.path.join(BIN, "rfuzz"), "key"], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(l)["key"] for l in p.stdout.splitlines()]


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--bugs", default=os.path.join(ROOT, "..", "shared", "realbugs"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-bug", type=int, default=5)
    ap.add_argument("--only")
    a = ap.parse_args()
    with open(os.path.join(a.bugs, "bugs.json")) as f:
        bugs = json.load(f)
    only = set(a.only.split(",")) if a.only else None
    server = os.path.join(ROOT, "interestingness", "tvm-server")
    work = tempfile.mkdtemp(prefix="relaykit-grown-")
    records, labels, table = [], [], []
    for bug in bugs:
        bid = bug["id"]
        if (only and bid not in only) or bid not in realbugs.BUGS:
            continue
        check = realbugs.BUGS[bid][0]
        signature = re.compile(re.escape(bug["signature"]))
        programs = grow(a.bugs, bid, a.per_bug, work)
        kept = 0
        for path, (answer, outcome) in zip(programs, ask(server, programs, check)):
            status, _, sig = answer.partition(" ")
            text = sig + "\n" + (outcome or {}).get("output", "")
            if status != "0" or not signature.search(text):
                continue  # not this bug (another failure, or none): no label to give it
            records.append((sig, outcome))
            labels.append(bid)
            kept += 1
            if kept == a.per_bug * 2:
                break
        table.append((bid, len(programs), kept))
    with open(a.out, "w") as f:
        for (sig, outcome), label, key in zip(records, labels, keys(records)):
            f.write(json.dumps({"label": label, "rfuzz": key, "signature": sig,
                                "kind": (outcome or {}).get("kind", ""), "frames": (outcome or {}).get("frames", [])}) + "\n")
    for bid, grown, kept in table:
        sys.stderr.write("%-45s %3d grown, %3d fail with the bug%s\n" % (bid, grown, kept,
                                                                      "" if kept >= a.per_bug else "  (fewer than %d)" % a.per_bug))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
