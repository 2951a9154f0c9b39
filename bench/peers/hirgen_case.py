"""Runs one test HirGen wrote (output.py) as `python output.py` would, and keeps its Relay.

    hirgen_case.py TEST.py OUTDIR

A run-time wrapper: HirGen's files are not changed. Before each step the test gives TVM (type
checking a module it is building, relay.build, a graph module's run, an executor's evaluate, the
Sequential of passes), the module of that step is written as Relay text (astext, with its
constants) to OUTDIR/program.relay and the step to OUTDIR/step.json, with the tvm-server check
(one argument a line) that redoes it: a crash leaves them behind. At the end OUTDIR/verdict.json
says {"verdict": ok | invalid | failure, "step", "error"}.

An error while the test is still building its module (a type error, a Python error of the
generated code) is invalid: the program is HirGen's to blame, not TVM. An error in a later step,
or a crash anywhere, is a failure. HirGen calls relay.build outside a PassContext: opt level 2,
where its Sequential also skips the passes above level 2 (so the check names only those it ran).
"""
import json
import os
import re
import runpy
import sys
import traceback

OPT = "2"  # PassContext's default opt level: HirGen's steps run under it
state = {"step": None, "args": None, "mod": None, "seq_info": None}


def write_step(outdir, step, args, mod):
    """The step about to run, its check and its module, written before it runs."""
    state.update(step=step, args=args, mod=mod)
    if mod is not None:
        try:
            text = mod.astext()
        except Exception:  # pylint: disable=broad-except  # a module TVM cannot print: keep the last
            text = None
        if text is not None:
            with open(os.path.join(outdir, "program.relay.tmp"), "w") as f:
                f.write(text)
            os.replace(os.path.join(outdir, "program.relay.tmp"), os.path.join(outdir, "program.relay"))
    with open(os.path.join(outdir, "step.json.tmp"), "w") as f:
        json.dump({"step": step, "args": args}, f)
    os.replace(os.path.join(outdir, "step.json.tmp"), os.path.join(outdir, "step.json"))


def sequential_passes(test_text):
    """The passes of the test's Sequential, as written: ['FuseOps(3)', ...]."""
    block = re.search(r"Sequential\(\[(.*?)\]\)", test_text, re.S)
    return re.findall(r"relay\.transform\.(\w+\([^()]*\))", block.group(1)) if block else []


def install(tvm, outdir, test_text):
    """Wraps the TVM entry points the test calls, so that each records its step first."""
    from tvm import relay  # pylint: disable=import-outside-toplevel
    from tvm.contrib import graph_executor  # pylint: disable=import-outside-toplevel
    from tvm.ir import transform  # pylint: disable=import-outside-toplevel
    from tvm.relay.backend import interpreter  # pylint: disable=import-outside-toplevel
    built = []  # (runtime module, IRModule) of each relay.build

    build = relay.build

    def build_step(mod, *args, **kwargs):
        write_step(outdir, "build", ["build", "--opt-level", OPT], mod)
        factory = build(mod, *args, **kwargs)
        built.append((factory.lib, mod))
        return factory
    relay.build = build_step

    create = graph_executor.create

    def create_step(graph_json, libmod, device):
        gm = create(graph_json, libmod, device)
        gm.relaykit_mod = next((m for lib, m in built if lib is libmod), state["mod"])
        return gm
    graph_executor.create = create_step

    run = graph_executor.GraphModule.run

    def run_step(self, **inputs):
        write_step(outdir, "run", ["build", "--opt-level", OPT, "--run"], getattr(self, "relaykit_mod", None))
        return run(self, **inputs)
    graph_executor.GraphModule.run = run_step

    evaluate = interpreter.Executor.evaluate

    def evaluate_step(self, expr=None, binds=None):
        kind = {"GraphExecutor": "graph", "VMExecutor": "vm", "Interpreter": "debug"}.get(type(self).__name__, "graph")
        args = {"graph": ["build", "--opt-level", OPT, "--run"],
                "vm": ["build", "--opt-level", OPT, "--executor", "vm", "--run"],
                "debug": ["diff", "--configs", "debug:%s,graph:%s" % (OPT, OPT)]}[kind]
        write_step(outdir, "evaluate " + kind, args, self.mod)
        fn = evaluate(self, expr, binds)

        def call(*a, **k):
            write_step(outdir, "run " + kind, args, self.mod)
            return fn(*a, **k)
        return call
    interpreter.Executor.evaluate = evaluate_step

    seq_init = transform.Sequential.__init__

    def seq_init_step(self, *args, **kwargs):
        seq_init(self, *args, **kwargs)
        passes = args[0] if args else kwargs.get("passes") or []
        state["seq_info"] = [(p.info.name, p.info.opt_level) for p in passes]
    transform.Sequential.__init__ = seq_init_step

    def seq_call_step(self, mod):
        written = sequential_passes(test_text)
        info = state["seq_info"] or []
        ran = [w for w, (_, level) in zip(written, info) if level <= int(OPT)] if len(written) == len(info) else written
        write_step(outdir, "passes", ["pass", "--opt-level", OPT] + ran, mod)
        return transform.Pass.__call__(self, mod)
    transform.Sequential.__call__ = seq_call_step

    pass_call = transform.Pass.__call__

    def pass_step(self, mod):
        if state["step"] in (None, "typecheck"):  # the test still building its module
            write_step(outdir, "typecheck", ["typecheck"], mod)
        return pass_call(self, mod)
    transform.Pass.__call__ = pass_step


def main():
    test, outdir = sys.argv[1], sys.argv[2]
    test_text = open(test).read()
    import tvm  # pylint: disable=import-outside-toplevel
    install(tvm, outdir, test_text)
    verdict = {"verdict": "ok", "step": None, "error": ""}
    try:
        runpy.run_path(test, run_name="__main__")
    except Exception as e:  # pylint: disable=broad-except  # the test's failure is the verdict
        traceback.print_exc()
        lines = [ln for ln in str(e).strip().splitlines() if ln.strip()]
        building = state["step"] in (None, "typecheck")
        verdict = {"verdict": "invalid" if building else "failure", "step": state["step"],
                   "error": "%s: %s" % (type(e).__name__, lines[-1] if lines else "")}
        if not building and isinstance(e, AssertionError):  # assert_allclose: results differ
            state["args"] = ["diff", "--configs", "graph:%s,debug:%s,vm:%s" % (OPT, OPT, OPT),
                             "--rtol", "1e-3", "--atol", "1e-3"]
        verdict["args"] = state["args"]
    with open(os.path.join(outdir, "verdict.json"), "w") as f:
        json.dump(verdict, f)


if __name__ == "__main__":
    main()
