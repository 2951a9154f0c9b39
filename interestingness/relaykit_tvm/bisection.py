# tvm-bisect: the passes (or relay.build's own, watched), the module checked after each; the first
# pass after which it is broken, or that fails, is the culprit.
"""tvm-bisect's run function: the pass that breaks the module."""

import os
import shutil
import sys

from .common import Mismatch, one_line, UsageError
from .tvm_api import build_module, device_for, infer_type, make_pass, pass_context, SEQUENTIAL
from .inputs import compare_results, flatten_result, make_inputs


class Broken(Exception):
    """tvm-bisect: a pass left the module broken; str() names the pass and how."""


def _checked(job, mod, reference, inputs):
    """Why the module is broken (not well-formed, not typed, or computing something else than the
    input did on the same inputs), or None."""
    relay = job.relay
    try:
        for gv, func in getattr(mod, "functions", {}).items():
            if isinstance(func, relay.Function) and hasattr(relay.analysis, "well_formed") \
                    and not relay.analysis.well_formed(func):
                return "%s is not well-formed" % getattr(gv, "name_hint", gv)
        mod = infer_type(relay, mod)
    except Exception as e:  # pylint: disable=broad-except
        return "it no longer type-checks: %s" % one_line("%s: %s" % (type(e).__name__, e))
    if reference is None:
        return None
    import numpy as np  # pylint: disable=import-outside-toplevel
    try:
        got = _interpret(job, mod, inputs)
        compare_results(np, reference, got, job.args.rtol, job.args.atol, ("the input", "the pass's output"))
    except Mismatch as e:
        return "it computes something else: %s" % e
    except Exception as e:  # pylint: disable=broad-except
        return "it no longer runs: %s" % one_line("%s: %s" % (type(e).__name__, e))
    return None


def _interpret(job, mod, inputs):
    """The module's results on inputs, by the debug interpreter at opt level 0 (no pass of its own)."""
    tvm, relay = job.tvm, job.relay
    import numpy as np  # pylint: disable=import-outside-toplevel
    dev = device_for(tvm, job.args.target)
    with pass_context(tvm, relay, 0):
        return flatten_result(np, relay.create_executor("debug", mod, dev, job.args.target).evaluate()(*inputs), [])


def _ir_diff(before, after, name):
    """The module before and after the culprit, each printed by rfmt (TVM's layout, types dropped),
    as a unified diff."""
    import difflib  # pylint: disable=import-outside-toplevel
    # the checkout's bin/rfmt: this file is interestingness/relaykit_tvm/bisection.py
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    rfmt = os.path.join(top, "bin", "rfmt")
    rfmt = rfmt if os.access(rfmt, os.X_OK) else shutil.which("rfmt")

    def tidy(text):
        if not rfmt:
            return text
        import subprocess  # pylint: disable=import-outside-toplevel
        p = subprocess.run([rfmt, "--strip-types", "-"], input=text, capture_output=True, text=True)
        return p.stdout if p.returncode == 0 else text

    return "".join(difflib.unified_diff(tidy(before).splitlines(True), tidy(after).splitlines(True),
                                        "before %s" % name, "after %s" % name))


def run_bisect(job, mod):
    """tvm-bisect: the passes (or relay.build's own, watched by a pass instrument), the module
    checked after every one; the first pass after which it is broken, or that fails, is named,
    with the module just before and just after it."""
    tvm, relay, args = job.tvm, job.relay, job.args
    reference, inputs = None, None
    if args.run:
        import numpy as np  # pylint: disable=import-outside-toplevel
        job.stage("inputs")
        dev = device_for(tvm, args.target)
        inputs = [v for _, v in make_inputs(tvm, relay, np, mod["main"], dev, args.seed)]
        reference = _interpret(job, mod, inputs)
    job.stage("setup")
    passes = [(spec[0], make_pass(relay, spec)) for spec in args.passes]
    for k, (name, p) in enumerate(passes):
        before = mod.astext(show_meta_data=False)
        job.stage("pass " + name)
        with pass_context(tvm, relay, args.opt_level, [name], args, job.ran):
            try:
                mod = tvm.transform.Sequential([p])(mod)
            except Exception:
                sys.stderr.write("culprit: %s (pass %d of %d) fails; the module before it:\n%s\n" % (
                    name, k + 1, len(passes), before))
                raise
        why = _checked(job, mod, reference, inputs)
        if why:
            sys.stderr.write(_ir_diff(before, mod.astext(show_meta_data=False), name))
            raise Broken("culprit: %s (pass %d of %d): %s" % (name, k + 1, len(passes), why))
    if passes and not args.build:
        return "no pass breaks the module (%d passes)" % len(passes)
    return _bisect_build(job, mod, reference, inputs)


def _bisect_build(job, mod, reference, inputs):
    """relay.build's own passes, each watched: the first after which the module is broken; else the
    pass in flight when the build failed, or lowering after every Relay pass."""
    tvm, relay, args = job.tvm, job.relay, job.args
    instrument = getattr(tvm, "instrument", None)
    if instrument is None or not hasattr(instrument, "pass_instrument"):
        raise UsageError("this TVM has no pass instruments (0.8 or later): tvm-bisect needs them for a build")
    state = {"depth": 0, "inside": False, "last": None, "before": None, "broken": None}

    @instrument.pass_instrument
    class Watch(object):  # pylint: disable=too-few-public-methods
        def run_before_pass(self, m, info):
            job.ran(info.name)
            if state["inside"] or info.name == SEQUENTIAL:  # relay.build's passes run in one Sequential
                return
            if state["depth"] == 0:
                state["last"], state["before"] = info.name, m.astext(show_meta_data=False)
                job.stage("build pass " + info.name)  # a crash in it is said to be there
            state["depth"] += 1

        def run_after_pass(self, m, info):
            if state["inside"] or info.name == SEQUENTIAL:
                return
            state["depth"] -= 1
            if not state["depth"]:
                job.stage("build after " + info.name)  # lowering, if no Relay pass comes next
            if state["depth"] or state["broken"]:
                return
            state["inside"] = True  # the checks run passes of their own: not watched
            try:
                why = _checked(job, m, reference, inputs)
            finally:
                state["inside"] = False
            if why:
                state["broken"] = (info.name, why, state["before"], m.astext(show_meta_data=False))

    job.stage("build")
    try:
        with pass_context(tvm, relay, args.opt_level, (), args, None, [Watch()]):
            build_module(tvm, relay, mod, args, job.params)
    except Exception:
        if state["broken"] is None:
            where = ("in pass %s" % state["last"]) if state["depth"] else \
                "in lowering, after every Relay pass (the last was %s)" % state["last"]
            sys.stderr.write("culprit: the build fails %s\n" % where)
            raise
    if state["broken"]:
        name, why, before, after = state["broken"]
        job.stage("build pass " + name)
        sys.stderr.write(_ir_diff(before, after, name))
        raise Broken("culprit: %s (in relay.build): %s" % (name, why))
    return "no pass of relay.build breaks the module"
