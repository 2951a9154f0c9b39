# A stand-in for TVM's Python package, for testing interestingness/relaykit_tvm/ without TVM.
# It implements only what the checks call. Markers in the candidate text make a stage fail:
# FAKE_<STAGE>_<HOW>[_word] with STAGE one of PARSE TYPE BUILD PASS and HOW one of ERROR (a
# TVMError "Check failed: fake <stage> error <word>"), SEGV, ABORT, HANG. FAKE_PRINTS_BAD makes
# astext() print an unparseable module; FAKE_UNEQUAL makes structural_equal say no.
#
# Planted bugs that generated programs can hit without marker words: FAKE_TVM_PLANTED is a
# ";"-separated list of rules (see planted() and relay.py), OP an operator name such as
# nn.softmax, found as the call "OP(" not preceded by a letter, digit, "_", ".", "@" or "%"
# (so add( is not found in nn.bias_add(, nor softmax( in nn.softmax( or nn.log_softmax():
#   build-segv:OP        relay.build (and relay.vm.compile) segfaults on a module calling OP;
#   pass-error:A>B       pass B (of the pass list, or run by relay.build) raises a TVMError
#                        "Check failed: fake pass order A>B" on a module that pass A of the pass
#                        list already ran on (IRModule.pass_history);
#   build-order:A>B      the same when relay.build itself runs A, then B (BUILD_PASSES): a bug
#                        that needs two of the build's passes and an opt level;
#   diff:LEVEL:OP        an executor at opt level LEVEL returns x + 1.5 instead of x + 1 when OP
#                        is called (tvm-diff: "results differ");
#   typecheck-abort:OP   InferType aborts (SIGABRT, "Check failed: fake fatal" on stderr);
#   limit:OP             relay.build raises TVM's words for a limitation ("OP is currently only
#                        supported with Hexagon");
#   trap:OP              an executor run on OP with a negative first input dies by SIGFPE (an
#                        integer division by zero on those inputs: not a bug of TVM);
#   nan:OP               an executor returns NaN on OP when the first input is negative;
#   break:PASS           the module PASS leaves no longer type-checks (a FAKE_TYPE_ERROR marker);
#   words:WHERE:OP:TEXT  a TVMError "Check failed: TEXT" on a module calling OP, raised inside the
#                        pass WHERE (of the pass list, or run by relay.build), or with WHERE
#                        "codegen" in relay.build's lowering, after its passes (TVM's own words
#                        in a place: "not supported" inside a pass, "Please run QNN Canonicalize");
#   diagnostic:WHERE:OP:TEXT  the same place, as TVM's type checker fails inside a pass: a log
#                        line (a warning, "[hh:mm:ss] file.cc:N: Warning: ...") and TEXT on stderr,
#                        then a DiagnosticError that says only that diagnostics were emitted.
# With FAKE_TVM_LABELS=FILE, every planted rule that fires appends "HASH RULE" to FILE, HASH the
# git blob hash of the module's text: the ground truth bench/triage.sh scores grouping against.
# A planted segfault prints a backtrace first, as a TVM built with BACKTRACE_ON_SEGFAULT does.
# relay.build runs the passes of BUILD_PASSES (relay.py) whose level is at most the PassContext's
# opt level and that it does not disable, each announced to the PassContext's instruments; a
# pass-error rule fires there too. Errors carry a C++-like backtrace whose frames name the bug.
"""Fake TVM (tests only)."""
import os
import re
import signal
import time

from . import instrument, ir, transform  # noqa: F401

# The release it stands for: relaykit's tools default to the registry of the TVM the scripts would
# import (typegen/ops/tvm_version.c), and this package has no tvm/_ffi/libinfo.py, so they import
# it and read this.  FAKE_TVM_VERSION sets it (tests/cli/tvm_versions.bats).
__version__ = os.environ.get("FAKE_TVM_VERSION", "0.19.0")
# A copy of this package laid out as a TVM build (tests of rfuzz --tvm: HOME/python/tvm, with
# _ffi/libinfo.py saying its release) is that release.
_LIBINFO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ffi", "libinfo.py")
if os.path.exists(_LIBINFO):
    __version__ = re.search(r'__version__ = "([^"]+)"', open(_LIBINFO).read()).group(1)


def _from_release(var):
    """Whether this release is the one environment variable VAR names (MAJOR.MINOR) or later."""
    since = os.environ.get(var)
    if not since:
        return False
    have = tuple(int(x) for x in __version__.split(".")[:2])
    return have >= tuple(int(x) for x in since.split(".")[:2])


def _fixed_here():
    """FAKE_TVM_FIXED_IN=MAJOR.MINOR: every planted bug is fixed in that release and later.
    (FAKE_TVM_UNREADABLE_IN=MAJOR.MINOR: from that release, relay.parse reads no program, as a
    release that renamed an attribute reads an older one's text.)"""
    return _from_release("FAKE_TVM_FIXED_IN")


class TVMError(RuntimeError):
    pass


class DiagnosticError(TVMError):
    """tvm.error.DiagnosticError: what the type checker raises after printing its diagnostics."""


def trap(text, stage):
    for how, word in re.findall(r"FAKE_%s_(ERROR|SEGV|ABORT|HANG)_?(\w*)" % stage, text):
        if how == "SEGV":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif how == "ABORT":
            fatal(word)
        elif how == "HANG":
            time.sleep(3600)
        else:
            raise TVMError("Traceback (most recent call last):\n  1: fake\n  0: fake\n"
                           "---------------------------------------------------------------\n"
                           "  Check failed: fake %s error %s" % (stage.lower(), word))


PLANTED_KINDS = ("build-segv", "pass-error", "build-order", "diff", "typecheck-abort", "limit", "trap", "nan",
                 "break", "words", "diagnostic")


def planted(kind):
    """The arguments of FAKE_TVM_PLANTED's rules of this kind: OP, (A, B) or (LEVEL, OP)."""
    out = []
    if _fixed_here():
        return out
    for rule in os.environ.get("FAKE_TVM_PLANTED", "").split(";"):
        rule = rule.strip()
        if not rule:
            continue
        name, _, rest = rule.partition(":")
        if name not in PLANTED_KINDS or not rest:
            raise ValueError("FAKE_TVM_PLANTED: bad rule %r (%s)" % (rule, ", ".join(PLANTED_KINDS)))
        if name != kind:
            continue
        if kind in ("pass-error", "build-order"):
            first, sep, then = rest.partition(">")
            if not sep or not first or not then:
                raise ValueError("FAKE_TVM_PLANTED: bad rule %r (%s:A>B)" % (rule, kind))
            out.append((first.strip(), then.strip()))
        elif kind in ("words", "diagnostic"):
            where, sep, more = rest.partition(":")
            op, sep2, text = more.partition(":")
            if not sep or not sep2 or not where or not op or not text:
                raise ValueError("FAKE_TVM_PLANTED: bad rule %r (%s:WHERE:OP:TEXT)" % (rule, kind))
            out.append((where.strip(), op.strip(), text))
        elif kind == "diff":
            level, sep, op = rest.partition(":")
            if not sep or not level.strip().isdigit() or not op:
                raise ValueError("FAKE_TVM_PLANTED: bad rule %r (diff:LEVEL:OP)" % rule)
            out.append((int(level), op.strip()))
        else:
            out.append(rest.strip())
    return out


# Coverage, made up: the fake "reaches" an edge for each operator a module it parses calls, each
# pass it runs and each pair of passes run one after the other, each opt level it builds at; the
# server reports them when asked (RELAYKIT_COVERAGE=1), as an instrumented TVM's runtime would.
_EDGES = set()
_LAST_PASS = [None]


def reach(*what):
    """Marks the edges of `what` (strings) reached."""
    import zlib  # pylint: disable=import-outside-toplevel
    for w in what:
        _EDGES.add(zlib.crc32(w.encode("utf-8")) % 8192)


def reach_pass(name):
    reach("pass " + name, "pair %s>%s" % (_LAST_PASS[0], name))
    _LAST_PASS[0] = name


def relaykit_fake_edges():
    return sorted(_EDGES)


def label(text, rule):
    """Records that planted `rule` fired on the module `text` (FAKE_TVM_LABELS)."""
    path = os.environ.get("FAKE_TVM_LABELS")
    if not path:
        return
    import hashlib  # pylint: disable=import-outside-toplevel
    data = text.encode("utf-8")
    digest = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    with open(path, "a") as f:
        f.write("%s %s\n" % (digest, rule))


def segfault(*frames):
    """A crash, after the backtrace TVM's segfault handler prints."""
    os.write(2, ("!!!!!!! TVM encountered a Segfault !!!!!!!\n" + traceback(*frames) + "\n").encode())
    os.kill(os.getpid(), signal.SIGSEGV)


def traceback(*frames):
    """TVM's error text with a libbacktrace-style C++ backtrace of `frames`, outermost first, the
    innermost last (frame 0 is the error machinery's own)."""
    lines = ["Traceback (most recent call last):"]
    names = list(frames) + ["tvm::runtime::detail::LogFatal::Entry::Finalize()"]
    for i, name in enumerate(names):
        lines.append("  %d: %s" % (len(names) - 1 - i, name))
        lines.append("        at /fake/src/%s.cc:%d" % (name.split("(")[0].split("::")[-1], 10 + i))
    return "\n".join(lines)


def calls(text, op):
    """Whether text has the call OP( of exactly that operator."""
    return re.search(r"(?<![\w.@%%])%s\(" % re.escape(op), text) is not None


def fatal(word, *frames):
    """LOG(FATAL): the message on stderr (after a backtrace, given frames), then SIGABRT."""
    if frames:
        os.write(2, (traceback(*frames) + "\n").encode())
    os.write(2, b"Check failed: fake fatal " + word.encode() + b"\n")
    os.abort()


def ident(op):
    """An op's name as part of a C++ name: nn.softmax -> nn_softmax."""
    return op.replace(".", "_")


class IRModule(object):
    """The module's text, and the names of the passes run on it, in order (pass_history)."""

    def __init__(self, text, pass_history=()):
        self.text = text
        self.pass_history = list(pass_history)

    def astext(self, show_meta_data=True):
        return self.text.replace("FAKE_PRINTS_BAD", "FAKE_PARSE_ERROR_printed")

    def __getitem__(self, name):
        from tvm import relay  # pylint: disable=import-outside-toplevel
        return relay.Function(self.text)


class nd(object):  # pylint: disable=invalid-name
    class NDArray(object):
        def __init__(self, a):
            self.a = a

        def numpy(self):
            return self.a

    @staticmethod
    def array(a, dev=None):
        return nd.NDArray(a)


def device(kind, index=0):
    return (kind, index)

if os.environ.get("FAKE_TVM_NOISY"):
    print("fake tvm: noise on stdout at import")
