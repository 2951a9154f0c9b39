#!/usr/bin/env python3
"""Each group of an rfuzz campaign named by its reduced program, as a Markdown table for
bench/RESULTS.md (issue 27: "each bug group named by its reduced program").

    python3 bench/rfuzz_groups.py CAMPAIGN [--class bug|limitation|rejected|all] [--width N]

A group's program is its reduced.relay (else first.relay, marked "not reduced"), shown as the
body of @main on one line: the bindings joined by "; ", comments and the version header left
out, cut to --width characters. Groups merged into another after reduction are left out (their
failures count in the group they joined)."""
import argparse
import json
import os
import re
import sys


def one_line(text, width):
    """The program's body on one line: comments, the version header and metadata dropped."""
    text = text.split("#[metadata]")[0]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^#\[version[^\n]*\n", "", text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    flat = " ".join(lines)
    flat = re.sub(r"\s+", " ", flat).replace("{ ", "{").replace(" }", "}")
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def cell(text):
    return "`%s`" % text.replace("`", "'").replace("|", "\\|")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("campaign")
    ap.add_argument("--class", dest="cls", default="bug", choices=["bug", "limitation", "rejected", "all"])
    ap.add_argument("--width", type=int, default=160)
    a = ap.parse_args()
    try:
        with open(os.path.join(a.campaign, "campaign.json")) as f:
            c = json.load(f)
    except (OSError, ValueError) as e:
        print("rfuzz_groups.py: %s: not a campaign (%s)" % (a.campaign, e), file=sys.stderr)
        return 2
    rows = []
    for g in c.get("groups", []):
        if g.get("merged_into") or (a.cls != "all" and g.get("class") != a.cls):
            continue
        d = os.path.join(a.campaign, "groups", "%03d" % g["id"])
        name, note = os.path.join(d, "reduced.relay"), ""
        if not os.path.exists(name):
            name, note = os.path.join(d, "first.relay"), "not reduced: "
        try:
            with open(name) as f:
                program = note + one_line(f.read(), a.width)
        except OSError:
            program = "(no program)"
        sig = g.get("key", "")
        sig = sig if len(sig) <= 140 else sig[:137] + "..."
        rows.append((g["id"], g.get("class", ""), g.get("count", 0), g.get("reduced_bytes", -1), program, sig))
    print("| group | class | failures | reduced | program | signature |")
    print("|---|---|---:|---:|---|---|")
    for gid, cls, count, size, program, sig in rows:
        print("| %03d | %s | %d | %s | %s | %s |" % (gid, cls, count, "%d B" % size if size >= 0 else "-", cell(program),
                                                   cell(sig)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
