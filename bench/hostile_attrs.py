#!/usr/bin/env python3
"""bench/hostile_attrs.py BIN DIR: operator calls with hostile integers, through whole programs.

Takes every operator's calls from the unit tests (tests/unit/test_ops_*.c, the assert_infers lines
written with plain strings), and for each integer in each call's attributes writes programs with
that integer set to INT64_MAX, INT64_MIN, -1 and 2^62 (one at a time), and with each dimension of
the argument types set to INT64_MAX and 2^62.  Runs `rcheck` and, on what rcheck accepts,
`rmutate -n 2` (the mutators and the generator's cost estimate then meet the huge values) on each
program in DIR.  Prints one line per crash (exit 128 or more: a signal, or a sanitizer's report in
a build made with `make SAN=1`) and a summary "hostile attributes: N programs, N accepted, crashes
N"; exits 1 when anything crashed.
"""
import glob
import os
import re
import subprocess
import sys

HOSTILE = ["9223372036854775807", "-9223372036854775808", "-1", "4611686018427387904"]
HUGE_DIMS = ["9223372036854775807", "4611686018427387904"]
HEADER = '#[version = "0.0.5"]\n'


def calls(root):
    """(op, argument types, attributes) of each assert_infers whose three first arguments are
    string literals (a call written with a macro is left out); one per distinct text."""
    lit = r'"((?:[^"\\]|\\.)*)"'
    pattern = re.compile(r"assert_infers\(\s*" + lit + r",\s*" + lit + r",\s*" + lit + r"\s*,")
    seen = set()
    for path in sorted(glob.glob(os.path.join(root, "tests/unit/test_ops_*.c"))):
        with open(path) as f:
            text = f.read()
        for m in pattern.finditer(text):
            op, args, attrs = (g.encode().decode("unicode_escape") for g in m.groups())
            if (op, args, attrs) not in seen:
                seen.add((op, args, attrs))
                yield op, args, attrs


def split_types(args):
    """The argument types of a list such as "Tensor[(1, 3), float32], (int32, float32)"."""
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def program(op, types, attrs):
    params = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(types))
    call_args = ", ".join(["%%a%d" % i for i in range(len(types))] + ([attrs] if attrs else []))
    return HEADER + "def @main(%s) {\n  %s(%s)\n}\n" % (params, op, call_args)


def variants(op, args, attrs):
    types = split_types(args)
    ints = list(re.finditer(r"(?<![\w.\"])-?\d+(?![\w.\"])", attrs))
    for m in ints:
        for value in HOSTILE:
            yield program(op, types, attrs[: m.start()] + value + attrs[m.end():])
    for i, t in enumerate(types):
        dims = re.match(r"Tensor\[\((.*?)\),", t)
        if not dims or not dims.group(1).strip():
            continue
        extents = [d.strip() for d in dims.group(1).split(",") if d.strip()]
        for j in range(len(extents)):
            for value in HUGE_DIMS:
                if extents[j] == "?":
                    continue
                grown = extents[:j] + [value] + extents[j + 1:]
                t2 = "Tensor[(%s%s), %s" % (", ".join(grown), "," if len(grown) == 1 else "", t[dims.end():].lstrip())
                yield program(op, types[:i] + [t2] + types[i + 1:], attrs)


def run(cmd, timeout=120):
    try:
        return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return "timeout"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench/hostile_attrs.py BIN DIR")
    bin_dir, out = sys.argv[1], sys.argv[2]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.makedirs(out, exist_ok=True)
    texts = []
    for op, args, attrs in calls(root):
        texts.extend(variants(op, args, attrs))
    texts = list(dict.fromkeys(texts))  # the same program once
    crashes = accepted = 0
    for k, text in enumerate(texts):
        path = os.path.join(out, "h%05d.relay" % k)
        with open(path, "w") as f:
            f.write(text)
        rc = run([os.path.join(bin_dir, "rcheck"), path])
        bad = []
        if rc == "timeout" or rc >= 128:
            bad.append("rcheck: %s" % rc)
        elif rc == 0:
            accepted += 1
            mutants = os.path.join(out, "m%05d" % k)
            rc = run([os.path.join(bin_dir, "rmutate"), path, "-n", "2", "-j", "1", "-q", "-o", mutants])
            if rc == "timeout" or rc >= 128:
                bad.append("rmutate: %s" % rc)
            subprocess.run(["rm", "-rf", mutants])
        if bad:
            crashes += 1
            print("%s: %s: %s" % (path, ", ".join(bad), text.splitlines()[-2].strip()[:200]))
        else:
            os.remove(path)
    print("hostile attributes: %d programs, %d accepted, crashes %d" % (len(texts), accepted, crashes))
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
