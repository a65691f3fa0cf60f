"""Pins OpenBLAS's kernels to the host's vector unit before PyTorch or
NumPy load it, so that the peer is not handicapped by a CPU it does not
know. Import this module before numpy and torch.

OpenBLAS picks its kernels by CPU model; one newer than its table gets
the oldest x86 kernels. Debian's OpenBLAS 0.3.21 takes a Xeon of model
207 (family 6) with AVX-512 for a Prescott (SSE3): a 1024x1024 product
ran at 19 GFLOP/s on one thread, and at 108 with OPENBLAS_CORETYPE=SkylakeX.
A core named by the user (OPENBLAS_CORETYPE set) is left as it is.
"""

import os


def host_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def kernel_core(flags):
    """The OpenBLAS core whose kernels use the widest vectors the host has
    (None: let OpenBLAS choose)."""
    if "avx512f" in flags and "avx512bw" in flags and "avx512vl" in flags:
        return "SkylakeX"
    if "avx2" in flags and "fma" in flags:
        return "Haswell"
    return None


def pin():
    if "OPENBLAS_CORETYPE" not in os.environ:
        core = kernel_core(host_flags())
        if core:
            os.environ["OPENBLAS_CORETYPE"] = core
    return os.environ.get("OPENBLAS_CORETYPE", "chosen by OpenBLAS")


CORE = pin()
