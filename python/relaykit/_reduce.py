# relaykit.reduce: rreduce itself, with the user's Python session as its oracle server. rreduce
# starts one bridge (_bridge.py) per job as its `--server`; each bridge joins the server protocol
# (interestingness/PROTOCOL.md) to a Unix socket this process listens on, and this process answers
# every candidate by running the user's check in a forked child. So TVM is imported once, the check
# and its closures need no pickling, and a crash or hang costs one child, never the session.
"""Reduce an IRModule while a Python check still says the bug is there."""

import inspect
import json
import logging
import os
import selectors
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from . import _children, _module
from ._progress import Progress
from ._tools import tool

log = logging.getLogger("relaykit")


class CheckError(RuntimeError):
    """The check raised on the original module: nothing was reduced. .traceback is the check's."""

    def __init__(self, message, traceback_text=""):
        RuntimeError.__init__(self, message)
        self.traceback = traceback_text


class ReduceError(RuntimeError):
    """rreduce could not reduce (its exit status and what it said are in the message)."""


class Reduced(tuple):
    """(mod, params) of the smallest module found, unpacked as a pair; also .text (what rreduce
    wrote), .pipeline (the reduced pipeline, when one was given), .stats (rreduce's --json
    statistics), .interrupted (stopped by Ctrl-C: the smallest found so far)."""

    def __new__(cls, mod, params, text, pipeline=None, stats=None, interrupted=False):
        self = tuple.__new__(cls, (mod, params))
        self.text, self.pipeline, self.stats, self.interrupted = text, pipeline, stats or {}, interrupted
        return self

    @property
    def mod(self):
        return self[0]

    @property
    def params(self):
        return self[1]


def _takes_pipeline(check):
    try:
        sig = inspect.signature(check)
    except (TypeError, ValueError):
        return False
    return "pipeline" in sig.parameters or any(
        p.kind == inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values())


def _tvm_release():
    """"0.13" or "0.19" for the TVM this session imported (rreduce's registry), else None."""
    tvm, _ = _module.relay_api()
    parts = str(getattr(tvm, "__version__", "")).split(".")
    release = ".".join(parts[:2])
    return release if release in ("0.13", "0.19") else None


class _Oracle(object):
    """The user's check, as the answer to one candidate path."""

    def __init__(self, check, params, crash_is_bug, with_pipeline):
        self.check, self.params = check, params
        self.crash_is_bug, self.with_pipeline = crash_is_bug, with_pipeline

    def work(self, path):
        """What a child does for the candidate at path: {"ok": bool}."""
        def run():
            with open(path) as f:
                text = f.read()
            mod = _module.parse(text, os.path.basename(path))
            kwargs = {}
            if self.with_pipeline:
                kwargs["pipeline"] = None
                if os.path.exists(path + ".pipeline"):
                    with open(path + ".pipeline") as f:
                        kwargs["pipeline"] = json.load(f)
            return {"ok": bool(self.check(mod, _module.params_for(mod, self.params), **kwargs))}
        return run

    def answer(self, result):
        """The protocol's answer line for a child's result."""
        if "ok" in result:
            return "0" if result["ok"] else "1"
        if "crash" in result:
            return "%d %s" % (0 if self.crash_is_bug else 1, result["crash"])
        if "timeout" in result:
            return "1 timeout after %ss" % result["timeout"]
        return "1 the check raised %s: %s" % (result.get("raised"), result.get("message", ""))


class _Conn(object):  # pylint: disable=too-few-public-methods
    """One bridge (one life of one of rreduce's servers): its socket, unread bytes, its child."""

    def __init__(self, sock):
        self.sock, self.buf, self.child, self.queue = sock, b"", None, []


class _Session(object):
    """The select loop: rreduce's output, the bridges' requests, the children's results."""

    def __init__(self, oracle, timeout, progress):
        self.oracle, self.timeout, self.progress = oracle, timeout, progress
        self.sel = selectors.DefaultSelector()
        self.children = {}  # fd -> child, while its pipe is registered
        self.out, self.err_lines, self.err_buf = b"", [], b""
        self.tests = 0

    def listen(self, path):
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(64)
        self.sel.register(self.listener, selectors.EVENT_READ, ("listen", None))

    def watch(self, proc):
        self.proc = proc
        self.sel.register(proc.stdout, selectors.EVENT_READ, ("stdout", None))
        self.sel.register(proc.stderr, selectors.EVENT_READ, ("stderr", None))
        self.open_streams = 2

    def _session_fds(self):
        fds = [self.listener.fileno()] + list(self.children)
        return fds + [k.fileobj.fileno() for k in self.sel.get_map().values() if k.data[0] == "conn"]

    def _start(self, conn, path):
        _children.fork(self.oracle.work(path), time.time(), conn, close=self._session_fds(),
                       register=self._register)

    def _register(self, child):
        """Records a child as fork() makes it (signals held: no KeyboardInterrupt loses it)."""
        child.tag.child = child
        self.children[child.fd] = child
        self.sel.register(child.fd, selectors.EVENT_READ, ("child", child))
        self.tests += 1

    def _end_child(self, child, result):
        conn = child.tag
        conn.child = None
        line = self.oracle.answer(result)
        log.debug("candidate answered %s", line)
        try:
            conn.sock.sendall((line + "\n").encode("utf-8"))
        except OSError:
            return
        if conn.queue:
            self._start(conn, conn.queue.pop(0))

    def _retire(self, child, killed=False):
        """Forgets a child and reaps it: its result, or None when it was retired already. A
        KeyboardInterrupt (a caller's own signal handler) may have cut an earlier retirement
        short: each step is done once, whatever step it stopped at."""
        if self.children.pop(child.fd, None) is None:
            return None
        try:
            self.sel.unregister(child.fd)  # before finish() closes it: epoll goes by fd number
        except KeyError:
            pass
        return _children.finish(child, killed=killed)

    def _drop_conn(self, conn):
        self.sel.unregister(conn.sock)
        conn.sock.close()
        child, conn.child = conn.child, None
        if child is not None:  # rreduce gave up on it (its timeout) or stopped
            self._retire(child, killed=True)

    def _on_conn(self, conn):
        try:
            data = conn.sock.recv(65536)
        except ConnectionResetError:  # rreduce closed it with our answer unread (its Ctrl-C, its end)
            data = b""
        if not data:
            self._drop_conn(conn)
            return
        conn.buf += data
        while b"\n" in conn.buf:
            line, conn.buf = conn.buf.split(b"\n", 1)
            path = line.decode("utf-8", "replace")
            if conn.child is None:
                self._start(conn, path)
            else:  # the protocol sends one at a time; keep order if a client does not
                conn.queue.append(path)

    def _on_stderr(self, data):
        self.err_buf += data
        while b"\n" in self.err_buf:
            line, self.err_buf = self.err_buf.split(b"\n", 1)
            text = line.decode("utf-8", "replace")
            if text.startswith("progress "):
                self.progress.update(text[len("progress "):])
                log.debug("%s", text)
            else:
                self.err_lines.append(text)
                log.info("rreduce: %s", text[len("rreduce: "):] if text.startswith("rreduce: ") else text)

    def _expire(self):
        now = time.time()
        for child in list(self.children.values()):
            if now - child.started > self.timeout:
                if self._retire(child, killed=True) is not None:
                    self._end_child(child, {"timeout": self.timeout})

    def run(self):
        """Serves until rreduce has exited and its output is read."""
        while self.open_streams:
            for key, _ in self.sel.select(timeout=0.5):
                if self.sel.get_map().get(key.fileobj) is not key:
                    continue  # unregistered by an event handled before it in this batch
                kind, obj = key.data
                if kind == "listen":
                    sock, _ = self.listener.accept()
                    conn = _Conn(sock)
                    self.sel.register(sock, selectors.EVENT_READ, ("conn", conn))
                elif kind == "conn":
                    self._on_conn(obj)
                elif kind == "child":
                    data = os.read(obj.fd, 65536)
                    if data:
                        obj.data += data
                    else:
                        result = self._retire(obj)
                        if result is not None:
                            self._end_child(obj, result)
                else:
                    data = os.read(key.fileobj.fileno(), 65536)
                    if not data:
                        self.sel.unregister(key.fileobj)
                        self.open_streams -= 1
                    elif kind == "stdout":
                        self.out += data
                    else:
                        self._on_stderr(data)
            self._expire()

    def close(self):
        for child in list(self.children.values()):
            _children.finish(child, killed=True)
        self.children.clear()
        for key in list(self.sel.get_map().values()):
            if key.data[0] == "conn":
                key.data[1].sock.close()
        self.listener.close()
        self.sel.close()


def _first_check(oracle, text, workdir, timeout, pipeline):
    """Runs the check on the original module (a child, as every candidate): a CheckError with
    the check's traceback when it raises or the child dies, ValueError when it says False."""
    path = os.path.join(workdir, "original", "module.relay")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if pipeline is not None:  # beside it, as rreduce writes it beside each candidate
        with open(path + ".pipeline", "w") as f:
            json.dump(pipeline, f)
    output = os.path.join(workdir, "original", "output")
    started = []  # the child, known to the except clause however early an interrupt comes
    sel = selectors.DefaultSelector()
    timed_out = False
    try:
        child = _children.fork(oracle.work(path), time.time(), output=output, register=started.append)
        deadline = child.started + timeout
        sel.register(child.fd, selectors.EVENT_READ)
        while not timed_out:
            left = deadline - time.time()
            if left <= 0 or not sel.select(timeout=left):
                timed_out = time.time() >= deadline
                continue
            data = os.read(child.fd, 65536)
            if not data:
                break
            child.data += data
    except BaseException:  # Ctrl-C while the original is checked: no child left behind
        sel.close()
        for child in started:
            _children.finish(child, killed=True)
        raise
    sel.close()
    result = _children.finish(child, killed=timed_out)
    if timed_out:
        raise CheckError("relaykit.reduce: the check did not answer on the original module within "
                         "timeout=%ss" % timeout)
    with open(output, errors="replace") as f:
        said = f.read()[-4000:]
    if "raised" in result:
        raise CheckError("relaykit.reduce: the check raised on the original module (nothing was "
                         "reduced):\n%s" % result["traceback"], result["traceback"])
    if "crash" in result and not oracle.crash_is_bug:
        raise CheckError("relaykit.reduce: the check died on the original module (%s); pass "
                         "crash_is_bug=True if that is the bug. Its output:\n%s" % (result["crash"], said))
    if "ok" in result and not result["ok"]:
        raise ValueError("relaykit.reduce: the check returned False on the original module: it "
                         "must return True while the bug is there (nothing to reduce)")


def _rreduce_command(rreduce, path, out, sock, jobs, timeout, options):
    bridge = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bridge.py")
    server = "exec %s -S -E %s %s" % (shlex.quote(sys.executable), shlex.quote(bridge), shlex.quote(sock))
    # The session ends a slow candidate itself (an answer "timeout"); rreduce's own limit only
    # catches a session that stopped answering at all.
    cmd = [rreduce, "--server", server, "--timeout", str(int(timeout) + 30), "--progress-lines",
           "--json", "--no-verify", "--tidy", "-o", out]
    if jobs:
        cmd += ["-j", str(int(jobs))]
    release = _tvm_release()
    if release:
        cmd += ["--tvm-version", release]
    return cmd + options + [path]


def _options(passes, skip_passes, pipeline, report, match, fast, workdir):
    out = []
    if passes:
        out += ["--passes", passes if isinstance(passes, str) else ",".join(passes)]
    if skip_passes:
        out += ["--skip-passes", skip_passes if isinstance(skip_passes, str) else ",".join(skip_passes)]
    if pipeline is not None:
        path = os.path.join(workdir, "start.pipeline")
        with open(path, "w") as f:
            json.dump(pipeline, f)
        out += ["--pipeline", path]
    if report:
        out += ["--report", os.path.abspath(report)]
    if match:
        out += ["--match", match]
    if fast:
        out.append("--fast")
    return out


def _serve(session, proc):
    """Runs the session until rreduce ends; Ctrl-C asks rreduce to stop (it keeps the smallest
    module found), a second Ctrl-C kills it. Returns whether the user interrupted.

    Ctrl-C is taken by a handler rather than as KeyboardInterrupt where it can be: Python drops
    an exception raised inside some library code (logging's lock release says "Exception
    ignored"), and the interrupt would be lost."""
    import threading
    if threading.current_thread() is not threading.main_thread():
        return _serve_by_exception(session, proc)
    hits = []

    def on_sigint(signum, frame):
        hits.append(signum)
        if proc.poll() is not None:
            return
        if len(hits) == 1:
            log.info("interrupted: rreduce is writing the smallest module found so far")
            proc.send_signal(signal.SIGINT)
        else:
            proc.kill()

    old = signal.signal(signal.SIGINT, on_sigint)
    try:
        while True:
            try:
                session.run()
                break
            except KeyboardInterrupt:  # raised by a handler of the caller's (another signal)
                on_sigint(signal.SIGINT, None)
    finally:
        signal.signal(signal.SIGINT, old)
    if len(hits) > 1:
        proc.wait()
    return bool(hits)


def _serve_by_exception(session, proc):
    """_serve off the main thread, where no handler can be set: Ctrl-C as KeyboardInterrupt."""
    try:
        session.run()
        return False
    except KeyboardInterrupt:
        pass
    log.info("interrupted: rreduce is writing the smallest module found so far")
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        session.run()
    except KeyboardInterrupt:
        proc.kill()
        proc.wait()
    return True


def reduce(mod, check, params=None, jobs=None, timeout=300, crash_is_bug=False, passes=None,  # noqa: C901
           skip_passes=None, pipeline=None, report=None, match=None, fast=False, quiet=False,
           keep=None, options=()):
    """Shrinks `mod` while check(mod, params) returns True (the bug is there), with rreduce;
    returns the smallest (mod, params) found (a Reduced: also .text, .stats, .interrupted).

    check     your function: check(mod, params) -> bool, True while the bug is there. It runs
              in a forked child of this process per candidate, so it may crash (SIGSEGV, abort)
              or hang without harm: a crash counts as the bug only with crash_is_bug=True, and
              a run longer than `timeout` seconds counts as not the bug. With a `pipeline`
              keyword it also gets the candidate's pipeline (see `pipeline`).
    params    name -> array for @main's parameters (as relay.build takes); each candidate's
              check gets those that still fit its @main (a parameter whose type the reduction
              changed is left an input).
    jobs      candidates checked at once (rreduce -j; default: the number of cores); the
              result is the same for every value.
    passes, skip_passes   rreduce's passes to use or leave out (a list or "a,b").
    pipeline  a pipeline to reduce with the module (a dict or a JSON file: PROTOCOL.md's
              "pipeline" object); the result's .pipeline is what is left of it.
    report    write rreduce's paste-ready bug-report fragment to this path.
    match     the crash's or exception's words that must stay (rreduce --match; matched against
              "SIGSEGV", "the check raised TYPE: MESSAGE").
    fast      one round of the passes (rreduce --fast).
    quiet     no progress line; the `relaykit` logger has the details either way.
    keep      a directory to keep the work in (the input, rreduce's output); default: a
              temporary directory, removed afterwards.
    options   more rreduce options, as a list of strings.

    Ctrl-C ends the reduction with the smallest module found so far (.interrupted is True)."""
    mod = _module.as_module(mod)
    if not callable(check):
        raise TypeError("relaykit.reduce: check must be callable as check(mod, params) -> bool, not %s"
                        % type(check).__name__)
    _module.check_params(mod, params)
    rreduce = tool("rreduce")  # before any work: say what to install
    if pipeline is not None and not isinstance(pipeline, dict):
        with open(pipeline) as f:
            pipeline = json.load(f)
    text = _module.to_text(mod)
    workdir = os.path.abspath(keep) if keep else tempfile.mkdtemp(prefix="relaykit-reduce-")
    if keep:
        os.makedirs(workdir, exist_ok=True)
    # A short socket path: a Unix socket's name has ~100 bytes.
    sockdir = tempfile.mkdtemp(prefix="rk-")
    oracle = _Oracle(check, dict(params or {}), crash_is_bug, _takes_pipeline(check))
    progress = Progress("relaykit.reduce", quiet=quiet)
    try:
        _first_check(oracle, text, workdir, timeout, pipeline)
        path, out = os.path.join(workdir, "module.relay"), os.path.join(workdir, "reduced.relay")
        with open(path, "w") as f:
            f.write(text)
        session = _Session(oracle, timeout, progress)
        sock = os.path.join(sockdir, "s")
        session.listen(sock)
        cmd = _rreduce_command(rreduce, path, out, sock, jobs, timeout,
                               _options(passes, skip_passes, pipeline, report, match, fast, workdir) + list(options))
        log.info("running %s", " ".join(shlex.quote(c) for c in cmd))
        # Its own session: Ctrl-C on the terminal reaches Python, which tells rreduce.
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        session.watch(proc)
        try:
            interrupted = _serve(session, proc)
        finally:
            session.close()
            status = proc.wait()
        return _result(status, interrupted, text, out, session, progress, params)
    finally:
        progress.close()
        shutil.rmtree(sockdir, ignore_errors=True)
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)


def _result(status, interrupted, original, out, session, progress, params):  # pylint: disable=too-many-arguments
    said = "\n".join(session.err_lines[-20:])
    if status == 130 or (interrupted and status < 0):
        interrupted = True
    elif status != 0:
        raise ReduceError("relaykit.reduce: rreduce exited with status %d:\n%s" % (status, said))
    try:
        stats = json.loads(session.out.decode("utf-8")) if session.out.strip() else {}
    except ValueError:
        stats = {}
    text = original
    if os.path.exists(out):
        with open(out) as f:
            text = f.read()
    pipeline = None
    if os.path.exists(out + ".pipeline"):
        with open(out + ".pipeline") as f:
            pipeline = json.load(f)
    progress.update("%d -> %d bytes, %d tests%s" % (len(original), len(text), session.tests,
                                                   ", interrupted" if interrupted else ""))
    mod = _module.parse(text, "reduced.relay")
    return Reduced(mod, _module.params_for(mod, params), text, pipeline, stats, interrupted)
