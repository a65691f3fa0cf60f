"""One core's measured fp32 FMA peak, by bench/fma_peak.c: the rate the
speed and time-model pages divide by."""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measured_peak_gflops(work):
    """One core's fp32 FMA peak in GFLOP/s; `work` holds the binary."""
    clang = shutil.which("clang-22") or shutil.which("clang")
    if not clang:
        raise SystemExit("no clang to compile bench/fma_peak.c")
    binary = os.path.join(work, "fma_peak")
    # -march=native alone tunes some AVX-512 hosts to prefer 256-bit
    # vectors, and splits each 16-lane FMA into two of 8 lanes: on a Xeon
    # of model 207 that measured 85-95 GFLOP/s, with the option 176.
    subprocess.run([clang, "-O2", "-march=native", "-mprefer-vector-width=512",
                    "-ffp-contract=fast",
                    os.path.join(ROOT, "bench", "fma_peak.c"), "-o", binary],
                   check=True, capture_output=True)
    return float(subprocess.run([binary], check=True,
                                capture_output=True).stdout)
