#!/usr/bin/env python3
"""Scores failure grouping against ground truth (bench/triage.sh, issue 27).

  triage.py score FAILURES.jsonl [--markdown]
      FAILURES.jsonl: one failure a line, {"label": L, "rfuzz": GROUP, "signature": S, "kind": K,
      "frames": [...]}: L the bug it really is, GROUP the group rfuzz put it in. Prints pairwise
      precision and recall of rfuzz's grouping and of two baselines on the same failures:
      message-only (GenCoG's and OATest's dedup: the signature, numbers and addresses masked) and
      ClusterFuzz's crash state (the kind of failure and the top 3 frames).

Pairwise: over every pair of failures, precision is the share of pairs grouped together that
have the same label, recall the share of pairs with the same label that are grouped together."""
import collections
import json
import re
import sys

_ADDR = re.compile(r"0[xX][0-9a-fA-F]+")
_NUM = re.compile(r"(?<![A-Za-z_])-?\d+(\.\d+)?")


def masked(sig):
    """A signature as message-only dedup compares it: addresses and numbers masked."""
    return _NUM.sub("<n>", _ADDR.sub("<addr>", sig or ""))


def crash_state(f):
    """ClusterFuzz's key: the crash type and the top 3 frames (the type alone without frames)."""
    return "%s | %s" % (f.get("kind") or "?", " | ".join((f.get("frames") or [])[:3]))


def pairs(keys):
    """(same group, same label) counts over all pairs, from a list of (group, label)."""
    by_group = collections.Counter(g for g, _ in keys)
    by_label = collections.Counter(l for _, l in keys)
    by_both = collections.Counter(keys)
    choose2 = lambda n: n * (n - 1) // 2  # noqa: E731
    together = sum(choose2(n) for n in by_group.values())
    same = sum(choose2(n) for n in by_label.values())
    right = sum(choose2(n) for n in by_both.values())
    return together, same, right


def score(failures, group_of):
    together, same, right = pairs([(group_of(f), f["label"]) for f in failures])
    precision = right / together if together else 1.0
    recall = right / same if same else 1.0
    groups = len(set(group_of(f) for f in failures))
    return precision, recall, groups


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "score":
        sys.exit(__doc__)
    failures = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
    labels = len(set(f["label"] for f in failures))
    rules = [("rfuzz (stage, message, innermost frame; merged after reduction)", lambda f: f["rfuzz"]),
             ("message only (GenCoG, OATest)", lambda f: masked(f["signature"])),
             ("crash type + top 3 frames (ClusterFuzz)", crash_state)]
    print("%d failures of %d bugs" % (len(failures), labels))
    print("| grouping | groups | pairwise precision | pairwise recall |")
    print("|---|---:|---:|---:|")
    for name, rule in rules:
        p, r, g = score(failures, rule)
        print("| %s | %d | %.3f | %.3f |" % (name, g, p, r))


if __name__ == "__main__":
    main()
