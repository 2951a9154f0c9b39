#!/usr/bin/env bats
# python/relaykit: reduce, mutate and check from a Python session, against the fake `tvm` package
# (tests/cli/fake_tvm: an IRModule is its text, astext() gives it back). The user's check runs
# in forked children of the session; rreduce (RFMT's bin, so the ASan build under --full) is
# under it.

load release_pass

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  T=$BATS_TEST_TMPDIR
  unset TVM_HOME RELAYKIT_PYTHON RELAYKIT_TVM_REEXEC
  export RELAYKIT_BIN=$BIN
  export PYTHONPATH=$ROOT/python:$ROOT/tests/cli/fake_tvm
  export PYTHONPYCACHEPREFIX=$T/pycache
  MODEL=$ROOT/examples/resnet-18.relay
  DQN=$ROOT/../shared/corpus/models/dqn.relay
}

# py SCRIPT...: runs python3 on the script text; $output holds stdout+stderr.
py() { run python3 -c "$1" "${@:2}"; }

ops_of() { grep -o '[a-z_][a-z_.0-9]*(' "$1" | grep -v '^main($' | sort -u | tr '\n' ' '; }

@test "reduce: a check that fails while an operator is there reduces the bundled model to that operator" {
  py '
import sys, relaykit
mod = relaykit.load(sys.argv[1])
small, params = relaykit.reduce(mod, lambda m, p: "nn.max_pool2d(" in m.astext(), jobs=2, quiet=True)
open(sys.argv[2], "w").write(small.astext())
print("params", params)' "$MODEL" "$T/small.relay"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [ "$(ops_of "$T/small.relay")" = "nn.max_pool2d( " ] || { cat "$T/small.relay"; return 1; }
  [[ "$output" == *"params {}"* ]]
  "$BIN/rcheck" "$T/small.relay"
  [ "$(wc -c < "$T/small.relay")" -lt 200 ]
}

@test "reduce: the result is byte-identical to rreduce's with the equivalent test file" {
  py '
import sys, relaykit
mod = relaykit.load(sys.argv[1])
r = relaykit.reduce(mod, lambda m, p: "nn.dense(" in m.astext(), jobs=2, quiet=True, keep=sys.argv[2])
open(sys.argv[2] + "/python.relay", "w").write(r.text)' "$DQN" "$T/work"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  cat > "$T/test.py" <<EOF
#!/usr/bin/env python3
import sys
sys.path[:0] = "$PYTHONPATH".split(":")
import relaykit
sys.exit(0 if "nn.dense(" in relaykit.load(sys.argv[1]).astext() else 1)
EOF
  chmod +x "$T/test.py"
  cp "$T/work/module.relay" "$T/cli.relay"
  "$BIN/rreduce" -j 2 --tidy "$T/cli.relay" "$T/test.py" 2> "$T/err" || { cat "$T/err"; return 1; }
  cmp "$T/cli.relay" "$T/work/python.relay"
  [ "$(ops_of "$T/cli.relay")" = "nn.dense( " ]
}

@test "reduce: checks that abort or dereference a null pointer on some candidates leave the session alive" {
  py '
import ctypes, os, sys, relaykit
mod = relaykit.load(sys.argv[1])
def check(m, p):
    t = m.astext()
    if "nn.relu(" in t and "nn.bias_add(" not in t:
        os.abort()
    if "nn.conv2d(" in t and "nn.relu(" not in t:
        ctypes.string_at(0)
    return "nn.dense(" in t
r = relaykit.reduce(mod, check, jobs=2, quiet=True)
print("alive", r.stats["tests_run"], "nn.dense(" in r.text, "nn.relu(" in r.text)' "$DQN"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "$output" == *"alive "*" True False"* ]] || { echo "$output"; return 1; }
}

@test "reduce: crash_is_bug makes a crash the bug; a hang is ended by the timeout" {
  py '
import os, sys, time, relaykit
mod = relaykit.load(sys.argv[1])
def check(m, p):
    t = m.astext()
    if "nn.conv2d(" in t and "nn.batch_flatten(" not in t:
        time.sleep(3600)
    if "nn.dense(" in t:
        os.kill(os.getpid(), 11)
    return False
r = relaykit.reduce(mod, check, jobs=2, quiet=True, crash_is_bug=True, timeout=2)
print("result", r.text.count("("), "nn.dense(" in r.text)' "$DQN"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "$output" == *"result "*" True"* ]] || { echo "$output"; return 1; }
}

@test "reduce: Ctrl-C (KeyboardInterrupt) returns a valid smaller module found so far" {
  py '
import signal, sys, time, relaykit
mod = relaykit.load(sys.argv[1])
def check(m, p):
    time.sleep(0.3)
    return "nn.max_pool2d(" in m.astext()
signal.signal(signal.SIGALRM, signal.default_int_handler)  # KeyboardInterrupt, as Ctrl-C raises
signal.alarm(4)
r = relaykit.reduce(mod, check, jobs=2, quiet=True)
open(sys.argv[2], "w").write(r.text)
print("interrupted", r.interrupted, len(r.text), len(open(sys.argv[1]).read()))' "$MODEL" "$T/part.relay"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "$output" == *"interrupted True"* ]] || { echo "$output"; return 1; }
  "$BIN/rcheck" "$T/part.relay"
  grep -q 'nn.max_pool2d(' "$T/part.relay"
  [ "$(wc -c < "$T/part.relay")" -lt "$(wc -c < "$MODEL")" ]
}

@test "reduce: an interrupt that comes while a check is being forked is not lost" {
  # Python runs at-fork hooks (logging's lock release) as Python code and drops what a signal
  # handler raises there ("Exception ignored"); the hook below makes the signal come exactly then.
  py '
import os, signal, sys, time, relaykit
mod = relaykit.load(sys.argv[1])
def check(m, p):
    time.sleep(0.05)
    return "nn.max_pool2d(" in m.astext()
forks = []
def in_parent():
    forks.append(1)
    if len(forks) == 4:
        os.kill(os.getpid(), signal.SIGALRM)
os.register_at_fork(after_in_parent=in_parent)
signal.signal(signal.SIGALRM, signal.default_int_handler)
r = relaykit.reduce(mod, check, jobs=2, quiet=True)
print("interrupted", r.interrupted, "forks", len(forks))' "$MODEL"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "$output" != *"Exception ignored"* ]] || { echo "$output"; return 1; }
  [[ "$output" == *"interrupted True"* ]] || { echo "$output"; return 1; }
}

@test "reduce: a check that raises on the original is reported with its traceback and nothing runs" {
  py '
import sys, relaykit
mod = relaykit.load(sys.argv[1])
def check(m, p):
    return {}["no such key"]
try:
    relaykit.reduce(mod, check, keep=sys.argv[2])
except relaykit.CheckError as e:
    print("CheckError:", e)' "$DQN" "$T/work"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "$output" == *"CheckError: relaykit.reduce: the check raised on the original module"* ]]
  [[ "$output" == *'File "<string>", line 5, in check'* ]] # the check's own frame
  [[ "$output" == *"KeyError: 'no such key'"* ]]
  [ ! -e "$T/work/module.relay" ] # rreduce never started
}

@test "reduce: bad arguments are clear errors naming what is expected" {
  py '
import sys, relaykit
mod = relaykit.load(sys.argv[1])
class Arr(object):
    def __init__(self, shape, dtype): self.shape, self.dtype = shape, dtype
for args, kw in (((mod, lambda m, p: False), {}), (("text", lambda m, p: True), {}),
                 ((mod, 42), {}), ((mod, lambda m, p: True), {"params": {"w": Arr((2, 2), "float32")}}),
                 ((mod, lambda m, p: True), {"params": {"x": Arr((3, 3), "float32")}})):
    try:
        relaykit.reduce(*args, **kw)
        print("no error")
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)' "$DQN"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "${lines[0]}" == "ValueError: relaykit.reduce: the check returned False on the original module"* ]]
  [[ "${lines[1]}" == "TypeError: relaykit: mod must be a tvm.IRModule or a tvm.relay.Function, not str" ]]
  [[ "${lines[2]}" == "TypeError: relaykit.reduce: check must be callable"* ]]
  [[ "${lines[3]}" == "ValueError: relaykit: params do not match @main: not parameters of @main: w (@main has x)" ]]
  [[ "${lines[4]}" == "ValueError: relaykit: params do not match @main: x is (3, 3) float32, @main's %x is (2, 2) float32" ]]
}

@test "reduce: params that fit @main reach the check; the result keeps those that still fit" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  %%0 = nn.relu(%%x);\n  %%1 = exp(%%0);\n  nn.softmax(%%1)\n}\n' > "$T/m.relay"
  py '
import sys, relaykit
class Arr(object):
    def __init__(self, shape, dtype): self.shape, self.dtype = shape, dtype
mod = relaykit.load(sys.argv[1])
seen = []
def check(m, p):
    return "nn.softmax(" in m.astext() and sorted(p) == ["x"]
r = relaykit.reduce(mod, check, params={"x": Arr((2, 2), "float32")}, passes="body,cut,dce", quiet=True)
print("ops", r.text.count("("), "params", sorted(r.params))' "$T/m.relay"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "$output" == *"params ['x']"* ]] || { echo "$output"; return 1; }
}

@test "reduce: a pipeline is reduced with the module; a check with a pipeline argument gets each candidate's" {
  py '
import sys, relaykit
mod = relaykit.load(sys.argv[1])
def check(m, p, pipeline=None):
    return "nn.dense(" in m.astext() and "FuseOps" in pipeline["passes"]
r = relaykit.reduce(mod, check, pipeline={"passes": ["FoldConstant", "FuseOps", "SimplifyExpr"], "opt_level": 3},
                    quiet=True, jobs=2)
print(r.pipeline["passes"], r.pipeline["opt_level"], "nn.dense(" in r.text)' "$DQN"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [ "$output" = "['FuseOps'] 0 True" ]
}

@test "reduce: a progress line on a terminal, one display updated in place in Jupyter, nothing when quiet" {
  py '
import io, sys, types
sys.path.insert(0, sys.argv[1])
from relaykit._progress import Progress
class Tty(io.StringIO):
    def isatty(self): return True
s = Tty()
p = Progress("relaykit.reduce", stream=s)
for i in range(3):
    p.drawn_at = 0
    p.update("step %d" % i)
p.close()
print(repr(s.getvalue()))
q = Tty(); Progress("x", quiet=True, stream=q).update("a"); print("quiet", repr(q.getvalue()))
# A Jupyter kernel, stood in: one display handle, updated in place.
shown = []
class Handle(object):
    def update(self, obj): shown.append(("update", obj.data))
def display(obj, display_id=False):
    shown.append(("display", obj.data)); return Handle()
class Pretty(object):
    def __init__(self, data): self.data = data
class ZMQInteractiveShell(object): pass
ipy = types.ModuleType("IPython"); ipy.get_ipython = lambda: ZMQInteractiveShell()
disp = types.ModuleType("IPython.display"); disp.display, disp.Pretty = display, Pretty
ipy.display = disp
sys.modules.update({"IPython": ipy, "IPython.display": disp, "ipykernel": types.ModuleType("ipykernel")})
p = Progress("relaykit.reduce")
for i in range(3):
    p.drawn_at = 0
    p.update("step %d" % i)
p.close()
print(shown)' "$ROOT/python"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [ "${lines[0]}" = "'\\r\\x1b[Krelaykit.reduce: step 0\\r\\x1b[Krelaykit.reduce: step 1\\r\\x1b[Krelaykit.reduce: step 2\\r\\x1b[Krelaykit.reduce: step 2\\n'" ]
  [ "${lines[1]}" = "quiet ''" ]
  [[ "${lines[2]}" == "[('display', 'relaykit.reduce: step 0'), ('update', 'relaykit.reduce: step 1'), ('update', 'relaykit.reduce: step 2')"* ]]
}

@test "mutate: n well-typed modules, the same for the same seed; check: types or the located error" {
  py '
import sys, relaykit
mod = relaykit.load(sys.argv[1])
a = [m.astext() for m in relaykit.mutate(mod, 4, seed=7)]
b = list(relaykit.mutate(mod, 4, seed=7, parse=False))
print("mutants", len(a), a == b, len(set(a)), all(relaykit.check(t) for t in a))
ok = relaykit.check(mod)
print("ok", bool(ok), ok.types["main"][:3])
bad = relaykit.check("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2), float32]) {\n  add(%x, %y)\n}\n")
print("bad", bool(bad), bad.line, bad.col, bad.error.splitlines()[0])
try:
    list(relaykit.mutate(mod, 0))
except ValueError as e:
    print("ValueError:", e)' "$DQN"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [ "${lines[0]}" = "mutants 4 True 4 True" ]
  [ "${lines[1]}" = "ok True fn " ]
  [ "${lines[2]}" = "bad False 3 11 module.relay:3:11: error: unbound variable %y" ]
  [[ "${lines[3]}" == "ValueError: relaykit.mutate: n must be a positive int"* ]]
}

@test "without relaykit's programs the import works and a call says what to install" {
  mkdir -p "$T/alone" "$T/empty"
  cp -r "$ROOT/python/relaykit" "$T/alone/"
  RELAYKIT_BIN=$T/empty PATH=/usr/bin:/bin PYTHONPATH=$T/alone:$ROOT/tests/cli/fake_tvm run python3 -c '
import sys, relaykit
try:
    relaykit.check("x")
except relaykit.ToolNotFound as e:
    print(e)'
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [[ "$output" == "relaykit: rcheck is not installed: build and install relaykit's programs (in relaykit's source: \`make && make install\`), or set RELAYKIT_BIN"* ]]
}

@test "make install: the module finds the installed programs with no RELAYKIT_BIN and no PATH entry" {
  release_pass_only # installs the release build and the Python files: nothing of the build under test
  make -s -C "$ROOT" install PREFIX="$T/inst" PYTHONDIR="$T/inst/py" > "$T/log"
  unset RELAYKIT_BIN
  PATH=/usr/bin:/bin PYTHONPATH=$T/inst/py:$ROOT/tests/cli/fake_tvm run python3 -c '
import relaykit
print(relaykit.__file__)
print(relaykit.check("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2), float32]) { nn.relu(%x) }\n"))'
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [ "${lines[0]}" = "$T/inst/py/relaykit/__init__.py" ]
  [ "${lines[1]}" = "Checked(ok, @main: fn (Tensor[(2), float32]) -> Tensor[(2), float32])" ]
}

@test "pip install --no-build-isolation ./python: Debian's setuptools, no network" {
  release_pass_only # installs the release build and the Python files: nothing of the build under test
  /usr/bin/python3 -m venv --system-site-packages "$T/venv" 2>/dev/null || skip "no python3-venv (apt-get install python3-venv)"
  cp -r "$ROOT/python" "$T/src" # pip builds in place: the checkout stays clean
  PIP_NO_INDEX=1 PIP_FIND_LINKS= "$T/venv/bin/pip" install -q --no-build-isolation "$T/src" > "$T/log" 2>&1 || { cat "$T/log"; return 1; }
  PYTHONPATH=$ROOT/tests/cli/fake_tvm run "$T/venv/bin/python" -c '
import relaykit
print(relaykit.__file__.startswith("'"$T"'/venv/"), relaykit.__version__, bool(relaykit.check("#[version = \"0.0.5\"]\ndef @main() { 0 }\n")))'
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [ "$output" = "True $("$BIN/rcheck" --version | sed -n '1s/.* //p') True" ]
}

@test "reduce: a check that hangs on the original module is ended by the timeout, with a clear error" {
  py '
import sys, time, relaykit
mod = relaykit.load(sys.argv[1])
t = time.time()
try:
    relaykit.reduce(mod, lambda m, p: time.sleep(3600), timeout=1)
except relaykit.CheckError as e:
    print("CheckError:", e, round(time.time() - t) < 10)' "$DQN"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  [ "$output" = "CheckError: relaykit.reduce: the check did not answer on the original module within timeout=1s True" ]
}
