# The checks: the run functions of parse, typecheck, build, pass, roundtrip and check (the TVM work
# after the stages every check has; bisect's and diff's have modules of their own), and the table
# CHECKS, one row a check, that the command line, tvm-server and the repro all read.
"""The checks' run functions and the table CHECKS."""

import os

import relaykit_repro

from .common import BadArguments, Mismatch, UsageError
from .options import (add_bisect_options, add_build_options, add_diff_options, add_pass_options,
    add_roundtrip_options, add_script_argument, read_bisect, read_configs, read_passes, read_script)
from .tvm_api import build_module, device_for, infer_type, make_pass, parse_module, pass_context
from .inputs import flatten_result, make_inputs
from .bisection import run_bisect
from .diff import run_diff


def load_user_check(path):
    """The check function of the user's Python file; UsageError if it has none."""
    namespace = {"__name__": "relaykit_user_check", "__file__": os.path.abspath(path)}
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, namespace)  # pylint: disable=exec-used  # the user's own test, as `python3 FILE` would
    fn = namespace.get("check")
    if not callable(fn):
        raise UsageError("%s defines no function check(mod)" % path)
    return fn


def load_script(args):
    """Check.load of `check`: the user's check(mod) into args.user_check; None, or why not."""
    try:
        args.user_check = load_user_check(args.script)
    except Exception as e:  # pylint: disable=broad-except  # SyntaxError, ImportError, UsageError
        return "cannot load %s: %s: %s" % (args.script, type(e).__name__, e)
    except SystemExit as e:  # the user's file called sys.exit() at import
        return "cannot load %s: it called sys.exit(%s)" % (args.script, e.code)
    return None


def check_passes(args):
    """Check.vet of pass: BadArguments unless each pass is in tvm.relay.transform and takes its
    arguments."""
    import inspect  # pylint: disable=import-outside-toplevel
    from tvm import relay  # pylint: disable=import-outside-toplevel
    for name, pargs, kwargs in args.passes:
        factory = getattr(relay.transform, name, None)
        if factory is None or not callable(factory):
            raise BadArguments("unknown pass %s (not in tvm.relay.transform)" % name)
        try:
            sig = inspect.signature(factory)
        except (TypeError, ValueError):  # no signature to check against (a builtin)
            continue
        try:
            sig.bind(*pargs, **kwargs)
        except TypeError as e:
            raise BadArguments("pass %s: %s" % (name, e))


class Job(object):  # pylint: disable=too-few-public-methods
    """One candidate in the TVM child: what a check's run function works with."""

    def __init__(self, tvm, relay, args, name, stage, ran=None, note=None):
        self.tvm, self.relay, self.args, self.name = tvm, relay, args, name
        self.stage = stage  # stage(name) announces each stage
        self.ran = ran  # ran(name) records a pass TVM ran (the outcome's pipeline)
        self.note = note or (lambda text: None)  # note(text): a remark for the outcome (tvm-diff's redraws)
        self.params = None  # --params, loaded (Check.compiles)


def run_parse(job, mod):  # pylint: disable=unused-argument
    return "parsed"


def run_typecheck(job, mod):  # pylint: disable=unused-argument
    return "type-checks"  # Check.typed ran InferType


def run_built(tvm, relay, np, built, args, mod, params):
    """Runs what build_module made on --inputs; returns the flattened results."""
    dev = device_for(tvm, args.target)
    inputs = make_inputs(tvm, relay, np, mod["main"], dev, args.seed, skip=params or {},
                         zeros=args.inputs == "zeros")
    if args.executor == "vm":
        vm = tvm.runtime.vm.VirtualMachine(built, dev)
        return flatten_result(np, vm.invoke("main", **dict(inputs)), [])
    if args.executor == "aot":
        from tvm.runtime.executor import AotModule  # pylint: disable=import-outside-toplevel
        m = AotModule(built["default"](dev))
    else:
        from tvm.contrib import graph_executor  # pylint: disable=import-outside-toplevel
        m = graph_executor.GraphModule(built["default"](dev))
    for name, value in inputs:
        m.set_input(name, value)
    m.run()
    return [m.get_output(i).numpy() for i in range(m.get_num_outputs())]


def run_build(job, mod):
    """relay.build (or relay.vm.compile) of mod, then with --run running it: build and pass --build."""
    tvm, relay, args = job.tvm, job.relay, job.args
    job.stage("build")
    with pass_context(tvm, relay, args.opt_level, (), args, job.ran, stage=job.stage):
        built = build_module(tvm, relay, mod, args, job.params)
    if not args.run:
        return "builds"
    import numpy as np  # pylint: disable=import-outside-toplevel
    job.stage("run")
    run_built(tvm, relay, np, built, args, mod, job.params)
    return "builds and runs"


def run_passes(job, mod):
    tvm, relay, args = job.tvm, job.relay, job.args
    job.stage("setup")
    passes = [(spec[0], make_pass(relay, spec)) for spec in args.passes]
    with pass_context(tvm, relay, args.opt_level, [n for n, _ in passes], args, job.ran):
        for pname, p in passes:
            job.stage("pass " + pname)
            mod = tvm.transform.Sequential([p])(mod)
        if args.infer_after:
            job.stage("infer-after")
            mod = infer_type(relay, mod)
    if not args.build:
        return "passes run"
    return run_build(job, mod)


def run_roundtrip(job, mod):
    tvm, relay = job.tvm, job.relay
    if job.args.infer:
        job.stage("typecheck")
        mod = infer_type(relay, mod)
    job.stage("print")
    printed = mod.astext(show_meta_data=True)
    job.stage("reparse")
    mod2 = parse_module(tvm, relay, printed, job.name + " (printed)")
    job.stage("compare")
    if not tvm.ir.structural_equal(mod, mod2, map_free_vars=True):
        raise Mismatch("printed and re-parsed module is not structurally equal to the original")
    return "round trip is structurally equal"


def run_user_check(job, mod):
    job.stage("check")
    if job.args.user_check(mod) is False:
        raise Mismatch("check(mod) returned False")
    return "check(mod) passed"


class Check(object):  # pylint: disable=too-few-public-methods,too-many-instance-attributes
    """One TVM check: all that tvm-NAME, `tvm-server NAME` and the repro know of it."""

    def __init__(self, name, description, under_test, run, failure, repro, typed=False,
                 compiles=False, options=None, usage=None, read_items=None, read_options=None,
                 load=None, vet=None):
        self.name = name
        self.description = description  # --help's description
        self.under_test = under_test  # the stages whose error is the bug (see verdict)
        self.run = run  # run(job, mod) in the TVM child, after the stages below: the no-bug text
        self.failure = failure  # "a build failure": what the repro reproduces
        self.repro = repro  # repro(args): its steps after the parse, as source (relaykit_repro)
        self.typed = typed  # InferType runs first (stage typecheck)
        self.compiles = compiles  # takes the PassContext and build options, and --params
        self.options = options  # options(parser, with_file): its own arguments, after the shared
        self.usage = usage  # a usage line of its own (argparse's by default); FILE is appended
        # read_items(args, parser, with_file): its positional arguments hold the candidate too
        # (PASS... FILE): out of them come args.file and the rest, before anything else is read
        self.read_items = read_items
        self.read_options = read_options  # read_options(args, parser): checks and completes its own
        self.load = load  # load(args) with TVM imported, once per argument set: None, or why not
        self.vet = vet  # vet(args) with TVM imported, once per args file of tvm-server: BadArguments


CHECKS = (
    Check("parse", "Interesting when TVM's parser rejects (or crashes on) the text.",
          ("parse",), run_parse, "a parser failure", relaykit_repro.parse),
    Check("typecheck", "Interesting when the text parses but relay.transform.InferType fails or "
          "crashes.",
          ("typecheck",), run_typecheck, "a type-checker failure", relaykit_repro.typecheck,
          typed=True),
    Check("build", "Interesting when the module type-checks but relay.build (or relay.vm.compile) "
          "raises or crashes, or, with --run, running the built module on inputs does.",
          ("build", "run"), run_build, "a build failure", relaykit_repro.build,
          typed=True, compiles=True, options=add_build_options),
    Check("pass", "Interesting when the module type-checks but running the passes (in order, each "
          "as a one-pass tvm.transform.Sequential) raises or crashes. PASS is a name from "
          "tvm.relay.transform, optionally with literal arguments: FoldConstant "
          "'FuseOps(fuse_opt_level=2)' 'AlterOpLayout()'. With --build, building the result "
          "(and with --run, running it) is under test too.",
          ("pass", "infer-after", "build", "run"), run_passes, "a failure in passes",
          relaykit_repro.passes, typed=True, compiles=True, options=add_pass_options,
          usage="%(prog)s [options] PASS... ", read_items=read_passes,
          vet=check_passes),
    Check("bisect", "Interesting when the passes (in order, each as a one-pass Sequential; none: "
          "relay.build's own, watched by a pass instrument) leave the module broken or fail: after "
          "every pass the module is checked (well-formed, InferType, and with --run that it "
          "computes what the input computes on the same random inputs, by the interpreter, "
          "tolerance by dtype); the first pass after which it is broken, or that fails, is the "
          "culprit: named, with the module just before and after it (printed by rfmt, diffed) "
          "on stderr. On a build failure after every Relay pass, it says the failure is in "
          "lowering.",
          ("pass", "build", "inputs"), run_bisect, "the pass that breaks the module",
          relaykit_repro.passes, typed=True, compiles=True, options=add_bisect_options,
          usage="%(prog)s [options] [PASS...] ", read_items=read_bisect, vet=check_passes),
    Check("diff", "Interesting when configurations (opt levels of one executor, executors at one "
          "opt level, or any EXECUTOR:LEVEL pairs) give results that differ beyond the tolerance "
          "on the same random inputs; inputs that feed a variance, a square root, a logarithm or a "
          "divisor are positive, so that no NaN comes from the inputs. Every configuration must "
          "run: a crash of one is 'something else' (use tvm-build).",
          ("compare",), run_diff, "a difference between configurations", relaykit_repro.diff,
          typed=True, compiles=True, options=add_diff_options, read_options=read_configs),
    Check("roundtrip", "Interesting when printing the module (astext) and parsing the text again "
          "fails or gives a module that is not tvm.ir.structural_equal to the first.",
          ("print", "reparse", "compare"), run_roundtrip, "a print/parse round-trip failure",
          relaykit_repro.roundtrip, options=add_roundtrip_options),
    Check("check", "Interesting when the user's check(mod), a function in the Python file SCRIPT, "
          "raises or returns False for the parsed module (any other value: no bug). It runs in a "
          "forked child, so a crash is caught too: an existing Python repro becomes a test.",
          ("check",), run_user_check, "a failure of the user's check(mod)", relaykit_repro.check,
          options=add_script_argument, read_options=read_script, load=load_script),
)
CHECK = dict((c.name, c) for c in CHECKS)
CHECK_NAMES = tuple(c.name for c in CHECKS)
