#!/usr/bin/env python3
"""Writes malformed .npy files for a 4x8 f32 argument, one per flaw.

Usage: write-bad-npy.py DIR
Each file is DIR/<flaw>.npy; `good.npy` is a correct one.
"""

import os
import struct
import sys

DATA = struct.pack("<f", 0.5) * 32
GOOD = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }"


def npy(header, version=b"\x01\x00", length=None, data=DATA, pad=True):
    if pad:
        header += " " * (63 - (10 + len(header)) % 64) + "\n"
    raw = header.encode("latin1")
    size = len(raw) if length is None else length
    if version[0] == 1:
        prefix = struct.pack("<H", size)
    else:
        prefix = struct.pack("<I", size)
    return b"\x93NUMPY" + version + prefix + raw + data


CASES = {
    "good": npy(GOOD),
    "good-v2": npy(GOOD, version=b"\x02\x00"),
    "magic": b"\x93NUMPX\x01\x00" + npy(GOOD)[8:],
    "version": npy(GOOD, version=b"\x04\x00"),
    "minor": npy(GOOD, version=b"\x01\x05"),
    "short-length": b"\x93NUMPY\x01\x00\x40",
    "long-length": npy(GOOD, length=4000, data=b""),
    "no-newline": npy(GOOD, pad=False),
    "shape-cut": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, ",
                     data=b""),
    "shape-open": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8"),
    "shape-int": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (32), }"),
    "shape-list": npy("{'descr': '<f4', 'fortran_order': False, 'shape': [4, 8], }"),
    "shape-negative": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, -8), }"),
    "shape-missing": npy("{'descr': '<f4', 'fortran_order': False, }"),
    "key-unknown": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), 'x': 1}"),
    "key-twice": npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (4, 8)}"),
    "descr-bare": npy("{'descr': f4, 'fortran_order': False, 'shape': (4, 8)}"),
    "fortran-word": npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (4, 8)}"),
    "fortran": npy("{'descr': '<f4', 'fortran_order': True, 'shape': (4, 8)}"),
    "no-brace": npy("'descr': '<f4', 'fortran_order': False, 'shape': (4, 8)"),
    "trailing": npy(GOOD + " 7"),
    "data-short": npy(GOOD, data=DATA[:-4]),
    "data-long": npy(GOOD, data=DATA + b"\0"),
}


def main(directory):
    os.makedirs(directory, exist_ok=True)
    for name, contents in CASES.items():
        with open(os.path.join(directory, name + ".npy"), "wb") as f:
            f.write(contents)


if __name__ == "__main__":
    main(sys.argv[1])
