"""Fake tvm.transform."""


class PassContext(object):
    def __init__(self, opt_level=2, required_pass=None):
        self.opt_level = opt_level

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Sequential(object):
    def __init__(self, passes):
        self.passes = passes

    def __call__(self, mod):
        for p in self.passes:
            mod = p(mod)
        return mod
