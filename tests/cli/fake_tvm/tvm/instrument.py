"""Fake tvm.instrument: pass_instrument marks a class whose run_before_pass(mod, info) the fake
passes call (through the PassContexts entered, tvm.transform.CURRENT) before they run."""


def pass_instrument(cls):
    return cls


class PassInfo(object):  # pylint: disable=too-few-public-methods
    def __init__(self, name, opt_level=0):
        self.name, self.opt_level = name, opt_level
