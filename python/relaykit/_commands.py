# relaykit.mutate and relaykit.check: rmutate and rcheck under a Python call.
"""New well-typed modules from one (rmutate), and relaykit's own type check (rcheck)."""

import json
import os
import shutil
import subprocess
import tempfile

from . import _module
from ._tools import tool


def _text(mod_or_text):
    if isinstance(mod_or_text, str):
        return mod_or_text
    return _module.to_text(mod_or_text)


class Checked(object):  # pylint: disable=too-few-public-methods
    """relaykit's verdict on a program: .ok; when ok, .types (each definition's type) and
    .definitions (rcheck --json: every binding's type with its line and column); when not,
    .error (the located message, "module.relay:LINE:COL: error: ..."), .line and .col."""

    def __init__(self, ok, definitions=None, error=None):
        self.ok, self.definitions, self.error = ok, definitions or [], error
        self.types = dict((d["name"], d["type"]) for d in self.definitions)
        self.line = self.col = None
        if error:
            first = error.splitlines()[0].split(":")
            if len(first) > 2 and first[1].isdigit() and first[2].isdigit():
                self.line, self.col = int(first[1]), int(first[2])

    def __bool__(self):
        return self.ok

    __nonzero__ = __bool__

    def __repr__(self):
        if self.ok:
            return "Checked(ok, %s)" % ", ".join("@%s: %s" % kv for kv in sorted(self.types.items()))
        return "Checked(error: %s)" % (self.error.splitlines()[0] if self.error else "?")


def check(mod_or_text, tvm_version=None):
    """relaykit's type check of an IRModule, a relay.Function or Relay text: a Checked, true when
    the program type-checks (with its types), false with the located error when not."""
    text = _text(mod_or_text)
    cmd = [tool("rcheck"), "--json"]
    if tvm_version:
        cmd += ["--tvm-version", tvm_version]
    folder = tempfile.mkdtemp(prefix="relaykit-check-")
    try:
        path = os.path.join(folder, "module.relay")
        with open(path, "w") as f:
            f.write(text)
        done = subprocess.run(cmd + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, check=False, cwd=folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if done.returncode == 0:
        return Checked(True, json.loads(done.stdout)[0]["definitions"])
    if done.returncode == 1:
        return Checked(False, error=done.stderr.replace(path, "module.relay").strip())
    raise RuntimeError("relaykit.check: rcheck exited %d: %s" % (done.returncode, done.stderr.strip()))


def mutate(mod, n, seed=1, depth=None, mutators=None, donors=None, fuel=None, jobs=None, parse=True):
    """Yields n well-typed mutants of mod (rmutate: parts replaced by generated or borrowed parts
    of the same type), as IRModules (parse=False: as Relay text). The same seed gives the same
    mutants. A mutant TVM's parser refuses raises TVM's error: relaykit checked it, so a
    refusal is a disagreement between the two worth reporting."""
    if not isinstance(n, int) or n < 1:
        raise ValueError("relaykit.mutate: n must be a positive int, not %r" % (n,))
    text = _text(_module.as_module(mod) if not isinstance(mod, str) else mod)
    cmd = [tool("rmutate"), "-q", "-n", str(n), "--seed", str(seed)]
    for flag, value in (("--depth", depth), ("--fuel", fuel), ("-j", jobs), ("--donor", donors)):
        if value is not None:
            cmd += [flag, str(value)]
    if mutators:
        cmd += ["--mutators", mutators if isinstance(mutators, str) else ",".join(mutators)]
    folder = tempfile.mkdtemp(prefix="relaykit-mutate-")
    try:
        seed_path, out = os.path.join(folder, "seed.relay"), os.path.join(folder, "mutants")
        with open(seed_path, "w") as f:
            f.write(text)
        done = subprocess.run(cmd + ["-o", out, seed_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, check=False)
        if done.returncode != 0:
            raise RuntimeError("relaykit.mutate: rmutate exited %d: %s" % (done.returncode, done.stderr.strip()))
        names = sorted(f for f in os.listdir(out) if f.endswith(".relay"))
        for name in names:
            with open(os.path.join(out, name)) as f:
                mutant = f.read()
            yield _module.parse(mutant, name) if parse else mutant
    finally:
        shutil.rmtree(folder, ignore_errors=True)
