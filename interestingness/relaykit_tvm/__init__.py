# Shared code of relaykit's TVM interestingness tests (interestingness/tvm-*) and of tvm-server.
#
# A check runs in stages (read, parse, typecheck, build, ...). Each check names the stages that
# are "under test": an error there is the bug (exit 0, if it matches --match); an error in any
# other stage means something else broke (exit 1); no error means no bug (exit 1). The TVM work
# runs in a forked child, so a crash by signal (SIGSEGV, SIGABRT from LOG(FATAL)...) is an error
# of the stage the child was in, with the signature "signal SIGSEGV".
#
# Every check is one row of the table CHECKS (checks.py, below the run functions it names): its
# help text, its stages under test, its own options, the TVM work, its repro. The command line,
# tvm-server and the repro all read the row, nothing else branches on a check's name. Adding a
# check is a row, its run function, its repro function (relaykit_repro.py) and a six-line script
# tvm-NAME (a copy of tvm-build calling main_script("NAME", ...); `make install` takes every
# interestingness/tvm-*).
#
# The package, one module a job, each importing only those above it:
#   common.py     exit statuses, caps, the exceptions every part shares, one_line
#   startup.py    re-running under $RELAYKIT_PYTHON, importing TVM
#   match.py      --match: PCRE2 as rreduce and roracle read it (Python's re without libpcre2)
#   options.py    argument types and each check's own options (no TVM)
#   tvm_api.py    TVM's API across releases: parse, pass contexts and instruments, passes, build
#   inputs.py     input values (positive, in an index's range), results flattened and compared
#   bisection.py  tvm-bisect: the pass after which the module is broken
#   diff.py       tvm-diff: configurations compared; reference inputs redrawn; undefined reads
#   checks.py     the other checks' run functions, and the table CHECKS
#   arguments.py  a check's argument parser, from its row (parse_args)
#   child.py      one candidate in a forked TVM child (run_in_child), its Outcome
#   verdicts.py   an Outcome's exit status and signature
#   script.py     tvm-CHECK on the command line (main_script)
#   server.py     tvm-server, the persistent oracle (main_server)
#
# Written for TVM's Python API from 0.6 to 0.19 (the last release with Relay); see README.md.
# Keep it Python 3.6 compatible (no walrus, no builtin generics): old TVM releases need old Pythons.
"""Shared code of relaykit's TVM interestingness tests and of tvm-server."""

# What the scripts (tvm-*: main_script, main_server) and the tests (tests/tvm/) use.
from .checks import CHECK, CHECK_NAMES, CHECKS
from .diff import first_out_of_range, index_out_of_range
from .inputs import flatten_result, make_inputs
from .script import main_script
from .server import main_server

__all__ = ["CHECK", "CHECK_NAMES", "CHECKS", "first_out_of_range", "flatten_result", "index_out_of_range",
           "main_script", "main_server", "make_inputs"]
