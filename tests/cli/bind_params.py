#!/usr/bin/env python3
"""bind_params.py IN.relay [UPTO]: IN with @main's parameters after the first bound as #[metadata]
constants, the way TVM prints a model saved with its params (relaykit.save, bind_params_by_name):
each `%name` read in the body becomes `meta[relay.Constant][i]` and the section holds its NDArray
(small random floats).  With UPTO, the body ends at binding %UPTO, which it returns (a model's first
layers).  Needs no TVM: the tests build a mobilenet with bound params from the corpus's text."""
import base64, json, random, re, struct, sys

DTYPES = {"float32": (2, 32), "int32": (0, 32), "int64": (0, 64)}


def ndarray(shape, dtype):
    code, bits = DTYPES[dtype]
    n = 1
    for d in shape:
        n *= d
    rnd = random.Random(len(shape) * 1000 + n)
    if code == 2:
        data = struct.pack("<%df" % n, *(rnd.uniform(0.5, 1.5) for _ in range(n)))
    else:
        data = struct.pack("<%d%s" % (n, "i" if bits == 32 else "q"), *(rnd.randrange(4) for _ in range(n)))
    head = struct.pack("<QQiiiBBH", 0xDD5E40F096B4A13F, 0, 1, 0, len(shape), code, bits, 1)
    return base64.b64encode(head + struct.pack("<%dq" % len(shape), *shape) + struct.pack("<q", len(data)) + data).decode()


def section(consts):
    nodes = [{"type_key": ""}, {"type_key": "Map", "keys": ["relay.Constant"], "data": [2]},
             {"type_key": "Array", "data": []}]
    arrays = []
    for shape, dtype in consts:
        c = len(nodes)
        nodes[2]["data"].append(c)
        nodes.append({"type_key": "relay.Constant", "attrs": {"_checked_type_": str(c + 1), "data": str(len(arrays)),
                                                               "span": "0", "virtual_device_": "0"}})
        nodes.append({"type_key": "relay.TensorType", "attrs": {"dtype": dtype, "shape": str(c + 2), "span": "0"}})
        nodes.append({"type_key": "Array", "data": [c + 3 + i for i in range(len(shape))]})
        for d in shape:
            nodes.append({"type_key": "IntImm", "attrs": {"dtype": "int32", "span": "0", "value": str(d)}})
        arrays.append(ndarray(shape, dtype))
    return json.dumps({"root": 1, "nodes": nodes, "b64ndarrays": arrays, "attrs": {"tvm_version": "0.13.0"}}, indent=2)


def main():
    text = open(sys.argv[1]).read()
    upto = int(sys.argv[2]) if len(sys.argv) > 2 else None
    head, rest = text.split("def @main(", 1)
    params_text, body = rest.split(" {\n", 1)  # the parameters (and result type), the body
    params = re.findall(r"%([A-Za-z_0-9]+): Tensor\[\(([0-9, ]*)\), ([a-z0-9]+)\]", params_text)
    lines = body.rstrip().rstrip("}").rstrip().split("\n")
    if upto is not None:
        end = next(i for i, l in enumerate(lines) if l.startswith("  %%%d = " % upto))
        lines = lines[:end + 1] + ["  %%%d" % upto]
    body = "\n".join(lines)
    consts, first = [], params[0]
    for name, shape, dtype in params[1:]:
        if not re.search(r"%" + name + r"\b", body):
            continue
        body = re.sub(r"%" + name + r"\b", "meta[relay.Constant][%d]" % len(consts), body)
        consts.append(([int(d) for d in shape.split(",") if d.strip()], dtype))
    sys.stdout.write('%sdef @main(%%%s: Tensor[(%s), %s]) {\n%s\n}\n\n#[metadata]\n%s\n'
                     % (head, first[0], first[1], first[2], body, section(consts)))


main()
