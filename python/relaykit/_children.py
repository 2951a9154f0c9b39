# Running the user's check where it cannot hurt the session: each call in a forked child, its own
# process group, its answer sent back as one JSON object on a pipe. A child that dies by a signal
# (TVM's SIGSEGV, an ICHECK's abort) or hangs costs that child only.
"""Forked children that run a piece of work and report a JSON-able result."""

import json
import os
import signal
import traceback


class Child(object):  # pylint: disable=too-few-public-methods
    """A forked child at work: its pid, the read end of its result pipe, what it has sent."""

    def __init__(self, pid, fd, started, tag):
        self.pid, self.fd, self.started, self.tag = pid, fd, started, tag
        self.data = b""


def exception_result(exc_type, exc):
    """The result that says the work raised: its type, its first line, its whole traceback."""
    text = str(exc).strip().splitlines()
    return {"raised": exc_type.__name__, "message": text[0] if text else "",
            "traceback": traceback.format_exc()}


def fork(work, started, tag=None, output=None, close=(), register=None):
    """Starts work() in a forked child; its result (a dict, or the exception it raised) comes back
    on Child.fd. The child's stdout and stderr go to the file `output` (default /dev/null): TVM
    prints a page per failure, and the session shows progress, not that. The child closes the
    file descriptors `close` (the session's sockets and the other children's pipes: a copy kept
    open in a child would hold a connection open after the session closed it).

    Signals are held from before the fork until register(child) has recorded the child: a
    handler of the caller's that raises (KeyboardInterrupt from SIGALRM, as a Ctrl-C would) then
    raises here, after the child is known, and not inside the at-fork hooks Python runs (logging's
    lock release), where Python drops it with "Exception ignored" and the interrupt is lost."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    try:
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover (the child)
            _child(work, rfd, wfd, output, close, held)
        os.close(wfd)
        child = Child(pid, rfd, started, tag)
        if register is not None:
            register(child)
        return child
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _child(work, rfd, wfd, output, close, mask):  # pragma: no cover (the child)
    """The child's side of fork(): runs work(), writes its result, never returns."""
    status = 0
    try:
        os.close(rfd)
        for fd in close:
            try:
                os.close(fd)
            except OSError:
                pass
        os.setpgid(0, 0)  # a timeout kills whatever the check started, too
        # Ctrl-C is the session's to handle (it stops the reduction); a child it reaches
        # would only count as "not interesting" on the way out.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # the check runs as the caller would
        sink = os.open(output or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(sink, 1)
        os.dup2(sink, 2)
        try:
            result = work()
        except BaseException as e:  # pylint: disable=broad-except
            result = exception_result(type(e), e)
        data = json.dumps(result).encode("utf-8")
        while data:
            data = data[os.write(wfd, data):]
    except BaseException:  # pylint: disable=broad-except
        status = 70
    os._exit(status)  # pylint: disable=protected-access


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


def finish(child, killed=False):
    """(Unregister child.fd from any selector first: it is closed here.) Reaps the child (after its pipe's EOF, or after killing it) and returns its result: the
    dict it sent, or {"crash": how it ended} when it sent none (a signal, an exit of its own)."""
    if killed:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.close(child.fd)
    except OSError:
        pass
    _, status = os.waitpid(child.pid, 0)
    if child.data and not killed:
        try:
            return json.loads(child.data.decode("utf-8"))
        except ValueError:
            pass
    if os.WIFSIGNALED(status):
        return {"crash": signal_name(os.WTERMSIG(status))}
    return {"crash": "exit status %d without an answer" % os.WEXITSTATUS(status)}
