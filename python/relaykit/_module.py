# From a TVM user's objects to Relay text and back: the one place that knows TVM's Python API
# for modules, parameters and parsing (TVM is imported only when called).
"""IRModule <-> text, and the params that go with a module's @main."""

import os
import tempfile


def relay_api():
    import tvm  # pylint: disable=import-outside-toplevel
    from tvm import relay  # pylint: disable=import-outside-toplevel
    return tvm, relay


def as_module(mod, what="mod"):
    """mod as an IRModule (a relay.Function becomes one); a TypeError naming what is accepted."""
    tvm, relay = relay_api()
    if isinstance(mod, relay.Function):
        return tvm.IRModule.from_expr(mod)
    if isinstance(mod, tvm.IRModule):
        return mod
    raise TypeError("relaykit: %s must be a tvm.IRModule or a tvm.relay.Function, not %s"
                    % (what, type(mod).__name__))


def parse(text, name="from_string"):
    """TVM's parser (which also type-checks), wherever this TVM release keeps it."""
    _, relay = relay_api()
    fn = getattr(relay, "parse", None)
    if fn is None:
        import tvm.parser as tvm_parser  # pylint: disable=import-outside-toplevel
        fn = tvm_parser.parse
    return fn(text, name)


def _tensor_type(var):
    """(shape, dtype) of a parameter of tensor type with a static shape, else None."""
    ty = getattr(var, "type_annotation", None)
    if ty is None:
        try:
            ty = var.checked_type
        except Exception:  # pylint: disable=broad-except
            return None
    shape, dtype = getattr(ty, "shape", None), getattr(ty, "dtype", None)
    if shape is None or dtype is None:
        return None
    try:
        return tuple(int(d) for d in shape), str(dtype)
    except (TypeError, ValueError):  # a symbolic dimension (Any)
        return None


def main_params(mod):
    """@main's parameters: name -> (shape, dtype) or None (not a tensor of static shape)."""
    return dict((p.name_hint, _tensor_type(p)) for p in mod["main"].params)


def _value_type(value):
    return tuple(int(d) for d in value.shape), str(value.dtype)


def check_params(mod, params):
    """A ValueError naming every entry of params that is not one of @main's parameters or does
    not have its parameter's shape and dtype."""
    if not params:
        return
    have = main_params(mod)
    unknown = sorted(set(params) - set(have))
    problems = []
    if unknown:
        problems.append("not parameters of @main: %s (@main has %s)"
                        % (", ".join(unknown), ", ".join(sorted(have)) or "none"))
    for name in sorted(set(params) & set(have)):
        want, got = have[name], _value_type(params[name])
        if want is not None and want != got:
            problems.append("%s is %s %s, @main's %%%s is %s %s" % (name, got[0], got[1], name, want[0], want[1]))
    if problems:
        raise ValueError("relaykit: params do not match @main: " + "; ".join(problems))


def params_for(mod, params):
    """The entries of params that still fit @main (a reduction drops parameters and shrinks
    shapes: a parameter whose type changed is left an input)."""
    if not params:
        return {}
    have = main_params(mod)
    return dict((k, v) for k, v in params.items()
                if k in have and (have[k] is None or have[k] == _value_type(v)))


def to_text(mod, params=None):
    """The module as Relay text, with `params` (name -> numpy array or NDArray) bound as
    constants of @main and every constant in the #[metadata] section, type-checked first so
    that the text carries TVM's /* ty=... */ types."""
    tvm, relay = relay_api()
    mod = as_module(mod)
    if params:
        main = mod["main"]
        names = set(p.name_hint for p in main.params)
        unknown = sorted(set(params) - names)
        if unknown:
            raise ValueError("params not among @main's parameters: %s" % ", ".join(unknown))
        arrays = dict((k, v if isinstance(v, tvm.nd.NDArray) else tvm.nd.array(v))
                      for k, v in params.items())
        mod = tvm.IRModule(dict(mod.functions), mod.type_definitions)
        mod["main"] = relay.build_module.bind_params_by_name(main, arrays)
    mod = relay.transform.InferType()(mod)
    return mod.astext(show_meta_data=True)


def write_whole(path, text):
    """Writes text to path: the file is replaced whole or not at all."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".relaykit-", suffix=".relay", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text if text.endswith("\n") else text + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def save(mod, path, params=None):
    """Writes to_text(mod, params) to path; the file is replaced whole or not at all."""
    return write_whole(path, to_text(mod, params))


def load(path):
    """The module a .relay file holds (TVM's parser, which also type-checks it)."""
    with open(path) as f:
        text = f.read()
    return parse(text, os.path.basename(path))
