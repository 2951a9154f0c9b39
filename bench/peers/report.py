"""The table and the plot of a bench/peers run, from its OUTDIR/ARM-TRIAL/result.json files.

    report.py OUTDIR [--table-only]   writes OUTDIR/RESULTS.md, then OUTDIR/coverage.png and .svg

The table: per arm, the median and the range over its trials of each count; then rfuzz's ratio
over every other arm, on src/relay branches and on bug groups (medians), each with a plain word on
whether the margin is inside the trials' spread (the two arms' ranges overlap). The plot: src/relay
branches over the arm's clock, the median of its trials drawn as a line and their range as a band.
Without matplotlib the table is written all the same.
"""
import glob
import json
import os
import statistics
import sys

ORDER = ("rfuzz", "rfuzz-open", "gencog", "nnsmith", "hirgen")
COLUMNS = (("branches", "src/relay branches"), ("programs", "programs run"), ("valid", "valid"),
           ("invalid", "invalid"), ("failures", "failures"), ("groups", "distinct groups"),
           ("bug_groups", "bug groups"), ("known", "known bugs met"))


def load(out):
    """{arm: [result, ...] in trial order} of the trials that ran, and the ones that failed."""
    arms, failed = {}, []
    for path in sorted(glob.glob(os.path.join(out, "*", "result.json"))):
        r = json.load(open(path))
        r["known"] = len(r.get("known_bugs", []))
        if "error" in r:
            failed.append(r)
        else:
            arms.setdefault(r["arm"], []).append(r)
    for runs in arms.values():
        runs.sort(key=lambda r: r["trial"])
    order = [a for a in ORDER if a in arms] + sorted(a for a in arms if a not in ORDER)
    return [(a, arms[a]) for a in order], failed


def num(x):
    return "%d" % x if x == int(x) else "%.1f" % x


def cell(values):
    """'median (min-max)', or the one value of a single trial."""
    med = statistics.median(values)
    if len(values) == 1:
        return num(med)
    return "%s (%s-%s)" % (num(med), num(min(values)), num(max(values)))


def compare(name, mine, theirs, what):
    """rfuzz over `name` on `what`: the ratio of medians and whether the margin is inside the spread."""
    a, b = statistics.median(mine), statistics.median(theirs)
    ratio = "%.2fx" % (a / b) if b else ("n/a (both 0)" if not a else "inf (%s has 0)" % name)
    line = "- rfuzz / %s, %s: %s (medians %s / %s)" % (name, what, ratio, num(a), num(b))
    if len(mine) == 1 and len(theirs) == 1:
        return line + "; one trial each: no spread to judge the margin by"
    if max(min(mine), min(theirs)) <= min(max(mine), max(theirs)):
        return line + "; the margin is inside the trials' spread (ranges %s-%s and %s-%s overlap)" % (
            num(min(mine)), num(max(mine)), num(min(theirs)), num(max(theirs)))
    return line + "; every trial of %s is %s every trial of %s" % (
        "rfuzz", "above" if a > b else "below", name)


def table(arms, failed):
    lines = []
    runs = [r for _, rs in arms for r in rs]
    if runs:
        trials = max(len(rs) for _, rs in arms)
        m = runs[0]["minutes"]
        at_once = max(r.get("machine", {}).get("cpus", 1) for r in runs)
        loads = [x for r in runs for x in (r.get("machine", {}).get("load_start"), r.get("machine", {}).get("load_end"))
                 if x is not None]
        lines.append("%d trial%s of %d minute%s per arm, each arm on one core, %s; median (range) over the trials%s\n"
                     % (trials, "" if trials == 1 else "s", m, "" if m == 1 else "s",
                        "one arm at a time" if at_once == 1 else "%d arms at a time on %d cores" % (at_once, at_once),
                        "; the machine's 1-minute load at the arms' starts and ends: %.1f to %.1f" % (min(loads), max(loads))
                        if loads else ""))
    if runs and not any(r["coverage"].get("relay", [0, 0])[1] for r in runs):
        lines.append("(no coverage measured: a dry run, PEERS_DRY=1)\n")
    lines.append("| arm | " + " | ".join(title for _, title in COLUMNS) + " |")
    lines.append("|---" * (len(COLUMNS) + 1) + "|")
    for arm, rs in arms:
        lines.append("| %s | " % arm + " | ".join(cell([r[k] for r in rs]) for k, _ in COLUMNS) + " |")
    lines.append("\nGroups are roracle's over each arm's failing programs, each asked again in a fresh TVM "
                 "process under the check it failed (NAME.relay.args); what did not fail again counts for "
                 "no arm. Bug groups are those it classes as bugs (not limitations or rejected inputs); "
                 "known bugs are those of ../shared/realbugs/bugs.json met.\n")
    mine = dict(arms).get("rfuzz")
    if mine:
        for arm, rs in arms:
            if arm == "rfuzz":
                continue
            lines.append(compare(arm, [r["branches"] for r in mine], [r["branches"] for r in rs], "src/relay branches"))
            lines.append(compare(arm, [r["bug_groups"] for r in mine], [r["bug_groups"] for r in rs], "bug groups"))
    for r in failed:
        lines.append("- %s-%d did not run to the end: %s" % (r["arm"], r["trial"], r["error"]))
    return "\n".join(lines) + "\n"


def step(points, t):
    """The branches a trial had reached at second t (its last measure at or before t)."""
    return max([b for s, b in points if s <= t] or [0])


def plot(arms, out):
    try:
        import matplotlib  # pylint: disable=import-outside-toplevel
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel
    except ImportError:
        print("report.py: no matplotlib (apt-get install python3-matplotlib): no coverage plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for arm, rs in arms:
        series = [[[0, 0]] + r["over_time"] for r in rs]
        times = sorted(set(s for pts in series for s, _ in pts))
        at = [[step(pts, t) for pts in series] for t in times]
        minutes = [t / 60.0 for t in times]
        # lines between the measures (every PEERS_SNAPSHOT_SECONDS), a dot at each: a step would
        # draw "nothing covered" until the first measure
        line, = ax.plot(minutes, [statistics.median(v) for v in at], marker=".", label=arm)
        ax.fill_between(minutes, [min(v) for v in at], [max(v) for v in at],
                        color=line.get_color(), alpha=0.2, linewidth=0)
    ax.set_xlabel("minutes of the arm's clock")
    ax.set_ylabel("src/relay branches covered")
    trials = max(len(rs) for _, rs in arms)
    ax.set_title("TVM's src/relay branches over time: median of %d trial%s, range shaded"
                 % (trials, "" if trials == 1 else "s"))
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)  # outside: no curve hidden
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, "coverage." + ext), bbox_inches="tight", dpi=120)


def main():
    out = sys.argv[1]
    arms, failed = load(out)
    with open(os.path.join(out, "RESULTS.md"), "w") as f:
        f.write(table(arms, failed))
    if arms and "--table-only" not in sys.argv[2:]:
        plot(arms, out)


if __name__ == "__main__":
    main()
