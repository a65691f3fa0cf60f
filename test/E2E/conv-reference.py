#!/usr/bin/env python3
"""The convolution of Inputs/padded-conv.mlir, in Python.

Usage:
  conv-reference.py inputs DIR   writes x, w, b as DIR/{x,w,b}.npy
  conv-reference.py check RUN    compares the sums remat-run printed (JSON)
                                 with the reference's sum of y and of y*y

TOSA semantics: NHWC input, OHWI weight, padding (top, bottom, left,
right) of zeros, y[n,oh,ow,f] = b[f] + sum x[n, oh*s+kh*d-t, ow*s'+kw*d'-l, c]
* w[f,kh,kw,c]. Sums in double precision; the check allows 1e-5 relative.
"""

import json
import random
import struct
import sys

X = (2, 6, 7, 3)
W = (4, 3, 2, 3)
PAD = (1, 2, 0, 1)
STRIDE = (2, 1)
DILATION = (1, 2)


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def tensors():
    rng = random.Random(5)
    count = lambda shape: shape[0] * shape[1] * shape[2] * shape[3] if len(shape) == 4 else shape[0]
    make = lambda shape: [f32(rng.uniform(-1.0, 1.0)) for _ in range(count(shape))]
    return {"x": (X, make(X)), "w": (W, make(W)), "b": ((W[0],), make((W[0],)))}


def npy(path, shape, values):
    shape_repr = "(%s)" % "".join("%d," % d for d in shape)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape_repr
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


def reference():
    t = tensors()
    x, w, b = t["x"][1], t["w"][1], t["b"][1]
    n_, h, wd, c_ = X
    f_, kh_, kw_, _ = W
    oh_ = (h + PAD[0] + PAD[1] - (kh_ - 1) * DILATION[0] - 1) // STRIDE[0] + 1
    ow_ = (wd + PAD[2] + PAD[3] - (kw_ - 1) * DILATION[1] - 1) // STRIDE[1] + 1
    total = squares = 0.0
    for n in range(n_):
        for oh in range(oh_):
            for ow in range(ow_):
                for f in range(f_):
                    acc = b[f]
                    for kh in range(kh_):
                        for kw in range(kw_):
                            ih = oh * STRIDE[0] + kh * DILATION[0] - PAD[0]
                            iw = ow * STRIDE[1] + kw * DILATION[1] - PAD[2]
                            if not (0 <= ih < h and 0 <= iw < wd):
                                continue
                            for c in range(c_):
                                acc += (x[((n * h + ih) * wd + iw) * c_ + c] *
                                        w[((f * kh_ + kh) * kw_ + kw) * c_ + c])
                    total += acc
                    squares += acc * acc
    return (oh_, ow_), total, squares


def main(argv):
    if argv[1] == "inputs":
        for name, (shape, values) in tensors().items():
            npy("%s/%s.npy" % (argv[2], name), shape, values)
        return 0
    (oh, ow), total, squares = reference()
    with open(argv[2]) as f:
        outputs = json.load(f)["outputs"]
    shape = [X[0], oh, ow, W[0]]
    ok = all(o["shape"] == shape for o in outputs)
    for got, want in zip((o["sum"] for o in outputs), (total, squares)):
        ok = ok and abs(got - want) <= 1e-5 * max(1.0, abs(want))
    print("conv: %s (sums %r, reference %.6g %.6g)" %
          ("OK" if ok else "MISMATCH", [o["sum"] for o in outputs], total, squares))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
