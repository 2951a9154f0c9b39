# What an Outcome means: the exit status (bug, something else, no bug, usage) and the signature, the
# one line naming the error.
"""An Outcome's exit status and signature."""

import re

from .common import EXIT_BUG, EXIT_NO_BUG, EXIT_USAGE, one_line
from .checks import CHECK


# Lines that name no error: stack frames, rulers, and an exception whose message is only the
# start of TVM's traceback ("DiagnosticError: Traceback (most recent call last):"), which would
# put every diagnostic into one group.
_FRAME = re.compile(r"^(\d+: |File \"|Traceback \(most recent call last\)|-{10,}|\[bt\]"
                    r"|(\w+\.)*\w+: Traceback \(most recent call last\):?$"
                    r"|(\w+\.)*DiagnosticError: one or more error diagnostics were emitted)")

# TVM's log lines on its way to the failure, never the failure: a warning ("[10:01:02] x.cc:12:
# Warning: Desired layout(s) not specified for op: ...", "One or more operators have not been
# tuned"). Taken for the error, a warning printed before the type checker's diagnostics named
# the group and was kept by the reduction (--match) as if it were the bug. signature.c's
# log_line skips the same words.
_LOG_LINE = re.compile(r"Warning: |WARNING:|have not been tuned")


def _telling_lines(text):
    """The non-empty lines of text that may name the error: no frames, and not the code Python's
    traceback prints under a frame (`raise get_last_ffi_error()`, `assert x, (`, its `^^^^`
    markers): indented deeper than the frame line, up to the next line that is not."""
    out, in_frame = [], False
    for raw in text.splitlines():
        ln = raw.strip()
        if not ln or set(ln) <= set("^~"):
            continue
        indent = len(raw) - len(raw.lstrip())
        if in_frame and indent >= 4 and not ln.startswith("File \""):
            continue
        # Python's frames end in ", in f" and have code under them; TVM's C++ frame
        # (`File "x.cc", line 131`) has the error message under it instead
        in_frame = ln.startswith("File \"") and ", in " in ln
        if not _FRAME.match(ln) and not _LOG_LINE.search(ln):
            out.append(ln)
    return out
_PREFERRED = [re.compile(r) for r in (
    r"Check failed: \S",
    r"^error:|: error:|^Error:",
    r"^(\w+\.)*\w*(Error|Exception)(\b.*\S)?:\s*\S",
    r"(?i)error|fatal|abort|assert",
)]


def signature(outcome, match_re):
    """One line naming the error: the line --match found, else the most telling line."""
    lines = _telling_lines(outcome.text + "\n" + outcome.output)
    if match_re is not None:
        for ln in lines:
            if match_re.search(ln):
                return one_line(ln)
        m = match_re.search(outcome.text + "\n" + outcome.output)
        if m:
            return one_line(m.group(0))
    if outcome.headline.startswith(("signal ", "timeout ", "results differ", "printed and")):
        return one_line(outcome.headline)
    for pat in _PREFERRED:
        for ln in lines:
            if pat.search(ln):
                return one_line(ln)
    head = outcome.headline.strip().split("\n")[0]
    if head and not _FRAME.match(head):
        return one_line(outcome.headline)
    return one_line(lines[0] if lines else outcome.headline or "error")


def verdict(args, outcome):
    """(status, signature, explanation) of an Outcome."""
    if outcome.kind == "usage":
        return EXIT_USAGE, one_line(outcome.text), "usage: " + outcome.text
    if outcome.kind == "ok":
        return EXIT_NO_BUG, "", "no bug: " + outcome.text
    sig = signature(outcome, args.match_re)
    if outcome.stage == "read":
        return EXIT_USAGE, sig, "cannot read the candidate: " + sig
    if outcome.exception == "Broken":  # tvm-bisect's culprit says more than TVM's own words
        return EXIT_BUG, sig, "interesting (in stage %s): %s" % (outcome.stage, " ".join(outcome.headline.split()))
    under_test = outcome.stage.split(" ")[0] in CHECK[args.check].under_test
    if not under_test:
        return args.other_status, sig, "something else broke (in stage %s): %s" % (outcome.stage, sig)
    if args.match_re is not None and not args.match_re.search(outcome.text + "\n" + outcome.output):
        return (args.other_status, sig,
                "a different error (in stage %s, not matching --match): %s" % (outcome.stage, sig))
    return EXIT_BUG, sig, "interesting (in stage %s): %s" % (outcome.stage, sig)
