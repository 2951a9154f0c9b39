# Where relaykit's programs are, and running them: the Python module is a thin layer over the
# same binaries the command line uses (no second reducer, mutator or checker in Python).
"""Finding rreduce, rmutate and rcheck."""

import os
import shutil

try:  # written by `make install`: the bin directory the programs went to
    from ._installed import BIN as _INSTALLED_BIN  # type: ignore
except ImportError:  # a source checkout, or installed by pip alone
    _INSTALLED_BIN = None


class ToolNotFound(RuntimeError):
    """A relaykit program the call needs is not installed where the module can find it."""


def _candidates(name):
    env = os.environ.get("RELAYKIT_BIN")
    if env:
        yield os.path.join(env, name)
    if _INSTALLED_BIN:
        yield os.path.join(_INSTALLED_BIN, name)
    # A source checkout: python/relaykit/ beside bin/ (after `make`).
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "bin", name)
    found = shutil.which(name)
    if found:
        yield found


def tool(name):
    """The path of relaykit's program `name`, or ToolNotFound saying how to get it."""
    for path in _candidates(name):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
    raise ToolNotFound(
        "relaykit: %s is not installed: build and install relaykit's programs (in relaykit's "
        "source: `make && make install`), or set RELAYKIT_BIN to the directory holding %s "
        "(a checkout's bin/)" % (name, name))
