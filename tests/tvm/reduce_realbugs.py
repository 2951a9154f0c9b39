#!/usr/bin/env python3
# Real bugs reduced end to end (issue 14, item 2), run by `make check-tvm` when TVM is
# importable: each repro in ../shared/realbugs is joined to a whole corpus model
# (`rfmt --join`), TVM must still fail on it with the bug's error, then
# `rreduce --server 'interestingness/tvm-server ...'` shrinks it; the result must be at most the
# hand-made repro's size in tokens. With --cvise S, C-Vise gets the same file and test for S s.
"""reduce_realbugs.py [--model FILE] [--only ID,...] [--cvise SECONDS] [--markdown FILE]"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import realbugs  # noqa: E402  pylint: disable=wrong-import-position
from realbugs import run  # noqa: E402  pylint: disable=wrong-import-position

TOKEN = re.compile(r"[A-Za-z_%@][A-Za-z0-9_.]*|[0-9.]+|\S")  # as bench/reduce.sh counts them


def tokens(path):
    with open(path) as f:
        return len(TOKEN.findall(f.read()))


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--bugs", default=os.path.join(ROOT, "..", "shared", "realbugs"))
    models = os.path.join(ROOT, "..", "shared", "corpus", "models")
    ap.add_argument("--model", action="append",
                    help="the corpus model to join each repro to; repeated: the first one on which TVM still "
                    "fails the same way (default resnet-18, then mlp: LazyGradientInit fails on resnet-18 "
                    "itself, 'dfs.is_subset_of(fs)', before tvm16869's bug)")
    ap.add_argument("--only")
    ap.add_argument("--cvise", type=float, default=0, metavar="SECONDS")
    ap.add_argument("--markdown")
    ap.add_argument("--keep", metavar="DIR", help="keep the inflated and reduced files here")
    args = ap.parse_args()
    args.model = args.model or [os.path.join(models, "resnet-18.relay"), os.path.join(models, "mlp.relay")]
    with open(os.path.join(args.bugs, "bugs.json")) as f:
        bugs = json.load(f)
    only = set(args.only.split(",")) if args.only else None
    bin_ = os.path.join(ROOT, "bin")
    rows, failures = [], 0
    work = args.keep or tempfile.mkdtemp(prefix="relaykit-realbugs-")
    version = realbugs.tvm_version()
    print("TVM %s" % version)
    for bug in bugs:
        bid = bug["id"]
        if (only and bid not in only) or bid not in realbugs.BUGS:
            continue
        if realbugs.fixed_here(bid, version):  # nothing to reduce: realbugs.py checks it is "no bug"
            print("fixed %s: %s" % (bid, realbugs.FIXED_IN[bid][1]))
            continue
        check = realbugs.BUGS[bid][0]
        folder = os.path.join(work, bid)
        os.makedirs(folder, exist_ok=True)
        repro = os.path.join(args.bugs, bid, "repro.relay")
        big = os.path.join(folder, "inflated.relay")
        opts = check[1:] + ["--match", re.escape(bug["signature"])]
        script = [os.path.join(ROOT, "interestingness", "tvm-" + check[0]), "-q"] + opts
        why, model = "", None
        for candidate in args.model:  # the first model on which TVM still fails the same way
            with open(big, "w") as f:
                rc = subprocess.call([os.path.join(bin_, "rfmt"), "--join", candidate, repro], stdout=f)
            if rc != 0:
                why = "rfmt --join exit %d" % rc
                continue
            rc, out, _, t_check = run(script + [big], timeout=None)
            if rc == 0:
                model = candidate
                break
            why = "TVM does not fail the same way on it joined to %s: %s" % (
                os.path.basename(candidate), out.strip()[-200:])
        if model is None:
            print("FAIL %s: %s" % (bid, why))
            failures += 1
            continue
        server = " ".join(shlex.quote(a) for a in
                          [os.path.join(ROOT, "interestingness", "tvm-server"), check[0]] + opts)
        reduced = os.path.join(folder, "rreduce.relay")
        rc, out, err, t_red = run([os.path.join(bin_, "rreduce"), "--json", "--tidy", "-o", reduced,
                                   "--server", server, big], timeout=3600)
        try:
            stats = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            stats = {}
        ok = rc == 0 and os.path.exists(reduced) and tokens(reduced) <= tokens(repro)
        row = {"bug": bid, "model": os.path.basename(model), "inflated_bytes": os.path.getsize(big),
               "inflated_tokens": tokens(big),
               "check_s": t_check, "rreduce_tokens": tokens(reduced) if os.path.exists(reduced) else None,
               "handmade_tokens": tokens(repro), "tests": stats.get("tests_run"),
               "wall_s": t_red, "rreduce_exit": rc, "ok": ok}
        if args.cvise and shutil.which("cvise"):
            cdir = os.path.join(folder, "cvise")
            os.makedirs(cdir, exist_ok=True)
            target = os.path.join(cdir, "inflated.relay")
            shutil.copy(big, target)
            test = os.path.join(cdir, "test.sh")
            with open(test, "w") as f:
                f.write("#!/bin/sh\nexec %s inflated.relay\n" % " ".join(shlex.quote(a) for a in script))
            os.chmod(test, 0o755)
            # C-Vise wants the test case as a bare file name in its working directory
            rc_c, _, _, t_c = run(["cvise", "--n", "2", "--timeout", "300", "--tidy", test,
                                   os.path.basename(target)], timeout=args.cvise, cwd=cdir)
            row["cvise_tokens"] = tokens(target)
            row["cvise_s"] = t_c
            row["cvise_capped"] = rc_c is None
        rows.append(row)
        if not ok:
            failures += 1
        print("%s %s: inflated with %s to %d tokens (%d B), TVM check %.1f s; rreduce -> %s tokens (hand-made %d) "
              "in %s tests, %.0f s%s" % (
                  "ok  " if ok else "FAIL", bid, row["model"], row["inflated_tokens"], row["inflated_bytes"], t_check,
                  row["rreduce_tokens"], row["handmade_tokens"], row["tests"], t_red,
                  "; C-Vise -> %d tokens in %.0f s%s" % (row["cvise_tokens"], row["cvise_s"],
                                                         " (capped)" if row["cvise_capped"] else "")
                  if "cvise_tokens" in row else ""))
        sys.stdout.flush()
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| bug | model | inflated tokens (bytes) | rreduce tokens | hand-made tokens | tests | rreduce wall s | C-Vise tokens (wall s) |\n")
            f.write("|---|---|---:|---:|---:|---:|---:|---|\n")
            for r in rows:
                f.write("| %s | %s | %d (%d) | %s | %d | %s | %.0f | %s |\n" % (
                    r["bug"], r["model"], r["inflated_tokens"], r["inflated_bytes"], r["rreduce_tokens"],
                    r["handmade_tokens"], r["tests"], r["wall_s"],
                    "%d (%.0f%s)" % (r["cvise_tokens"], r["cvise_s"], ", capped" if r["cvise_capped"] else "")
                    if "cvise_tokens" in r else "-"))
    print("%d bugs reduced, %d failures" % (len(rows), failures))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
