# What a person sees while relaykit works for them: one line updated in place, on a terminal or in
# a Jupyter cell (not a line per test), nothing when asked for quiet. The details go to the
# `relaykit` logger.
"""A one-line progress display for terminals and Jupyter."""

import sys
import time


def _in_jupyter():
    shell = sys.modules.get("IPython")
    if shell is None or "ipykernel" not in sys.modules:
        return False
    try:
        ip = shell.get_ipython()
    except AttributeError:
        return False
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


class Progress(object):
    """update(text) redraws the line (at most five times a second); close(text) leaves `text`
    as the final state."""

    def __init__(self, prefix, quiet=False, stream=None):
        self.prefix = prefix
        self.stream = stream or sys.stderr
        self.handle = None
        self.mode = None
        self.drawn_at = 0.0
        self.last = None
        if quiet:
            return
        if _in_jupyter():
            self.mode = "jupyter"
        elif hasattr(self.stream, "isatty") and self.stream.isatty():
            self.mode = "terminal"

    def _show(self, text):
        line = "%s: %s" % (self.prefix, text)
        if self.mode == "terminal":
            self.stream.write("\r\033[K" + line)
            self.stream.flush()
        elif self.mode == "jupyter":
            from IPython.display import Pretty, display  # pylint: disable=import-outside-toplevel
            if self.handle is None:
                self.handle = display(Pretty(line), display_id=True)
            else:
                self.handle.update(Pretty(line))

    def update(self, text):
        self.last = text
        now = time.time()
        if self.mode is None or now - self.drawn_at < 0.2:
            return
        self.drawn_at = now
        self._show(text)

    def close(self, text=None):
        if self.mode is None:
            return
        if text is not None or self.last is not None:
            self._show(text if text is not None else self.last)
        if self.mode == "terminal":
            self.stream.write("\n")
            self.stream.flush()
        self.mode = None
