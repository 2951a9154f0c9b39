# Shared code of relaykit's TVM interestingness tests (interestingness/tvm-*) and of tvm-server.
#
# A check runs in stages (read, parse, typecheck, build, ...). Each check names the stages that
# are "under test": an error there is the bug (exit 0, if it matches --match); an error in any
# other stage means something else broke (exit 1); no error means no bug (exit 1). The TVM work
# runs in a forked child, so a crash by signal (SIGSEGV, SIGABRT from LOG(FATAL)...) is an error
# of the stage the child was in, with the signature "signal SIGSEGV".
#
# Every check is one row of the table CHECKS (below the run functions it names): its help text,
# its stages under test, its own options, the TVM work, its repro. The command line, tvm-server
# and the repro all read the row, nothing else branches on a check's name. Adding a check is a row,
# its run function, its repro function (relaykit_repro.py) and a six-line script tvm-NAME (a copy
# of tvm-build calling main_script("NAME", ...); `make install` takes every interestingness/tvm-*).
#
# Written for TVM's Python API from 0.6 to 0.19 (the last release with Relay); see README.md.
# Keep it Python 3.6 compatible (no walrus, no builtin generics): old TVM releases need old Pythons.
"""Shared code of relaykit's TVM interestingness tests and of tvm-server."""

import argparse
import ast
import importlib
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

import relaykit_outcome
import relaykit_repro

EXECUTORS = ("graph", "vm", "aot")  # what relay.build / relay.vm.compile make; tvm-diff adds debug
NOT_IMPORTABLE = "TVM is not importable (set TVM_HOME / PYTHONPATH)"
EXIT_BUG, EXIT_NO_BUG, EXIT_USAGE = 0, 1, 2
OUTPUT_CAP = 1 << 20  # bytes of the child's output kept for matching and for showing
SIGNATURE_CAP = 400  # characters of a signature

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


class Unusable(Exception):
    """The candidate cannot show the bug, and that is nobody's fault: tvm-diff's reference run
    traps or is not finite on every input drawn. A no-bug answer, with a note in the outcome."""


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
        importlib.import_module("tvm.relay")  # tvm, then its relay
    except Exception as e:  # pylint: disable=broad-except  # ImportError, OSError (libtvm.so), ...
        return "%s: %s" % (type(e).__name__, e)
    return None


# ----------------------------------------------------------------------------- arguments (no TVM)

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


def comma_list(conv, least=2):
    def parse(text):
        parts = [p.strip() for p in text.split(",")]
        if len(parts) < least or not all(parts):
            raise argparse.ArgumentTypeError(
                "expected at least %d values separated by commas: %r" % (least, text))
        try:
            return [conv(p) for p in parts]
        except ValueError:
            raise argparse.ArgumentTypeError("bad value in %r" % text)
    return parse


def opt_level(text):
    level = int(text)
    if not 0 <= level <= 4:
        raise ValueError(text)
    return level


def run_config(text):
    """'vm:3' -> ('vm', 3)."""
    kind, sep, level = text.partition(":")
    if not sep or not kind:
        raise ValueError(text)
    return kind, opt_level(level)


def config_item(text):
    """'relay.FuseOps.max_depth=10' -> ('relay.FuseOps.max_depth', 10): a Python literal, else
    the text itself, as PassContext's config wants typed values."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError("expected KEY=VALUE: %r" % text)
    try:
        value = ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        value = value.strip()
    return key.strip(), value


def pass_names(text):
    return [n.strip() for n in text.split(",") if n.strip()]


def add_compile_options(p):
    """PassContext and relay.build options of every check that builds (Check.compiles)."""
    p.add_argument("--opt-level", type=opt_level, default=3, metavar="N",
                   help="PassContext opt_level, 0 to 4 (default 3)")
    p.add_argument("--config", type=config_item, action="append", default=[], metavar="KEY=VALUE",
                   help="a PassContext config entry, e.g. relay.FuseOps.max_depth=10 or "
                   "tir.disable_vectorize=True (VALUE is a Python literal, else a string); repeatable")
    p.add_argument("--disabled-pass", type=pass_names, action="append", default=[], metavar="NAME",
                   help="PassContext disabled_pass (comma-separated or repeated)")
    p.add_argument("--required-pass", type=pass_names, action="append", default=[], metavar="NAME",
                   help="PassContext required_pass (comma-separated or repeated)")
    p.add_argument("--target", default="llvm", metavar="T", help="build target (default llvm)")
    p.add_argument("--target-host", metavar="T", help="target host (default: the target's own)")
    p.add_argument("--params", metavar="FILE",
                   help="bound parameters: a .npz file (numpy) or TVM's save_param_dict bytes; "
                   "@main parameters of those names are bound (constants) before building")


def read_compile_options(args, p):
    """The compile options as the TVM side wants them; a usage error for a missing --params."""
    args.disabled_pass = [n for names in args.disabled_pass for n in names]
    args.required_pass = [n for names in args.required_pass for n in names]
    args.config = dict(args.config)
    if args.params is not None and not os.path.isfile(args.params):
        p.error("--params %s: no such file" % args.params)


def add_build_options(p, with_file):  # pylint: disable=unused-argument
    """How build and pass build the module, and --run: the executor and the inputs."""
    p.add_argument("--executor", choices=EXECUTORS, default="graph",
                   help="graph (relay.build, the default), aot (relay.build with the AOT "
                   "executor) or vm (relay.vm.compile)")
    p.add_argument("--run", action="store_true",
                   help="also run the built module on inputs (see --inputs); an error there is "
                   "the bug too")
    p.add_argument("--inputs", choices=("random", "zeros"), default="random",
                   help="inputs for --run: random (seeded, positive where a variance, root, "
                   "log or divisor needs it) or zeros (default random)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")


def add_pass_options(p, with_file):
    add_build_options(p, with_file)
    p.add_argument("--infer-after", action="store_true",
                   help="also run InferType after the passes: an ill-typed result is the bug too")
    p.add_argument("--build", action="store_true",
                   help="then build the result with relay.build (the options above apply)")
    p.add_argument("items", nargs="+", metavar="PASS",
                   help="the passes, then the candidate" if with_file else "the passes")


def read_passes(args, p, with_file):
    """The passes, and the candidate among them on a command line."""
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
    if args.run and not args.build:
        p.error("--run needs --build")


def add_bisect_options(p, with_file):
    add_build_options(p, with_file)
    p.add_argument("--rtol", type=float, default=None,
                   help="with --run: relative tolerance against the input's results (default by dtype)")
    p.add_argument("--atol", type=float, default=None, help="with --run: absolute tolerance (default by dtype)")
    p.add_argument("--build", action="store_true",
                   help="with passes: then relay.build the result, its own passes watched too (as tvm-pass --build)")
    p.add_argument("items", nargs="+", metavar="PASS",
                   help="the passes (none: relay.build's own), then the candidate" if with_file else
                   "the passes (none: relay.build's own)")


def read_bisect(args, p, with_file):
    """The passes (maybe none: the build's), and the candidate last."""
    items = list(args.items)
    if with_file:
        args.file, items = items[-1], items[:-1]
    try:
        args.passes = [pass_spec(s) for s in items]
    except ValueError as e:
        p.error(str(e))
    # its repro: the passes, or the build when there are none (relaykit_repro.passes)
    args.build, args.infer_after = args.build or not args.passes, False


def add_diff_options(p, with_file):  # pylint: disable=unused-argument
    g = p.add_mutually_exclusive_group()
    g.add_argument("--opt-levels", type=comma_list(opt_level), metavar="A,B[,...]",
                   help="compare these opt levels of --executor (the default: 0,3)")
    g.add_argument("--executors", type=comma_list(str), metavar="X,Y[,...]",
                   help="compare these executors (debug, graph, vm, aot) at --opt-level")
    g.add_argument("--configs", type=comma_list(run_config), metavar="X:N,Y:M[,...]",
                   help="compare these executor:opt-level pairs, e.g. vm:0,graph:3,aot:2")
    p.add_argument("--executor", default="vm", metavar="K",
                   help="the executor for --opt-levels (default vm)")
    p.add_argument("--rtol", type=float, default=None,
                   help="relative tolerance (default by dtype: float16 1e-2, float32 1e-3, "
                   "float64 1e-6)")
    p.add_argument("--atol", type=float, default=None,
                   help="absolute tolerance (default by dtype, as --rtol)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    p.add_argument("--positive", action="store_true",
                   help="make every float input positive, in [1, 2)")


def read_configs(args, p):
    """The configurations to compare, [(executor, opt level)], from whichever option gave them."""
    if args.executors:
        args.configs = [(k, args.opt_level) for k in args.executors]
    elif not args.configs:
        levels = args.opt_levels or [0, 3]
        args.configs = [(args.executor, lv) for lv in levels]
    for kind, _ in args.configs:
        if kind not in ("debug",) + EXECUTORS:
            p.error("unknown executor %r (debug, graph, vm, aot)" % kind)


def add_roundtrip_options(p, with_file):  # pylint: disable=unused-argument
    p.add_argument("--infer", action="store_true",
                   help="run InferType before printing (types appear as /* ty= */ comments)")


def add_script_argument(p, with_file):  # pylint: disable=unused-argument
    p.add_argument("script", metavar="SCRIPT",
                   help="a Python file defining check(mod): raise or return False = the bug")


def read_script(args, p):
    if not os.path.isfile(args.script):
        p.error("%s: no such file" % args.script)


def make_parser(check, prog, with_file):
    """The argument parser of a Check: the options every check takes, the compile options, its
    own, then the candidate (FILE, on a command line)."""
    usage = None
    if check.usage:
        usage = check.usage + ("FILE" if with_file else "")
    p = argparse.ArgumentParser(
        prog=prog, usage=usage, description=textwrap.fill(check.description, 79),
        epilog=EPILOG % {"other": "1 (or --other-status)"},
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--match", metavar="REGEX",
                   help="the bug's error signature (a Perl-style regular expression, as rreduce's "
                   "and roracle's --match, searched over the error text and TVM's output, e.g. "
                   "'Check failed: .*dtype' or 'signal SIGSEGV'): an error in the stage under "
                   "test that does not match is 'something else'")
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
    if check.compiles:
        add_compile_options(p)
    if check.options:
        check.options(p, with_file)
    if with_file and not check.read_items:
        p.add_argument("file", metavar="FILE", help="the candidate (rreduce passes it as $1)")
    return p


def parse_args(name, prog, argv, with_file):
    """Parses and validates the arguments of the check `name`; exits 2 on a usage error (before
    TVM is imported)."""
    check = CHECK[name]
    p = make_parser(check, prog, with_file)
    # Options may come between the passes and the candidate (Python 3.7+; 3.6 takes them first).
    parse = getattr(p, "parse_intermixed_args", p.parse_args)
    args = parse(argv)
    args.check = name
    if args.match is not None:
        try:
            args.match_re = Pattern(args.match)
        except ValueError as e:
            p.error("--match %r: %s" % (args.match, e))
    else:
        args.match_re = None
    # The order of the checks is the order of their messages when several arguments are wrong.
    if check.read_items:
        check.read_items(args, p, with_file)
    if check.compiles:
        read_compile_options(args, p)
    if check.read_options:
        check.read_options(args, p)
    return args


# ----------------------------------------------------------------------------- --match

class _Found(object):
    """What a Pattern's search returns: the matched text, as re's match.group(0)."""

    def __init__(self, text):
        self.text = text

    def group(self, index=0):  # pylint: disable=unused-argument
        return self.text


class Pattern(object):
    """--match as rreduce and roracle read it: PCRE2 (Debian's libpcre2-8, the library they
    link), multi-line, on the UTF-8 bytes, with the same backtracking limit; Python's re only
    where that library cannot be loaded (the two agree on everyday patterns)."""

    MULTILINE = 0x00000400
    MATCH_LIMIT = 10 * 1000 * 1000  # as support/pattern.c
    _lib = None

    @classmethod
    def library(cls):
        if cls._lib is None:
            cls._lib = False
            try:
                import ctypes  # pylint: disable=import-outside-toplevel
                import ctypes.util  # pylint: disable=import-outside-toplevel
                lib = ctypes.CDLL(ctypes.util.find_library("pcre2-8") or "libpcre2-8.so.0")
                size_t, vp = ctypes.c_size_t, ctypes.c_void_p
                lib.pcre2_compile_8.restype = vp
                lib.pcre2_compile_8.argtypes = [ctypes.c_char_p, size_t, ctypes.c_uint32,
                                                ctypes.POINTER(ctypes.c_int),
                                                ctypes.POINTER(size_t), vp]
                lib.pcre2_match_data_create_from_pattern_8.restype = vp
                lib.pcre2_match_data_create_from_pattern_8.argtypes = [vp, vp]
                lib.pcre2_match_data_free_8.argtypes = [vp]
                lib.pcre2_match_8.restype = ctypes.c_int
                lib.pcre2_match_8.argtypes = [vp, ctypes.c_char_p, size_t, size_t,
                                              ctypes.c_uint32, vp, vp]
                lib.pcre2_get_ovector_pointer_8.restype = ctypes.POINTER(size_t)
                lib.pcre2_get_ovector_pointer_8.argtypes = [vp]
                lib.pcre2_match_context_create_8.restype = vp
                lib.pcre2_match_context_create_8.argtypes = [vp]
                lib.pcre2_set_match_limit_8.argtypes = [vp, ctypes.c_uint32]
                lib.pcre2_get_error_message_8.argtypes = [ctypes.c_int, ctypes.c_char_p, size_t]
                cls._lib = (ctypes, lib)
            except (OSError, AttributeError):
                pass
        return cls._lib

    def __init__(self, source):
        self.source = source
        loaded = self.library()
        if not loaded:
            try:
                self._re = re.compile(source, re.MULTILINE)
            except re.error as e:
                raise ValueError(str(e))
            return
        ctypes, lib = loaded
        self._re = None
        code, at = ctypes.c_int(0), ctypes.c_size_t(0)
        raw = source.encode("utf-8", "surrogateescape")
        self._code = lib.pcre2_compile_8(raw, len(raw), self.MULTILINE, ctypes.byref(code),
                                         ctypes.byref(at), None)
        if not self._code:
            msg = ctypes.create_string_buffer(256)
            lib.pcre2_get_error_message_8(code.value, msg, 256)
            raise ValueError("at offset %d: %s" % (at.value, msg.value.decode("utf-8", "replace")))
        self._limits = lib.pcre2_match_context_create_8(None)
        lib.pcre2_set_match_limit_8(self._limits, self.MATCH_LIMIT)

    def search(self, text):
        """A _Found (or re match) for the first match in text, or None."""
        if self._re is not None:
            return self._re.search(text)
        _, lib = self.library()
        raw = text.encode("utf-8", "surrogateescape")
        md = lib.pcre2_match_data_create_from_pattern_8(self._code, None)
        try:
            if lib.pcre2_match_8(self._code, raw, len(raw), 0, 0, md, self._limits) < 0:
                return None
            ov = lib.pcre2_get_ovector_pointer_8(md)
            return _Found(raw[ov[0]:ov[1]].decode("utf-8", "replace"))
        finally:
            lib.pcre2_match_data_free_8(md)


# ----------------------------------------------------------------------------- TVM side (child)

def parse_module(tvm, relay, text, name, stage=None):
    """tvm.relay.parse (after the parser moved into Relay, early 2023), else tvm.parser.parse
    (0.7 to 0.12; a deprecated forwarder later), else tvm.relay.fromtext (0.6 and older).

    TVM's parser runs InferType on what it parsed (since 0.7): with `stage`, a pass instrument
    announces the stage "typecheck" when that starts, so that an ill-typed module is not
    taken for a parse error."""
    fn = getattr(relay, "parse", None)
    if fn is None:
        try:
            import tvm.parser as tvm_parser  # pylint: disable=import-outside-toplevel
            fn = tvm_parser.parse
        except ImportError:
            fn = relay.fromtext
    instrument = getattr(tvm, "instrument", None)
    if stage is None or instrument is None or not hasattr(instrument, "pass_instrument"):
        return fn(text, name)

    @instrument.pass_instrument
    class AnnounceTypecheck(object):  # pylint: disable=too-few-public-methods,unused-variable
        def run_before_pass(self, mod, info):  # pylint: disable=unused-argument
            if info.name == "InferType":
                stage("typecheck")

    with tvm.transform.PassContext(instruments=[AnnounceTypecheck()]):
        return fn(text, name)


def pass_recorder(tvm, ran, stage=None):
    """A pass instrument that tells `ran` the name of every pass TVM runs, or None where TVM has
    no pass instruments (before 0.8). With `stage` (relay.build's), the pass in flight is the step:
    "build pass P" while the outermost pass P runs, "build after P" once it is done (lowering, if no
    Relay pass comes next), so a failure says whether it was inside an optimization pass (a bug,
    whatever its words) or in lowering."""
    instrument = getattr(tvm, "instrument", None)
    if ran is None or instrument is None or not hasattr(instrument, "pass_instrument"):
        return None
    depth = [0]

    @instrument.pass_instrument
    class RecordPasses(object):  # pylint: disable=too-few-public-methods
        def run_before_pass(self, mod, info):  # pylint: disable=unused-argument
            ran(info.name)
            if stage is None or info.name == SEQUENTIAL:  # relay.build's passes run in one Sequential
                return
            if depth[0] == 0:
                stage("build pass " + info.name)
            depth[0] += 1

        def run_after_pass(self, mod, info):  # pylint: disable=unused-argument
            if stage is None or info.name == SEQUENTIAL:
                return
            depth[0] -= 1
            if depth[0] == 0:
                stage("build after " + info.name)

    return RecordPasses()


def pass_context(tvm, relay, opt_level, required=(), args=None, ran=None, instruments=(), stage=None):
    """A PassContext with --config, --disabled-pass and --required-pass when args has them; with
    `ran`, every pass run inside it is told to ran(name) (the pipeline rreduce reduces), and with
    `stage` the pass in flight is announced as the step (pass_recorder); and other pass
    instruments (tvm-bisect's watch)."""
    config = dict(getattr(args, "config", {}) or {})
    disabled = list(getattr(args, "disabled_pass", []) or [])
    required = list(required) + list(getattr(args, "required_pass", []) or [])
    transform = getattr(tvm, "transform", None)
    if transform is not None and hasattr(transform, "PassContext"):
        kw = {"opt_level": opt_level, "required_pass": required}
        if disabled:
            kw["disabled_pass"] = disabled
        if config:
            kw["config"] = config
        recorder = pass_recorder(tvm, ran, stage)
        watchers = ([recorder] if recorder is not None else []) + list(instruments)
        if watchers:
            kw["instruments"] = watchers
        return transform.PassContext(**kw)
    return relay.build_config(opt_level=opt_level, required_pass=required,  # TVM <= 0.6
                              disabled_pass=disabled)


def infer_type(relay, mod):
    return relay.transform.InferType()(mod)


def make_pass(relay, spec):
    name, args, kwargs = spec
    factory = getattr(relay.transform, name, None)
    if factory is None or not callable(factory):
        raise UsageError("unknown pass %s (not in tvm.relay.transform)" % name)
    return factory(*args, **kwargs)


def make_target(tvm, target, host):
    if not host:
        return target
    return tvm.target.Target(target, host=host)


def device_for(tvm, target):
    try:
        kind = tvm.target.Target(target).kind.name
    except Exception:  # pylint: disable=broad-except
        kind = str(target).split()[0]
    make = getattr(tvm, "device", None) or getattr(tvm, "context")  # tvm.context before 0.8
    return make(kind, 0)


def load_params(tvm, np, path):
    """{name: NDArray} from a .npz file or from TVM's save_param_dict bytes."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"PK":  # a zip: numpy's .npz
        import io  # pylint: disable=import-outside-toplevel
        arrays = np.load(io.BytesIO(data))
        return dict((k, tvm.nd.array(arrays[k])) for k in arrays.files)
    return dict(tvm.runtime.load_param_dict(bytearray(data)))


# Operands that must be positive for the operator to give a number (a variance, a root, a
# logarithm, a divisor, a power's base), and operators through which an input reaches them
# unchanged in sign. Inputs of @main found this way get values in [1, 2) (ints: [1, 8)).
POSITIVE_OPERANDS = {
    "nn.batch_norm": (4,), "sqrt": (0,), "rsqrt": (0,), "log": (0,), "log2": (0,),
    "log10": (0,), "acosh": (0,), "power": (0,), "divide": (1,), "floor_divide": (1,),
    "trunc_divide": (1,), "mod": (1,), "floor_mod": (1,), "trunc_mod": (1,),
}
SIGN_PRESERVING = frozenset((
    "reshape", "transpose", "expand_dims", "squeeze", "cast", "copy", "layout_transform",
    "nn.batch_flatten", "broadcast_to", "repeat", "tile", "strided_slice", "take", "reverse",
    "concatenate", "stop_gradient", "annotation.stop_fusion", "nn.pad", "split", "max", "min",
    "sum", "mean", "nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d",
    "nn.global_max_pool2d", "clip", "exp", "abs",
))


def positive_inputs(relay, func):
    """The names of func's parameters that must get positive values (see POSITIVE_OPERANDS)."""
    def operands(call):
        return [(call.args[i], None) for i in POSITIVE_OPERANDS.get(call.op.name, ())
                if i < len(call.args)]
    return set(trace_inputs(relay, func, operands, SIGN_PRESERVING))


# Operands that index another operand: (index operand, indexed operand) by argument position. An
# index out of range is undefined (gather_nd and take in "fast" mode read past the tensor), so two
# executors may disagree on it without a bug; inputs of @main that reach one get values in
# [0, k), k the indexed operand's smallest extent, which is in range whatever the axis.
INDEX_OPERANDS = {
    "take": (1, 0), "gather": (1, 0), "gather_nd": (1, 0), "scatter": (1, 0),
    "scatter_add": (1, 0), "scatter_elements": (1, 0), "scatter_nd": (1, 0),
}
# Operators through which an input reaches an index with its values unchanged.
VALUE_PRESERVING = frozenset((
    "reshape", "transpose", "expand_dims", "squeeze", "cast", "copy", "layout_transform",
    "nn.batch_flatten", "broadcast_to", "repeat", "tile", "strided_slice", "take", "reverse",
    "concatenate", "stop_gradient", "split", "max", "min", "nn.pad",
))


def smallest_extent(expr):
    """The smallest dimension of expr's checked type, None when not known or not a tensor."""
    try:
        dims = [int(d) for d in expr.checked_type.shape]
    except Exception:  # pylint: disable=broad-except
        return None
    return min(dims) if dims else None


def trace_inputs(relay, func, operands, passes_through):
    """{parameter name: [bound]} for func's parameters that reach an operand picked by
    operands(call) -> [(operand expr, bound)] through operators named in passes_through."""
    params = dict((p, p.name_hint) for p in func.params)
    let_values = {}
    needy = []

    def visit(e):
        if isinstance(e, relay.Let):
            let_values[e.var] = e.value
        elif isinstance(e, relay.Call) and hasattr(e.op, "name"):
            needy.extend(operands(e))

    relay.analysis.post_order_visit(func.body, visit)
    found, seen = {}, set()
    while needy:
        e, bound = needy.pop()
        if (e, bound) in seen:
            continue
        seen.add((e, bound))
        if isinstance(e, relay.Var):
            if e in params:
                found.setdefault(params[e], []).append(bound)
            elif e in let_values:
                needy.append((let_values[e], bound))
        elif isinstance(e, relay.Tuple):
            needy.extend((f, bound) for f in e.fields)
        elif isinstance(e, relay.TupleGetItem):
            needy.append((e.tuple_value, bound))
        elif isinstance(e, relay.Call) and getattr(e.op, "name", None) in passes_through:
            needy.extend((a, bound) for a in e.args)
    return found


def index_inputs(relay, func):
    """{name: k} for func's parameters that must get values in [0, k) (see INDEX_OPERANDS)."""
    def operands(call):
        where = INDEX_OPERANDS.get(call.op.name)
        if where is None or max(where) >= len(call.args):
            return []
        k = smallest_extent(call.args[where[1]])
        return [(call.args[where[0]], k)] if k else []
    return dict((name, min(bounds))
                for name, bounds in trace_inputs(relay, func, operands, VALUE_PRESERVING).items())


def random_value(tvm, np, rng, ty, dev, positive=False, zeros=False, below=None):
    fields = getattr(ty, "fields", None)
    if fields is not None:  # TupleType
        return tuple(random_value(tvm, np, rng, f, dev, positive, zeros, below) for f in fields)
    if not hasattr(ty, "shape") or not hasattr(ty, "dtype"):
        raise ValueError("cannot make an input of type %s" % ty)
    try:
        shape = [int(d) for d in ty.shape]
    except Exception:  # pylint: disable=broad-except
        raise ValueError("cannot make an input of dynamic shape %s" % ty)
    dtype = str(ty.dtype)
    if zeros:
        a = np.zeros(shape)
    elif below is not None and not dtype.startswith("float") and dtype != "bool":
        a = rng.randint(min(1, below - 1) if positive else 0, below, size=shape)
    elif dtype.startswith("float"):
        a = rng.uniform(1.0, 2.0, size=shape) if positive else rng.uniform(-1.0, 1.0, size=shape)
    elif dtype.startswith("int"):
        a = rng.randint(1, 8, size=shape) if positive else rng.randint(-8, 8, size=shape)
    elif dtype.startswith("uint"):
        a = rng.randint(1 if positive else 0, 8, size=shape)
    elif dtype == "bool":
        a = rng.randint(0, 2, size=shape)
    else:
        raise ValueError("cannot make an input of dtype %s" % dtype)
    return tvm.nd.array(np.asarray(a).astype(dtype), dev)


def make_inputs(tvm, relay, np, func, dev, seed, skip=(), all_positive=False, zeros=False):
    """[(name, value)] for func's parameters not in skip, the same for the same seed."""
    rng = np.random.RandomState(seed)
    positive = positive_inputs(relay, func)
    below = index_inputs(relay, func)
    out = []
    for p in func.params:
        if p.name_hint in skip:
            continue
        out.append((p.name_hint, random_value(tvm, np, rng, p.checked_type, dev,
                                              all_positive or p.name_hint in positive, zeros,
                                              below.get(p.name_hint))))
    return out


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


# Tolerances of tvm-diff by dtype, where --rtol / --atol do not say: what a change of opt level
# (fusion, reassociation, fast math) can move a result by without a bug.
DTYPE_TOLERANCE = {"float16": 1e-2, "bfloat16": 2e-2, "float32": 1e-3, "float64": 1e-6}


def tolerance(dtype, rtol, atol):
    """(rtol, atol) for results of this dtype: the user's, else the dtype's own."""
    default = DTYPE_TOLERANCE.get(str(dtype), 1e-3)
    return (default if rtol is None else rtol), (default if atol is None else atol)


def compare_results(np, a, b, rtol, atol, names=("the first", "the second")):
    """Raises Mismatch where a and b differ beyond the tolerance. Positions where either side is
    NaN or an infinity are not compared: such a value comes from the inputs or from an operator
    undefined there, and reporting it would be a false alarm, not a bug."""
    between = "between %s and %s" % names
    if len(a) != len(b):
        raise Mismatch("results differ in structure %s: %d vs %d tensors" % (between, len(a), len(b)))
    for i, (x, y) in enumerate(zip(a, b)):
        if x.shape != y.shape:
            raise Mismatch("results differ %s at output %d: shape %s vs %s" % (between, i, x.shape, y.shape))
        if x.dtype != y.dtype:
            raise Mismatch("results differ %s at output %d: dtype %s vs %s" % (between, i, x.dtype, y.dtype))
        if x.dtype.kind in "fc":
            r, t = tolerance(x.dtype, rtol, atol)
            both = np.isfinite(x) & np.isfinite(y)
            xs, ys = x[both], y[both]
            ok = np.allclose(xs, ys, rtol=r, atol=t)
        else:
            r, t = 0.0, 0.0
            xs, ys = x, y
            ok = np.array_equal(x, y)
        if not ok:
            with np.errstate(all="ignore"):
                diff = np.abs(xs.astype("float64") - ys.astype("float64"))
            raise Mismatch("results differ %s at output %d: max abs diff %.3g (rtol=%g, atol=%g)"
                           % (between, i, float(np.max(diff)) if diff.size else 0.0, r, t))


def build_module(tvm, relay, mod, args, params):
    """relay.build with --executor graph or aot, relay.vm.compile with vm."""
    target = make_target(tvm, args.target, args.target_host)
    if args.executor == "vm":
        return relay.vm.compile(mod, target=target, params=params)
    kw = {"params": params} if params else {}
    if args.executor == "aot":
        kw["executor"] = relay.backend.Executor("aot")
    return relay.build(mod, target=target, **kw)


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


def write_repro(args, text, name):
    """With RELAYKIT_REPRO set (rreduce --report does), the standalone Python repro of this check
    on this candidate goes to that file (relaykit_repro.py); it never changes the verdict."""
    out = os.environ.get("RELAYKIT_REPRO")
    if not out:
        return
    try:
        check = CHECK[args.check]
        source = relaykit_repro.repro_source(args, text, name, check.failure, check.repro)
        with open(out, "w") as f:
            f.write(source)
    except Exception as e:  # pylint: disable=broad-except  # a report helper, not the test
        sys.stderr.write("relaykit: cannot write the repro to %s: %s\n" % (out, e))


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


def run_check(args, path, stage, ran=None, note=None):
    """The TVM work of one candidate: the stages every check has, then its own (Check.run).
    Returns what "no bug" found; raises on an error."""
    import tvm  # pylint: disable=import-outside-toplevel
    from tvm import relay  # pylint: disable=import-outside-toplevel

    check = CHECK[args.check]
    stage("read")
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    name = os.path.basename(path)
    write_repro(args, text, name)
    stage("parse")
    mod = parse_module(tvm, relay, text, name, stage)
    job = Job(tvm, relay, args, name, stage, ran, note)
    if check.typed:
        stage("typecheck")
        mod = infer_type(relay, mod)
    if check.compiles and args.params:
        import numpy as np  # pylint: disable=import-outside-toplevel
        stage("setup")
        job.params = load_params(tvm, np, args.params)
    return check.run(job, mod)


def run_parse(job, mod):  # pylint: disable=unused-argument
    return "parsed"


def run_typecheck(job, mod):  # pylint: disable=unused-argument
    return "type-checks"  # Check.typed ran InferType


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
    rfmt = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "bin", "rfmt")
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


# The name TVM gives a tvm.transform.Sequential: relay.build runs its Relay passes inside one, so a
# pass instrument hears of it around them all; it is no pass of its own.
SEQUENTIAL = "sequential"


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


def run_diff(job, mod):
    """Builds every configuration, runs the first (the reference) on inputs it computes numbers
    for, then the others on the same inputs, and compares."""
    tvm, relay, args, params = job.tvm, job.relay, job.args, job.params
    import numpy as np  # pylint: disable=import-outside-toplevel
    # one thread: the reference runs in a forked process, which a thread pool would not survive
    os.environ["TVM_NUM_THREADS"] = "1"
    dev = device_for(tvm, args.target)
    if params:
        mod["main"] = relay.build_module.bind_params_by_name(mod["main"], params)
    target = make_target(tvm, args.target, args.target_host)
    runs = []
    for kind, level in args.configs:
        job.stage("build %s at opt level %d" % (kind, level))
        context = pass_context(tvm, relay, level, (), args, job.ran)
        with context:
            runs.append((context, relay.create_executor(kind, mod, dev, target).evaluate()))
    names = ["%s@%d" % c for c in args.configs]
    inputs, reference = reference_results(job, mod, dev, runs[0], names[0])
    results = [reference]
    for (context, func), (kind, level) in zip(runs[1:], args.configs[1:]):
        job.stage("run %s at opt level %d" % (kind, level))
        with context:
            results.append(flatten_result(np, func(*inputs), []))
    job.stage("compare")
    try:
        for i in range(1, len(results)):
            compare_results(np, results[0], results[i], args.rtol, args.atol, (names[0], names[i]))
    except Mismatch as e:
        job.stage("check the program's indices")

        def runner(kind, context):
            def run(probe):
                with context:
                    return flatten_result(np, relay.create_executor(kind, probe, dev, target).evaluate()(*inputs), [])
            return run

        undefined = index_out_of_range(job, mod, [runner(kind, context) for (context, _), (kind, _)
                                                  in zip(runs, args.configs)])
        if undefined:
            raise Unusable("%s, but the program reads out of range on these inputs (%s): an undefined "
                           "read, not a wrong result" % (e, undefined))
        job.stage("compare")
        raise
    return "results agree across %s" % ", ".join(names)


def index_out_of_range(job, mod, runners):
    """Where @main, run as the configurations are (runners: [run(module) -> arrays]), gives an
    indexing operator (INDEX_OPERANDS) an index outside the indexed operand ("gather_nd: index 5
    outside [0, 1)"), else None. Only the indices that
    depend on @main's parameters alone are looked at (not those under a let or in a closure), by
    a module that returns them, run in a forked process by the first configuration that can (at
    opt level 0, TVM's VM fails on some such modules that it runs fused); None when that module
    cannot be made or run."""
    relay = job.relay
    import numpy as np  # pylint: disable=import-outside-toplevel
    main = mod["main"]
    probes = []

    def visit(e):  # (call, its index, the operand it indexes)
        if isinstance(e, relay.Call) and getattr(e.op, "name", None) in INDEX_OPERANDS:
            index, indexed = INDEX_OPERANDS[e.op.name]
            # take's "clip" and "wrap" modes define every index
            if max(index, indexed) < len(e.args) and (e.op.name != "take" or str(e.attrs.mode) == "fast"):
                probes.append((e, e.args[index], e.args[indexed]))

    try:
        relay.analysis.post_order_visit(main.body, visit)
        params = set(main.params)
        probes = [p for p in probes if set(relay.analysis.free_vars(p[1])) <= params]
        if not probes:
            return None
        body = relay.Tuple([index for _, index, _ in probes])
        probe = job.tvm.IRModule.from_expr(relay.Function(list(main.params), body))
        probe = infer_type(relay, probe)
    except Exception:  # pylint: disable=broad-except
        return None
    for run in runners:
        kind, got = run_forked(np, lambda: run(probe))
        if kind == "ok":
            break
    else:
        return None
    for (call, _, indexed), index in zip(probes, got):
        shape = [int(d) for d in indexed.checked_type.shape]
        bad = first_out_of_range(np, call.op.name, call.attrs, shape, index)
        if bad:
            return "%s: %s" % (call.op.name, bad)
    return None


def first_out_of_range(np, op, attrs, shape, index):
    """The first value of index that op cannot read shape at ("index 5 outside [0, 1)"), or None.
    gather_nd and scatter_nd: index[j] picks dimension j (after gather_nd's batch_dims); the
    others pick along their axis (take without one: the flattened tensor). The scatter family
    also takes an index from the end, as negative."""
    index = np.asarray(index)
    if op in ("gather_nd", "scatter_nd"):
        first = int(getattr(attrs, "batch_dims", 0) or 0) if op == "gather_nd" else 0
        rows = [(index[j], 0, shape[first + j]) for j in range(min(index.shape[0] if index.ndim else 0,
                                                                     len(shape) - first))]
    else:
        axis = getattr(attrs, "axis", None)
        if axis is None and op == "take":
            extent = int(np.prod(shape))
        else:
            axis = int(axis if axis is not None else 0)
            extent = shape[axis + len(shape) if axis < 0 else axis]
        rows = [(index, -extent if op.startswith("scatter") else 0, extent)]
    for values, low, high in rows:
        outside = np.asarray(values)[(values < low) | (values >= high)]
        if outside.size:
            return "index %d outside [%d, %d)" % (int(outside.flat[0]), low, high)
    return None


REFERENCE_TRIES = 4  # inputs drawn for the reference before the candidate is given up as unusable


def reference_results(job, mod, dev, run, name):
    """(inputs, results) of the reference run on inputs it computes finite numbers for: the
    seeded inputs first, then other seeds, then positive ones, each run in a forked process so
    that a trap (an integer division by zero on these inputs) only costs a redraw. Neither a trap
    nor a NaN or an infinity of the reference says anything about TVM; Unusable if every draw
    gives one."""
    tvm, relay, args = job.tvm, job.relay, job.args
    import numpy as np  # pylint: disable=import-outside-toplevel
    context, func = run
    why = []
    for attempt in range(REFERENCE_TRIES):
        positive = args.positive or attempt >= REFERENCE_TRIES // 2
        job.stage("inputs")
        inputs = [v for _, v in make_inputs(tvm, relay, np, mod["main"], dev, args.seed + attempt,
                                            skip=job.params or {}, all_positive=positive)]
        job.stage("run %s" % name.replace("@", " at opt level "))

        def reference():
            with context:
                return flatten_result(np, func(*inputs), [])

        kind, value = run_forked(np, reference)
        if kind == "error":  # the reference raised: run it here, for the error to be this run's
            return inputs, reference()
        if kind == "signal":
            why.append("%s on inputs %d" % (value, attempt))
            continue
        bad = [i for i, r in enumerate(value) if r.dtype.kind in "fc" and not np.all(np.isfinite(r))]
        if bad:
            why.append("NaN or infinity at output %d on inputs %d" % (bad[0], attempt))
            continue
        if attempt:
            job.note("the reference %s: %s; inputs %d used" % (name, "; ".join(why), attempt))
        return inputs, value
    raise Unusable("the reference %s gives no finite result on any of %d inputs drawn (%s): nothing to "
                   "compare" % (name, REFERENCE_TRIES, "; ".join(why)))


def run_forked(np, fn):
    """Runs fn() (a list of arrays) in a forked process: ("ok", arrays), ("signal", "signal NAME")
    when it died by a signal, or ("error", text) when it raised."""
    handle, path = tempfile.mkstemp(suffix=".npz")
    os.close(handle)
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            np.savez(path, *fn())
            os.write(wfd, b"ok")
        except BaseException as e:  # pylint: disable=broad-except
            os.write(wfd, ("error %s: %s" % (type(e).__name__, e)).encode("utf-8", "replace")[:4000])
        relaykit_outcome.flush_profiles()
        os._exit(0)
    os.close(wfd)
    said = b""
    while True:
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        said += chunk
    os.close(rfd)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    try:
        if os.WIFSIGNALED(status):
            try:
                return "signal", "signal " + signal.Signals(os.WTERMSIG(status)).name
            except ValueError:
                return "signal", "signal %d" % os.WTERMSIG(status)
        if said != b"ok":
            return "error", said.decode("utf-8", "replace")
        with np.load(path) as saved:
            return "ok", [saved["arr_%d" % i] for i in range(len(saved.files))]
    finally:
        os.unlink(path)


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


# ----------------------------------------------------------------------------- the checks

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


# ----------------------------------------------------------------------------- the child

def _edged(outcome, edges):
    outcome.reported_edges = edges
    return outcome


class Outcome(object):  # pylint: disable=too-many-instance-attributes
    """What happened to one candidate: kind is ok, error or usage; stage the last stage entered;
    the passes TVM ran; the Python exception's type; whether a property did not hold (mismatch)."""

    def __init__(self, kind, stage, text, headline, output="", ran=(), exception=None, mismatch=False,
                 note=None):
        self.kind, self.stage, self.text, self.headline, self.output = kind, stage, text, headline, output
        self.ran, self.exception, self.mismatch, self.note = list(ran), exception, mismatch, note
        self.reported_edges = self.edges = None  # coverage (run_in_child)


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

    def ran(name):
        send({"ran": name})

    def note(text):
        send({"note": text})

    result = {"kind": "ok", "text": ""}
    try:
        if chdir:
            path = os.path.abspath(path)
            os.chdir(os.path.dirname(path))
        result["text"] = run_check(args, path, stage, ran, note)
    except UsageError as e:
        result = {"kind": "usage", "text": str(e), "headline": str(e)}
    except Mismatch as e:
        result = {"kind": "error", "text": str(e), "headline": str(e), "mismatch": True}
    except Broken as e:
        result = {"kind": "error", "text": str(e), "headline": str(e), "exception": "Broken"}
    except Unusable as e:
        result = {"kind": "ok", "text": str(e), "note": str(e)}
    except BaseException as e:  # pylint: disable=broad-except  # TVMError, DiagnosticError, ...
        text = "%s: %s" % (type(e).__name__, e)
        result = {"kind": "error", "text": text, "headline": text, "exception": type(e).__name__}
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        fake_edges = getattr(sys.modules.get("tvm"), "relaykit_fake_edges", None)
        if fake_edges is not None:  # a TVM stand-in that reports its own edges (the tests' fake)
            send({"edges": list(fake_edges())})
        send(result)
    finally:
        relaykit_outcome.flush_profiles()  # _exit writes no source-based coverage (measurement)
        os._exit(0)


def run_in_child(args, path, chdir=False, coverage=None):
    """Forks; the child does run_check with stdout+stderr captured. Returns an Outcome, with
    .edges: the candidate's coverage edges when `coverage` has a source (else None)."""
    if coverage is not None:
        coverage.before()
    outcome = _run_in_child(args, path, chdir)
    outcome.edges = coverage.after(outcome.reported_edges) if coverage is not None else None
    return outcome


def _run_in_child(args, path, chdir=False):
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

    stage, result, ran, notes, edges = "start", None, [], [], None
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "stage" in msg:
            stage = msg["stage"]
        elif "kind" in msg:  # the verdict (it may hold a note of its own)
            result = msg
        elif "ran" in msg:
            if msg["ran"] != SEQUENTIAL:  # a container, not a pass one can disable
                ran.append(msg["ran"])
        elif "note" in msg:
            notes.append(msg["note"])
        elif "edges" in msg:
            edges = msg["edges"]
    if timed_out:
        head = "timeout after %g s" % args.timeout
        return _edged(Outcome("error", stage, head, head, output, ran), edges)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            head = "signal " + signal.Signals(sig).name
        except ValueError:
            head = "signal %d" % sig
        return _edged(Outcome("error", stage, head, head, output, ran), edges)
    if result is None:
        head = "the TVM child exited with status %d without a verdict" % os.WEXITSTATUS(status)
        return _edged(Outcome("error", stage, head, head, output, ran), edges)
    notes += [result["note"]] if result.get("note") else []
    return _edged(Outcome(result["kind"], stage, result["text"], result.get("headline", ""), output, ran,
                   result.get("exception"), result.get("mismatch", False), "; ".join(notes) or None), edges)


# ----------------------------------------------------------------------------- verdicts

# Lines that name no error: stack frames, rulers, and an exception whose message is only the
# start of TVM's traceback ("DiagnosticError: Traceback (most recent call last):"), which would
# put every diagnostic into one group.
_FRAME = re.compile(r"^(\d+: |File \"|Traceback \(most recent call last\)|-{10,}|\[bt\]"
                    r"|(\w+\.)*\w+: Traceback \(most recent call last\):?$"
                    r"|(\w+\.)*DiagnosticError: one or more error diagnostics were emitted)")


def _telling_lines(text):
    """The non-empty lines of text that may name the error: no frames, and not the code Python's
    traceback prints under a frame (`raise get_last_ffi_error()`, `assert x, (`, its `^^^^`
    markers): indented deeper than the frame line, up to the next line that is not."""
    out, in_frame = [], False
    for raw in text.splitlines():
        ln = raw.strip()
        if not ln or set(ln) <= set("^~"):
            continue
        indent = len(raw) - len(raw.lstrip())
        if in_frame and indent >= 4 and not ln.startswith("File \""):
            continue
        # Python's frames end in ", in f" and have code under them; TVM's C++ frame
        # (`File "x.cc", line 131`) has the error message under it instead
        in_frame = ln.startswith("File \"") and ", in " in ln
        if not _FRAME.match(ln):
            out.append(ln)
    return out
_PREFERRED = [re.compile(r) for r in (
    r"Check failed: \S",
    r"^error:|: error:|^Error:",
    r"^(\w+\.)*\w*(Error|Exception)(\b.*\S)?:\s*\S",
    r"(?i)error|fatal|abort|assert",
)]


def one_line(text):
    # a failed check from its own words on, as roracle groups it; the last one of a line, since
    # TVM wraps a check that failed inside another ("Check failed: (false) is false: [time] ...")
    at = text.rfind("Check failed: ")
    if at > 0:
        text = text[at:]
    text = " ".join(text.split())
    return text if len(text) <= SIGNATURE_CAP else text[:SIGNATURE_CAP - 3] + "..."


def signature(outcome, match_re):
    """One line naming the error: the line --match found, else the most telling line."""
    lines = _telling_lines(outcome.text + "\n" + outcome.output)
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
    head = outcome.headline.strip().split("\n")[0]
    if head and not _FRAME.match(head):
        return one_line(outcome.headline)
    return one_line(lines[0] if lines else outcome.headline or "error")


def verdict(args, outcome):
    """(status, signature, explanation) of an Outcome."""
    if outcome.kind == "usage":
        return EXIT_USAGE, one_line(outcome.text), "usage: " + outcome.text
    if outcome.kind == "ok":
        return EXIT_NO_BUG, "", "no bug: " + outcome.text
    sig = signature(outcome, args.match_re)
    if outcome.stage == "read":
        return EXIT_USAGE, sig, "cannot read the candidate: " + sig
    if outcome.exception == "Broken":  # tvm-bisect's culprit says more than TVM's own words
        return EXIT_BUG, sig, "interesting (in stage %s): %s" % (outcome.stage, " ".join(outcome.headline.split()))
    under_test = outcome.stage.split(" ")[0] in CHECK[args.check].under_test
    if not under_test:
        return args.other_status, sig, "something else broke (in stage %s): %s" % (outcome.stage, sig)
    if args.match_re is not None and not args.match_re.search(outcome.text + "\n" + outcome.output):
        return (args.other_status, sig,
                "a different error (in stage %s, not matching --match): %s" % (outcome.stage, sig))
    return EXIT_BUG, sig, "interesting (in stage %s): %s" % (outcome.stage, sig)


# ----------------------------------------------------------------------------- entry points

def load_check(args):
    """Work done once per argument set, with TVM imported, before any candidate (Check.load:
    loading the user's check). Returns None, or why it cannot be loaded."""
    load = CHECK[args.check].load
    return load(args) if load else None


def prepare(args, prog):
    """load_check for a command line: False (the reason on stderr) when it fails."""
    why = load_check(args)
    if why:
        sys.stderr.write("%s: %s\n" % (prog, why))
        return False
    return True


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
    if not prepare(args, prog):
        return EXIT_USAGE
    try:  # a client reducing the pipeline put the one to run beside the candidate
        args = relaykit_outcome.with_pipeline(args, relaykit_outcome.read_pipeline(args.file), pass_spec)
    except relaykit_outcome.BadPipeline as e:
        sys.stderr.write("%s: bad pipeline: %s\n" % (prog, e))
        return EXIT_USAGE
    coverage = relaykit_outcome.Coverage()
    coverage.start()
    outcome = run_in_child(args, args.file, coverage=coverage)
    status, sig, explanation = verdict(args, outcome)
    relaykit_outcome.write_outcome(args.file, args, outcome, status, sig, coverage.field(outcome.edges))
    if outcome.output and not args.quiet:
        sys.stderr.write(outcome.output if outcome.output.endswith("\n") else outcome.output + "\n")
    sys.stdout.write("%s: %s\n" % (prog, explanation))
    return status


SERVER_USAGE = """usage: tvm-server CHECK [ARGS...]
       tvm-server --check SCRIPT.py [ARGS...]
       tvm-server --args-beside [COMMON OPTIONS...]
       tvm-server --args-from FILE [COMMON OPTIONS...]
CHECK is one of %s,
with the options of the script tvm-CHECK (tvm-server CHECK --help), without the candidate;
--check SCRIPT.py (the same as the CHECK check) runs check(mod) from the user's Python file:
tvm-server reads one candidate path a line on stdin and answers one line "STATUS[ SIGNATURE]"
on stdout for each (interestingness/PROTOCOL.md). Example:
  rreduce --server 'interestingness/tvm-server build --opt-level 3' bug.relay
With --args-beside, each candidate PATH brings its own check: the file PATH.args holds
CHECK [ARGS...] (or --check SCRIPT.py [ARGS...]), one argument a line (UTF-8; empty lines
are skipped); with --args-from FILE, FILE holds the check of every candidate. COMMON OPTIONS
(e.g. --timeout 60 -v) go right after the check's name, for every candidate. Relative paths
(SCRIPT.py, --params) are from the server's working directory. A missing or bad PATH.args is
answered "2 bad arguments: REASON" and the server goes on; a bad FILE stops it (exit 2).
""" % ", ".join(CHECK_NAMES)

ARGS_SUFFIX = ".args"  # --args-beside: the check of candidate PATH is in PATH.args
ARGS_CACHE = 256  # argument sets kept parsed (and user checks loaded) by --args-beside


class BadArguments(Exception):
    """An argument set that tvm-server cannot use; str() is the one-line reason."""


def _absolute_paths(args):
    """Files named by the arguments, made absolute: the child runs in the candidate's folder."""
    for name in ("params", "script"):
        value = getattr(args, name, None)
        if value:
            setattr(args, name, os.path.abspath(value))
    return args


def _argparse_reason(text, code):
    """argparse's complaint ("usage: ...\nprog: error: MESSAGE") as one line: MESSAGE."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        at = ln.find(": error: ")
        if at >= 0:
            return ln[at + len(": error: "):]
    if code == 0:  # --help, which printed the help and exited
        return "--help is not a check's argument"
    return lines[-1] if lines else "argument error (exit status %s)" % code


def server_args(argv):
    """The parsed arguments of `tvm-server CHECK ARGS...` (argv from CHECK on, --check SCRIPT
    allowed), the user's check not loaded yet; BadArguments when they are not usable. argparse's
    messages and exits are caught: nothing is printed, nothing exits."""
    import contextlib  # pylint: disable=import-outside-toplevel
    import io  # pylint: disable=import-outside-toplevel
    if not argv:
        raise BadArguments("no check named (an empty argument list)")
    if argv[0] == "--check":
        argv = ["check"] + list(argv[1:])
    if argv[0] not in CHECK:
        raise BadArguments("unknown check %r (%s, or --check SCRIPT.py)" % (argv[0], ", ".join(CHECK_NAMES)))
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            args = parse_args(argv[0], "tvm-server " + argv[0], list(argv[1:]), with_file=False)
    except SystemExit as e:
        raise BadArguments(_argparse_reason(said.getvalue(), e.code))
    except Exception as e:  # pylint: disable=broad-except  # whatever argparse or a type raises
        raise BadArguments("%s: %s" % (type(e).__name__, e))
    return _absolute_paths(args)


def read_args_file(path):
    """The bytes of an args file (the key of ArgSets' cache); BadArguments if it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except IOError as e:
        if not os.path.exists(path):
            raise BadArguments("%s: no such file" % path)
        raise BadArguments("%s: %s" % (path, e.strerror or e))
    return data


def split_args(data, path):
    """An args file's arguments: one a line, UTF-8 (a \\r before the \\n is dropped), empty lines
    skipped."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadArguments("%s: not UTF-8" % path)
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    return [ln for ln in lines if ln]


class ArgSets(object):
    """Argument sets from args files, parsed (and the user's check loaded) once per distinct
    content; a bad one is remembered as its reason."""

    def __init__(self, common, limit=ARGS_CACHE):
        self.common, self.limit, self.cache = list(common), limit, {}

    def parse(self, data, path):
        """The args of an args file's content (the common options after the check's name)."""
        argv = split_args(data, path)
        if not argv:
            raise BadArguments("%s: empty (the first line names the check)" % path)
        args = server_args(argv[:1] + self.common + argv[1:])
        vet = CHECK[args.check].vet
        if vet:
            vet(args)
        why = load_check(args)
        if why:
            raise BadArguments(why)
        return args

    def get(self, data, path):
        """The args for an args file's content; BadArguments if unusable."""
        if data not in self.cache:
            try:
                entry = self.parse(data, path)
            except BadArguments as e:
                entry = e
            if len(self.cache) >= self.limit:
                del self.cache[next(iter(self.cache))]  # the oldest (dicts keep insertion order)
            self.cache[data] = entry
        entry = self.cache[data]
        if isinstance(entry, BadArguments):
            raise entry
        return entry


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
    beside, args_file, fixed = False, None, None
    if argv[0] == "--args-beside":  # each candidate's check in PATH.args
        beside, common = True, argv[1:]
    elif argv[0] == "--args-from":  # every candidate's check in FILE
        if len(argv) < 2:
            sys.stderr.write("tvm-server: --args-from needs a FILE\n%s" % SERVER_USAGE)
            return EXIT_USAGE
        args_file, common = argv[1], argv[2:]
    else:
        if argv[0] == "--check":  # tvm-server --check mycheck.py: the user's Python check
            argv = ["check"] + argv[1:]
        if argv[0] not in CHECK:
            sys.stderr.write("tvm-server: unknown check %r\n%s" % (argv[0], SERVER_USAGE))
            return EXIT_USAGE
        fixed = _absolute_paths(parse_args(argv[0], "tvm-server " + argv[0], argv[1:], with_file=False))
    sets = ArgSets(common) if fixed is None else None
    if args_file is not None:  # usage errors before TVM is imported, as on the command line
        try:
            data = read_args_file(args_file)
            argv = split_args(data, args_file)
            if not argv:
                raise BadArguments("%s: empty (the first line names the check)" % args_file)
            server_args(argv[:1] + sets.common + argv[1:])
        except BadArguments as e:
            sys.stderr.write("tvm-server: --args-from %s: bad arguments: %s\n" % (args_file, e))
            return EXIT_USAGE
    # stdout carries answers only: keep a private copy of it, point fd 1 at stderr for the rest.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    why = import_tvm()
    if why:
        return _not_importable("tvm-server", why)
    if fixed is not None and not prepare(fixed, "tvm-server"):
        return EXIT_USAGE
    if args_file is not None:
        try:
            fixed = sets.get(data, args_file)
        except BadArguments as e:  # the user's check did not load
            sys.stderr.write("tvm-server: --args-from %s: bad arguments: %s\n" % (args_file, e))
            return EXIT_USAGE
    # the echo extension (PROTOCOL.md): each answer starts with its path and a tab
    echo = os.environ.pop("RELAYKIT_ORACLE_ECHO", "") == "1"
    coverage = relaykit_outcome.Coverage()  # the coverage extension: edges per candidate
    coverage.start()
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return 0
        path = line.decode("utf-8", "surrogateescape")
        if path.endswith("\n"):
            path = path[:-1]
        args = fixed
        if not path:
            status, sig = EXIT_USAGE, "empty path"
        elif not os.path.isfile(path):
            status, sig = EXIT_USAGE, "no such file"
        else:
            if beside:
                try:
                    side = path + ARGS_SUFFIX
                    args = sets.get(read_args_file(side), side)
                except BadArguments as e:
                    args = None
                    status, sig = EXIT_USAGE, one_line("bad arguments: %s" % e)
                    sys.stderr.write("tvm-server: %s: %s\n" % (path, sig))
                    sys.stderr.flush()
            if args is not None:
                try:
                    args = relaykit_outcome.with_pipeline(args, relaykit_outcome.read_pipeline(path), pass_spec)
                except relaykit_outcome.BadPipeline as e:
                    args = None
                    status, sig = EXIT_USAGE, one_line("bad pipeline: %s" % e)
                    sys.stderr.write("tvm-server: %s: %s\n" % (path, sig))
                    sys.stderr.flush()
            if args is not None:
                outcome = run_in_child(args, path, chdir=True, coverage=coverage)
                status, sig, explanation = verdict(args, outcome)
                relaykit_outcome.write_outcome(path, args, outcome, status, sig, coverage.field(outcome.edges))
                if args.verbose:
                    sys.stderr.write("%stvm-server: %s: %s\n" % (outcome.output, path, explanation))
                    sys.stderr.flush()
        try:
            answer = (("%d %s\n" % (status, sig)) if sig else ("%d\n" % status)).encode("utf-8", "replace")
            # the path goes back byte for byte, whatever its encoding
            answers.write(line.rstrip(b"\n") + b"\t" + answer if echo else answer)
            answers.flush()
        except BrokenPipeError:
            return 0
