#!/usr/bin/env python3
"""A stand-in oracle server with the coverage extension (interestingness/PROTOCOL.md, "coverage"),
for rfuzz's coverage tests: every program passes (unless COV_FAIL, below) (an ill-typed one is rejected cleanly), and its
"edges" are made up from the words of the program and of its args file (operators, passes), so
that they are a function of the round. COV_MODE picks what it reports:
  words  (default) one edge per distinct word, as above
  one    the same single edge for every program
  none   no coverage field at all (an oracle without an instrumented TVM)
  bad    a malformed coverage field for every program
COV_BAD_ONCE=FILE: the first answer, while FILE does not exist, has a malformed field (and FILE
is created), so a restarted server answers well.
COV_FAIL=WORD: a program whose text holds WORD fails its check ("0 planted failure"), edges and all."""
import base64
import json
import os
import re
import sys
import zlib


def encode(edges):
    """Ascending indices as base64 of their LEB128 gaps."""
    out, last = bytearray(), -1
    for e in edges:
        gap, last = e - last - 1, e
        while True:
            byte, gap = gap & 0x7F, gap >> 7
            out.append(byte | (0x80 if gap else 0))
            if not gap:
                break
    return base64.b64encode(bytes(out)).decode("ascii")


def coverage(mode, text):
    if mode == "one":
        return {"edges": 1, "new": 0, "set": encode([7])}
    if mode == "bad":
        return {"edges": 1, "new": 0, "set": "not base64!"}
    edges = sorted({zlib.crc32(w.encode("utf-8")) % 4096 for w in re.findall(r"[A-Za-z_][A-Za-z_.0-9]*", text)})
    return {"edges": len(edges), "new": 0, "total": 4096, "set": encode(edges)}


def main():
    mode = os.environ.get("COV_MODE", "words")
    bad_once = os.environ.get("COV_BAD_ONCE")
    fail_word = os.environ.get("COV_FAIL")
    asked = os.environ.get("RELAYKIT_COVERAGE") == "1"
    for line in sys.stdin:
        path = line.rstrip("\n")
        try:
            with open(path) as f:
                text = f.read()
            with open(path + ".args") as f:
                args = f.read()
        except OSError:
            text = args = ""
        cov = coverage(mode, text + "\n" + args) if asked and mode != "none" else None
        if cov is not None and bad_once and not os.path.exists(bad_once):
            open(bad_once, "w").close()
            cov = {"edges": 1, "new": 0, "set": "@@@"}
        if cov is not None:
            with open(path + ".outcome.tmp", "w") as f:
                json.dump({"coverage": cov}, f)
            os.rename(path + ".outcome.tmp", path + ".outcome")
        typecheck = args.split()[:1] == ["typecheck"]
        if typecheck:
            sys.stdout.write("0 error: type mismatch\n")
        elif fail_word and re.search(r"\b%s\b" % re.escape(fail_word), text):
            sys.stdout.write("0 planted failure\n")
        else:
            sys.stdout.write("1\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
