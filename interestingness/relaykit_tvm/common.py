# What every part of relaykit_tvm shares: the exit statuses, the caps on output and signatures, the
# exceptions that carry a candidate's fate from the TVM work to its verdict (or a bad argument set
# to tvm-server), and one_line, an error text as the one line roracle groups it by.
"""Exit statuses, caps, shared exceptions and one_line."""


EXECUTORS = ("graph", "vm", "aot")  # what relay.build / relay.vm.compile make; tvm-diff adds debug
NOT_IMPORTABLE = "TVM is not importable (set TVM_HOME / PYTHONPATH)"
EXIT_BUG, EXIT_NO_BUG, EXIT_USAGE = 0, 1, 2
OUTPUT_CAP = 1 << 20  # bytes of the child's output kept for matching and for showing
SIGNATURE_CAP = 400  # characters of a signature


class UsageError(Exception):
    """A mistake in the command line found only once TVM is loaded (an unknown pass)."""


class Mismatch(Exception):
    """The property under test does not hold (results differ, round trip not equal)."""


class Unusable(Exception):
    """The candidate cannot show the bug, and that is nobody's fault: tvm-diff's reference run
    traps or is not finite on every input drawn. A no-bug answer, with a note in the outcome."""


class BadArguments(Exception):
    """An argument set that tvm-server cannot use; str() is the one-line reason."""


def one_line(text):
    # a failed check from its own words on, as roracle groups it; the last one of a line, since
    # TVM wraps a check that failed inside another ("Check failed: (false) is false: [time] ...")
    at = text.rfind("Check failed: ")
    if at > 0:
        text = text[at:]
    text = " ".join(text.split())
    return text if len(text) <= SIGNATURE_CAP else text[:SIGNATURE_CAP - 3] + "..."
