#!/usr/bin/env python3
"""An independent Philox4x32-10 for the dropout test.

    dropout-reference.py inputs DIR   writes DIR/x.npy (float32 [8, 16], all
        ones) and DIR/seed.npy (int32 scalar 5)
    dropout-reference.py check DIR [OUT NODE_SEED]
        reads DIR/OUT/result-0.npy (OUT: out), the dropout of x with ratio
        0.25 in training mode and the node's seed attribute NODE_SEED
        (0: none), and checks each element against the mask computed here:
        kept (value 1/0.75) when the first Philox word of counter
        (i, 0, 0, 0) under key (5, NODE_SEED) is at least 0.25 * 2^32, else
        0
"""

import os
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npy_files import read_f32, write_npy  # noqa: E402

SHAPE = (8, 16)
SEED = 5
RATIO = 0.25
MASK32 = 0xFFFFFFFF


def philox(counter, key):
    c, k = list(counter), list(key)
    for r in range(10):
        if r:
            k = [(k[0] + 0x9E3779B9) & MASK32, (k[1] + 0xBB67AE85) & MASK32]
        p0 = 0xD2511F53 * c[0]
        p1 = 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & MASK32,
             (p0 >> 32) ^ c[3] ^ k[1], p0 & MASK32]
    return c


def main(argv):
    mode, outdir = argv[1], argv[2]
    count = SHAPE[0] * SHAPE[1]
    if mode == "inputs":
        write_npy(os.path.join(outdir, "x.npy"), "<f4", SHAPE,
                  struct.pack("<%df" % count, *([1.0] * count)))
        write_npy(os.path.join(outdir, "seed.npy"), "<i4", (),
                  struct.pack("<i", SEED))
        return 0
    out, node_seed = (argv[3], int(argv[4])) if len(argv) > 3 else ("out", 0)
    got = read_f32(os.path.join(outdir, out, "result-0.npy"))
    threshold = int(RATIO * 2 ** 32)
    kept_value = struct.unpack("<f", struct.pack("<f", 1.0 / (1.0 - RATIO)))[0]
    wrong = [i for i in range(count)
             if got[i] != (kept_value if philox([i, 0, 0, 0], [SEED, node_seed])[0]
                           >= threshold else 0.0)]
    kept = sum(1 for v in got if v != 0.0)
    print("dropout: %s (%d of %d kept)" % (
        "OK" if not wrong else "%d elements differ from the reference mask,"
        " first #%d" % (len(wrong), wrong[0]), kept, count))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
