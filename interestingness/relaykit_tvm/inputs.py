# Inputs and results: which of @main's inputs must be positive or in an index's range, random
# (seeded) input values, a module's results flattened to arrays, and comparing two runs' results
# with a tolerance by dtype.
"""Input values, results, and comparing results."""

from .common import Mismatch


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
