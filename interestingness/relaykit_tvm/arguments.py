# A check's command line: its argument parser, built from its row of CHECKS (the options every check
# takes, the compile options, its own, the candidate), and the parsed arguments checked.
"""A check's argument parser and parse_args."""

import argparse
import textwrap

from .common import EXIT_NO_BUG
from .match import Pattern
from .options import add_compile_options, read_compile_options
from .checks import CHECK


EPILOG = """exit status: 0 the bug is there (an error in the stage under test, matching --match
  if given); %(other)s something else broke (an earlier stage failed, or a different
  error), or no bug; 2 usage error, unreadable candidate, or TVM not importable.

environment: RELAYKIT_PYTHON (the Python to re-run this script with, e.g. the one TVM is installed
for), TVM_HOME (its python/ folder goes first on sys.path), PYTHONPATH, TVM_LIBRARY_PATH (where
libtvm.so is, read by TVM itself). See interestingness/README.md."""


def make_parser(check, prog, with_file):
    """The argument parser of a Check: the options every check takes, the compile options, its
    own, then the candidate (FILE, on a command line)."""
    usage = None
    if check.usage:
        usage = check.usage + ("FILE" if with_file else "")
    p = argparse.ArgumentParser(
        prog=prog, usage=usage, description=textwrap.fill(check.description, 79),
        epilog=EPILOG % {"other": "1 (or --other-status)"},
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--match", metavar="REGEX",
                   help="the bug's error signature (a Perl-style regular expression, as rreduce's "
                   "and roracle's --match, searched over the error text and TVM's output, e.g. "
                   "'Check failed: .*dtype' or 'signal SIGSEGV'): an error in the stage under "
                   "test that does not match is 'something else'")
    p.add_argument("--other-status", type=int, default=EXIT_NO_BUG, metavar="N",
                   help="exit status for 'something else broke' (default 1; pair with rreduce "
                   "--also-interesting N to keep those candidates)")
    p.add_argument("--timeout", type=float, default=0, metavar="S",
                   help="kill the TVM child after S seconds; counts as an error 'timeout' of the "
                   "stage it was in (default: none; rreduce has its own --timeout)")
    if with_file:
        p.add_argument("-q", "--quiet", action="store_true", help="do not copy TVM's output to stderr")
    else:
        p.add_argument("-v", "--verbose", action="store_true",
                       help="log each candidate's verdict and TVM's output on stderr")
    if check.compiles:
        add_compile_options(p)
    if check.options:
        check.options(p, with_file)
    if with_file and not check.read_items:
        p.add_argument("file", metavar="FILE", help="the candidate (rreduce passes it as $1)")
    return p


def parse_args(name, prog, argv, with_file):
    """Parses and validates the arguments of the check `name`; exits 2 on a usage error (before
    TVM is imported)."""
    check = CHECK[name]
    p = make_parser(check, prog, with_file)
    # Options may come between the passes and the candidate (Python 3.7+; 3.6 takes them first).
    parse = getattr(p, "parse_intermixed_args", p.parse_args)
    args = parse(argv)
    args.check = name
    if args.match is not None:
        try:
            args.match_re = Pattern(args.match)
        except ValueError as e:
            p.error("--match %r: %s" % (args.match, e))
    else:
        args.match_re = None
    # The order of the checks is the order of their messages when several arguments are wrong.
    if check.read_items:
        check.read_items(args, p, with_file)
    if check.compiles:
        read_compile_options(args, p)
    if check.read_options:
        check.read_options(args, p)
    return args
