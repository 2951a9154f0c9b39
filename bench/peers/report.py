"""The table and the plot of a bench/peers run, from its OUTDIR/ARM-TRIAL/result.json files.

    report.py OUTDIR [--table-only] [--kept DIR]
                      writes OUTDIR/RESULTS.md, then OUTDIR/coverage.png and .svg

--kept DIR: the trials kept from earlier runs, one ARM-TRIAL.json each (bench/peers/results/ keeps
them in the repository: a TVM build and a run's files do not outlive the machine they were made
on, a trial's result does). OUTDIR's finished trials are added to DIR (a trial DIR holds from
another run is an error, never overwritten) and the table and plot are drawn from both. A kept
trial may have no curve (`over_time` empty: one transcribed from bench/RESULTS.md after its files
were lost, said in its "transcribed" field): it counts in the table, and the plot draws each arm
from the trials that have one, saying how many.

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


def keep(out, kept):
    """Copies OUTDIR's finished trials into the kept directory; False (having said why) when it
    already holds another run of one of them."""
    os.makedirs(kept, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(out, "*", "result.json"))):
        r = json.load(open(path))
        if "error" in r:
            continue
        dest = os.path.join(kept, "%s-%d.json" % (r["arm"], r["trial"]))
        if os.path.exists(dest):
            if json.load(open(dest)) != r:
                print("report.py: %s holds another run of %s's trial %d than %s: give the new one another "
                      "trial number (run.sh ... K-N)" % (dest, r["arm"], r["trial"], path), file=sys.stderr)
                return False
            continue
        with open(dest, "w") as f:
            json.dump(r, f, indent=1)
    return True


def load(out, kept=None):
    """{arm: [result, ...] in trial order} of the trials that ran (OUTDIR's, then the kept ones not
    already among them: keep() made those the same run), and the ones that failed."""
    results = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(out, "*", "result.json")))]
    ran = {(r["arm"], r["trial"]) for r in results if "error" not in r}
    for path in sorted(glob.glob(os.path.join(kept, "*.json"))) if kept else []:
        r = json.load(open(path))
        if (r["arm"], r["trial"]) not in ran:
            results.append(r)
    arms, failed = {}, []
    for r in results:
        # a transcribed trial may give the count alone (which known bugs, its table did not say)
        r["known"] = len(r["known_bugs"]) if "known_bugs" in r else r.get("known", 0)
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
    for r in runs:
        if r.get("transcribed"):
            lines.append("- %s-%d: %s" % (r["arm"], r["trial"], r["transcribed"]))
        if r.get("note"):  # what the measured numbers alone do not say (a load on the machine)
            lines.append("- %s-%d: %s" % (r["arm"], r["trial"], r["note"]))
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
    for arm, all_runs in arms:
        rs = [r for r in all_runs if r.get("over_time")]  # a transcribed trial has no curve
        if not rs:
            continue
        series = [[[0, 0]] + r["over_time"] for r in rs]
        times = sorted(set(s for pts in series for s, _ in pts))
        at = [[step(pts, t) for pts in series] for t in times]
        minutes = [t / 60.0 for t in times]
        # lines between the measures (every PEERS_SNAPSHOT_SECONDS), a dot at each: a step would
        # draw "nothing covered" until the first measure
        label = arm if len(rs) == len(all_runs) else "%s (%d of its %d trials)" % (arm, len(rs), len(all_runs))
        line, = ax.plot(minutes, [statistics.median(v) for v in at], marker=".", label=label)
        ax.fill_between(minutes, [min(v) for v in at], [max(v) for v in at],
                        color=line.get_color(), alpha=0.2, linewidth=0)
    ax.set_xlabel("minutes of the arm's clock")
    ax.set_ylabel("src/relay branches covered")
    counts = {len([r for r in rs if r.get("over_time")]) for _, rs in arms} - {0}
    trials = "%d trial%s" % (max(counts), "" if max(counts) == 1 else "s") if len(counts) == 1 else "its trials"
    ax.set_title("TVM's src/relay branches over time: each arm's median of %s, range shaded" % trials)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)  # outside: no curve hidden
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, "coverage." + ext), bbox_inches="tight", dpi=120)


def main():
    args = sys.argv[1:]
    kept = None
    if "--kept" in args:
        i = args.index("--kept")
        if i + 1 >= len(args):
            print("report.py: --kept needs a directory", file=sys.stderr)
            sys.exit(2)
        kept = args[i + 1]
        del args[i:i + 2]
    if not args or args[0].startswith("-"):
        print("usage: report.py OUTDIR [--table-only] [--kept DIR]", file=sys.stderr)
        sys.exit(2)
    out = args[0]
    if kept and not keep(out, kept):
        sys.exit(2)
    arms, failed = load(out, kept)
    with open(os.path.join(out, "RESULTS.md"), "w") as f:
        f.write(table(arms, failed))
    if arms and "--table-only" not in args[1:]:
        plot(arms, out)


if __name__ == "__main__":
    main()
