"""The root causes behind a bench/peers run's bug groups: each distinct group of every arm and
trial reduced once, by relaykit, so that a person can read what it comes to.

    reduce.py OUTDIR [--minutes M] [--cpus LIST] [--one-per-family]

OUTDIR is bench/peers/run.sh's: its ARM-TRIAL/triage.json are roracle's groups of each arm's
failing programs, each under the check it failed (NAME.relay.args beside it). Groups of different
arms or trials with the same signature are one group here: they are reduced once, from the
smallest file any of them has, with rreduce --server (tvm-server, that file's check) --match (the
group's own error, not another), for at
most M minutes (default 5; rreduce keeps the best program so far when stopped). Writes
OUTDIR/groups/NNN/reduced.relay (and rreduce.log, report.md), OUTDIR/groups.json and
OUTDIR/groups.md: per group, the arms and trials that met it, how many programs, the signature,
the reduced program's size and its operators. Groups are numbered in the order of their first
trial and arm, so that the numbers stay put when a reduction is run again. With several cores in
--cpus (default: the last core), as many reductions run at once, each pinned to its core.
A group already reduced (its reduced.relay there, from the same file) is not reduced again.

Groups are also gathered into families (family() below: one check named per operator, per loop
variable, or cut at another length by an older triage), a reading aid for the root-cause table:
OUTDIR/families.md lists each family, its groups and where it was met, and how many families each
arm-trial met. --one-per-family reduces only the smallest group of each family (the others are
said to be in it), for when the minutes are short.
"""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time

from report import ORDER  # the arms in the table's order (report.py, beside this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def arm_dirs(out):
    """(arm, trial, dir) of every ARM-TRIAL with a triage.json, arms in ORDER, then by trial."""
    found = []
    for name in os.listdir(out):
        d = os.path.join(out, name)
        m = re.fullmatch(r"(.+)-([0-9]+)", name)
        if m and os.path.isfile(os.path.join(d, "triage.json")):
            found.append((m.group(1), int(m.group(2)), d))
    rank = {a: i for i, a in enumerate(ORDER)}
    return sorted(found, key=lambda x: (x[1], rank.get(x[0], len(ORDER)), x[0]))


def collect(out):
    """The distinct bug groups of every arm, keyed by signature, in order of first appearance."""
    groups = {}
    for arm, trial, d in arm_dirs(out):
        try:
            found = json.load(open(os.path.join(d, "triage.json")))
        except (OSError, ValueError):
            continue
        for g in found:
            if g.get("class") != "bug":
                continue
            # an arm's failing programs are in its failures/ (wherever OUTDIR was when triaged)
            smallest = os.path.join(d, "failures", os.path.basename(g["smallest"]))
            entry = groups.setdefault(g["signature"], {"signature": g["signature"], "match": g.get("match"),
                                                       "met": [], "programs": 0, "file": smallest,
                                                       "bytes": g.get("bytes", 0)})
            entry["met"].append("%s-%d" % (arm, trial))
            entry["programs"] += g.get("count", 1)
            for f in g.get("files") or [g["smallest"]]:
                path = os.path.join(d, "failures", os.path.basename(f))
                if os.path.exists(path):
                    entry.setdefault("members", []).append((os.path.getsize(path), path))
            if g.get("bytes", 0) < entry["bytes"]:
                entry["file"], entry["bytes"] = smallest, g["bytes"]
    return list(groups.values())


# One check, several groups: the words that change from one instance of it to the next.
PER_INSTANCE = [(re.compile(r"(has not been registered for|cannot find ShapeFunc for) [\w.]+"), r"\1 <op>"),
                (re.compile(r"the operator [\w.]+ does not"), "the operator <op> does not"),
                (re.compile(r"Op\(tir\.\w+\)"), "Op(tir.<op>)"),
                (re.compile(r"\[[a-z]{1,3}[0-9]{1,3}(, [a-z]{1,3}[0-9]{1,3})*\]"), "[<vars>]"),
                (re.compile(r"<class '[\w.]+'>"), "<class <expr>>"),
                (re.compile(r"compute\(\w+, body=.*"), "compute(<tensor>, ...)")]
# The words a family is told by: a longer message was cut at different places by triage before
# its keys were cut after masking (outcome.h, FAIL_KEY_WORDS_MAX), so only its start is compared;
# a short message is whole, and the frame after it tells apart one bare check in two places
# ("Check failed: (data) is false" in ROIAlignRel and in SequenceMaskRel).
FAMILY_WORDS = 64


def family(signature):
    """The family of a group's signature ("STAGE: MESSAGE @ FRAME")."""
    stage, _, rest = signature.partition(": ")
    message, at, frame = rest.partition(" @ ")
    for pattern, instead in PER_INSTANCE:
        message = pattern.sub(instead, message)
    if len(message) > FAMILY_WORDS:
        return "%s: %s..." % (stage, message[:FAMILY_WORDS])
    return "%s: %s%s%s" % (stage, message, at, frame)


def families(groups):
    """The groups gathered by family, in order of first appearance."""
    found = {}
    for g in groups:
        f = found.setdefault(family(g["signature"]), {"family": family(g["signature"]), "groups": [], "met": [],
                                                      "programs": 0})
        f["groups"].append(g)
        f["met"] += [m for m in g["met"] if m not in f["met"]]
        f["programs"] += g["programs"]
    return list(found.values())


def operators(path):
    """The operators a Relay program calls, sorted, by the text (`name(` after no @ or %)."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return []
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    ops = set(re.findall(r"(?<![@%\w.])([a-z_][\w]*(?:\.[a-z_][\w]*)*)\(", text))
    return sorted(ops - {"def", "fn", "meta", "if", "let", "match"})


# What the masks of a group key stand for (interestingness/signature.c): a group's own match
# pattern masks numbers only, so a member of another rank or dtype than the file it was made from
# does not match it (Tensor[(2), float32] against Tensor[(2, 3), float16]).
KEY_MASKS = {"<shape>": r"[\[(][^\])]*[\])]", "<dtype>": r"\w+", "<n>": r"-?[0-9]+", "<fn>": r"\S+",
             "[<vars>]": r"\[[^\]]*\]", "<addr>": r"0[xX][0-9a-fA-F]+", "<hex>": r"[0-9a-fA-F]+",
             "<tmp>": r"\S+", "<file>": r"\S+"}


def key_pattern(signature):
    """A --match pattern for every member of a group: its key's words, masks as patterns."""
    message = signature.partition(": ")[2].partition(" @ ")[0]
    parts = re.split("(" + "|".join(re.escape(m) for m in KEY_MASKS) + ")", message)
    return "".join(KEY_MASKS[p] if p in KEY_MASKS else re.escape(p) for p in parts)


def copy_with_args(path, to):
    """A failing program and its check (NAME.relay.args) copied to `to` and `to`.args."""
    for a, b in ((path, to), (path + ".args", to + ".args")):
        with open(a, "rb") as f, open(b, "wb") as o:
            o.write(f.read())


MEMBERS_TRIED = 3


def choose(g, members, gdir, cpu, tvm_server, env):
    """The smallest of a group's first few members that fails again as the group does, and the
    pattern it matches. A member can fail otherwise when run again (rfuzz's smallest program of the
    Winograd-layout group was met with the group's error, then aborted on heap corruption in a
    fresh process), and a group's match, made from one member with only its numbers masked, misses
    a member of another rank or dtype: the key's own pattern (masks as patterns) then."""
    if not g.get("match"):
        return members[0], None
    patterns = [g["match"], key_pattern(g["signature"])]
    probe = os.path.join(gdir, "probe.relay")
    server = "%s --args-from %s --timeout 60" % (tvm_server, shlex.quote(probe + ".args"))
    try:
        for path in members[:MEMBERS_TRIED]:
            copy_with_args(path, probe)
            run = subprocess.run(["taskset", "-c", str(cpu)] + shlex.split(server), input=probe + "\n", text=True,
                                 capture_output=True, env=env)
            for pattern in patterns:
                if re.search(pattern, run.stdout + run.stderr, re.M):
                    return path, pattern
    finally:
        for f in (probe, probe + ".args"):
            if os.path.exists(f):
                os.remove(f)
    return members[0], g["match"]  # none fails so again: rreduce says what it sees


def reduce_one(g, gdir, minutes, cpu, rreduce, tvm_server):
    """rreduce the group's smallest member that fails again as the group does (choose), under its
    own check, into gdir/reduced.relay, stopped (SIGINT) after minutes."""
    os.makedirs(gdir, exist_ok=True)
    stamp = os.path.join(gdir, "from")
    reduced = os.path.join(gdir, "reduced.relay")
    members = [path for _, path in sorted(g.get("members") or [(g["bytes"], g["file"])])]
    if os.path.exists(reduced) and os.path.exists(stamp) and open(stamp).read() in members:
        return "kept"
    env = dict(os.environ, LLVM_PROFILE_FILE="/dev/null", TVM_NUM_THREADS="1")
    chosen, match = choose(g, members, gdir, cpu, tvm_server, env)
    src = os.path.join(gdir, "first.relay")
    copy_with_args(chosen, src)
    server = "%s --args-from %s --timeout 60" % (tvm_server, shlex.quote(src + ".args"))
    cmd = ["taskset", "-c", str(cpu), rreduce, "--server", server, "-j", "1", "--timeout", "90",
           "--report", os.path.join(gdir, "report.md"), "-o", reduced]
    if match:
        cmd += ["--match", match]
    cmd.append(src)
    with open(os.path.join(gdir, "rreduce.log"), "w") as log:
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=minutes * 60)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)  # rreduce keeps the best program so far in -o
            try:
                rc = p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                rc = p.wait()
    if rc in (0, 3, 130) and os.path.exists(reduced):
        open(stamp, "w").write(chosen)
        return "reduced" if rc != 130 else "reduced (stopped at the time limit)"
    return "not reduced: rreduce exit %d (see rreduce.log)" % rc


def table(groups):
    lines = ["| group | family | met in (arm-trial) | programs | reduced | operators of the reduced program | signature |",
             "|---|---|---|---|---|---|---|"]
    for g in groups:
        sig = g["signature"].replace("|", "\\|").replace("\n", " ")
        size = "%d B" % g["reduced_bytes"] if g.get("reduced_bytes") is not None else g["status"]
        lines.append("| %03d | %s | %s | %d | %s | %s | `%s` |" % (g["id"], g["family"], " ".join(g["met"]), g["programs"], size,
                                                             " ".join(g.get("operators", [])) or "-", sig[:160]))
    return "\n".join(lines) + "\n"


def family_table(fams, trials):
    """families.md: how many bug groups and families each arm-trial met, then each family."""
    lines = ["| arm-trial | bug groups | families |", "|---|---:|---:|"]
    for t in trials:
        lines.append("| %s | %d | %d |" % (t, sum(t in g["met"] for f in fams for g in f["groups"]),
                                            sum(t in f["met"] for f in fams)))
    lines += ["", "| family | groups | met in (arm-trial) | programs | reduced (group: size, operators) | family words |",
              "|---|---|---|---:|---|---|"]
    for n, f in enumerate(fams, 1):
        red = "; ".join(("%03d: %d B %s" % (g["id"], g["reduced_bytes"], " ".join(g.get("operators", [])))).strip()
                        for g in f["groups"] if g.get("reduced_bytes") is not None) or "-"
        lines.append("| F%02d | %s | %s | %d | %s | `%s` |" % (
            n, " ".join("%03d" % g["id"] for g in f["groups"]), " ".join(f["met"]), f["programs"], red,
            f["family"].replace("|", "\\|")[:120]))
    return "\n".join(lines) + "\n"


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    out, minutes, cpus, one_per_family = args[0], 5.0, None, False
    i = 1
    while i < len(args):
        if args[i] == "--one-per-family":
            one_per_family = True
            i += 1
        elif args[i] in ("--minutes", "--cpus") and i + 1 < len(args):
            if args[i] == "--minutes":
                minutes = float(args[i + 1])
            else:
                cpus = [int(c) for c in args[i + 1].split(",")]
            i += 2
        else:
            print("reduce.py: unknown argument %s" % args[i], file=sys.stderr)
            return 2
    if not os.path.isdir(out):
        print("reduce.py: %s: no such directory (bench/peers/run.sh's OUTDIR)" % out, file=sys.stderr)
        return 2
    cpus = cpus or [os.cpu_count() - 1]
    rreduce = os.path.join(os.environ.get("RELAYKIT_BIN", os.path.join(ROOT, "bin")), "rreduce")
    server = shlex.quote(os.path.join(ROOT, "interestingness", "tvm-server"))
    groups = collect(out)
    for n, g in enumerate(groups, 1):
        g["id"] = n
    fams = families(groups)
    for n, f in enumerate(fams, 1):
        for g in f["groups"]:
            g["family"] = "F%02d" % n
    todo = list(groups)
    if one_per_family:  # the smallest group of each family; the others are said to be in it
        todo = [min(f["groups"], key=lambda g: g["bytes"]) for f in fams]
        for g in groups:
            if g not in todo:
                g["status"] = "not reduced: one per family (%s)" % g["family"]
    lock = threading.Lock()

    def worker(cpu):
        while True:
            with lock:
                if not todo:
                    return
                g = todo.pop(0)
            t0 = time.time()
            try:
                g["status"] = reduce_one(g, os.path.join(out, "groups", "%03d" % g["id"]), minutes, cpu, rreduce, server)
            except OSError as err:  # a file gone: said in the table, the other groups go on
                g["status"] = "not reduced: %s" % err
            reduced = os.path.join(out, "groups", "%03d" % g["id"], "reduced.relay")
            if os.path.exists(reduced) and not g["status"].startswith("not"):
                g["reduced_bytes"] = os.path.getsize(reduced)
                g["operators"] = operators(reduced)
            with lock:
                print("group %03d: %s, %d s (%s)" % (g["id"], g["status"], time.time() - t0, " ".join(g["met"])),
                      flush=True)

    threads = [threading.Thread(target=worker, args=(c,)) for c in cpus]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(os.path.join(out, "groups.json"), "w") as f:
        json.dump(groups, f, indent=1)
    with open(os.path.join(out, "groups.md"), "w") as f:
        f.write(table(groups))
    with open(os.path.join(out, "families.md"), "w") as f:
        f.write(family_table(fams, ["%s-%d" % (arm, trial) for arm, trial, _ in arm_dirs(out)]))
    print("%d distinct bug groups over %d arm trials: %s" % (len(groups), len(arm_dirs(out)),
                                                             os.path.join(out, "groups.md")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
