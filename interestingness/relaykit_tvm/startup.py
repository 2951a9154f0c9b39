# Start-up: re-running under $RELAYKIT_PYTHON (before the arguments are read), importing TVM (after).
"""Re-running under RELAYKIT_PYTHON and importing TVM."""

import importlib
import os
import shutil
import sys

from .common import EXIT_USAGE


def reexec_with_relaykit_python(script):
    """Re-runs the script under $RELAYKIT_PYTHON when that is another interpreter."""
    wanted = os.environ.get("RELAYKIT_PYTHON")
    if not wanted or os.environ.get("RELAYKIT_TVM_REEXEC") == "1":
        return
    path = shutil.which(wanted) or wanted
    if os.path.realpath(path) == os.path.realpath(sys.executable):
        return
    os.environ["RELAYKIT_TVM_REEXEC"] = "1"
    try:
        os.execv(path, [path, script] + sys.argv[1:])
    except OSError as e:
        sys.stderr.write("%s: cannot run RELAYKIT_PYTHON=%s: %s\n" % (os.path.basename(script), wanted, e))
        sys.exit(EXIT_USAGE)


def import_tvm():
    """Imports TVM (TVM_HOME/python first on sys.path); returns the error text or None."""
    home = os.environ.get("TVM_HOME")
    # relay.build would otherwise download AutoTVM's TopHub logs from the internet on every run:
    # a test must not depend on (or wait for) the network.  A user who wants them sets it.
    os.environ.setdefault("TOPHUB_LOCATION", "NONE")
    if home:
        pydir = os.path.join(home, "python")
        if pydir not in sys.path:
            sys.path.insert(0, pydir)
    try:
        importlib.import_module("tvm.relay")  # tvm, then its relay
    except Exception as e:  # pylint: disable=broad-except  # ImportError, OSError (libtvm.so), ...
        return "%s: %s" % (type(e).__name__, e)
    return None
