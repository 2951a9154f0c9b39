#!/usr/bin/env python3
"""Which failure groups of an rfuzz campaign (CAMPAIGN/campaign.json) or of roracle's --json are
the real bugs of ../shared/realbugs (bugs.json: each bug's signature), and which are new.
A group is a known real bug when the bug's signature, with numbers masked as the signatures
mask them, occurs in the group's signature.  Usage: rfuzz_classify.py BUGS.json FILE..."""
import json
import re
import sys


def mask(text):
    return re.sub(r"\d+", "<n>", " ".join(text.split()))


def groups_of(path):
    data = json.load(open(path))
    if isinstance(data, dict):  # an rfuzz campaign
        return [(g["key"], g["count"], g.get("reduced_bytes", -1), g.get("first_bytes", -1)) for g in data["groups"]]
    return [(g["signature"], g["count"], -1, g.get("bytes", -1)) for g in data]  # roracle --json


def main():
    bugs = json.load(open(sys.argv[1]))
    bugs = bugs if isinstance(bugs, list) else bugs.get("bugs", [])
    for path in sys.argv[2:]:
        groups = groups_of(path)
        real = {}
        for key, _, _, _ in groups:
            for b in bugs:
                if mask(b["signature"]) in mask(key):
                    real.setdefault(b["id"], []).append(key)
        print("%s: %d groups, %d failures; real bugs found: %s" % (
            path, len(groups), sum(g[1] for g in groups),
            ", ".join("%s (%d group%s)" % (k, len(v), "" if len(v) == 1 else "s") for k, v in sorted(real.items()))
            or "none"))


if __name__ == "__main__":
    main()
