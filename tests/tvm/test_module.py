#!/usr/bin/env python3
# The Python module relaykit and tvm-server --check on a real TVM (issue 14, item 4), run by
# `make check-tvm`. Prints "N passed, N failed"; exit 1 on a failure.
"""test_module.py"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("TOPHUB_LOCATION", "NONE")

import numpy as np  # noqa: E402
import tvm  # noqa: E402
from tvm import relay  # noqa: E402

import relaykit  # noqa: E402

RESULTS = []


def case(fn):
    try:
        fn()
        RESULTS.append((fn.__name__, None))
    except Exception as e:  # pylint: disable=broad-except
        RESULTS.append((fn.__name__, "%s: %s" % (type(e).__name__, e)))
    return fn


def rcheck(path):
    p = subprocess.run([os.path.join(ROOT, "bin", "rcheck"), path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode == 0, "rcheck rejects %s: %s" % (path, p.stderr.decode()[:300])


def small_module():
    x = relay.var("data", shape=(1, 8), dtype="float32")
    w = relay.var("weight", shape=(4, 8), dtype="float32")
    b = relay.var("bias", shape=(4,), dtype="float32")
    y = relay.nn.relu(relay.nn.bias_add(relay.nn.dense(x, w), b))
    return tvm.IRModule.from_expr(relay.Function([x, w, b], y))


TMP = tempfile.mkdtemp(prefix="relaykit-module-")


@case
def save_with_params_reads_back_in_tvm_and_relaykit():
    mod = small_module()
    rng = np.random.RandomState(0)
    params = {"weight": rng.uniform(-1, 1, (4, 8)).astype("float32"),
              "bias": rng.uniform(-1, 1, (4,)).astype("float32")}
    path = os.path.join(TMP, "bound.relay")
    assert relaykit.save(mod, path, params=params) == path
    text = open(path).read()
    assert "#[metadata]" in text and "meta[relay.Constant]" in text, text[:300]
    rcheck(path)
    back = relaykit.load(path)
    assert [p.name_hint for p in back["main"].params] == ["data"]
    expected = relay.transform.InferType()(tvm.IRModule.from_expr(
        relay.build_module.bind_params_by_name(mod["main"], params)))
    assert tvm.ir.structural_equal(back, expected, map_free_vars=True), "not what was saved"
    # the same numbers come out of the saved module as out of the original with its params
    data = rng.uniform(-1, 1, (1, 8)).astype("float32")
    dev = tvm.cpu(0)
    a = relay.create_executor("debug", mod, dev, "llvm").evaluate()(data, params["weight"], params["bias"]).numpy()
    b = relay.create_executor("debug", back, dev, "llvm").evaluate()(data).numpy()
    np.testing.assert_allclose(a, b, rtol=1e-6)


@case
def save_without_params_and_a_function():
    mod = small_module()
    path = os.path.join(TMP, "free.relay")
    relaykit.save(mod["main"], path)
    rcheck(path)
    assert "#[metadata]" not in open(path).read()
    assert tvm.ir.structural_equal(relaykit.load(path), relay.transform.InferType()(mod), map_free_vars=True)


@case
def unknown_params_are_refused_and_the_file_is_not_touched():
    path = os.path.join(TMP, "kept.relay")
    with open(path, "w") as f:
        f.write("precious")
    try:
        relaykit.save(small_module(), path, params={"nope": np.zeros((1,), "float32")})
    except ValueError as e:
        assert "nope" in str(e)
    else:
        raise AssertionError("no error for an unknown parameter")
    assert open(path).read() == "precious"


@case
def a_corpus_model_with_bound_weights():
    with open(os.path.join(ROOT, "..", "shared", "corpus", "models", "mlp.relay")) as f:
        mod = relay.parse(f.read(), "mlp.relay")
    rng = np.random.RandomState(1)
    params = dict((p.name_hint, rng.uniform(-1, 1, [int(d) for d in p.checked_type.shape]).astype(p.checked_type.dtype))
                  for p in mod["main"].params[1:])
    path = os.path.join(TMP, "mlp.bound.relay")
    relaykit.save(mod, path, params=params)
    rcheck(path)


@case
def tvm_server_check_runs_a_users_python_repro():
    bug = os.path.join(ROOT, "..", "shared", "realbugs", "tvm15393-divide-by-zero-const", "repro.relay")
    fixed = os.path.join(TMP, "fixed.relay")
    with open(bug) as f:
        text = f.read()
    with open(fixed, "w") as f:
        f.write(text.replace("divide(%x, 0f)", "divide(%x, 2f)"))
    check = os.path.join(TMP, "mycheck.py")
    with open(check, "w") as f:
        f.write("import tvm\nfrom tvm import relay\n\n"
                "def check(mod):\n"
                "    with tvm.transform.PassContext(opt_level=3):\n"
                "        relay.build(mod, target='llvm')\n")
    server = os.path.join(ROOT, "interestingness", "tvm-server")
    p = subprocess.run([server, "--check", check, "--match", "Divide by zero"],
                       input=("%s\n%s\n" % (bug, fixed)).encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers = p.stdout.decode().splitlines()
    assert p.returncode == 0 and len(answers) == 2, (p.returncode, answers, p.stderr.decode()[-300:])
    assert answers[0].startswith("0 Check failed: fb->value != 0"), answers[0]
    assert answers[1] == "1", answers[1]


def indexing_module(index):
    """@main(%x: (4, 1) float32, %y: (2, 3) float32) reading %x by gather_nd at the indices
    cast(index) computes from %y, and @main's checked type."""
    text = ('#[version = "0.0.5"]\ndef @main(%%x: Tensor[(4, 1), float32], %%y: Tensor[(2, 3), float32]) {\n'
            '  gather_nd(%%x, cast(%s, dtype="int64"))\n}\n' % index)
    return relay.transform.InferType()(tvm.relay.parse(text) if hasattr(tvm.relay, "parse") else tvm.parser.parse(text))


@case
def tvm_diff_finds_an_index_out_of_range_that_the_program_computes():
    sys.path.insert(0, os.path.join(ROOT, "interestingness"))
    import relaykit_tvm  # pylint: disable=import-outside-toplevel
    job = type("Job", (), {"tvm": tvm, "relay": relay})()
    x = np.ones((4, 1), "float32")
    y = np.full((2, 3), 0.5, "float32")

    def run(probe):
        with tvm.transform.PassContext(opt_level=3):
            out = relay.create_executor("vm", probe, tvm.cpu(0), "llvm").evaluate()(x, y)
        return relaykit_tvm.flatten_result(np, out, [])

    # 0.5 + 3.6 = 4.1 -> 4: outside both dimensions; 0.5 * 0 -> 0: inside
    said = relaykit_tvm.index_out_of_range(job, indexing_module("add(%y, 3.6f)"), [run])
    assert said == "gather_nd: index 4 outside [0, 4)", said
    said = relaykit_tvm.index_out_of_range(job, indexing_module("multiply(%y, 0f)"), [run])
    assert said is None, said
    # gather_nd's second index row picks dimension 1, of extent 1: 0.5 + 0.6 -> 1 is outside it
    said = relaykit_tvm.first_out_of_range(np, "gather_nd", None, [4, 1], np.array([[0, 3], [0, 1]]))
    assert said == "index 1 outside [0, 1)", said
    # an input that is the index itself gets values in range
    x_var, i_var = relay.var("x", shape=(4, 3)), relay.var("i", shape=(2, 5), dtype="int64")
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function(
        [x_var, i_var], relay.gather_nd(x_var, i_var))))
    for seed in range(5):
        (_, i), = relaykit_tvm.make_inputs(tvm, relay, np, mod["main"], tvm.cpu(0), seed, skip=("x",))
        assert 0 <= i.numpy().min() and i.numpy().max() < 3, i.numpy()


def main():
    failed = [r for r in RESULTS if r[1]]
    for name, err in RESULTS:
        print("%s %s%s" % ("ok  " if not err else "FAIL", name, ": " + err if err else ""))
    print("%d passed, %d failed" % (len(RESULTS) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
