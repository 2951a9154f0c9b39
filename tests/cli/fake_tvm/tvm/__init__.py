# A stand-in for TVM's Python package, for testing interestingness/relaykit_tvm.py without TVM.
# It implements only what the checks call. Markers in the candidate text make a stage fail:
# FAKE_<STAGE>_<HOW>[_word] with STAGE one of PARSE TYPE BUILD PASS and HOW one of ERROR (a
# TVMError "Check failed: fake <stage> error <word>"), SEGV, ABORT, HANG. FAKE_PRINTS_BAD makes
# astext() print an unparseable module; FAKE_UNEQUAL makes structural_equal say no.
"""Fake TVM (tests only)."""
import os
import re
import signal
import time

from . import ir, transform  # noqa: F401


class TVMError(RuntimeError):
    pass


def trap(text, stage):
    for how, word in re.findall(r"FAKE_%s_(ERROR|SEGV|ABORT|HANG)_?(\w*)" % stage, text):
        if how == "SEGV":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif how == "ABORT":
            os.write(2, b"Check failed: fake fatal " + word.encode() + b"\n")
            os.abort()
        elif how == "HANG":
            time.sleep(3600)
        else:
            raise TVMError("Traceback (most recent call last):\n  1: fake\n  0: fake\n"
                           "---------------------------------------------------------------\n"
                           "  Check failed: fake %s error %s" % (stage.lower(), word))


class IRModule(object):
    def __init__(self, text):
        self.text = text

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
