"""Compares the results two runs wrote with remat-run --output-dir.

usage: compare-outputs.py REFERENCE_DIR OTHER_DIR RELATIVE_TOLERANCE

Integer and boolean results must be equal. A floating-point result may
differ from the reference element by element by at most the tolerance times
the largest magnitude in the reference result (differences in rounding, such
as a fused multiply-add against a multiply then an add, scale with the
values summed, not with each element). Prints one line per result and
exits with 1 when one differs by more.
"""

import ast
import glob
import math
import os
import struct
import sys

FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|i1": "b",
           "|b1": "?"}


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise SystemExit(f"{path}: not a .npy file")
    major = data[6]
    if major == 1:
        (length,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (length,) = struct.unpack("<I", data[8:12])
        start = 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    code = FORMATS[header["descr"]]
    count = math.prod(header["shape"])
    body = data[start + length:]
    return header["descr"], list(struct.unpack(f"<{count}{code}", body))


def main():
    reference_dir, other_dir, tolerance = sys.argv[1], sys.argv[2], float(
        sys.argv[3])
    paths = sorted(glob.glob(os.path.join(reference_dir, "result-*.npy")),
                   key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0]))
    if not paths:
        raise SystemExit(f"no results in {reference_dir}")
    failed = False
    for path in paths:
        name = os.path.basename(path)
        descr, expected = read_npy(path)
        other_descr, actual = read_npy(os.path.join(other_dir, name))
        if descr != other_descr or len(expected) != len(actual):
            print(f"{name}: {other_descr} x {len(actual)}, expected "
                  f"{descr} x {len(expected)}")
            failed = True
            continue
        if descr[1] != "f":
            ok = expected == actual
            print(f"{name}: {'equal' if ok else 'DIFFERENT'}")
            failed |= not ok
            continue
        scale = max((abs(v) for v in expected), default=0.0)
        error = max((abs(a - b) for a, b in zip(expected, actual)),
                    default=0.0)
        ok = error <= tolerance * scale
        print(f"{name}: max difference {error:.3g} of largest magnitude "
              f"{scale:.3g}: {'within' if ok else 'BEYOND'} {tolerance:g}")
        failed |= not ok
    print("FAILED" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
