# The standalone Python repro of one TVM test's check: the candidate's text and the pipeline the
# options describe, as plain TVM calls (no relaykit), for a bug report (rreduce --report). A
# script writes it when RELAYKIT_REPRO names a file (relaykit_tvm.write_repro). Python 3.6+.
"""repro_source(args, text, name, what, steps) -> the source of a Python script reproducing args'
check."""

import os

HEADER = '''\
# Reproduces %(what)s on TVM: written by relaykit's tvm-%(check)s from %(name)s.
# Run with the Python that has TVM: python3 repro.py
import tvm
from tvm import relay

TEXT = %(text)s

mod = tvm.relay.parse(TEXT) if hasattr(tvm.relay, "parse") else tvm.parser.parse(TEXT)  # also InferType
'''

CONTEXT = "tvm.transform.PassContext(opt_level=%d%s)"

BUILD = '''\
with %(context)s:
    built = %(build)s
'''

RUN = '''\
import numpy as np
dev = tvm.device(%(target)r)
rng = np.random.default_rng(%(seed)d)
inputs = {}
for p in mod["main"].params:
    if p.name_hint in (params or {}):
        continue
    t = p.checked_type
    shape = [int(d) for d in t.shape]
    inputs[p.name_hint] = %(fill)s
%(runner)s
'''

GRAPH_RUN = '''\
from tvm.contrib import graph_executor
m = graph_executor.GraphModule(built["default"](dev))
for k, v in inputs.items():
    m.set_input(k, v)
m.run()'''

AOT_RUN = '''\
from tvm.runtime.executor import AotModule
m = AotModule(built["default"](dev))
for k, v in inputs.items():
    m.set_input(k, v)
m.run()'''

VM_RUN = '''\
vm = tvm.runtime.vm.VirtualMachine(built, dev)
vm.invoke("main", **inputs)'''

DIFF = '''\
import numpy as np
dev = tvm.device(%(target)r)
rng = np.random.default_rng(%(seed)d)
inputs = []
for p in mod["main"].params:
    t = p.checked_type
    shape = [int(d) for d in t.shape]
    low = 1.0 if %(positive)r else -1.0
    inputs.append(rng.uniform(low, 2.0, shape).astype(t.dtype) if "float" in t.dtype
                  else rng.integers(1, 3, shape).astype(t.dtype))
results = []
for kind, level in %(configs)r:
    with tvm.transform.PassContext(opt_level=level%(extra)s):
        out = relay.create_executor(kind, mod, dev, %(target_expr)s).evaluate()(*inputs)
    results.append(out.numpy() if hasattr(out, "numpy") else [o.numpy() for o in out])
for (kind, level), r in zip(%(configs)r[1:], results[1:]):
    np.testing.assert_allclose(results[0], r, rtol=%(rtol)r, atol=%(atol)r,
                               err_msg="%%s@%%d differs from the first" %% (kind, level))
'''


def _literal(text):
    """TEXT as a Python literal: a raw triple-quoted string when that reads back the same."""
    if "'''" not in text and not text.endswith("\\") and "\\" not in text:
        return "'''\\\n" + text + "'''"
    return repr(text)


def _context_extra(args, required=()):
    extra = ""
    required = list(required) + list(getattr(args, "required_pass", []) or [])
    if required:
        extra += ", required_pass=%r" % (required,)
    if getattr(args, "disabled_pass", None):
        extra += ", disabled_pass=%r" % (list(args.disabled_pass),)
    if getattr(args, "config", None):
        extra += ", config=%r" % (dict(args.config),)
    return extra


def _target_expr(args):
    if getattr(args, "target_host", None):
        return "tvm.target.Target(%r, host=%r)" % (args.target, args.target_host)
    return repr(args.target)


def _params(args):
    if not getattr(args, "params", None):
        return "params = None\n"
    path = os.path.abspath(args.params)
    if path.endswith(".npz"):
        return ("import numpy as np\nparams = {k: tvm.nd.array(v) for k, v in np.load(%r).items()}\n" % path)
    return "params = relay.load_param_dict(open(%r, 'rb').read())\n" % path


def _build(args):
    target = _target_expr(args)
    if args.executor == "vm":
        return "relay.vm.compile(mod, target=%s, params=params)" % target
    aot = ", executor=relay.backend.Executor('aot')" if args.executor == "aot" else ""
    return "relay.build(mod, target=%s, params=params%s)" % (target, aot)


def _build_and_run(args):
    out = BUILD % {"context": CONTEXT % (args.opt_level, _context_extra(args)), "build": _build(args)}
    if getattr(args, "run", False):
        fill = ("np.zeros(shape, t.dtype)" if args.inputs == "zeros" else
                "(rng.uniform(-1.0, 1.0, shape) if 'float' in t.dtype else rng.integers(0, 3, shape)).astype(t.dtype)")
        runner = {"vm": VM_RUN, "aot": AOT_RUN}.get(args.executor, GRAPH_RUN)
        out += RUN % {"target": args.target, "seed": args.seed, "fill": fill, "runner": runner}
    return out


def _pass_call(spec):
    name, pargs, kwargs = spec
    items = [repr(a) for a in pargs] + ["%s=%r" % kv for kv in sorted(kwargs.items())]
    return "relay.transform.%s(%s)" % (name, ", ".join(items))


def repro_source(args, text, name, what, steps):
    """The repro of args.check (reproducing `what`, "a build failure") on text, a candidate
    called name: the parse, then the check's own steps(args) (one of the functions below, named
    by its row of relaykit_tvm.CHECKS)."""
    out = HEADER % {"what": what, "check": args.check, "name": name, "text": _literal(text)}
    return out + steps(args)


# The steps of each check after the parse.
INFER = "mod = relay.transform.InferType()(mod)\n"


def parse(args):  # pylint: disable=unused-argument
    return ""


def typecheck(args):  # pylint: disable=unused-argument
    return INFER


def build(args):
    return INFER + _params(args) + _build_and_run(args)


def passes(args):
    calls = ",\n    ".join(_pass_call(s) for s in args.passes)
    names = [s[0] for s in args.passes]
    out = INFER + _params(args)
    # a pipeline reduced to no pass at all (rreduce's Pipeline section) is an empty list
    out += ("passes = [\n    %s,\n]\n" % calls) if calls else "passes = []\n"
    out += "with %s:\n    for p in passes:\n        mod = tvm.transform.Sequential([p])(mod)\n" % (
        CONTEXT % (args.opt_level, _context_extra(args, names)))
    if args.infer_after:
        out += "    mod = relay.transform.InferType()(mod)\n"
    return out + (_build_and_run(args) if args.build else "")


def diff(args):
    out = INFER + _params(args)
    if getattr(args, "params", None):
        out += "mod['main'] = relay.build_module.bind_params_by_name(mod['main'], params)\n"
    return out + DIFF % {"target": args.target, "seed": args.seed, "positive": bool(args.positive),
                         "configs": [tuple(c) for c in args.configs], "extra": _context_extra(args),
                         "target_expr": _target_expr(args),
                         # tvm-diff's default for float32 where --rtol / --atol do not say
                         "rtol": 1e-3 if args.rtol is None else args.rtol,
                         "atol": 1e-3 if args.atol is None else args.atol}


def roundtrip(args):
    out = INFER if args.infer else ""
    return out + ("printed = mod.astext(show_meta_data=True)\n"
                  "mod2 = tvm.relay.parse(printed) if hasattr(tvm.relay, 'parse') else tvm.parser.parse(printed)\n"
                  "assert tvm.ir.structural_equal(mod, mod2, map_free_vars=True), 'not equal after a round trip'\n")


def check(args):
    with open(args.script) as f:
        script = f.read()
    return ("\n# the user's check, verbatim\n" + script +
            "\nif check(mod) is False:\n    raise AssertionError('check(mod) returned False')\n")
