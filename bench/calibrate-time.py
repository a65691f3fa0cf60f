#!/usr/bin/env python3
"""Measures this machine's time model for remat-plan (TargetTime.h) and
writes it as JSON, for `--remat-plan="time-model=<file>"`.

The model is a roofline per kind of kernel: an op takes seconds_per_op
plus the longer of its FLOPs at efficiency[kind] x peak and its bytes at
bytes_per_second. Each number comes from compiled functions that remat-run
times, the fastest of --repeat warm runs (this machine's timings carry
noise that only ever adds), one thread unless --step-threads. A kernel's
time is its function's less that of a function of one add of 16 floats
(the harness's own time). Elementwise ops are measured one per function:
the lowering fuses chains of them into one kernel.

- peak_flops_per_second: bench/fma_peak.c, one core's fp32 FMA peak;
- seconds_per_op: a chain of 257 products of 4x4 matrices, less one;
- bytes_per_second: one add of two 4M-float tensors (48 MiB read and
  written);
- efficiency.streaming: one add of two 16K-float tensors (in cache), its
  FLOPs over its time;
- efficiency.window: one 3x3 max pool (stride 1) of 56x56x64 floats, its
  FLOPs over its time;
- efficiency.matrix_product: one 256^3 and one 512^3 matrix product (the
  median of the two);
- efficiency.convolution: training steps (remat-autodiff, loss=mse) of
  stacks of 3x3 convolutions, whose three kernels per layer carry almost
  all of the step's FLOPs: the step's FLOPs over its time (the few
  elementwise ops in it make this a slight underestimate).

Usage: python3 bench/calibrate-time.py [--build build] [--out FILE]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fma_peak import measured_peak_gflops  # noqa: E402
from results_page import ROOT, machine_stamp  # noqa: E402


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, check=True,
                          capture_output=True).stdout


class Tools:
    def __init__(self, build, repeat, threads):
        self.opt = os.path.join(build, "bin", "remat-opt")
        self.run_tool = os.path.join(build, "bin", "remat-run")
        self.repeat = repeat
        self.threads = threads

    def seconds(self, module_text):
        """The fastest run of the module's only function, in seconds."""
        report = json.loads(run(
            [self.run_tool, "-", "--json", "--repeat=%d" % self.repeat,
             "--step-threads=%d" % self.threads],
            stdin=module_text.encode()))
        return min(report["times_ms"]) / 1e3

    def base_flops(self, step_text, work):
        """FLOPs of a step as remat-plan's cost model counts them."""
        path = os.path.join(work, "step.mlir")
        report = os.path.join(work, "report.json")
        with open(path, "w") as f:
            f.write(step_text)
        run([self.opt, path, "--remat-plan=report=%s cost-model=flops" %
             report, "-o", os.devnull])
        with open(report) as f:
            return json.load(f)["graphs"][0]["base_flops"]

    def autodiff(self, forward_text, work):
        path = os.path.join(work, "forward.mlir")
        with open(path, "w") as f:
            f.write(forward_text)
        return run([self.opt, path, "--remat-autodiff=loss=mse"]).decode()


def add_two(elements):
    """A function adding two tensors of `elements` floats."""
    t = "tensor<%dxf32>" % elements
    return ("func.func @add(%%x: %s, %%y: %s) -> %s {\n"
            "  %%a = tosa.add %%x, %%y : (%s, %s) -> %s\n"
            "  return %%a : %s\n}\n" % (t, t, t, t, t, t, t))


def matmul_chain(n, count):
    t = "tensor<1x%dx%dxf32>" % (n, n)
    lines = ["func.func @chain(%%x: %s, %%w: %s) -> %s {" % (t, t, t),
             '  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}>'
             " : () -> tensor<1xf32>"]
    prev = "%x"
    for i in range(count):
        lines.append("  %%m%d = tosa.matmul %s, %%w, %%zp, %%zp : (%s, %s, "
                     "tensor<1xf32>, tensor<1xf32>) -> %s" % (i, prev, t, t, t))
        prev = "%%m%d" % i
    lines.append("  return %s : %s\n}" % (prev, t))
    return "\n".join(lines) + "\n"


def max_pool(size, channels):
    t = "tensor<1x%dx%dx%dxf32>" % (size, size, channels)
    return ("func.func @pool(%%x: %s) -> %s {\n"
            "  %%p = tosa.max_pool2d %%x {kernel = array<i64: 3, 3>, "
            "pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : "
            "(%s) -> %s\n  return %%p : %s\n}\n" % (t, t, t, t, t))


def conv_stack(size, channels, layers):
    """A forward function of `layers` padded 3x3 convolutions with tanh."""
    t = "tensor<1x%dx%dx%dxf32>" % (size, size, channels)
    w = "tensor<%dx3x3x%dxf32>" % (channels, channels)
    b = "tensor<%dxf32>" % channels
    args = ["%%x: %s" % t] + ["%%w%d: %s, %%b%d: %s" % (i, w, i, b)
                              for i in range(layers)]
    lines = ["func.func @convs(%s) -> %s {" % (", ".join(args), t),
             '  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}>'
             " : () -> tensor<1xf32>"]
    prev = "%x"
    for i in range(layers):
        lines.append(
            "  %%c%d = tosa.conv2d %s, %%w%d, %%b%d, %%zp, %%zp {acc_type = "
            "f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, "
            "stride = array<i64: 1, 1>} : (%s, %s, %s, tensor<1xf32>, "
            "tensor<1xf32>) -> %s" % (i, prev, i, i, t, w, b, t))
        lines.append("  %%r%d = tosa.tanh %%c%d : (%s) -> %s" % (i, i, t, t))
        prev = "%%r%d" % i
    lines.append("  return %s : %s\n}" % (prev, t))
    return "\n".join(lines) + "\n"


def median(values):
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] +
                                                 values[mid]) / 2


def calibrate(tools, work, log):
    model = {"target": "cpu", "peak_flops_per_second": measured_peak_gflops(work) * 1e9}
    peak = model["peak_flops_per_second"]
    log("peak: %.1f GFLOP/s" % (peak / 1e9))

    base = tools.seconds(add_two(16))
    one = tools.seconds(matmul_chain(4, 1))
    many = tools.seconds(matmul_chain(4, 257))
    model["seconds_per_op"] = max(0.0, (many - one) / 256)
    per_op = model["seconds_per_op"]
    log("seconds_per_op: %.3g (harness: %.4f ms; 1 product of 4x4: %.4f ms, "
        "257: %.4f ms)" % (per_op, base * 1e3, one * 1e3, many * 1e3))

    big = 1 << 22
    add_seconds = tools.seconds(add_two(big)) - base
    model["bytes_per_second"] = 3 * 4 * big / max(add_seconds - per_op, 1e-9)
    log("bytes_per_second: %.3g (one add of 4M floats: %.3f ms)" %
        (model["bytes_per_second"], add_seconds * 1e3))

    small = 1 << 14
    add_seconds = tools.seconds(add_two(small)) - base
    model["efficiency"] = {"streaming": min(1.0, small / (
        peak * max(add_seconds - per_op, 1e-12)))}
    log("efficiency.streaming: %.3g (one add of 16K floats: %.2f us)" %
        (model["efficiency"]["streaming"], add_seconds * 1e6))

    pool = max_pool(56, 64)
    pool_seconds = tools.seconds(pool) - base
    model["efficiency"]["window"] = min(1.0, tools.base_flops(pool, work) / (
        peak * max(pool_seconds - per_op, 1e-12)))
    log("efficiency.window: %.3g (max pool: %.3f ms)" %
        (model["efficiency"]["window"], pool_seconds * 1e3))

    shares = []
    for n in (256, 512):
        seconds = tools.seconds(matmul_chain(n, 1)) - base - per_op
        shares.append(2.0 * n ** 3 / (peak * seconds))
        log("matrix product %d^3: %.3f ms, %.1f%% of peak" %
            (n, seconds * 1e3, 100 * shares[-1]))
    model["efficiency"]["matrix_product"] = min(1.0, median(shares))

    shares = []
    for size, channels in ((28, 32), (14, 64), (56, 16)):
        step = tools.autodiff(conv_stack(size, channels, 4), work)
        flops = tools.base_flops(step, work)
        seconds = tools.seconds(step) - base
        shares.append(flops / (peak * seconds))
        log("convolution step %dx%dx%d x4: %.3f ms, %.1f%% of peak" %
            (size, size, channels, seconds * 1e3, 100 * shares[-1]))
    model["efficiency"]["convolution"] = min(1.0, median(shares))
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default="-",
                        help="where to write the JSON (default: stdout)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--step-threads", type=int, default=1)
    args = parser.parse_args()
    tools = Tools(args.build, args.repeat, args.step_threads)
    with tempfile.TemporaryDirectory() as work:
        model = calibrate(tools, work,
                          lambda line: print(line, file=sys.stderr))
    print("# %s, %d thread(s)" % (machine_stamp(), args.step_threads),
          file=sys.stderr)
    text = json.dumps(model, indent=2) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
