#!/usr/bin/env python3
"""Writes a .npy file (format 1.0) filled with one value, without numpy.

Usage: write-npy.py PATH DESCR SHAPE VALUE
  DESCR: a numpy type string such as <f4, <f8, <i4, <i8
  SHAPE: comma-separated dimensions, empty for a scalar
"""

import struct
import sys

FORMATS = {"<f4": "<f", "<f8": "<d", "<i4": "<i", "<i8": "<q"}


def main(path, descr, shape_text, value):
    shape = tuple(int(d) for d in shape_text.split(",") if d)
    count = 1
    for dim in shape:
        count *= dim
    shape_repr = "(%s)" % "".join("%d," % d for d in shape) if shape else "()"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, shape_repr)
    # Pad so that the data starts on a multiple of 64 bytes.
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    fmt = FORMATS[descr]
    number = float(value) if fmt[-1] in "fd" else int(value)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack(fmt, number) * count)


if __name__ == "__main__":
    main(*sys.argv[1:])
