#!/usr/bin/env python3
# relaykit.reduce in a TVM user's session on a real TVM (issue 42), run by `make check-tvm`:
# mobilenet from relay.testing with its params and a check that fails while an nn.conv2d with
# groups > 1 is there reduces in one call, the module it returns builds, its params fit it; a
# check that segfaults on some candidates leaves the session alive. Prints "N passed, N failed".
"""python_session.py"""

import ctypes
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("TOPHUB_LOCATION", "NONE")
os.environ.setdefault("RELAYKIT_BIN", os.path.join(ROOT, "bin"))

import tvm  # noqa: E402
from tvm import relay  # noqa: E402
from tvm.relay import testing  # noqa: E402

import relaykit  # noqa: E402

RESULTS = []


def grouped_convs(mod):
    """The nn.conv2d calls of mod's @main with groups > 1."""
    found = []

    def visit(e):
        if isinstance(e, relay.Call) and getattr(e.op, "name", None) == "nn.conv2d" and int(e.attrs.groups) > 1:
            found.append(e)
    relay.analysis.post_order_visit(mod["main"], visit)
    return found


def check(mod, params):
    """The planted bug: "fails" while a grouped nn.conv2d is there (and the module must build)."""
    return len(grouped_convs(mod)) > 0


def ops(mod):
    names = set()
    relay.analysis.post_order_visit(mod["main"], lambda e: isinstance(e, relay.Call) and hasattr(e.op, "name") and names.add(e.op.name))
    return names


def case(fn):
    started = time.time()
    try:
        fn()
        RESULTS.append((fn.__name__, None))
        print("ok   %s (%.0f s)" % (fn.__name__, time.time() - started))
    except Exception as e:  # pylint: disable=broad-except
        RESULTS.append((fn.__name__, "%s: %s" % (type(e).__name__, e)))
        print("FAIL %s: %s: %s" % (fn.__name__, type(e).__name__, e))
    sys.stdout.flush()
    return fn


@case
def mobilenet_reduces_to_a_grouped_conv2d_in_one_call():
    mod, params = testing.mobilenet.get_workload(batch_size=1)
    before = len(mod.astext())
    small, small_params = relaykit.reduce(mod, check, params=params, quiet=True)
    assert grouped_convs(small), "the bug is gone: %s" % small.astext()
    assert ops(small) == set(["nn.conv2d"]), "more than the conv2d is left: %s" % sorted(ops(small))
    names = set(p.name_hint for p in small["main"].params)
    assert set(small_params) <= names, (sorted(small_params), sorted(names))
    with tvm.transform.PassContext(opt_level=3):
        relay.build(small, target="llvm", params=small_params)
    print("     mobilenet %d -> %d bytes; params kept: %s" % (before, len(small.astext()), sorted(small_params)))


@case
def a_check_that_segfaults_leaves_the_session_alive():
    mod, params = testing.mobilenet.get_workload(batch_size=1)

    def crashing(m, p):
        if len(ops(m)) < 3 and "nn.relu" in ops(m):
            ctypes.string_at(0)  # SIGSEGV on some candidates
        return check(m, p)
    small, _ = relaykit.reduce(mod, crashing, params=params, quiet=True, passes="cut,dce,body")
    assert grouped_convs(small)


print("%d passed, %d failed" % (sum(1 for _, e in RESULTS if e is None), sum(1 for _, e in RESULTS if e)))
sys.exit(1 if any(e for _, e in RESULTS) else 0)
