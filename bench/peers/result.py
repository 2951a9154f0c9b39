"""One arm's trial, measured with the same yardstick as every other: ARMDIR/result.json.

    result.py ARMDIR ARM TRIAL MINUTES BUGS.json

Reads what the arm said (arm.json: programs, valid, invalid, timeouts, failures), what the driver
measured (seconds, coverage.json, coverage-over-time.tsv) and relaykit's triage of the arm's
failures (triage.json: roracle --json; triage/: its --log-dir), and adds the known bugs of BUGS.json
(../shared/realbugs/bugs.json) met: a failure is known bug B when B's signature, TVM's words, is
found in its signature or in TVM's output, as `rfuzz --known bugs.json` matches them.
"""
import json
import os
import re
import sys


def load(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def over_time(path):
    """[[seconds, branches], ...] of coverage-over-time.tsv (a header line, then the rows)."""
    rows = []
    if os.path.exists(path):
        for line in open(path).read().splitlines()[1:]:
            s, b = line.split("\t")
            rows.append([int(s), int(b)])
    return rows


def words_found(text, words):
    """Whether a known bug's words are in text, each run of digits in them matching any run of
    digits ("expected 1, found 7" is the same check met on a function of 2 parameters)."""
    pattern = "".join(r"\d+" if part.isdigit() else re.escape(part) for part in re.split(r"(\d+)", words))
    return bool(words) and re.search(pattern, text) is not None


def known_met(logdir, bugs):
    """The ids of bugs.json's bugs that the logged failures met, in bugs.json's order."""
    met = set()
    for entry in sorted(os.listdir(logdir)) if os.path.isdir(logdir) else []:
        words = []
        try:
            words.append(open(os.path.join(logdir, entry, "output"), errors="replace").read())
        except OSError:
            pass
        outcome = load(os.path.join(logdir, entry, "outcome.json"), {})
        words += [outcome.get("signature") or "", outcome.get("output") or ""]
        text = "\n".join(words)
        # the first bug that names it, numbers aside, as rfuzz's known_bug() (campaign/known.c)
        hit = next((b["id"] for b in bugs if words_found(text, b["signature"])), None)
        if hit:
            met.add(hit)
    return [b["id"] for b in bugs if b["id"] in met]


def main():
    d, arm, trial, minutes, bugs_path = sys.argv[1:6]
    r = {"arm": arm, "trial": int(trial), "seed": int(trial), "minutes": int(minutes)}
    arm_json = load(os.path.join(d, "arm.json"))
    if arm_json is None:
        r["error"] = "the arm wrote no arm.json (see %s/arm.log)" % d
    else:
        r.update(arm_json)
    seconds = load(os.path.join(d, "seconds"))
    r["seconds"] = seconds if isinstance(seconds, int) else None
    # the core it ran on, how many arms ran at once, the machine's 1-minute load at its start and end
    r["machine"] = load(os.path.join(d, "machine.json"), {})
    cov = load(os.path.join(d, "coverage.json"), {})
    r["coverage"] = cov
    r["branches"] = cov.get("relay", [0, 0])[0]
    r["over_time"] = over_time(os.path.join(d, "coverage-over-time.tsv"))
    groups = load(os.path.join(d, "triage.json"), [])
    by_class = {}
    for g in groups:
        by_class[g["class"]] = by_class.get(g["class"], 0) + 1
    r["triage"] = {"check": "tvm-server --args-beside --timeout 60: each file under its NAME.relay.args",
                   "files": len([f for f in os.listdir(os.path.join(d, "failures")) if f.endswith(".relay")])
                   if os.path.isdir(os.path.join(d, "failures")) else 0,
                   "still_failing": sum(g["count"] for g in groups), "classes": by_class}
    r["groups"] = len(groups)
    r["bug_groups"] = by_class.get("bug", 0)
    r["known_bugs"] = known_met(os.path.join(d, "triage"), load(bugs_path, []))
    with open(os.path.join(d, "result.json"), "w") as f:
        json.dump(r, f, indent=1)


if __name__ == "__main__":
    main()
