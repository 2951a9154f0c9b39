# Shared code of relaykit's TVM interestingness tests (interestingness/tvm-*) and of tvm-server.
#
# A check runs in stages (read, parse, typecheck, build, ...). Each check names the stages that
# are "under test": an error there is the bug (exit 0, if it matches --match); an error in any
# other stage means something else broke (exit 1); no error means no bug (exit 1). The TVM work
# runs in a forked child, so a crash by signal (SIGSEGV, SIGABRT from LOG(FATAL)...) is an error
# of the stage the child was in, with the signature "signal SIGSEGV".
#
# Written for TVM's Python API from 0.6 to 0.19 (the last release with Relay); see README.md.
# Keep it Python 3.6 compatible (no walrus, no builtin generics): old TVM releases need old Pythons.
"""Shared code of relaykit's TVM interestingness tests and of tvm-server."""

import argparse
import ast
import json
import os
import re
import select
import shutil
import signal
import sys
import tempfile
import textwrap
import time

CHECKS = ("parse", "typecheck", "build", "pass", "diff", "roundtrip")
NOT_IMPORTABLE = "TVM is not importable (set TVM_HOME / PYTHONPATH)"
EXIT_BUG, EXIT_NO_BUG, EXIT_USAGE = 0, 1, 2
OUTPUT_CAP = 1 << 20  # bytes of the child's output kept for matching and for showing
SIGNATURE_CAP = 400  # characters of a signature

DESCRIPTIONS = {
    "parse": "Interesting when TVM's parser rejects (or crashes on) the text.",
    "typecheck": "Interesting when the text parses but relay.transform.InferType fails or crashes.",
    "build": "Interesting when the module type-checks but relay.build raises or crashes.",
    "pass": "Interesting when the module type-checks but running the passes (in order, each "
    "as a one-pass tvm.transform.Sequential) raises or crashes. PASS is a name from "
    "tvm.relay.transform, optionally with literal arguments: FoldConstant "
    "'FuseOps(fuse_opt_level=2)' 'AlterOpLayout()'.",
    "diff": "Interesting when two configurations (two opt levels of one executor, or two "
    "executors at one opt level) give results that differ beyond the tolerance on the same "
    "random inputs. Both must run: a crash of either is 'something else' (use tvm-build).",
    "roundtrip": "Interesting when printing the module (astext) and parsing the text again "
    "fails or gives a module that is not tvm.ir.structural_equal to the first.",
}

UNDER_TEST = {
    "parse": ("parse",),
    "typecheck": ("typecheck",),
    "build": ("build",),
    "pass": ("pass", "infer-after"),
    "diff": ("compare",),
    "roundtrip": ("print", "reparse", "compare"),
}

EPILOG = """exit status: 0 the bug is there (an error in the stage under test, matching --match
  if given); %(other)s something else broke (an earlier stage failed, or a different
  error), or no bug; 2 usage error, unreadable candidate, or TVM not importable.

environment: RELAYKIT_PYTHON (the Python to re-run this script with, e.g. the one TVM is installed
for), TVM_HOME (its python/ folder goes first on sys.path), PYTHONPATH, TVM_LIBRARY_PATH (where
libtvm.so is, read by TVM itself). See interestingness/README.md."""


class UsageError(Exception):
    """A mistake in the command line found only once TVM is loaded (an unknown pass)."""


class Mismatch(Exception):
    """The property under test does not hold (results differ, round trip not equal)."""


# ----------------------------------------------------------------------------- start-up

def reexec_with_relaykit_python(script):
    """Re-runs the script under $RELAYKIT_PYTHON when that is another interpreter."""
    wanted = os.environ.get("RELAYKIT_PYTHON")
    if not wanted or os.environ.get("RELAYKIT_TVM_REEXEC") == "1":
        return
    path = shutil.which(wanted) or wanted
    if os.path.realpath(path) == os.path.realpath(sys.executable):
        return
    os.environ["RELAYKIT_TVM_REEXEC"] = "1"
    try:
        os.execv(path, [path, script] + sys.argv[1:])
    except OSError as e:
        sys.stderr.write("%s: cannot run RELAYKIT_PYTHON=%s: %s\n" % (os.path.basename(script), wanted, e))
        sys.exit(EXIT_USAGE)


def import_tvm():
    """Imports TVM (TVM_HOME/python first on sys.path); returns the error text or None."""
    home = os.environ.get("TVM_HOME")
    # relay.build would otherwise download AutoTVM's TopHub logs from the internet on every run:
    # a test must not depend on (or wait for) the network.  A user who wants them sets it.
    os.environ.setdefault("TOPHUB_LOCATION", "NONE")
    if home:
        pydir = os.path.join(home, "python")
        if pydir not in sys.path:
            sys.path.insert(0, pydir)
    try:
        import tvm  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
        from tvm import relay  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
    except Exception as e:  # pylint: disable=broad-except  # ImportError, OSError (libtvm.so), ...
        return "%s: %s" % (type(e).__name__, e)
    return None


def pass_spec(text):
    """'FuseOps(fuse_opt_level=2)' -> ('FuseOps', [], {'fuse_opt_level': 2}); ValueError if bad."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError("not a pass: %r (write Name or Name(literal arguments))" % text)
    if isinstance(node, ast.Name):
        return node.id, [], {}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        try:
            args = [ast.literal_eval(a) for a in node.args]
            kwargs = dict((k.arg, ast.literal_eval(k.value)) for k in node.keywords)
        except ValueError:
            raise ValueError("pass %r: arguments must be literals" % text)
        if None in kwargs:
            raise ValueError("pass %r: no **arguments" % text)
        return node.func.id, args, kwargs
    raise ValueError("not a pass: %r (write Name or Name(literal arguments))" % text)


def comma_pair(conv):
    def parse(text):
        parts = text.split(",")
        if len(parts) != 2 or not all(p.strip() for p in parts):
            raise argparse.ArgumentTypeError("expected two values separated by a comma: %r" % text)
        try:
            return [conv(p.strip()) for p in parts]
        except ValueError:
            raise argparse.ArgumentTypeError("bad value in %r" % text)
    return parse


def make_parser(check, prog, with_file):
    usage = None
    if check == "pass":
        usage = "%(prog)s [options] PASS... " + ("FILE" if with_file else "")
    p = argparse.ArgumentParser(
        prog=prog, usage=usage, description=textwrap.fill(DESCRIPTIONS[check], 79),
        epilog=EPILOG % {"other": "1 (or --other-status)"},
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--match", metavar="REGEX",
                   help="the bug's error signature (Python re.search over the error text and "
                   "TVM's output, e.g. 'Check failed: .*dtype' or 'signal SIGSEGV'): an error "
                   "in the stage under test that does not match is 'something else'")
    p.add_argument("--other-status", type=int, default=EXIT_NO_BUG, metavar="N",
                   help="exit status for 'something else broke' (default 1; pair with rreduce "
                   "--also-interesting N to keep those candidates)")
    p.add_argument("--timeout", type=float, default=0, metavar="S",
                   help="kill the TVM child after S seconds; counts as an error 'timeout' of the "
                   "stage it was in (default: none; rreduce has its own --timeout)")
    if with_file:
        p.add_argument("-q", "--quiet", action="store_true", help="do not copy TVM's output to stderr")
    else:
        p.add_argument("-v", "--verbose", action="store_true",
                       help="log each candidate's verdict and TVM's output on stderr")
    if check in ("build", "pass", "diff"):
        p.add_argument("--opt-level", type=int, default=3, metavar="N",
                       help="PassContext opt_level (default 3)")
    if check in ("build", "diff"):
        p.add_argument("--target", default="llvm", metavar="T", help="build target (default llvm)")
    if check == "pass":
        p.add_argument("--infer-after", action="store_true",
                       help="also run InferType after the passes: an ill-typed result is the bug too")
    if check == "roundtrip":
        p.add_argument("--infer", action="store_true",
                       help="run InferType before printing (types appear as /* ty= */ comments)")
    if check == "diff":
        g = p.add_mutually_exclusive_group()
        g.add_argument("--opt-levels", type=comma_pair(int), metavar="A,B",
                       help="compare opt levels A and B of --executor (the default: 0,3)")
        g.add_argument("--executors", type=comma_pair(str), metavar="X,Y",
                       help="compare executors X and Y (debug, graph, vm, aot) at --opt-level")
        p.add_argument("--executor", default="vm", metavar="K",
                       help="the executor for --opt-levels (default vm)")
        p.add_argument("--rtol", type=float, default=1e-5, help="relative tolerance (default 1e-5)")
        p.add_argument("--atol", type=float, default=1e-5, help="absolute tolerance (default 1e-5)")
        p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    if check == "pass":
        p.add_argument("items", nargs="+", metavar="PASS",
                       help="the passes, then the candidate" if with_file else "the passes")
    elif with_file:
        p.add_argument("file", metavar="FILE", help="the candidate (rreduce passes it as $1)")
    return p


def parse_args(check, prog, argv, with_file):
    """Parses and validates; exits 2 on a usage error (before TVM is imported)."""
    p = make_parser(check, prog, with_file)
    args = p.parse_args(argv)
    args.check = check
    if args.match is not None:
        try:
            args.match_re = re.compile(args.match, re.MULTILINE)
        except re.error as e:
            p.error("--match %r: %s" % (args.match, e))
    else:
        args.match_re = None
    if check == "pass":
        items = list(args.items)
        if with_file:
            # The candidate is the last argument, or the first if only that one is a file.
            if len(items) < 2:
                p.error("give the passes, then the candidate")
            if os.path.isfile(items[0]) and not os.path.isfile(items[-1]):
                args.file, items = items[0], items[1:]
            else:
                args.file, items = items[-1], items[:-1]
        try:
            args.passes = [pass_spec(s) for s in items]
        except ValueError as e:
            p.error(str(e))
    if check == "diff":
        if args.executors:
            args.configs = [(k, args.opt_level) for k in args.executors]
        else:
            levels = args.opt_levels or [0, 3]
            args.configs = [(args.executor, lv) for lv in levels]
    return args


# ----------------------------------------------------------------------------- TVM side (child)

def parse_module(tvm, relay, text, name):
    """tvm.relay.parse (after the parser moved into Relay, early 2023), else tvm.parser.parse
    (0.7 to 0.12; a deprecated forwarder later), else tvm.relay.fromtext (0.6 and older)."""
    fn = getattr(relay, "parse", None)
    if fn is None:
        try:
            import tvm.parser as tvm_parser  # pylint: disable=import-outside-toplevel
            fn = tvm_parser.parse
        except ImportError:
            fn = relay.fromtext
    return fn(text, name)


def pass_context(tvm, relay, opt_level, required=()):
    transform = getattr(tvm, "transform", None)
    if transform is not None and hasattr(transform, "PassContext"):
        return transform.PassContext(opt_level=opt_level, required_pass=list(required))
    return relay.build_config(opt_level=opt_level, required_pass=list(required))  # TVM <= 0.6


def infer_type(relay, mod):
    return relay.transform.InferType()(mod)


def make_pass(relay, spec):
    name, args, kwargs = spec
    factory = getattr(relay.transform, name, None)
    if factory is None or not callable(factory):
        raise UsageError("unknown pass %s (not in tvm.relay.transform)" % name)
    return factory(*args, **kwargs)


def device_for(tvm, target):
    try:
        kind = tvm.target.Target(target).kind.name
    except Exception:  # pylint: disable=broad-except
        kind = str(target).split()[0]
    make = getattr(tvm, "device", None) or getattr(tvm, "context")  # tvm.context before 0.8
    return make(kind, 0)


def random_value(tvm, np, rng, ty, dev):
    fields = getattr(ty, "fields", None)
    if fields is not None:  # TupleType
        return tuple(random_value(tvm, np, rng, f, dev) for f in fields)
    if not hasattr(ty, "shape") or not hasattr(ty, "dtype"):
        raise ValueError("cannot make a random input of type %s" % ty)
    try:
        shape = [int(d) for d in ty.shape]
    except Exception:  # pylint: disable=broad-except
        raise ValueError("cannot make a random input of dynamic shape %s" % ty)
    dtype = str(ty.dtype)
    if dtype.startswith("float"):
        a = rng.uniform(-1.0, 1.0, size=shape)
    elif dtype.startswith("int"):
        a = rng.randint(-8, 8, size=shape)
    elif dtype.startswith("uint"):
        a = rng.randint(0, 8, size=shape)
    elif dtype == "bool":
        a = rng.randint(0, 2, size=shape)
    else:
        raise ValueError("cannot make a random input of dtype %s" % dtype)
    return tvm.nd.array(np.asarray(a).astype(dtype), dev)


def flatten_result(np, x, out):
    if hasattr(x, "numpy"):
        out.append(x.numpy())
    elif hasattr(x, "asnumpy"):  # NDArray before 0.8
        out.append(x.asnumpy())
    elif isinstance(x, (bool, int, float)):
        out.append(np.asarray(x))
    elif hasattr(x, "__len__") and hasattr(x, "__getitem__"):  # tuple, list, runtime ADT
        for i in range(len(x)):
            flatten_result(np, x[i], out)
    else:
        raise ValueError("cannot compare a result of type %s" % type(x).__name__)
    return out


def compare_results(np, a, b, rtol, atol):
    if len(a) != len(b):
        raise Mismatch("results differ in structure: %d vs %d tensors" % (len(a), len(b)))
    for i, (x, y) in enumerate(zip(a, b)):
        if x.shape != y.shape:
            raise Mismatch("results differ at output %d: shape %s vs %s" % (i, x.shape, y.shape))
        if x.dtype != y.dtype:
            raise Mismatch("results differ at output %d: dtype %s vs %s" % (i, x.dtype, y.dtype))
        if x.dtype.kind in "fc":
            ok = np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
        else:
            ok = np.array_equal(x, y)
        if not ok:
            with np.errstate(all="ignore"):
                diff = np.abs(x.astype("float64") - y.astype("float64"))
            nans = int(np.sum(np.isnan(x) != np.isnan(y))) if x.dtype.kind in "fc" else 0
            raise Mismatch("results differ at output %d: max abs diff %.3g, %d nan mismatches "
                           "(rtol=%g, atol=%g)" % (i, float(np.nanmax(diff)) if diff.size else 0.0,
                                                   nans, rtol, atol))


def run_check(args, path, stage):
    """The TVM work of one candidate; stage(name) announces each stage. Raises on an error."""
    import tvm  # pylint: disable=import-outside-toplevel
    from tvm import relay  # pylint: disable=import-outside-toplevel

    stage("read")
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    name = os.path.basename(path)
    check = args.check
    stage("parse")
    mod = parse_module(tvm, relay, text, name)
    if check == "parse":
        return "parsed"
    if check == "roundtrip":
        if args.infer:
            stage("typecheck")
            mod = infer_type(relay, mod)
        stage("print")
        printed = mod.astext(show_meta_data=True)
        stage("reparse")
        mod2 = parse_module(tvm, relay, printed, name + " (printed)")
        stage("compare")
        if not tvm.ir.structural_equal(mod, mod2, map_free_vars=True):
            raise Mismatch("printed and re-parsed module is not structurally equal to the original")
        return "round trip is structurally equal"
    stage("typecheck")
    mod = infer_type(relay, mod)
    if check == "typecheck":
        return "type-checks"
    if check == "build":
        stage("build")
        with pass_context(tvm, relay, args.opt_level):
            relay.build(mod, target=args.target)
        return "builds"
    if check == "pass":
        stage("setup")
        passes = [(spec[0], make_pass(relay, spec)) for spec in args.passes]
        with pass_context(tvm, relay, args.opt_level, [n for n, _ in passes]):
            for pname, p in passes:
                stage("pass " + pname)
                mod = tvm.transform.Sequential([p])(mod)
            if args.infer_after:
                stage("infer-after")
                infer_type(relay, mod)
        return "passes run"
    # diff
    import numpy as np  # pylint: disable=import-outside-toplevel
    stage("inputs")
    dev = device_for(tvm, args.target)
    rng = np.random.RandomState(args.seed)
    inputs = [random_value(tvm, np, rng, p.checked_type, dev) for p in mod["main"].params]
    results = []
    for kind, level in args.configs:
        stage("run %s at opt level %d" % (kind, level))
        with pass_context(tvm, relay, level):
            func = relay.create_executor(kind, mod, dev, args.target).evaluate()
            results.append(flatten_result(np, func(*inputs), []))
    stage("compare")
    compare_results(np, results[0], results[1], args.rtol, args.atol)
    return "results agree"


# ----------------------------------------------------------------------------- the child

class Outcome(object):
    """What happened to one candidate: kind is ok, error or usage; stage the last stage entered."""

    def __init__(self, kind, stage, text, headline, output=""):
        self.kind, self.stage, self.text, self.headline, self.output = kind, stage, text, headline, output


def _child(args, path, wfd, chdir):
    try:  # die with the server (Linux): a killed server leaves no TVM child running on
        import ctypes  # pylint: disable=import-outside-toplevel
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # pylint: disable=broad-except
        pass
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    out = os.fdopen(wfd, "w")

    def send(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    def stage(name):
        send({"stage": name})

    result = {"kind": "ok", "text": ""}
    try:
        if chdir:
            path = os.path.abspath(path)
            os.chdir(os.path.dirname(path))
        result["text"] = run_check(args, path, stage)
    except UsageError as e:
        result = {"kind": "usage", "text": str(e), "headline": str(e)}
    except Mismatch as e:
        result = {"kind": "error", "text": str(e), "headline": str(e)}
    except BaseException as e:  # pylint: disable=broad-except  # TVMError, DiagnosticError, ...
        text = "%s: %s" % (type(e).__name__, e)
        result = {"kind": "error", "text": text, "headline": text}
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        send(result)
    finally:
        os._exit(0)


def run_in_child(args, path, chdir=False):
    """Forks; the child does run_check with stdout+stderr captured. Returns an Outcome."""
    capture = tempfile.TemporaryFile()
    rfd, wfd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(capture.fileno(), 1)
        os.dup2(capture.fileno(), 2)
        _child(args, path, wfd, chdir)
    os.close(wfd)
    data, timed_out = b"", False
    deadline = time.time() + args.timeout if args.timeout > 0 else None
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.time())
        ready, _, _ = select.select([rfd], [], [], wait)
        if not ready:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        data += chunk
    os.close(rfd)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    capture.seek(0, os.SEEK_END)
    size = capture.tell()
    capture.seek(max(0, size - OUTPUT_CAP))
    output = capture.read().decode("utf-8", "replace")
    capture.close()

    stage, result = "start", None
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "stage" in msg:
            stage = msg["stage"]
        elif "kind" in msg:
            result = msg
    if timed_out:
        head = "timeout after %g s" % args.timeout
        return Outcome("error", stage, head, head, output)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            head = "signal " + signal.Signals(sig).name
        except ValueError:
            head = "signal %d" % sig
        return Outcome("error", stage, head, head, output)
    if result is None:
        head = "the TVM child exited with status %d without a verdict" % os.WEXITSTATUS(status)
        return Outcome("error", stage, head, head, output)
    return Outcome(result["kind"], stage, result["text"], result.get("headline", ""), output)


# ----------------------------------------------------------------------------- verdicts

_FRAME = re.compile(r"^(\d+: |File \"|Traceback \(most recent call last\)|-{10,}|\[bt\])")
_PREFERRED = [re.compile(r) for r in (
    r"Check failed",
    r"^error:|: error:|^Error:",
    r"^(\w+\.)*\w*(Error|Exception)\b.*\S:\s*\S",
    r"(?i)error|fatal|abort|assert",
)]


def one_line(text):
    text = " ".join(text.split())
    return text if len(text) <= SIGNATURE_CAP else text[:SIGNATURE_CAP - 3] + "..."


def signature(outcome, match_re):
    """One line naming the error: the line --match found, else the most telling line."""
    lines = [ln.strip() for ln in (outcome.text + "\n" + outcome.output).splitlines()]
    lines = [ln for ln in lines if ln and not _FRAME.match(ln)]
    if match_re is not None:
        for ln in lines:
            if match_re.search(ln):
                return one_line(ln)
        m = match_re.search(outcome.text + "\n" + outcome.output)
        if m:
            return one_line(m.group(0))
    if outcome.headline.startswith(("signal ", "timeout ", "results differ", "printed and")):
        return one_line(outcome.headline)
    for pat in _PREFERRED:
        for ln in lines:
            if pat.search(ln):
                return one_line(ln)
    return one_line(outcome.headline or (lines[0] if lines else "error"))


def verdict(args, outcome):
    """(status, signature, explanation) of an Outcome."""
    if outcome.kind == "usage":
        return EXIT_USAGE, one_line(outcome.text), "usage: " + outcome.text
    if outcome.kind == "ok":
        return EXIT_NO_BUG, "", "no bug: " + outcome.text
    sig = signature(outcome, args.match_re)
    if outcome.stage == "read":
        return EXIT_USAGE, sig, "cannot read the candidate: " + sig
    under_test = outcome.stage.split(" ")[0] in UNDER_TEST[args.check]
    if not under_test:
        return args.other_status, sig, "something else broke (in stage %s): %s" % (outcome.stage, sig)
    if args.match_re is not None and not args.match_re.search(outcome.text + "\n" + outcome.output):
        return (args.other_status, sig,
                "a different error (in stage %s, not matching --match): %s" % (outcome.stage, sig))
    return EXIT_BUG, sig, "interesting (in stage %s): %s" % (outcome.stage, sig)


# ----------------------------------------------------------------------------- entry points

def _not_importable(prog, why):
    sys.stderr.write("%s: %s\n  (%s)\n" % (prog, NOT_IMPORTABLE, why))
    return EXIT_USAGE


def main_script(check, script):
    """A command-line test: `tvm-CHECK [OPTIONS] FILE`, exit 0 when the bug is there."""
    reexec_with_relaykit_python(script)
    prog = os.path.basename(script)
    args = parse_args(check, prog, sys.argv[1:], with_file=True)
    if not os.path.isfile(args.file):
        sys.stderr.write("%s: %s: no such file\n" % (prog, args.file))
        return EXIT_USAGE
    why = import_tvm()
    if why:
        return _not_importable(prog, why)
    outcome = run_in_child(args, args.file)
    status, _, explanation = verdict(args, outcome)
    if outcome.output and not args.quiet:
        sys.stderr.write(outcome.output if outcome.output.endswith("\n") else outcome.output + "\n")
    sys.stdout.write("%s: %s\n" % (prog, explanation))
    return status


SERVER_USAGE = """usage: tvm-server CHECK [ARGS...]
CHECK is one of %s,
with the options of the script tvm-CHECK (tvm-server CHECK --help), without the candidate:
tvm-server reads one candidate path a line on stdin and answers one line "STATUS[ SIGNATURE]"
on stdout for each (interestingness/PROTOCOL.md). Example:
  rreduce --server 'interestingness/tvm-server build --opt-level 3' bug.relay
""" % ", ".join(CHECKS)


def main_server(script):
    """The persistent oracle: imports TVM once, forks a child per candidate."""
    reexec_with_relaykit_python(script)
    argv = sys.argv[1:]
    if not argv:
        sys.stderr.write(SERVER_USAGE)
        return EXIT_USAGE
    if argv[0] in ("-h", "--help"):
        sys.stdout.write(SERVER_USAGE)
        return 0
    if argv[0] not in CHECKS:
        sys.stderr.write("tvm-server: unknown check %r\n%s" % (argv[0], SERVER_USAGE))
        return EXIT_USAGE
    args = parse_args(argv[0], "tvm-server " + argv[0], argv[1:], with_file=False)
    # stdout carries answers only: keep a private copy of it, point fd 1 at stderr for the rest.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="replace")
    os.dup2(2, 1)
    why = import_tvm()
    if why:
        return _not_importable("tvm-server", why)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return 0
        path = line.decode("utf-8", "surrogateescape")
        if path.endswith("\n"):
            path = path[:-1]
        if not path:
            status, sig = EXIT_USAGE, "empty path"
        elif not os.path.isfile(path):
            status, sig = EXIT_USAGE, "no such file"
        else:
            outcome = run_in_child(args, path, chdir=True)
            status, sig, explanation = verdict(args, outcome)
            if args.verbose:
                sys.stderr.write("%stvm-server: %s: %s\n" % (outcome.output, path, explanation))
                sys.stderr.flush()
        try:
            answers.write(("%d %s\n" % (status, sig)) if sig else ("%d\n" % status))
            answers.flush()
        except BrokenPipeError:
            return 0
