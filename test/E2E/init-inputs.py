#!/usr/bin/env python3
"""Writes He-initialized .npy inputs for a training step, without numpy.

Usage: init-inputs.py STEP.mlir DIR [INT_BOUND] > RESPONSE_FILE

For every argument of the step's remat.graph it writes DIR/argN.npy and
prints `--input=DIR/argN.npy`, a response file for `remat-run @FILE`. A
tensor of rank >= 2 (a weight) is uniform in +-sqrt(6 / fan_in), fan_in
being the product of all dims but the first (the He initialization, so
that activations neither vanish nor overflow through a deep network); a
rank-1 tensor (a bias, a norm's shift or mean) is 0.01, and a norm's
scale or variance (named "*_s_0", "*scale*", "*riv*", "*var*") 1; the batch and the target are uniform
in [-1, 1). Values repeat a fixed pseudo-random block: deterministic and
fast for models with millions of parameters. An i32 tensor (token ids,
labels, a dropout seed) holds integers in [0, INT_BOUND) (default 2): valid
indices for every table and class axis at least that long.
"""

import os
import random
import re
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npy_files import write_npy  # noqa: E402

BLOCK = 4099  # prime, so the block does not line up with the dims


def npy(path, shape, data, descr="<f4"):
    write_npy(path, descr, shape, data)


def values(count, scale, unit):
    reps = count // BLOCK + 1
    return (b"".join(struct.pack("<f", v * scale) for v in unit) * reps)[:4 * count]


def main(step, outdir, int_bound="2"):
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
        path = os.path.join(outdir, "arg%d.npy" % i)
        if ty.endswith("i32"):
            ints = [rng.randrange(int(int_bound)) for _ in range(count)]
            npy(path, shape, struct.pack("<%di" % count, *ints), "<i4")
            print("--input=%s" % path)
            continue
        if i == 0 or i == len(args) - 1 or not name:
            data = values(count, 1.0, unit)
        elif len(shape) >= 2:
            fan_in = count // shape[0]
            data = values(count, (6.0 / fan_in) ** 0.5, unit)
        elif re.search(r"_s_0$|scale|riv|var", name):
            data = struct.pack("<f", 1.0) * count
        else:
            data = struct.pack("<f", 0.01) * count
        npy(path, shape, data)
        print("--input=%s" % path)


if __name__ == "__main__":
    main(*sys.argv[1:])
