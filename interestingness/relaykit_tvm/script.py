# tvm-CHECK: one candidate from the command line (main_script), and what tvm-server shares with it.
"""The command-line test tvm-CHECK."""

import os
import sys

import relaykit_outcome

from .common import EXIT_USAGE, NOT_IMPORTABLE
from .startup import import_tvm, reexec_with_relaykit_python
from .options import pass_spec
from .checks import CHECK
from .arguments import parse_args
from .child import run_in_child
from .verdicts import verdict


def load_check(args):
    """Work done once per argument set, with TVM imported, before any candidate (Check.load:
    loading the user's check). Returns None, or why it cannot be loaded."""
    load = CHECK[args.check].load
    return load(args) if load else None


def prepare(args, prog):
    """load_check for a command line: False (the reason on stderr) when it fails."""
    why = load_check(args)
    if why:
        sys.stderr.write("%s: %s\n" % (prog, why))
        return False
    return True


def _not_importable(prog, why):
    sys.stderr.write("%s: %s\n  (%s)\n" % (prog, NOT_IMPORTABLE, why))
    return EXIT_USAGE


def main_script(check, script):
    """A command-line test: `tvm-CHECK [OPTIONS] FILE`, exit 0 when the bug is there."""
    reexec_with_relaykit_python(script)
    prog = os.path.basename(script)
    args = parse_args(check, prog, sys.argv[1:], with_file=True)
    if not os.path.isfile(args.file):
        sys.stderr.write("%s: %s: no such file\n" % (prog, args.file))
        return EXIT_USAGE
    why = import_tvm()
    if why:
        return _not_importable(prog, why)
    if not prepare(args, prog):
        return EXIT_USAGE
    try:  # a client reducing the pipeline put the one to run beside the candidate
        args = relaykit_outcome.with_pipeline(args, relaykit_outcome.read_pipeline(args.file), pass_spec)
    except relaykit_outcome.BadPipeline as e:
        sys.stderr.write("%s: bad pipeline: %s\n" % (prog, e))
        return EXIT_USAGE
    coverage = relaykit_outcome.Coverage()
    coverage.start()
    outcome = run_in_child(args, args.file, coverage=coverage)
    status, sig, explanation = verdict(args, outcome)
    relaykit_outcome.write_outcome(args.file, args, outcome, status, sig, coverage.field(outcome.edges))
    if outcome.output and not args.quiet:
        sys.stderr.write(outcome.output if outcome.output.endswith("\n") else outcome.output + "\n")
    sys.stdout.write("%s: %s\n" % (prog, explanation))
    return status
