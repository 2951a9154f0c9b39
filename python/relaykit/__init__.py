# relaykit's Python side: from a TVM user's `mod` and `params` to a .relay file relaykit reduces.
# Only TVM is needed (imported when called), nothing else; Python 3.6 compatible, as the scripts.
"""relaykit: write a TVM Relay module as a .relay file that relaykit and TVM both read back.

    import relaykit
    relaykit.save(mod, "bug.relay", params=params)   # then: rreduce bug.relay ./test.sh
    mod = relaykit.load("bug.relay")
"""

import os
import tempfile

__all__ = ["save", "load", "to_text"]
__version__ = "0.1.0"


def _relay():
    import tvm  # pylint: disable=import-outside-toplevel
    from tvm import relay  # pylint: disable=import-outside-toplevel
    return tvm, relay


def to_text(mod, params=None):
    """The module as Relay text, with `params` (name -> numpy array or NDArray) bound as
    constants of @main and every constant in the #[metadata] section, type-checked first so
    that the text carries TVM's /* ty=... */ types."""
    tvm, relay = _relay()
    if isinstance(mod, relay.Function):
        mod = tvm.IRModule.from_expr(mod)
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


def save(mod, path, params=None):
    """Writes to_text(mod, params) to path; the file is replaced whole or not at all."""
    text = to_text(mod, params)
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


def load(path):
    """The module a .relay file holds (TVM's parser, which also type-checks it)."""
    _, relay = _relay()
    with open(path) as f:
        text = f.read()
    parse = getattr(relay, "parse", None)
    if parse is None:
        import tvm.parser as tvm_parser  # pylint: disable=import-outside-toplevel
        parse = tvm_parser.parse
    return parse(text, os.path.basename(path))
