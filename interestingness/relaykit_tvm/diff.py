# tvm-diff: every configuration built and run on the same inputs, drawn so that the reference
# computes finite numbers (each draw run in a forked process), and compared; a difference that an
# out-of-range index explains is no bug.
"""tvm-diff's run function: configurations compared on the same inputs."""

import os
import signal
import tempfile

import relaykit_outcome

from .common import Mismatch, Unusable
from .tvm_api import device_for, infer_type, make_target, pass_context
from .inputs import compare_results, flatten_result, INDEX_OPERANDS, make_inputs


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
