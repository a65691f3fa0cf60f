#!/usr/bin/env python3
"""Writes He-initialized .npy inputs for a training step, without numpy.

Usage: init-inputs.py STEP.mlir DIR > RESPONSE_FILE

For every argument of the step's remat.graph it writes DIR/argN.npy and
prints `--input=DIR/argN.npy`, a response file for `remat-run @FILE`. A
tensor of rank >= 2 (a weight) is uniform in +-sqrt(6 / fan_in), fan_in
being the product of all dims but the first (the He initialization, so
that activations neither vanish nor overflow through a deep network); a
rank-1 tensor (a bias, a norm's shift or mean) is 0.01, and a norm's
scale or variance (named "*_s_0", "*scale*", "*riv*", "*var*") 1; the batch and the target are uniform
in [-1, 1). Values repeat a fixed pseudo-random block: deterministic and
fast for models with millions of parameters.
"""

import os
import random
import re
import struct
import sys

BLOCK = 4099  # prime, so the block does not line up with the dims


def npy(path, shape, data):
    shape_repr = "(%s)" % "".join("%d," % d for d in shape) if shape else "()"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape_repr
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(data)


def values(count, scale, unit):
    reps = count // BLOCK + 1
    return (b"".join(struct.pack("<f", v * scale) for v in unit) * reps)[:4 * count]


def main(step, outdir):
    text = open(step).read()
    m = re.search(r"remat\.graph\s+@[\w.$]+\((.*?)\)\s*->", text, re.S)
    args = re.findall(r"%\w+\s*:\s*tensor<([^>]*)>(\s*\{[^}]*\})?", m.group(1))
    rng = random.Random(0)
    unit = [rng.uniform(-1.0, 1.0) for _ in range(BLOCK)]
    os.makedirs(outdir, exist_ok=True)
    for i, (ty, attrs) in enumerate(args):
        shape = [int(d) for d in ty.split("x")[:-1]]
        count = 1
        for d in shape:
            count *= d
        name = re.search(r'onnx\.name = "([^"]*)"', attrs or "")
        name = name.group(1) if name else ""
        if i == 0 or i == len(args) - 1 or not name:
            data = values(count, 1.0, unit)
        elif len(shape) >= 2:
            fan_in = count // shape[0]
            data = values(count, (6.0 / fan_in) ** 0.5, unit)
        elif re.search(r"_s_0$|scale|riv|var", name):
            data = struct.pack("<f", 1.0) * count
        else:
            data = struct.pack("<f", 0.01) * count
        path = os.path.join(outdir, "arg%d.npy" % i)
        npy(path, shape, data)
        print("--input=%s" % path)


if __name__ == "__main__":
    main(*sys.argv[1:])
