# One candidate in a forked TVM child: the stages every check has and its run function, with stdout
# and stderr captured, stages and passes reported on a pipe, a timeout; an Outcome back.
"""Running one candidate in a forked child; its Outcome."""

import json
import os
import select
import signal
import sys
import tempfile
import time

import relaykit_outcome
import relaykit_repro

from .common import Mismatch, OUTPUT_CAP, Unusable, UsageError
from .tvm_api import infer_type, load_params, parse_module, SEQUENTIAL
from .bisection import Broken
from .checks import CHECK, Job


def write_repro(args, text, name):
    """With RELAYKIT_REPRO set (rreduce --report does), the standalone Python repro of this check
    on this candidate goes to that file (relaykit_repro.py); it never changes the verdict."""
    out = os.environ.get("RELAYKIT_REPRO")
    if not out:
        return
    try:
        check = CHECK[args.check]
        source = relaykit_repro.repro_source(args, text, name, check.failure, check.repro)
        with open(out, "w") as f:
            f.write(source)
    except Exception as e:  # pylint: disable=broad-except  # a report helper, not the test
        sys.stderr.write("relaykit: cannot write the repro to %s: %s\n" % (out, e))


def run_check(args, path, stage, ran=None, note=None):
    """The TVM work of one candidate: the stages every check has, then its own (Check.run).
    Returns what "no bug" found; raises on an error."""
    import tvm  # pylint: disable=import-outside-toplevel
    from tvm import relay  # pylint: disable=import-outside-toplevel

    check = CHECK[args.check]
    stage("read")
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    name = os.path.basename(path)
    write_repro(args, text, name)
    stage("parse")
    mod = parse_module(tvm, relay, text, name, stage)
    job = Job(tvm, relay, args, name, stage, ran, note)
    if check.typed:
        stage("typecheck")
        mod = infer_type(relay, mod)
    if check.compiles and args.params:
        import numpy as np  # pylint: disable=import-outside-toplevel
        stage("setup")
        job.params = load_params(tvm, np, args.params)
    return check.run(job, mod)


def _edged(outcome, edges):
    outcome.reported_edges = edges
    return outcome


class Outcome(object):  # pylint: disable=too-many-instance-attributes
    """What happened to one candidate: kind is ok, error or usage; stage the last stage entered;
    the passes TVM ran; the Python exception's type; whether a property did not hold (mismatch)."""

    def __init__(self, kind, stage, text, headline, output="", ran=(), exception=None, mismatch=False,
                 note=None):
        self.kind, self.stage, self.text, self.headline, self.output = kind, stage, text, headline, output
        self.ran, self.exception, self.mismatch, self.note = list(ran), exception, mismatch, note
        self.reported_edges = self.edges = None  # coverage (run_in_child)


def _child(args, path, wfd, chdir):
    try:  # die with the server (Linux): a killed server leaves no TVM child running on
        import ctypes  # pylint: disable=import-outside-toplevel
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # pylint: disable=broad-except
        pass
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    out = os.fdopen(wfd, "w")

    def send(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    def stage(name):
        send({"stage": name})

    def ran(name):
        send({"ran": name})

    def note(text):
        send({"note": text})

    result = {"kind": "ok", "text": ""}
    try:
        if chdir:
            path = os.path.abspath(path)
            os.chdir(os.path.dirname(path))
        result["text"] = run_check(args, path, stage, ran, note)
    except UsageError as e:
        result = {"kind": "usage", "text": str(e), "headline": str(e)}
    except Mismatch as e:
        result = {"kind": "error", "text": str(e), "headline": str(e), "mismatch": True}
    except Broken as e:
        result = {"kind": "error", "text": str(e), "headline": str(e), "exception": "Broken"}
    except Unusable as e:
        result = {"kind": "ok", "text": str(e), "note": str(e)}
    except BaseException as e:  # pylint: disable=broad-except  # TVMError, DiagnosticError, ...
        text = "%s: %s" % (type(e).__name__, e)
        result = {"kind": "error", "text": text, "headline": text, "exception": type(e).__name__}
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        fake_edges = getattr(sys.modules.get("tvm"), "relaykit_fake_edges", None)
        if fake_edges is not None:  # a TVM stand-in that reports its own edges (the tests' fake)
            send({"edges": list(fake_edges())})
        send(result)
    finally:
        relaykit_outcome.flush_profiles()  # _exit writes no source-based coverage (measurement)
        os._exit(0)


def run_in_child(args, path, chdir=False, coverage=None):
    """Forks; the child does run_check with stdout+stderr captured. Returns an Outcome, with
    .edges: the candidate's coverage edges when `coverage` has a source (else None)."""
    if coverage is not None:
        coverage.before()
    outcome = _run_in_child(args, path, chdir)
    outcome.edges = coverage.after(outcome.reported_edges) if coverage is not None else None
    return outcome


def _run_in_child(args, path, chdir=False):
    capture = tempfile.TemporaryFile()
    rfd, wfd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(capture.fileno(), 1)
        os.dup2(capture.fileno(), 2)
        _child(args, path, wfd, chdir)
    os.close(wfd)
    data, timed_out = b"", False
    deadline = time.time() + args.timeout if args.timeout > 0 else None
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.time())
        ready, _, _ = select.select([rfd], [], [], wait)
        if not ready:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        data += chunk
    os.close(rfd)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    capture.seek(0, os.SEEK_END)
    size = capture.tell()
    capture.seek(max(0, size - OUTPUT_CAP))
    output = capture.read().decode("utf-8", "replace")
    capture.close()

    stage, result, ran, notes, edges = "start", None, [], [], None
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "stage" in msg:
            stage = msg["stage"]
        elif "kind" in msg:  # the verdict (it may hold a note of its own)
            result = msg
        elif "ran" in msg:
            if msg["ran"] != SEQUENTIAL:  # a container, not a pass one can disable
                ran.append(msg["ran"])
        elif "note" in msg:
            notes.append(msg["note"])
        elif "edges" in msg:
            edges = msg["edges"]
    if timed_out:
        head = "timeout after %g s" % args.timeout
        return _edged(Outcome("error", stage, head, head, output, ran), edges)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            head = "signal " + signal.Signals(sig).name
        except ValueError:
            head = "signal %d" % sig
        return _edged(Outcome("error", stage, head, head, output, ran), edges)
    if result is None:
        head = "the TVM child exited with status %d without a verdict" % os.WEXITSTATUS(status)
        return _edged(Outcome("error", stage, head, head, output, ran), edges)
    notes += [result["note"]] if result.get("note") else []
    return _edged(Outcome(result["kind"], stage, result["text"], result.get("headline", ""), output, ran,
                   result.get("exception"), result.get("mismatch", False), "; ".join(notes) or None), edges)
