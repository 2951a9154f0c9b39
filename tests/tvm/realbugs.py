#!/usr/bin/env python3
# The TVM tests against the real bugs in ../shared/realbugs (issue 14, item 1; issue 31 for the
# releases), run by `make check-tvm` when TVM is importable. For each bug, every script of its
# stage (and tvm-server with the same check) must say "interesting" on the repro, with --match on
# the bug's error text, and "no bug" on the same program with the failing part removed (FIXES);
# the standalone Python repro the script writes (RELAYKIT_REPRO) must fail the same way under plain
# TVM. A bug the importable TVM has fixed (FIXED_IN) must say "no bug" instead, on the repro too.
"""realbugs.py [--bugs DIR] [--only ID,...] [--markdown FILE]"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
I = os.path.join(ROOT, "interestingness")

# id -> (check and its options, [(old, new)] text replacements that remove the failing part).
# The checks are the bug's pipeline (bugs.json); the fixes are hand-made and as small as we
# could find: the failing construct swapped for a harmless one of the same type.
BUGS = {
    "tvm11704-dense-broadcast-fuse-schedule": (
        ["build", "--opt-level", "2"],
        [("nn.dense(%x2, %w, units=None)", "negative(%x2)")]),
    # The squeeze is the bug; the conv2d's missing channels and kernel_size are another failure
    # of AlterOpLayout ("The kernel size and channels of a Conv must be set"), so the fix sets them.
    "tvm10528-conv2d-squeeze-alterlayout": (
        ["build", "--opt-level", "3"],
        [("squeeze(%0, axis=[1])", "reshape(%0, newshape=[2, 3, 4])"),
         ("padding=[3, 3, 3, 3])", "padding=[3, 3, 3, 3], channels=1, kernel_size=[3, 1])")]),
    "hirgen-fuseops-uint64-const": (
        ["build", "--opt-level", "3"],
        [("uint64", "int64")]),
    "tvm15393-divide-by-zero-const": (
        ["build", "--opt-level", "3"],
        [("divide(%x, 0f)", "divide(%x, 2f)")]),
    # Every program fails this way (even `def @main() { 1 }`): the failing part is the pass,
    # so the "no bug" run is the same program built without it (FIXED_CHECK).
    "tvm16869-lazy-gradient-init-gradcell": (
        ["pass", "LazyGradientInit", "--build", "--opt-level", "3"],
        []),
    "hirgen-rsqrt-uint8": (
        ["build", "--opt-level", "3"],
        [("rsqrt(%var_8)", "negative(%var_8)")]),
    "hirgen-dynamic-to-static-global-call": (
        ["pass", "DynamicToStatic"],
        [("%41 = @func_14(%34, %35, %36, %37, %38, %39, %40);\n  %42 = %41.0;", "%42 = %36;")]),
    "tvm13045-squeeze-broadcast-argmin-runtime": (
        ["build", "--opt-level", "3", "--run", "--inputs", "zeros"],
        [("shape=[2i64]", "shape=[2]")]),
    "tvm11679-strided-slice-empty-axes": (
        ["typecheck"],
        [("begin=[], end=[], strides=[], axes=[]", "begin=[0], end=[2], strides=[1], axes=[0]")]),
    "pr15533-mixed-precision-while-loop": (
        ["pass", "ToMixedPrecision('float16')"],
        [("%8 = %7(%start, %6);\n  %8.1", "%6")]),
}


# id -> (the first release relaykit knows that has the fix, the evidence): there the repro is "no
# bug" (measured on TVM v0.13.0 and v0.19.0; bench/RESULTS.md, "Real TVM v0.19.0").
FIXED_IN = {
    "pr15533-mixed-precision-while-loop": (
        (0, 19), "apache/tvm#15533 (ToMixedPrecision leaves ADT values as they are) is in v0.19.0: the pass runs"),
}


def release(version):
    """'0.19.0' -> (0, 19); a fork's '0.18.0+vendor' -> (0, 18)."""
    m = re.match(r"v?(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def fixed_here(bid, version):
    return bid in FIXED_IN and release(version) >= FIXED_IN[bid][0]


def tvm_version():
    """The version of the TVM the scripts import (their Python: RELAYKIT_PYTHON, else this one)."""
    py = os.environ.get("RELAYKIT_PYTHON") or sys.executable
    rc, out, err, _ = run([py, "-c", "import tvm; print(tvm.__version__)"], timeout=300)
    return out.strip() if rc == 0 else "unknown (%s)" % last_line(err)


def standalone_repro(check, opts, path, signature, folder):
    """The script's standalone repro (RELAYKIT_REPRO) run by plain Python and TVM: (whether it fails
    with the signature, what it printed last)."""
    repro = os.path.join(folder, "repro.py")
    env = dict(os.environ, RELAYKIT_REPRO=repro)
    script = os.path.join(I, "tvm-" + check[0])
    subprocess.run([script, "-q"] + opts + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                   timeout=600)
    if not os.path.exists(repro):
        return False, "no repro written"
    py = os.environ.get("RELAYKIT_PYTHON") or sys.executable
    rc, out, err, _ = run([py, repro], timeout=600, cwd=folder)
    text = out + err
    return rc != 0 and signature in text, "exit %s: %s" % (rc, (signature if signature in text else last_line(text))[:90])


# id -> the check of the "no bug" run when it is not the bug's own check on the fixed program.
FIXED_CHECK = {
    "tvm16869-lazy-gradient-init-gradcell": ["pass", "InferType", "--build", "--opt-level", "3"],
}


def run(cmd, stdin=None, timeout=600, cwd=None):
    """(exit status, stdout, stderr, seconds); the status is None when the timeout killed it."""
    t = time.time()
    try:
        p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, "", "timeout", time.time() - t
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.time() - t


def last_line(text):
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--bugs", default=os.path.join(ROOT, "..", "shared", "realbugs"))
    ap.add_argument("--only")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    with open(os.path.join(args.bugs, "bugs.json")) as f:
        bugs = json.load(f)
    only = set(args.only.split(",")) if args.only else None
    rows, others, failures = [], [], 0
    version = tvm_version()
    print("TVM %s" % version)
    with tempfile.TemporaryDirectory() as tmp:
        for bug in bugs:
            bid = bug["id"]
            if only and bid not in only:
                continue
            if bid not in BUGS:
                print("%s: no check known for this bug (add it to BUGS)" % bid)
                failures += 1
                continue
            check, fixes = BUGS[bid]
            repro = os.path.join(args.bugs, bid, "repro.relay")
            with open(repro) as f:
                text = f.read()
            fixed_text = text
            for old, new in fixes:
                if old not in fixed_text:
                    print("%s: the fix's text %r is not in the repro" % (bid, old))
                    failures += 1
                fixed_text = fixed_text.replace(old, new)
            folder = os.path.join(tmp, bid)
            os.makedirs(folder)
            bug_path, fixed_path = os.path.join(folder, "repro.relay"), os.path.join(folder, "fixed.relay")
            with open(bug_path, "w") as f:
                f.write(text)
            with open(fixed_path, "w") as f:
                f.write(fixed_text)
            match = re.escape(bug["signature"])
            script = os.path.join(I, "tvm-" + check[0])
            opts = check[1:] + ["--match", match]
            fixed_check = FIXED_CHECK.get(bid, check)
            fixed_opts = fixed_check[1:] + ["--match", match]
            fixed_script = os.path.join(I, "tvm-" + fixed_check[0])
            fixed = fixed_here(bid, version)
            rc_bug, out_bug, _, t_bug = run([script, "-q"] + opts + [bug_path])
            rc_fix, out_fix, _, t_fix = run([fixed_script, "-q"] + fixed_opts + [fixed_path])
            server = [os.path.join(I, "tvm-server"), check[0]] + opts
            rc_srv, answers, err_srv, t_srv = run(server, ("%s\n" % bug_path).encode())
            answers = answers.splitlines()
            rc_srv2, answers2, err_srv2, t_srv2 = run([os.path.join(I, "tvm-server"), fixed_check[0]] + fixed_opts,
                                                      ("%s\n" % fixed_path).encode())
            answers += answers2.splitlines()
            rc_srv, err_srv, t_srv = max(rc_srv, rc_srv2), err_srv + err_srv2, t_srv + t_srv2
            if fixed:  # the repro is "no bug" now, as its fixed program
                ok_script = rc_bug == 1 and "no bug" in out_bug and rc_fix == 1 and "no bug" in out_fix
                ok_server = rc_srv == 0 and answers == ["1", "1"]
                ok_repro, repro_said = True, "-"
            else:
                ok_script = rc_bug == 0 and rc_fix == 1 and "no bug" in out_fix
                ok_server = (rc_srv == 0 and len(answers) == 2 and answers[0].startswith("0 ")
                             and answers[1] == "1")
                ok_repro, repro_said = standalone_repro(check, opts, bug_path, bug["signature"], folder)
                if not ok_repro:
                    failures += 1
            for name, ok in (("tvm-" + check[0], ok_script), ("tvm-server " + check[0], ok_server)):
                if not ok:
                    failures += 1
            rows.append((bid, " ".join(["tvm-" + check[0]] + check[1:]), ok_script, ok_server,
                         last_line(out_bug), last_line(out_fix), t_bug, answers, err_srv, t_srv, fixed,
                         ok_repro, repro_said))
            print("%s %s: %s%s / fixed: %s (%.1f s); server: %s (%.1f s for both); standalone repro: %s" % (
                "ok  " if ok_script and ok_server and ok_repro else "FAIL", bid,
                "FIXED in TVM %s: " % version if fixed else "", last_line(out_bug),
                last_line(out_fix), t_bug, " | ".join(answers) or last_line(err_srv), t_srv, repro_said))
        # The scripts of the other stages: "no bug" on every repro, and tvm-diff runs and agrees
        # on repros it can make inputs for.
        for bug in bugs:
            bid = bug["id"]
            if (only and bid not in only) or bid not in BUGS:
                continue
            repro = os.path.join(args.bugs, bid, "repro.relay")
            stage = BUGS[bid][0][0]
            for check in (["parse"], ["typecheck"], ["roundtrip", "--infer"],
                          ["diff", "--configs", "debug:0,graph:3,vm:2"]):
                if check[0] == stage:
                    continue
                rc, out, _, t = run([os.path.join(I, "tvm-" + check[0]), "-q"] + check[1:] + [repro])
                verdict = last_line(out)
                # an earlier stage failing is this bug itself (parse < typecheck < the rest)
                ok = rc == 1 and ("no bug" in verdict or "something else broke" in verdict)
                if check[0] == "diff" and "something else broke (in stage inputs)" in verdict:
                    ok = True  # no inputs for it (dynamic shapes, ADTs): said so, not a crash
                if not ok:
                    failures += 1
                others.append((bid, " ".join(["tvm-" + c if i == 0 else c for i, c in enumerate(check)]), ok, verdict, t))
                print("%s %s: %s: %s (%.1f s)" % ("ok  " if ok else "FAIL", bid, check[0], verdict, t))
        # Issue 41: through roracle with tvm-server and the bug's own check (no --match), as a
        # corpus sweep meets them, every real bug is classed a bug (never a limitation or a
        # rejected input), under its own error; the rule that decided is printed.
        classes = []
        for bug in bugs:
            bid = bug["id"]
            if (only and bid not in only) or bid not in BUGS or fixed_here(bid, version):
                continue
            check = BUGS[bid][0]
            corpus = os.path.join(tmp, "classes", bid)
            os.makedirs(corpus)
            with open(os.path.join(args.bugs, bid, "repro.relay")) as f, \
                    open(os.path.join(corpus, "repro.relay"), "w") as g:
                g.write(f.read())
            server = " ".join(shlex.quote(a) for a in [os.path.join(I, "tvm-server")] + check + ["--timeout", "300"])
            rc, out, err, t = run([os.path.join(ROOT, "bin", "roracle"), "-j", "1", "--timeout", "600", "--json",
                                   "--server", server, corpus])
            try:
                groups = json.loads(out)
            except ValueError:
                groups = []
            g = groups[0] if len(groups) == 1 else {}
            # its own error: the bug's words (those the key masks no part of) are in the group's key
            # (one of them: TVM's check may stand above the words bugs.json quotes)
            words = [w for w in re.findall(r"\b[A-Za-z_]+\b", bug["signature"]) if len(w) > 3][:3]
            ok = rc == 1 and g.get("class") == "bug" and any(w in g.get("signature", "") for w in words)
            if not ok:
                failures += 1
            classes.append((bid, g.get("class", "-"), g.get("signature", last_line(err)), g.get("rule", "-")))
            print("%s %s: roracle class %s: %s (why: %s) (%.1f s)" % (
                "ok  " if ok else "FAIL", bid, g.get("class", "-"), g.get("signature", last_line(err)),
                g.get("rule", "-"), t))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("TVM %s\n\n| bug | on this TVM | test | the repro | the fixed program | server (repro, fixed) "
                    "| standalone repro |\n|---|---|---|---|---|---|---|\n" % version)
            for r in rows:
                state = ("fixed: " + FIXED_IN[r[0]][1]) if r[10] else "reproduces"
                f.write("| %s | %s | `%s` | %s | %s | %s | %s |\n" % (
                    r[0], state, r[1],
                    ("%s, %.1f s" % (r[4][:80], r[6])) if r[2] else "**FAIL** " + r[4][:80],
                    "no bug" if r[2] else r[5][:60],
                    "`%s`" % " / ".join(a[:60] for a in r[7]) if r[3] else "**FAIL**",
                    r[12] if r[11] else "**FAIL** " + r[12]))
            if others:
                f.write("\n| bug | other script | verdict | s |\n|---|---|---|---:|\n")
                for r in others:
                    f.write("| %s | `%s` | %s%s | %.1f |\n" % (r[0], r[1], "" if r[2] else "**FAIL** ", r[3][:90], r[4]))
    print("%d bugs on TVM %s: %d reproduce, %d fixed; %d failures" % (
        len(rows), version, sum(not r[10] for r in rows), sum(r[10] for r in rows), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
