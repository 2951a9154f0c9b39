# TVM's Python API across releases (0.6 to 0.19), in the child: parsing, pass contexts and the pass
# instrument that records the pipeline, passes by name, targets, devices, --params, building.
"""Calls into TVM that differ between its releases."""

from .common import UsageError


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


# The name TVM gives a tvm.transform.Sequential: relay.build runs its Relay passes inside one, so a
# pass instrument hears of it around them all; it is no pass of its own.
SEQUENTIAL = "sequential"


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


def build_module(tvm, relay, mod, args, params):
    """relay.build with --executor graph or aot, relay.vm.compile with vm."""
    target = make_target(tvm, args.target, args.target_host)
    if args.executor == "vm":
        return relay.vm.compile(mod, target=target, params=params)
    kw = {"params": params} if params else {}
    if args.executor == "aot":
        kw["executor"] = relay.backend.Executor("aot")
    return relay.build(mod, target=target, **kw)
