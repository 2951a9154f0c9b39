#!/usr/bin/env python3
# Fidelity of relaykit's type checker against TVM's own (issue 14, item 3), run by
# `make check-tvm` when TVM is importable; Python 3.6 compatible, TVM and nothing else.
#
# For each program: TVM's verdict (tvm.relay.parse, which runs InferType) against
# `rcheck --tvm-strict`'s (exit 0 accepts, 1 rejects; anything else is a crash). When both accept, TVM prints the
# module with its /* ty=... */ types; those comments are removed, `rcheck --annotate` puts its
# own back, and the two lists of types are compared binding by binding.
"""fidelity.py --rcheck BIN [--name LABEL] [--json FILE] [--show N] PATH...

PATH is a .relay file or a directory of them (searched recursively)."""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# Disagreements understood, each with its reason (bench/RESULTS.md, "Fidelity"): they are counted
# and listed, but only the others fail the check.
KNOWN = [
    (r"SimulatedQuantizeAttrs: does not have field",
     "TVM bug: quantize's and qnn's attrs are both registered as relay.attrs.SimulatedQuantizeAttrs"),
    (r"unknown global function @",
     "TVM's parser accepts a call of an undefined global; relaykit rejects it"),
    (r"cannot infer the type of this argument",
     "TVM leaves unannotated parameters incomplete; relaykit wants their types"),
    (r"^TVM crashed", "TVM crashes on the program: a TVM bug to reduce"),
    (r"rcheck rejects TVM's printing: .* is used before it is bound",
     "TVM's printer bug: a value used both in a nested scope (an if branch, a closure's body) and "
     "after it is bound inside that scope and used outside it (TVM cannot parse that printing back "
     "either: 'Local variable %N has not yet been defined')"),
]


def known_reason(row):
    for pattern, reason in KNOWN:
        if re.search(pattern, row.get("why", "")):
            return reason
    return None


TY = re.compile(r"/\* ty=(.*?)(?: span=[^*]*)? \*/")
TY_COMMENT = re.compile(r" ?/\* ty=[^*]*\*/")


def files_of(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                out.extend(os.path.join(root, n) for n in names if n.endswith(".relay"))
        else:
            out.append(p)
    return sorted(out)


def body(text):
    """The text before #[metadata] (the metadata section holds no binding's type)."""
    at = text.find("\n#[metadata]")
    return text if at < 0 else text[:at]


def types_in(text):
    return TY.findall(body(text))


def is_expression(text):
    """A snippet in expression mode (no definitions): TVM reads it with relay.parse_expr."""
    return not re.search(r"^\s*(def @|type |extern type )", text, re.MULTILINE)


def skip_reason(path, text):
    """Why a program is not compared, or None."""
    if "not-reparseable" in path:
        return "TVM's own printing that TVM cannot read back (printer-only forms)"
    if "meta[" in text and "#[metadata]" not in text:
        return "meta references whose table TVM's tests pass in (init_meta_table)"
    return None


def tvm_verdict(tvm, relay, text, name):
    """(accepts, why, TVM's printing with types): parsed in a forked child, since TVM can crash
    on a program; TVM renders its diagnostics on stderr, so that is captured."""
    sys.stdout.flush()
    sys.stderr.flush()
    rfd, wfd = os.pipe()
    err = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        os.dup2(err.fileno(), 2)
        try:
            if is_expression(text):  # expression mode: parsed only, as TVM's tests and rcheck do
                relay.parse_expr(text)
                out = {"ok": True, "printed": None}
            else:
                out = {"ok": True, "printed": relay.parse(text, name).astext(show_meta_data=True)}
        except Exception as e:  # pylint: disable=broad-except  # DiagnosticError, TVMError, ...
            out = {"ok": False, "why": str(e)}
        with os.fdopen(wfd, "w") as f:
            f.write(json.dumps(out))
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd) as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    err.seek(0)
    rendered = err.read().decode("utf-8", "replace")
    err.close()
    if os.WIFSIGNALED(status):
        return False, "TVM crashed: signal %d" % os.WTERMSIG(status), None
    out = json.loads(data) if data else {"ok": False, "why": "no verdict"}
    if out["ok"]:
        return True, "", out["printed"]
    lines = [ln.strip() for ln in (rendered + "\n" + out["why"]).splitlines() if ln.strip()]
    tail = [ln for ln in lines if "Check failed" in ln or ln.startswith("error")]
    return False, (tail or lines or ["error"])[0][:300], None


def rcheck(binary, path, annotate=False):
    cmd = [binary, "--tvm-strict"] + (["--annotate"] if annotate else []) + [path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def check_one(tvm, relay, binary, path, scratch):
    with open(path) as f:
        text = f.read()
    row = {"file": path}
    why = skip_reason(path, text)
    if why:
        row.update(skipped=why, verdict_agrees=True, tvm="skipped", relaykit="skipped")
        return row
    ok, why, printed = tvm_verdict(tvm, relay, text, os.path.basename(path))
    rc, _, err = rcheck(binary, path)
    row["tvm"] = "accept" if ok else "reject"
    row["relaykit"] = {0: "accept", 1: "reject"}.get(rc, "crash (exit %d)" % rc)
    row["verdict_agrees"] = row["tvm"] == row["relaykit"]
    if not row["verdict_agrees"]:
        row["why"] = why if ok is False else (err.strip().splitlines() or [""])[0][:200]
        return row
    if not ok or printed is None:  # expression mode has no types to compare
        return row
    want = types_in(printed)
    with open(scratch, "w") as f:
        f.write(TY_COMMENT.sub("", body(printed)) + printed[len(body(printed)):])
    rc, out, err = rcheck(binary, scratch, annotate=True)
    if rc != 0:
        row["types_agree"] = False
        row["why"] = "rcheck rejects TVM's printing: " + (err.strip().splitlines() or [""])[0][:200]
        return row
    got = types_in(out)
    if got != want:
        # TVM's printing is not always the text TVM typed: it writes out result types that were
        # not written (a global's, which changes how TVM types that global's uses), and TVM then
        # types its own printing differently (the prelude's @iterate: `fn [A](A) -> A` for the
        # text as written, `fn (A) -> A` for its printing).  relaykit was given the printing, so
        # the reference is what TVM says for that same text.
        with open(scratch) as f:
            again_ok, _, again = tvm_verdict(tvm, relay, f.read(), os.path.basename(path))
        if again_ok and again is not None and types_in(again) == got:
            row["tvm_retypes_its_printing"] = True
            want = got
    row["types"] = len(want)
    row["types_agree"] = got == want
    if got != want:
        for i, (a, b) in enumerate(zip(want, got)):
            if a != b:
                row["why"] = "type %d: TVM %s, relaykit %s" % (i, a, b)
                break
        else:
            row["why"] = "TVM printed %d types, relaykit %d" % (len(want), len(got))
    return row


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--rcheck", required=True)
    ap.add_argument("--name", default="programs")
    ap.add_argument("--json")
    ap.add_argument("--show", type=int, default=10, help="disagreements to print (default 10)")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    os.environ.setdefault("TOPHUB_LOCATION", "NONE")
    import tvm  # pylint: disable=import-outside-toplevel
    from tvm import relay  # pylint: disable=import-outside-toplevel
    # rcheck checks against this TVM's registry (and need not ask Python which TVM it is, each time)
    os.environ["RELAYKIT_TVM_VERSION"] = tvm.__version__
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = os.path.join(tmp, "printed.relay")
        for path in files_of(args.paths):
            rows.append(check_one(tvm, relay, args.rcheck, path, scratch))
    skipped = [r for r in rows if r.get("skipped")]
    rows = [r for r in rows if not r.get("skipped")]
    both = [r for r in rows if "types_agree" in r]  # module mode, accepted by both
    summary = {
        "name": args.name, "tvm_version": tvm.__version__, "programs": len(rows), "skipped": len(skipped),
        "verdicts_agree": sum(r["verdict_agrees"] for r in rows),
        "tvm_accepts": sum(r["tvm"] == "accept" for r in rows),
        "typed_programs": len(both), "types_agree": sum(r["types_agree"] for r in both),
        "bindings_compared": sum(r.get("types", 0) for r in both),
        "tvm_retypes_its_printing": sum(bool(r.get("tvm_retypes_its_printing")) for r in both),
    }
    bad = [r for r in rows if not r["verdict_agrees"] or r.get("types_agree") is False]
    for r in bad:
        r["known"] = known_reason(r)
    unexplained = [r for r in bad if not r["known"]]
    summary["known_disagreements"] = len(bad) - len(unexplained)
    summary["unexplained_disagreements"] = len(unexplained)
    print("%(name)s (TVM %(tvm_version)s): %(programs)d programs (%(skipped)d not comparable, skipped), verdict agrees on %(verdicts_agree)d "
          "(TVM accepts %(tvm_accepts)d); types agree on %(types_agree)d of %(typed_programs)d "
          "(%(bindings_compared)d types compared; %(tvm_retypes_its_printing)d where TVM types its own printing "
          "differently from the text it printed, compared with TVM's types for its printing)" % summary)
    counts = {}
    for r in bad:
        if r["known"]:
            counts[r["known"]] = counts.get(r["known"], 0) + 1
    for reason, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print("  known (%d): %s" % (n, reason))
    for r in unexplained[:args.show]:
        print("  DISAGREE %s: TVM %s, relaykit %s: %s" % (r["file"], r["tvm"], r["relaykit"], r.get("why", "")))
    if len(unexplained) > args.show:
        print("  ... and %d more" % (len(unexplained) - args.show))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "disagreements": bad}, f, indent=1)
    return 0 if not unexplained else 1


if __name__ == "__main__":
    sys.exit(main())
