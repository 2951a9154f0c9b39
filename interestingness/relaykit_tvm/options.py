# The checks' options, without TVM: the argument types (passes, opt levels, configs) and each
# check's own options (the add_*/read_* functions a row of CHECKS names).
"""Argument types and each check's own options."""

import argparse
import ast
import os

from .common import EXECUTORS


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
