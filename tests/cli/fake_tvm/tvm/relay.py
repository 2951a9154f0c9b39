"""Fake tvm.relay: parse, build, the passes, and executors for tvm-diff.

@main has one parameter %x: Tensor[(2, 2), float32] (FAKE_POSITIVE makes it feed a sqrt). An
executor returns x + 1; FAKE_DIFF_<KIND>_<LEVEL> adds 0.5 for that executor and opt level,
FAKE_NAN makes every result NaN, FAKE_POSITIVE an input that is not positive an error. FAKE_ECHO_CONTEXT makes build fail with the PassContext,
target and executor it was given in the message."""
import os
import re

import tvm
from tvm import transform as _transform


def parse(text, source_name="from_string"):
    if "FAKE_PARSE_ERROR" in text:
        os.write(2, ("error: fake parse error in %s\n" % source_name).encode())
        raise tvm.TVMError("DiagnosticError: one or more error diagnostics were emitted")
    tvm.trap(text, "PARSE")
    return tvm.IRModule(text)


def build(mod, target=None, params=None, executor=None):
    tvm.trap(mod.text, "BUILD")
    if "FAKE_ECHO_CONTEXT" in mod.text:
        raise tvm.TVMError("fake build: %s target=%s executor=%s params=%s" % (
            _transform.CURRENT[-1].describe(), target, executor, ",".join(sorted(params or {}))))


class backend(object):  # pylint: disable=invalid-name
    class Executor(object):
        def __init__(self, name, options=None):
            self.name = name

        def __repr__(self):
            return self.name


class _Pass(object):
    def __init__(self, stage):
        self.stage = stage

    def __call__(self, mod):
        tvm.trap(mod.text, self.stage)
        return mod


class transform(object):  # pylint: disable=invalid-name
    InferType = staticmethod(lambda: _Pass("TYPE"))
    FoldConstant = staticmethod(lambda: _Pass("PASS"))
    FuseOps = staticmethod(lambda fuse_opt_level=-1: _Pass("PASS"))


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
            def run(*inputs):
                import numpy as np  # pylint: disable=import-outside-toplevel
                x = inputs[0].numpy()
                if "FAKE_POSITIVE" in text and (x <= 0).any():
                    raise tvm.TVMError("fake: sqrt of an input that is not positive")
                y = x + 1
                if re.search(r"FAKE_DIFF_%s_%d\b" % (kind.upper(), level), text):
                    y = y + 0.5
                if "FAKE_NAN" in text:
                    y = y * np.nan
                return tvm.nd.NDArray(y)
            return run
    return _Executor()
