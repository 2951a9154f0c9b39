"""Fake tvm.ir."""


def structural_equal(lhs, rhs, map_free_vars=False):
    return "FAKE_UNEQUAL" not in lhs.text + rhs.text
