# The side files of relaykit's TVM checks (interestingness/PROTOCOL.md, "side files"): what a
# candidate's test says about its failure beside the one-line answer (BASENAME.outcome), and the
# pipeline a client asks it to run instead of its own arguments (BASENAME.pipeline).
#
# The outcome is how rfuzz and roracle group failures by what failed (stage, kind, TVM's C++
# frames) rather than by who saw it, and how rreduce learns which passes ran; the pipeline is how
# rreduce reduces the passes with the program (issue 28). Keep it Python 3.6 compatible.
"""Outcome and pipeline side files of relaykit's TVM checks."""

import copy
import json
import os
import re

OUTCOME_ENV = "RELAYKIT_ORACLE_OUTCOME"  # set to 1 by a client that reads BASENAME.outcome
OUTCOME_OUTPUT_CAP = 64 * 1024  # characters of TVM's output kept in an outcome (its tail)
FRAMES_KEPT = 8


class BadPipeline(Exception):
    """A BASENAME.pipeline this check cannot run; str() is the one-line reason."""


# ----------------------------------------------------------------------------- stages

def coarse_stage(step):
    """The stage a failure is grouped under, from the step the check was in: frontend (read,
    parse, typecheck), compile (the passes, whether a pass list runs them or relay.build does,
    and lowering), run, compare, roundtrip, check. A pass's bug met by `tvm-pass P` and by
    relay.build running P is one bug: both are compile."""
    word = step.split(" ")[0] if step else ""
    if word in ("read", "parse", "typecheck", "start"):
        return "frontend"
    if word in ("pass", "infer-after", "build", "setup"):
        return "compile"
    if word in ("run", "inputs"):
        return "run"
    if word in ("print", "reparse"):
        return "roundtrip"
    return word or "frontend"


# ----------------------------------------------------------------------------- TVM's frames

# TVM's C++ backtrace (libbacktrace) lists frames "  N: function" with frame 0 innermost, each
# maybe followed by "at FILE:LINE". Frames of the error machinery and of the FFI say nothing of
# where the bug is.
_FRAME_LINE = re.compile(r"^\s*(\d+): (\S.*?)\s*$")
_MACHINERY = re.compile(
    r"^(tvm::runtime::detail::|tvm::runtime::Backtrace|tvm::runtime::(Typed)?PackedFunc|"
    r"tvm::runtime::PackedFuncObj|tvm::runtime::TVMRetValue|tvm::runtime::TVMArgs|TVMFuncCall|"
    r"TVMBackend|std::|__libc|_start|_Py|Py[A-Z]|\?\?|0x[0-9a-f]+|fake$|tvm::ReportAt|"
    r"tvm::DiagnosticContext::Render|tvm::runtime::InternalError|"
    r"(.*::)?backtrace_handler|__restore_rt|raise$|gsignal|abort$|"
    # the same frames when libbacktrace could not demangle them (it cuts long names, and a cut
    # mangled name stays mangled, cut anywhere): tvm::runtime::detail::, Backtrace, (Typed)PackedFunc
    # (Obj), TVMRetValue, TVMArgs, InternalError, std::
    r"_ZN3tvm7runtime(6detail|9Backtr|13Packed|15TypedP|11TVMRet|7TVMArg|13Intern)|_ZNSt|_ZSt)")


def cpp_frames(text):
    """The function names of the last C++ backtrace in text, innermost first, without arguments
    and without the error machinery's frames (at most FRAMES_KEPT)."""
    blocks, current = [], []
    for raw in text.splitlines():
        m = _FRAME_LINE.match(raw)
        if m and not raw.lstrip().startswith("File \""):
            current.append((int(m.group(1)), m.group(2)))
        elif raw.strip().startswith("at ") and current:
            continue
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    if not blocks:
        return []
    frames = []
    for _, name in sorted(blocks[-1]):
        name = name.split(" at ")[0]
        cut = _outer_paren(name)
        if cut > 0:
            name = name[:cut]
        name = name.strip()
        if not name or _MACHINERY.match(name):
            continue
        frames.append(name)
        if len(frames) == FRAMES_KEPT:
            break
    return frames


def _outer_paren(name):
    """Where the argument list of a C++ function name starts (templates and operator() aside)."""
    depth = 0
    for i, ch in enumerate(name):
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif ch == "(" and depth == 0 and not name[:i].endswith("operator"):
            return i
    return -1


# ----------------------------------------------------------------------------- the outcome

def failure_kind(outcome):
    """crash (a signal), timeout, wrong-result (a property that does not hold), check (TVM's own
    check or diagnostic), exception (a Python exception), or none."""
    if outcome.kind == "ok":
        return "none"
    head = outcome.headline or ""
    if head.startswith("signal "):
        return "crash"
    if head.startswith("timeout after"):
        return "timeout"
    if outcome.mismatch:
        return "wrong-result"
    text = outcome.text + "\n" + outcome.output
    if (outcome.exception in ("TVMError", "InternalError", "DiagnosticError", "TVMFFIError")
            or "Check failed" in text or "\nerror: " in "\n" + text):
        return "check"
    return "exception"


def pipeline_description(args, ran):
    """What the candidate ran, as rreduce's pipeline JSON (reduce/pipeline.h)."""
    out = {"check": args.check}
    if getattr(args, "passes", None) is not None:
        out["passes"] = [spec_text(s) for s in args.passes]
    if pipeline_has_opt_level(args):
        out["opt_level"] = args.opt_level
        out["disabled_pass"] = list(args.disabled_pass)
    out["ran"] = list(ran)
    return out


def pipeline_has_opt_level(args):
    """Whether the check's opt level is one a reduction may lower: a build, or a diff whose
    configurations all share --opt-level (not one comparing opt levels)."""
    if not hasattr(args, "opt_level") or not hasattr(args, "disabled_pass"):
        return False
    configs = getattr(args, "configs", None)
    return configs is None or all(level == args.opt_level for _, level in configs)


def outcome_json(args, outcome, status, signature):
    """The outcome side file's object (PROTOCOL.md)."""
    text = outcome.text + "\n" + outcome.output
    obj = {
        "status": status,
        "stage": coarse_stage(outcome.stage) if outcome.kind != "ok" else "",
        "step": outcome.stage,
        "kind": failure_kind(outcome),
        "signature": signature,
        "frames": cpp_frames(text) if outcome.kind != "ok" else [],
        "pipeline": pipeline_description(args, outcome.ran),
        "output": outcome.output[-OUTCOME_OUTPUT_CAP:],
    }
    if outcome.exception:
        obj["exception"] = outcome.exception
    if outcome.note:
        obj["note"] = outcome.note
    return obj


# ----------------------------------------------------------------------------- coverage

class Coverage(object):
    """TVM's edge coverage per candidate (PROTOCOL.md, "coverage"), when the client asks for it
    (RELAYKIT_COVERAGE=1) and there is a source: relaykit's coverage runtime in an instrumented
    TVM (librelaykit_cov.so, scripts/tvm-instrumented.sh: the counters shared with the forked
    child, read after it ends), or a TVM stand-in that reports edges itself (the tests' fake).
    The server keeps every edge it has seen, to say how many of a candidate's are new."""

    def __init__(self):
        self.lib, self.total, self.seen = None, 0, set()
        self.on = os.environ.get("RELAYKIT_COVERAGE") == "1"

    def start(self):
        """After TVM is imported: find the runtime and share the counters (before any fork)."""
        if not self.on:
            return
        try:
            import ctypes  # pylint: disable=import-outside-toplevel
            lib = ctypes.CDLL("librelaykit_cov.so")  # already loaded as libtvm's dependency, if it is one
            lib.relaykit_cov_edges.restype = ctypes.c_size_t
            lib.relaykit_cov_hits.restype = ctypes.c_size_t
            lib.relaykit_cov_hits.argtypes = [ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t]
            if lib.relaykit_cov_edges() and lib.relaykit_cov_share() == 0:
                self.lib, self.total = lib, lib.relaykit_cov_edges()
        except (OSError, AttributeError):
            self.lib = None

    def before(self):
        """Before a candidate's child is forked: every counter zero."""
        if self.lib is not None:
            self.lib.relaykit_cov_reset()

    def after(self, reported):
        """The candidate's edges (ascending): the runtime's, else those the child reported."""
        if self.lib is not None:
            import ctypes  # pylint: disable=import-outside-toplevel
            n = self.lib.relaykit_cov_hits(None, 0)
            buf = (ctypes.c_uint32 * max(n, 1))()
            n = self.lib.relaykit_cov_hits(buf, n)
            return list(buf[:n])
        return sorted(set(reported)) if reported is not None else None

    def field(self, edges):
        """The outcome's "coverage" object for these edges, or None without a source."""
        if edges is None:
            return None
        new = [e for e in edges if e not in self.seen]
        self.seen.update(new)
        return {"edges": len(edges), "new": len(new), "total": self.total or None, "set": encode_edges(edges)}


def flush_profiles():
    """A forked child's source-based coverage counts (scripts/tvm-instrumented.sh, the measurement
    half), written before it ends with _exit, which writes none: each loaded TVM module's own
    relaykit_profile_flush (interestingness/coverage/profile_flush.c), when it has one. Only when
    LLVM_PROFILE_FILE asks for a profile (bench/coverage.sh sets it); else nothing at all."""
    if os.environ.get("LLVM_PROFILE_FILE", "/dev/null") == "/dev/null":
        return
    try:
        import ctypes  # pylint: disable=import-outside-toplevel
        with open("/proc/self/maps") as f:
            paths = {line.split(None, 5)[5].strip() for line in f if len(line.split(None, 5)) == 6}
    except (OSError, ImportError):
        return
    for path in sorted(paths):
        name = os.path.basename(path)
        if "tvm" not in name or not (name.endswith(".so") or ".so." in name):
            continue
        try:
            ctypes.CDLL(path).relaykit_profile_flush()  # the module's own: dlsym from its handle
        except (OSError, AttributeError):
            pass


def encode_edges(edges):
    """Ascending edge indices as base64 of their gaps in LEB128 (PROTOCOL.md): a few bytes an edge."""
    import base64  # pylint: disable=import-outside-toplevel
    out, last = bytearray(), -1
    for e in edges:
        gap = e - last - 1
        last = e
        while True:
            byte = gap & 0x7F
            gap >>= 7
            out.append(byte | (0x80 if gap else 0))
            if not gap:
                break
    return base64.b64encode(bytes(out)).decode("ascii")


def write_outcome(path, args, outcome, status, signature, coverage=None):
    """PATH.outcome, when the client asked for it ($RELAYKIT_ORACLE_OUTCOME=1); written whole or
    not at all (a temporary file renamed), never failing the check."""
    if os.environ.get(OUTCOME_ENV) != "1":
        return
    target = path + ".outcome"
    tmp = "%s.tmp%d" % (target, os.getpid())
    try:
        obj = outcome_json(args, outcome, status, signature)
        if coverage is not None:
            obj["coverage"] = coverage
        with open(tmp, "w") as f:
            json.dump(obj, f)
        os.rename(tmp, target)
    except (IOError, OSError, TypeError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


# ----------------------------------------------------------------------------- the pipeline

def spec_text(spec):
    """('FuseOps', [], {'fuse_opt_level': 2}) -> 'FuseOps(fuse_opt_level=2)'."""
    name, pargs, kwargs = spec
    if not pargs and not kwargs:
        return name
    parts = [repr(a) for a in pargs] + ["%s=%r" % kv for kv in sorted(kwargs.items())]
    return "%s(%s)" % (name, ", ".join(parts))


def read_pipeline(path):
    """The object of PATH.pipeline, or None when there is none; BadPipeline if unusable."""
    side = path + ".pipeline"
    try:
        with open(side, "rb") as f:
            data = f.read()
    except IOError:
        if os.path.exists(side):
            raise BadPipeline("%s cannot be read" % side)
        return None
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise BadPipeline("%s: not JSON: %s" % (side, e))
    if not isinstance(obj, dict):
        raise BadPipeline("%s: not a JSON object" % side)
    return obj


def with_pipeline(args, pipeline, parse_spec):
    """A copy of args that runs `pipeline` (a dict from read_pipeline) instead of its own passes,
    opt level and disabled passes; BadPipeline when the check takes no such thing."""
    if pipeline is None:
        return args
    out = copy.copy(args)
    if "passes" in pipeline:
        if getattr(args, "passes", None) is None:
            raise BadPipeline("the %s check runs no pass list" % args.check)
        if not _strings(pipeline["passes"]):
            raise BadPipeline("pipeline \"passes\" is not a list of strings")
        try:
            out.passes = [parse_spec(s) for s in pipeline["passes"]]
        except ValueError as e:
            raise BadPipeline(str(e))
    if "opt_level" in pipeline:
        level = pipeline["opt_level"]
        if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 4:
            raise BadPipeline("pipeline \"opt_level\" is not an integer from 0 to 4")
        if not pipeline_has_opt_level(args):
            raise BadPipeline("the %s check has no opt level to set" % args.check)
        out.opt_level = level
        if getattr(args, "configs", None) is not None:
            out.configs = [(kind, level) for kind, _ in args.configs]
    if "disabled_pass" in pipeline:
        if not _strings(pipeline["disabled_pass"]):
            raise BadPipeline("pipeline \"disabled_pass\" is not a list of strings")
        if not hasattr(args, "disabled_pass"):
            raise BadPipeline("the %s check has no PassContext to disable passes in" % args.check)
        out.disabled_pass = list(pipeline["disabled_pass"])
    return out


def _strings(v):
    return isinstance(v, list) and all(isinstance(s, str) for s in v)
