"""Minimal .npy reading and writing (format 1.0) for the E2E checks, which
run without numpy."""

import struct


def write_npy(path, descr, shape, payload):
    """Writes `payload` (packed little-endian values) as a C-order array."""
    shape_repr = "(%s)" % "".join("%d," % d for d in shape) if shape else "()"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, shape_repr)
    # Pad so that the data starts on a multiple of 64 bytes.
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(payload)


def read_f32(path):
    """The float32 values of a version 1.0 .npy file, flattened."""
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    body = data[10 + length:]
    return list(struct.unpack("<%df" % (len(body) // 4), body))
