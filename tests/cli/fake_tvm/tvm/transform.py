"""Fake tvm.transform. The innermost PassContext is kept in CURRENT, for the fake build to show;
its instruments hear of every pass the fake passes and build run (announce)."""

CURRENT = []


def announce(name, mod=None):
    """Tells every entered PassContext's instruments that pass `name` runs on mod."""
    from tvm import instrument  # pylint: disable=import-outside-toplevel
    for ctx in list(CURRENT):
        for inst in ctx.instruments:
            inst.run_before_pass(mod, instrument.PassInfo(name))


def announce_after(name, mod=None):
    """... and that it ran, leaving mod (run_after_pass, where an instrument has one)."""
    from tvm import instrument  # pylint: disable=import-outside-toplevel
    for ctx in list(CURRENT):
        for inst in ctx.instruments:
            if hasattr(inst, "run_after_pass"):
                inst.run_after_pass(mod, instrument.PassInfo(name))


class PassContext(object):
    def __init__(self, opt_level=2, required_pass=None, disabled_pass=None, config=None, instruments=None):
        self.opt_level = opt_level
        self.required_pass = list(required_pass or [])
        self.disabled_pass = list(disabled_pass or [])
        self.config = dict(config or {})
        self.instruments = list(instruments or [])

    def describe(self):
        return "opt_level=%d required=%s disabled=%s config=%s" % (
            self.opt_level, ",".join(self.required_pass), ",".join(self.disabled_pass),
            ",".join("%s:%r" % kv for kv in sorted(self.config.items())))

    def __enter__(self):
        CURRENT.append(self)
        return self

    def __exit__(self, *exc):
        CURRENT.pop()
        return False


class Sequential(object):
    def __init__(self, passes):
        self.passes = passes

    def __call__(self, mod):
        for p in self.passes:
            mod = p(mod)
        return mod
