import relaykit
from tvm import relay
from tvm.relay import testing

mod, params = testing.mobilenet.get_workload(batch_size=1)

def check(mod, params):  # True while the bug is there: here, a grouped nn.conv2d
    found = []
    relay.analysis.post_order_visit(mod["main"], lambda e: isinstance(e, relay.Call)
        and getattr(e.op, "name", "") == "nn.conv2d" and e.attrs.groups > 1 and found.append(e))
    return bool(found)

small, small_params = relaykit.reduce(mod, check, params=params, quiet=True)
print(len(mod.astext()), "->", len(small.astext()), "bytes:", small["main"].body.op.name)
relay.build(small, target="llvm", params=small_params)  # it still builds
