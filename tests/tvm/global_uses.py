#!/usr/bin/env python3
# How TVM types a use of a global function (issue 12), checked on the real TVM by `make check-tvm`
# (fidelity group); Python 3.6 compatible, TVM and nothing else.
#
# TVM's InferType types every use of a global by the global's annotation: a result type that is
# not written is an unknown that only the use's context fixes.  TVM's printer writes the inferred
# result types out, so TVM types its own printing differently from the text it printed.  The
# prelude shows it: in @iterate, `@compose(%f6, %8)` is `fn [A](A) -> A` for the prelude as
# written (@compose has no result type; the call takes the other branch's type, the polymorphic
# @id) and `fn (A) -> A` for its printing.  For each of the two texts, rcheck must give TVM's type.
"""global_uses.py --rcheck BIN --corpus DIR"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

TY_COMMENT = re.compile(r" ?/\* ty=[^*]*\*/")
CALL_TYPE = re.compile(r"@compose\(%f6?, [^\n]*?/\* ty=(fn [^*]*?)(?: span=[^*]*)? \*/\s*$", re.MULTILINE)


# Uses of globals whose parameter or result types are not written: TVM's verdict must be rcheck's.
VERDICTS = [
    "def @f(%x: int32) { %x }\ndef @main() { @f(1) }",
    "def @main() { @f(1) }\ndef @f(%x: int32) { %x }",
    "def @f(%x: int32) { %x }\ndef @main() -> int32 { @f(1) }",
    "def @f(%x: int32) { %x }\ndef @main() { let %y: int32 = @f(1); add(%y, 1) }",
    "def @f(%x) -> int32 { 0 }\ndef @main(%a: int32, %b: float32) -> (int32, int32) { (@f(%a), @f(%b)) }",
    "def @main(%x) { %x }",
    "def @main() { fn (%x) { %x } }",
    "def @main() { let %f = fn (%x) { %x }; %f(1) }",
    "def @id[A](%x: A) -> A { %x }\ndef @main() -> fn (int32) -> int32 { @id }",
    "def @f(%x: Tensor[(2), float32]) { exp(%x) }\n"
    "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] { negative(@f(%x)) }",
    "def @f(%x: Tensor[(5, 7), float32]) { %x }\n"
    "def @main(%a: Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] { call_lowered(@f, (%a,)) }",
]


def tvm_accepts(relay, text):
    try:
        relay.parse(text, "case")
        return True
    except Exception:  # pylint: disable=broad-except  # DiagnosticError, TVMError
        return False


def call_type(text):
    found = CALL_TYPE.findall(text)
    return found[-1] if found else None


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--rcheck", required=True)
    ap.add_argument("--corpus", required=True)
    args = ap.parse_args()
    from tvm import relay  # pylint: disable=import-outside-toplevel
    raw = os.path.join(args.corpus, "tvm-tests", "prelude__1.relay")
    with open(raw) as f:
        written = f.read()
    printed = relay.parse(written, "prelude").astext(show_meta_data=False)
    reprinted = TY_COMMENT.sub("", printed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, text in (("the prelude as written", written), ("TVM's printing of it", reprinted)):
            want = call_type(relay.parse(text, "prelude").astext(show_meta_data=False))
            path = os.path.join(tmp, "in.relay")
            with open(path, "w") as f:
                f.write(text)
            out = subprocess.run([args.rcheck, "--annotate", path], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, timeout=120)
            got = call_type(out.stdout.decode("utf-8", "replace")) if out.returncode == 0 else None
            ok = want is not None and got == want
            failures += not ok
            print("%s: @compose's call in @iterate: TVM %s, relaykit %s%s"
                  % (label, want, got, "" if ok else "  <- DIFFERS"))
    with tempfile.TemporaryDirectory() as tmp:
        for i, body in enumerate(VERDICTS):
            text = '#[version = "0.0.5"]\n' + body + "\n"
            path = os.path.join(tmp, "case%d.relay" % i)
            with open(path, "w") as f:
                f.write(text)
            want = tvm_accepts(relay, text)
            rc = subprocess.run([args.rcheck, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=120).returncode
            ok = rc in (0, 1) and (rc == 0) == want
            failures += not ok
            print("case %d: TVM %s, relaykit %s%s: %s" % (i, "accepts" if want else "rejects",
                                                       {0: "accepts", 1: "rejects"}.get(rc, "exit %d" % rc),
                                                       "" if ok else "  <- DIFFERS", body.replace("\n", " ")))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
