#!/usr/bin/env python3
"""Inputs and a hand-computed reference for the cross-entropy loss test.

    cross-entropy-reference.py inputs DIR   writes DIR/labels.npy (int32
        [2, 3]) and DIR/logits.npy (float32 [2, 3, 4]): one position's
        logits near 1000, whose exp overflows float32 unless shifted
    cross-entropy-reference.py check DIR    reads DIR/out/result-0.npy (the
        loss) and result-1.npy (the gradient of the parameter w, where the
        model's logits are w + w), and compares them with
        loss = mean over positions of log(sum_c exp(2w_c)) - 2w_label,
        dL/dw = 2 (softmax(2w) - onehot(label)) / positions,
    computed here in double precision
"""

import math
import os
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npy_files import read_f32, write_npy  # noqa: E402

SHAPE = (2, 3, 4)
LABELS = [0, 3, 1, 2, 2, 0]
LOGITS = [0.5, -1.0, 0.25, 2.0,
          1000.0, 1001.5, 999.0, 1000.25,
          -0.75, 0.0, 0.125, -2.0,
          3.0, 3.0, 3.0, 3.0,
          -1.5, 0.5, 1.25, 0.0,
          0.0, -0.5, 0.75, 1.0]


def reference():
    classes = SHAPE[-1]
    positions = len(LABELS)
    loss = 0.0
    grad = []
    for p, label in enumerate(LABELS):
        z = [2.0 * v for v in LOGITS[p * classes:(p + 1) * classes]]
        top = max(z)
        lse = top + math.log(sum(math.exp(v - top) for v in z))
        loss += (lse - z[label]) / positions
        for c, v in enumerate(z):
            hot = 1.0 if c == label else 0.0
            grad.append(2.0 * (math.exp(v - lse) - hot) / positions)
    return loss, grad


def main(argv):
    mode, outdir = argv[1], argv[2]
    if mode == "inputs":
        write_npy(os.path.join(outdir, "labels.npy"), "<i4", SHAPE[:-1],
                  struct.pack("<%di" % len(LABELS), *LABELS))
        write_npy(os.path.join(outdir, "logits.npy"), "<f4", SHAPE,
                  struct.pack("<%df" % len(LOGITS), *LOGITS))
        return 0
    loss, grad = reference()
    got_loss = read_f32(os.path.join(outdir, "out", "result-0.npy"))[0]
    got_grad = read_f32(os.path.join(outdir, "out", "result-1.npy"))
    problems = []
    if not math.isfinite(got_loss) or abs(got_loss - loss) > 1e-5 * max(1.0, abs(loss)):
        problems.append("loss %r, expected %r" % (got_loss, loss))
    # float32 rounds a logit z to within |z| 2^-24, and exp(z - lse) carries
    # that error: allow a few such roundings of the position's largest
    # logit, times the gradient's scale 2 / positions.
    classes = SHAPE[-1]
    scale = 2.0 / len(LABELS)
    for i, (g, r) in enumerate(zip(got_grad, grad)):
        p = i // classes
        top = max(abs(2.0 * v) for v in LOGITS[p * classes:(p + 1) * classes])
        if not abs(g - r) <= scale * (8 * top * 2.0 ** -24 + 1e-6):
            problems.append("gradient #%d is %r, expected %r" % (i, g, r))
    if len(got_grad) != len(grad):
        problems.append("%d gradient values, expected %d" %
                        (len(got_grad), len(grad)))
    print("cross-entropy: %s (loss %.6f)" % ("; ".join(problems) or "OK", got_loss))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
