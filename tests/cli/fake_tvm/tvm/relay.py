"""Fake tvm.relay: parse, build, the passes, and executors for tvm-diff.

@main has one parameter %x: Tensor[(2, 2), float32] (FAKE_POSITIVE makes it feed a sqrt). An
executor returns x + 1; FAKE_DIFF_<KIND>_<LEVEL> adds 0.5 for that executor and opt level,
FAKE_NAN makes every result NaN, FAKE_POSITIVE an input that is not positive an error.
FAKE_INDEX adds a second parameter %i: Tensor[(4), int64] that indexes %x (a take): an index
outside [0, 2) reads past %x, so the runs at opt level 3 differ (as undefined reads may).
FAKE_ECHO_CONTEXT makes build fail with the PassContext, target and executor it was given in
the message.

relay.transform has every pass name of TVM's relay.transform (PASS_NAMES), each taking any
arguments: a pass traps FAKE_PASS_* markers (InferType: FAKE_TYPE_*) and returns the module
with its name added to pass_history. The rules of FAKE_TVM_PLANTED (tvm/__init__.py) act in
build and vm.compile (build-segv), in each pass (pass-error), in InferType (typecheck-abort)
and in the executors (diff)."""
import os
import re
import signal

import tvm
from tvm import transform as _transform


def parse(text, source_name="from_string"):
    if "FAKE_PARSE_ERROR" in text:
        os.write(2, ("error: fake parse error in %s\n" % source_name).encode())
        raise tvm.TVMError("DiagnosticError: one or more error diagnostics were emitted")
    if tvm._from_release("FAKE_TVM_UNREADABLE_IN"):
        raise tvm.TVMError("AttributeError: relay.attrs.FakeAttrs: Cannot find required field 'out_dtype'")
    tvm.trap(text, "PARSE")
    tvm.reach(*("op " + op for op in re.findall(r"(?<![\w.@%])([a-z_][\w.]*)\(", text)))
    return tvm.IRModule(text)


# The passes relay.build runs, with the opt level from which each runs (a made-up selection of
# TVM's): the fake build announces each one that runs, so a pass instrument sees them.
BUILD_PASSES = (
    ("SimplifyInference", 0), ("EliminateCommonSubexpr", 3), ("CombineParallelConv2D", 4),
    ("CombineParallelDense", 4), ("CombineParallelBatchMatmul", 4), ("FoldConstant", 2),
    ("FoldScaleAxis", 3), ("SimplifyExpr", 0), ("CanonicalizeCast", 3), ("CanonicalizeOps", 3),
    ("AlterOpLayout", 3), ("Legalize", 1), ("DynamicToStatic", 1), ("FastMath", 4),
    ("SimplifyExprPostAlterOp", 3), ("FuseOps", 0), ("InferType", 0), ("DeadCodeElimination", 1),
    ("LambdaLift", 1), ("ToANormalForm", 2),
)


def _broken_by(mod, name):
    """break:PASS (FAKE_TVM_PLANTED): the module after PASS no longer type-checks (InferType traps
    the marker)."""
    if name in tvm.planted("break"):
        tvm.label(mod.text, "break:" + name)
        return tvm.IRModule(mod.text + "\n/* FAKE_TYPE_ERROR_broken_by_%s */\n" % name, mod.pass_history)
    return mod


def _order_error(text, kind, first, then):
    tvm.label(text, "%s:%s>%s" % (kind, first, then))
    return tvm.TVMError(tvm.traceback("tvm::relay::transform::%s::Run(tvm::IRModule)" % then,
                                      "tvm::relay::Fake%sAfter%s()" % (then, first)) +
                        "\n  Check failed: fake pass order %s>%s" % (first, then))


def _words(text, where):
    """words:WHERE:OP:TEXT and diagnostic:WHERE:OP:TEXT (FAKE_TVM_PLANTED): TVM's words raised at
    WHERE on a module calling OP."""
    for at, op, words in tvm.planted("words"):
        if at == where and tvm.calls(text, op):
            tvm.label(text, "words:%s:%s" % (at, op))
            raise tvm.TVMError(tvm.traceback("tvm::relay::Fake%s_%s()" % (tvm.ident(where), tvm.ident(op))) +
                               "\n  Check failed: " + words)
    for at, op, words in tvm.planted("diagnostic"):
        if at == where and tvm.calls(text, op):
            tvm.label(text, "diagnostic:%s:%s" % (at, op))
            os.write(2, ("[12:00:00] /src/relay/transforms/convert_layout.cc:99: Warning: Desired layout(s) "
                         "not specified for op: %s\n%s\n" % (op, words)).encode())
            raise tvm.DiagnosticError("one or more error diagnostics were emitted, please check diagnostic "
                                      "render for output.")


def run_build_passes(mod):
    """The passes of BUILD_PASSES the current PassContext lets run, in order: a pass-error rule
    fires when its first pass ran before, as a pass of the pass list (mod.pass_history); a
    build-order rule when both ran here, in that order."""
    ctx = _transform.CURRENT[-1] if _transform.CURRENT else _transform.PassContext()
    ran = []
    _transform.announce("sequential", mod)  # as TVM's relay.build, its passes run in one Sequential
    for name, level in BUILD_PASSES:
        if level > ctx.opt_level or name in ctx.disabled_pass:
            continue
        _transform.announce(name, mod)
        tvm.reach_pass(name)
        _words(mod.text, name)
        for first, then in tvm.planted("pass-error"):
            if then == name and first in mod.pass_history:
                raise _order_error(mod.text, "pass-error", first, then)
        for first, then in tvm.planted("build-order"):
            if then == name and first in ran:
                raise _order_error(mod.text, "build-order", first, then)
        ran.append(name)
        mod = _broken_by(mod, name)
        _transform.announce_after(name, mod)
    _transform.announce_after("sequential", mod)


def build(mod, target=None, params=None, executor=None):
    tvm.trap(mod.text, "BUILD")
    ctx = _transform.CURRENT[-1] if _transform.CURRENT else None
    tvm.reach("build at %s" % (ctx.opt_level if ctx else "?"))
    for op in tvm.planted("build-segv"):
        if tvm.calls(mod.text, op):
            tvm.label(mod.text, "build-segv:" + op)
            tvm.segfault("tvm::relay::backend::GraphExecutorCodegen::Codegen",
                         "tvm::relay::backend::FakeCodegen_%s(tvm::relay::Call)" % tvm.ident(op))
    for op in tvm.planted("limit"):
        if tvm.calls(mod.text, op):
            tvm.label(mod.text, "limit:" + op)
            raise tvm.TVMError(tvm.traceback("tvm::relay::qnn::Fake%sLower()" % op.replace(".", "_")) +
                               "\n  Check failed: %s is currently only supported with Hexagon" % op)
    run_build_passes(mod)
    _words(mod.text, "codegen")
    if "FAKE_ECHO_CONTEXT" in mod.text:
        raise tvm.TVMError("fake build: %s target=%s executor=%s params=%s" % (
            _transform.CURRENT[-1].describe(), target, executor, ",".join(sorted(params or {}))))


class vm(object):  # pylint: disable=invalid-name
    @staticmethod
    def compile(mod, target=None, params=None):  # pylint: disable=redefined-builtin
        return build(mod, target, params)


class backend(object):  # pylint: disable=invalid-name
    class Executor(object):
        def __init__(self, name, options=None):
            self.name = name

        def __repr__(self):
            return self.name


# The pass functions of TVM's relay.transform (0.6 to 0.19) that make a tvm.transform.Pass.
PASS_NAMES = (
    "AlterOpLayout", "AnnotateSpans", "AnnotateTarget", "AnnotateUsedMemory",
    "AutoSchedulerLayoutRewrite", "BackwardFoldScaleAxis", "BatchingOps", "CanonicalizeCast",
    "CanonicalizeOps", "CapturePostDfsIndexInSpans", "CollagePartition",
    "CombineParallelBatchMatmul", "CombineParallelConv2D", "CombineParallelDense", "Conv2dToSparse",
    "Conv2dToSparse2", "ConvertLayout", "DeadCodeElimination", "DefuseOps", "DenseToSparse",
    "DivToMul", "DynamicToStatic", "EliminateCommonSubexpr", "EtaExpand",
    "FakeQuantizationToInteger", "FastMath", "FirstOrderGradient", "FlattenAtrousConv",
    "FoldConstant", "FoldExplicitPadding", "FoldScaleAxis", "ForwardFoldScaleAxis", "FuseOps",
    "InferType", "Inline", "InlineCompositeFunctions", "LambdaLift", "LazyGradientInit",
    "Legalize", "ManifestLifetimes", "MarkCompilerFunctionsAsExtern", "MergeComposite",
    "MergeCompilerRegions", "MetaScheduleLayoutRewrite",
    "OutlineCompilerFunctionsWithExistingGlobalSymbols", "PartialEvaluate", "PartitionGraph",
    "PlanDevices", "RemoveStandaloneReshapes", "RemoveUnusedFunctions", "RewriteAnnotatedOps",
    "SimplifyExpr", "SimplifyExprPostAlterOp", "SimplifyFCTranspose", "SimplifyInference",
    "SplitArgs", "ToANormalForm", "ToBasicBlockNormalForm", "ToGraphNormalForm",
    "ToMixedPrecision",
)


class _Pass(object):
    """A pass: traps its stage's markers, applies FAKE_TVM_PLANTED, records its name."""

    def __init__(self, stage, name="FoldConstant"):
        self.stage, self.name = stage, name

    def __call__(self, mod):
        tvm.trap(mod.text, self.stage)
        if self.name == "InferType":
            for op in tvm.planted("typecheck-abort"):
                if tvm.calls(mod.text, op):
                    tvm.label(mod.text, "typecheck-abort:" + op)
                    tvm.fatal("planted typecheck-abort:%s" % op, "tvm::relay::TypeSolver::Solve",
                              "tvm::relay::FakeRel_%s" % tvm.ident(op))
        _transform.announce(self.name, mod)
        tvm.reach_pass(self.name)
        _words(mod.text, self.name)
        for first, then in tvm.planted("pass-error"):
            if then == self.name and first in mod.pass_history:
                raise _order_error(mod.text, "pass-error", first, then)
        out = _broken_by(tvm.IRModule(mod.text, mod.pass_history + [self.name]), self.name)
        _transform.announce_after(self.name, out)
        return out


def _factory(name):
    stage = "TYPE" if name == "InferType" else "PASS"

    def make(*args, **kwargs):  # pylint: disable=unused-argument
        return _Pass(stage, name)
    make.__name__ = name
    return make


class transform(object):  # pylint: disable=invalid-name
    """Every name of PASS_NAMES (set below); no other attribute: an unknown pass is unknown."""


for _name in PASS_NAMES:
    setattr(transform, _name, staticmethod(_factory(_name)))


class TensorType(object):
    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


class Var(object):
    def __init__(self, name, ty):
        self.name_hint, self.checked_type = name, ty


class Call(object):
    def __init__(self, op, args):
        self.op, self.args = op, args


class _Op(object):
    def __init__(self, name):
        self.name = name


class Function(object):
    def __init__(self, text):
        self.params = [Var("x", TensorType((2, 2), "float32"))]
        self.body = Call(_Op("sqrt"), [self.params[0]]) if "FAKE_POSITIVE" in text else None
        if "FAKE_INDEX" in text:
            self.params.append(Var("i", TensorType((4,), "int64")))
            self.body = Call(_Op("take"), self.params)


class Let(object):
    pass


class Tuple(object):
    pass


class TupleGetItem(object):
    pass


class analysis(object):  # pylint: disable=invalid-name
    @staticmethod
    def post_order_visit(expr, fn):
        if expr is not None:
            fn(expr)


def create_executor(kind="debug", mod=None, device=None, target="llvm"):
    level = _transform.CURRENT[-1].opt_level
    text = mod.text

    class _Executor(object):
        def evaluate(self):
            if kind != "debug":
                build(mod)  # compiles here, as TVM's graph, vm and aot executors do

            def run(*inputs):
                import numpy as np  # pylint: disable=import-outside-toplevel
                x = inputs[0].numpy()
                if "FAKE_POSITIVE" in text and (x <= 0).any():
                    raise tvm.TVMError("fake: sqrt of an input that is not positive")
                if any(tvm.calls(text, op) for op in tvm.planted("trap")) and x.flat[0] < 0:
                    os.kill(os.getpid(), signal.SIGFPE)
                y = x + 1
                if any(tvm.calls(text, op) for op in tvm.planted("nan")) and x.flat[0] < 0:
                    y = y * np.nan
                if re.search(r"FAKE_DIFF_%s_%d\b" % (kind.upper(), level), text):
                    y = y + 0.5
                else:
                    for lv, op in tvm.planted("diff"):
                        if lv == level and tvm.calls(text, op):
                            tvm.label(text, "diff:%d:%s" % (lv, op))
                            y = y + 0.5
                            break
                if "FAKE_INDEX" in text and level == 3:
                    i = inputs[1].numpy()
                    y = y + ((i < 0) | (i >= 2)).sum()
                if "FAKE_NAN" in text:
                    y = y * np.nan
                return tvm.nd.NDArray(y)
            return run
    return _Executor()
