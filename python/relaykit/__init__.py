# relaykit's Python side: the TVM user's session meets relaykit's programs. TVM is imported only
# when a call needs it; relaykit's programs (rreduce, rmutate, rcheck) are found when a call
# needs them (RELAYKIT_BIN, where `make install` put them, a source checkout's bin/, PATH), so the
# import always works and a call says exactly what to install.
"""relaykit: reduce, mutate and check TVM Relay modules from Python.

    import relaykit
    small, small_params = relaykit.reduce(mod, check, params=params)   # check(mod, params) -> bool
    for m in relaykit.mutate(mod, 10, seed=1): ...                     # well-typed mutants
    relaykit.check(mod)                                                # relaykit's types, or the error
    relaykit.save(mod, "bug.relay", params=params)   # for the command line: rreduce bug.relay ./test.sh
    mod = relaykit.load("bug.relay")
"""

from ._commands import Checked, check, mutate
from ._module import load, save, to_text
from ._reduce import CheckError, ReduceError, Reduced, reduce
from ._tools import ToolNotFound

__all__ = ["reduce", "mutate", "check", "save", "load", "to_text", "Reduced", "Checked",
           "CheckError", "ReduceError", "ToolNotFound"]
__version__ = "0.5.0"
