#!/usr/bin/env python3
# The pipeline reduced with the program on the real bugs (issue 28, "Done when"), on real TVM:
#  rows     each repro of ../shared/realbugs whose pipeline involves passes (a build or a pass
#           list), joined to a corpus model (`rfmt --join`, as reduce_realbugs.py does), reduced by
#           `rreduce --server 'tvm-server CHECK ...'` with its pipeline and again with --no-pipeline:
#           passes before -> after, opt level and disabled passes, 1-minimal or not (as rreduce
#           says, and checked from outside: each remaining pass disabled or dropped, the opt level
#           lowered), candidates tried by the pipeline passes and by the program passes, wall
#           time, sizes;
#  bisect   tvm-bisect on each repro: the culprit pass, or the pass whose output first fails, or
#           "in lowering";
#  long     a failing sequence of >= 20 passes (pr15533's ToMixedPrecision('float16') among
#           unrelated passes, on the repro joined to a model) reduced with the server, beside a
#           per-pass enumeration (drop one pass at a time, one TVM test each, then the program-only
#           reducer on what is left);
#  enum     (not by default) the per-pass enumeration done with the program-only reducer itself:
#           one `rreduce --no-pipeline` run per dropped pass.
# Every TVM process runs one at a time, under the caller's nice; each reduction is capped
# (--cap S, SIGINT then rreduce keeps its best). Without TVM it says so and exits 0.
"""pipeline_realbugs.py [--only ID,...] [--model FILE] [--cap S] [--cap-only S] [--part rows,bisect,long,enum] [--json FILE] [--keep DIR]"""

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
I = os.path.join(ROOT, "interestingness")
BIN = os.path.join(ROOT, "bin")
sys.path.insert(0, HERE)
import realbugs  # noqa: E402  pylint: disable=wrong-import-position
from reduce_realbugs import tokens  # noqa: E402  pylint: disable=wrong-import-position

PIPE = ("pipe-passes", "pipe-args", "pipe-disable", "pipe-opt")

# The unrelated passes put around the bug's pass for the long sequence (each harmless alone on the
# joined program at opt level 3, and none of them needed by the bug).
FILLER_BEFORE = ["InferType", "SimplifyInference", "FoldConstant", "EliminateCommonSubexpr()", "SimplifyExpr",
                 "FoldScaleAxis", "CanonicalizeOps", "DeadCodeElimination()", "CombineParallelDense()",
                 "RemoveUnusedFunctions()", "DynamicToStatic", "FoldExplicitPadding", "InferType"]
FILLER_AFTER = ["FoldConstant", "SimplifyExpr", "EliminateCommonSubexpr()", "DeadCodeElimination()",
                "CanonicalizeOps", "InferType", "RemoveUnusedFunctions()", "SimplifyInference", "FoldConstant"]


def run(cmd, timeout=None, cwd=None):
    """(exit status, stdout, stderr, seconds); on timeout SIGINT (rreduce writes its best), status None."""
    t = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        rc = None
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.time() - t


def stats_of(out):
    for line in reversed(out.strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return {}


def phase_tests(stats):
    pipe = prog = 0
    for name, s in (stats.get("passes") or {}).items():
        if name in PIPE:
            pipe += s.get("tried", 0)
        else:
            prog += s.get("tried", 0)
    return pipe, prog


def describe(p):
    if not p:
        return "-"
    if p.get("passes") is not None:
        s = " ".join(p["passes"]) or "(none)"
    else:
        s = "relay.build"
    if p.get("opt_level") is not None:
        s += " @O%d" % p["opt_level"]
    if p.get("disabled_pass"):
        s += ", %d disabled" % len(p["disabled_pass"])
    return s


def running(p):
    """The distinct passes a build ran that it does not disable (TVM's names, Relay's and TIR's)."""
    dis, seen = set(p.get("disabled_pass") or []), []
    for x in p.get("ran") or []:
        if x not in dis and x not in seen:
            seen.append(x)
    return seen


def npasses(p):
    """The passes a pipeline runs: its list, else the distinct passes TVM ran less the disabled ones."""
    if not p:
        return None
    if p.get("passes") is not None:
        return len(p["passes"])
    if p.get("ran") is not None:
        return len(running(p))
    return None


def check_minimal(check, signature, after, program, folder):
    """The reduced pipeline checked 1-minimal from outside rreduce: the program (copied where no
    .pipeline side file is beside it: the scripts read that before their options) fails under it,
    and no longer does with any one pass that still runs disabled, one pass of the list dropped, or
    the opt level one lower. Returns (verdict, what kept the bug)."""
    f = os.path.join(folder, "minimal-check", "p.relay")
    os.makedirs(os.path.dirname(f), exist_ok=True)
    shutil.copy(program, f)
    dis, passes = list(after.get("disabled_pass") or []), list(after.get("passes") or [])
    extra = [a for a in check[1:] if a in ("--build", "--run", "--inputs", "zeros")]

    def fails(level, disabled, ps):
        cmd = [os.path.join(I, "tvm-" + check[0]), "-q", "--match", re.escape(signature)] + extra
        if level is not None:
            cmd += ["--opt-level", str(level)]
        if disabled:
            cmd += ["--disabled-pass", ",".join(disabled)]
        return run(cmd + ps + [f], timeout=600)[0] == 0

    level = after.get("opt_level")
    if not fails(level, dis, passes):
        return "the reduced pipeline does not fail", []
    kept = ["disable " + x for x in running(after) if fails(level, dis + [x], passes)]
    kept += ["drop " + p for i, p in enumerate(passes) if fails(level, dis, passes[:i] + passes[i + 1:])]
    if level:
        kept += ["opt level %d" % (level - 1)] if fails(level - 1, dis, passes) else []
    return ("1-minimal" if not kept else "not 1-minimal"), kept


def server_cmd(check, opts):
    return " ".join(shlex.quote(a) for a in [os.path.join(I, "tvm-server"), check[0]] + opts)


def rreduce(big, out, server, cap, extra=()):
    rc, so, se, t = run([os.path.join(BIN, "rreduce"), "--json", "--tidy", "-o", out, "--server", server]
                        + list(extra) + [big], timeout=cap)
    return rc, stats_of(so), se, t


def join(model, repro, big):
    with open(big, "w") as f:
        return subprocess.call([os.path.join(BIN, "rfmt"), "--join", model, repro], stdout=f)


def part_rows(args, bugs, work):
    rows = []
    for bug in bugs:
        bid = bug["id"]
        check = realbugs.BUGS[bid][0]
        if check[0] not in ("build", "pass"):
            print("skip %s: its pipeline is %s, no passes" % (bid, check[0]))
            continue
        folder = os.path.join(work, bid)
        os.makedirs(folder, exist_ok=True)
        repro = os.path.join(args.bugs, bid, "repro.relay")
        big = os.path.join(folder, "inflated.relay")
        opts = check[1:] + ["--match", re.escape(bug["signature"])]
        script = [os.path.join(I, "tvm-" + check[0]), "-q"] + opts
        model = None
        for m in args.model:
            if join(m, repro, big) == 0 and run(script + [big], timeout=600)[0] == 0:
                model = m
                break
        if model is None:
            print("FAIL %s: TVM does not fail the same way on it joined to any model" % bid)
            rows.append({"bug": bid, "error": "not interesting joined"})
            continue
        server = server_cmd(check, opts)
        out = os.path.join(folder, "pipeline.relay")
        rc, st, err, t = rreduce(big, out, server, args.cap)
        pline = [l for l in err.splitlines() if l.startswith("rreduce: pipeline")]
        out0 = os.path.join(folder, "program-only.relay")
        rc0, st0, _, t0 = rreduce(big, out0, server, args.cap_only, ["--no-pipeline"])
        pipe, prog = phase_tests(st)
        before, after = st.get("pipeline_before"), st.get("pipeline_after")
        row = {"bug": bid, "model": os.path.basename(model), "check": " ".join(check),
               "inflated_tokens": tokens(big), "exit": rc, "capped": rc is None,
               "before": describe(before), "after": describe(after),
               "passes_before": npasses(before), "passes_after": npasses(after),
               "before_pipeline": before, "after_pipeline": after, "still_running": running(after or {}),
               "minimal": st.get("pipeline_minimal"),
               "pipe_tests": pipe, "prog_tests": prog, "tests": st.get("tests_run"), "wall_s": t,
               "tokens": tokens(out) if os.path.exists(out) else None,
               "only_tokens": tokens(out0) if os.path.exists(out0) else None,
               "only_tests": st0.get("tests_run"), "only_wall_s": t0, "only_capped": rc0 is None,
               "summary": pline[-1] if pline else ""}
        if after and os.path.exists(out):
            row["checked"], row["kept_by"] = check_minimal(check, bug["signature"], after, out, folder)
        rows.append(row)
        print("%s: %s -> %s (%s passes -> %s; 1-minimal %s); tests pipeline %s, program %s, total %s; %.0f s%s; "
              "%s tokens (program-only %s in %s tests, %.0f s%s)" % (
                  bid, row["before"], row["after"], row["passes_before"], row["passes_after"], row["minimal"],
                  pipe, prog, row["tests"], t, " (capped)" if rc is None else "", row["tokens"],
                  row["only_tokens"], row["only_tests"], t0, " (capped)" if rc0 is None else ""))
        if "checked" in row:
            print("   checked from outside: %s%s" % (row["checked"], " (%s)" % ", ".join(row["kept_by"])
                                                   if row["kept_by"] else ""))
        if row["summary"]:
            print("   " + row["summary"])
        sys.stdout.flush()
    return rows


def part_bisect(args, bugs):
    rows = []
    for bug in bugs:
        bid = bug["id"]
        check = realbugs.BUGS[bid][0]
        if check[0] not in ("build", "pass"):
            continue
        # tvm-bisect takes the passes (none: relay.build's) and the build options
        passes = [a for a in check[1:] if a[0] != "-" and not a.isdigit()] if check[0] == "pass" else []
        # (a run's failure is the graph executor's, after every pass: bisect the build without it)
        opts = [a for a in check[1:] if a not in passes and a not in ("--run", "--inputs", "zeros")]
        repro = os.path.join(args.bugs, bid, "repro.relay")
        rc, so, se, t = run([os.path.join(I, "tvm-bisect"), "-q"] + opts + passes + [repro], timeout=600)
        verdict = (so.strip().splitlines() or [""])[-1]
        m = re.search(r"culprit: ([^ ]+)", so + se)
        rows.append({"bug": bid, "stage": check[0], "exit": rc, "verdict": verdict[:300],
                     "culprit": m.group(1) if m else None, "wall_s": t})
        print("%s: exit %s, %.0f s: %s" % (bid, rc, t, verdict[:300]))
        sys.stdout.flush()
    return rows


def part_long(args, work):
    folder, big, passes, match, model = long_setup(args, work)
    if big is None:
        print("FAIL long: the %d passes do not fail the same way on the joined program" % len(passes))
        return {"error": "not interesting"}
    res = {"model": os.path.basename(model), "npasses": len(passes), "passes": passes, "tokens_in": tokens(big)}
    # with the server: the pipeline and the program together
    server = server_cmd(["pass"], match + passes)
    out = os.path.join(folder, "co.relay")
    rc, st, err, t = rreduce(big, out, server, 600)
    pipe, prog = phase_tests(st)
    res.update({"co_exit": rc, "co_wall_s": t, "co_tests": st.get("tests_run"), "co_pipe_tests": pipe,
                "co_prog_tests": prog, "co_after": (st.get("pipeline_after") or {}).get("passes"),
                "co_minimal": st.get("pipeline_minimal"), "co_tokens": tokens(out) if os.path.exists(out) else None})
    print("long: %d passes on %s (%d tokens): co-reduction %.0f s%s, %s tests (pipeline %d, program %d) -> %s, "
          "1-minimal %s, %s tokens" % (len(passes), res["model"], res["tokens_in"], t, " (capped)" if rc is None else "",
                                       res["co_tests"], pipe, prog, res["co_after"], res["co_minimal"], res["co_tokens"]))
    sys.stdout.flush()
    # per-pass enumeration: drop each pass in turn (one TVM test each, the program as it is), keep
    # the drop when the bug stays, then the program-only reducer under what is left
    t0 = time.time()
    keep, ntests = list(passes), 0
    i = 0
    while i < len(keep):
        trial = keep[:i] + keep[i + 1:]
        ntests += 1
        if run([os.path.join(I, "tvm-pass"), "-q"] + match + trial + [big], timeout=600)[0] == 0:
            keep = trial
        else:
            i += 1
    t_enum = time.time() - t0
    out0 = os.path.join(folder, "enum.relay")
    rc0, st0, _, t_red = rreduce(big, out0, server_cmd(["pass"], match + keep), 300, ["--no-pipeline"])
    res.update({"enum_after": keep, "enum_tests": ntests, "enum_pass_s": t_enum, "enum_reduce_s": t_red,
                "enum_reduce_tests": st0.get("tests_run"), "enum_wall_s": t_enum + t_red,
                "enum_tokens": tokens(out0) if os.path.exists(out0) else None, "enum_capped": rc0 is None})
    print("long: per-pass enumeration %d tests, %.0f s -> %s; then rreduce --no-pipeline %s tests, %.0f s -> %s tokens;"
          " total %.0f s" % (ntests, t_enum, keep, res["enum_reduce_tests"], t_red, res["enum_tokens"],
                             res["enum_wall_s"]))
    return res


def long_setup(args, work):
    """The long sequence's joined program, its passes and --match, on the first model where it fails."""
    bid = "pr15533-mixed-precision-while-loop"
    with open(os.path.join(args.bugs, "bugs.json")) as f:
        bug = [b for b in json.load(f) if b["id"] == bid][0]
    folder = os.path.join(work, "long")
    os.makedirs(folder, exist_ok=True)
    big = os.path.join(folder, "inflated.relay")
    passes = FILLER_BEFORE + ["ToMixedPrecision('float16')"] + FILLER_AFTER
    match = ["--match", re.escape(bug["signature"])]
    for m in args.model:
        if join(m, os.path.join(args.bugs, bid, "repro.relay"), big) == 0 and \
                run([os.path.join(I, "tvm-pass"), "-q"] + match + passes + [big], timeout=600)[0] == 0:
            return folder, big, passes, match, m
    return folder, None, passes, match, None


def part_enum(args, work):
    """The per-pass enumeration with the program-only reducer itself: drop one pass at a time
    and run `rreduce --no-pipeline --server` under the passes left, on the program as the last
    accepted run left it; an uninteresting input (exit 1, one test) keeps the pass."""
    folder, big, passes, match, model = long_setup(args, work)
    if big is None:
        print("FAIL enum: the %d passes do not fail the same way on the joined program" % len(passes))
        return {"error": "not interesting"}
    cur = os.path.join(folder, "enum-current.relay")
    shutil.copy(big, cur)
    keep, runs, tests, t0, i = list(passes), 0, 0, time.time(), 0
    while i < len(keep):
        trial = keep[:i] + keep[i + 1:]
        out = os.path.join(folder, "enum-out.relay")
        rc, st, _, _ = rreduce(cur, out, server_cmd(["pass"], match + trial), 600, ["--no-pipeline"])
        runs, tests = runs + 1, tests + (st.get("tests_run") or 1)
        if rc == 0:
            keep = trial
            shutil.copy(out, cur)
        else:
            i += 1
    res = {"model": os.path.basename(model), "npasses": len(passes), "runs": runs, "tests": tests,
           "wall_s": time.time() - t0, "after": keep, "tokens": tokens(cur)}
    print("enum: %d passes on %s: %d rreduce --no-pipeline runs, %d tests, %.0f s -> %s, %d tokens" % (
        len(passes), res["model"], runs, tests, res["wall_s"], keep, res["tokens"]))
    return res


def have_tvm():
    py = os.environ.get("RELAYKIT_PYTHON", sys.executable)
    return subprocess.call([py, "-c", "import tvm.relay"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--bugs", default=os.path.join(ROOT, "..", "shared", "realbugs"))
    models = os.path.join(ROOT, "..", "shared", "corpus", "models")
    ap.add_argument("--model", action="append", help="default mlp, then resnet-18")
    ap.add_argument("--only")
    ap.add_argument("--cap", type=float, default=300, help="seconds per reduction (default 300)")
    ap.add_argument("--cap-only", type=float, default=120, help="seconds per program-only reduction (default 120)")
    ap.add_argument("--part", default="rows,bisect,long")
    ap.add_argument("--json", metavar="FILE", help="write every measurement here")
    ap.add_argument("--keep", metavar="DIR")
    args = ap.parse_args()
    if not have_tvm():
        print("pipeline_realbugs.py: skipped, TVM is not importable (set TVM_HOME, PYTHONPATH, RELAYKIT_PYTHON)")
        return 0
    args.model = args.model or [os.path.join(models, "mlp.relay"), os.path.join(models, "resnet-18.relay")]
    with open(os.path.join(args.bugs, "bugs.json")) as f:
        bugs = json.load(f)
    only = set(args.only.split(",")) if args.only else None
    bugs = [b for b in bugs if b["id"] in realbugs.BUGS and (not only or b["id"] in only)]
    work = args.keep or tempfile.mkdtemp(prefix="relaykit-pipeline-")
    parts = args.part.split(",")
    result = {"load": os.getloadavg()}
    if "bisect" in parts:
        result["bisect"] = part_bisect(args, bugs)
    if "rows" in parts:
        result["rows"] = part_rows(args, bugs, work)
    if "long" in parts:
        result["long"] = part_long(args, work)
    if "enum" in parts:
        result["enum"] = part_enum(args, work)
    result["load_after"] = os.getloadavg()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    # a failure: not interesting joined, or (uncapped) a pipeline not 1-minimal or a program larger
    # than the program-only reduction's
    bad = [r["bug"] for r in result.get("rows", []) if r.get("error") or (
        not r["capped"] and not r["only_capped"] and (r["minimal"] is not True or r.get("checked") != "1-minimal" or r["tokens"] is None
                                                      or r["only_tokens"] is None or r["tokens"] > r["only_tokens"]))]
    bad += [r["bug"] for r in result.get("bisect", []) if r["exit"] != 0 and r["stage"] == "pass"]
    print("pipeline_realbugs.py: %d rows, %d bisected%s" % (
        len(result.get("rows", [])), len(result.get("bisect", [])), "; FAILED: " + ", ".join(bad) if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
