#!/usr/bin/python3
"""Compiled step time: Remat's vectorized and naive CPU lowerings against
PyTorch eager, one thread each.

For each example (mlp, transformer, resnet), planned at budget 0.7: the
median of --repeat timed runs after a warm-up (remat-run --repeat) of the
step lowered by remat-to-cpu (vectorized, the default) and by
remat-to-cpu{vectorize=false} (scalar loop nests), and the median of
--repeat warm eager steps of the same model in PyTorch
(bench/peers/torch_steps.py, torch.set_num_threads(1)). Both of Remat's
runs must measure the planned arena to the byte. GFLOP/s is the planned
step's FLOPs (the report's base_flops + extra_flops, Remat's cost model)
over the median time, and the share of peak is that over one core's fp32
FMA peak: the clock /proc/cpuinfo gives times --flops-per-cycle (32 on AMD
Zen 4: two 256-bit FMA pipes, a 512-bit FMA taking both).

Then the compile time of a large step: the shared ResNet-50 ONNX model
imported at batch 1, 3x32x32, head adapted, with a mean-squared-error
training step (as bench/onnx-optimizers.py makes it), unplanned: the
lowering (remat-opt --remat-to-cpu) and the JIT compilation (remat-run's
wall time less the step's time_ms), for both lowerings with one compile
thread and one per core, and for the vectorized one with
share-kernels=false (every kernel lowered in place) with one per core;
then remat-run on the step file, lowering and compiling in one process.

Run with Debian's Python and PyTorch, with OpenBLAS's serial libblas.so.3
selected (update-alternatives; bench/peers/setup.sh installs it): with
the reference BLAS PyTorch's matrix products are 5-15x slower.

    /usr/bin/python3 bench/compiled-speed.py [--build build] [--repeat 5]

Writes bench/results/compiled-speed.md.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "peers"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from results_page import (ROOT, machine_stamp, markdown_table,  # noqa: E402
                          write_text)
from pytorch_peer import signature  # noqa: E402
from torch_measure import measure_time_ms  # noqa: E402
from torch_steps import STEPS  # noqa: E402

EXAMPLES = ["mlp", "transformer", "resnet"]
BUDGET = "0.7"
LARGE_MODEL = "resnet50"


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, check=True,
                          capture_output=True).stdout


def blas_library():
    """The libblas.so.3 this process loaded (after a matrix product)."""
    torch.ones(4, 4) @ torch.ones(4, 4)
    with open("/proc/self/maps") as f:
        for line in f:
            if "libblas" in line or "libopenblas" in line:
                return line.split()[-1]
    return "none loaded"


def core_clock_ghz():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("cpu MHz"):
                return float(line.split(":")[1]) / 1000.0
    raise SystemExit("no clock in /proc/cpuinfo")


def remat_time(run_tool, module, repeat, extra=()):
    report = json.loads(run([run_tool, "-", "--json",
                             "--repeat=%d" % repeat] + list(extra),
                            stdin=module))
    return report["time_ms"], report["arena_bytes"]


def measure_example(name, args, tools, work):
    opt, run_tool = tools["remat-opt"], tools["remat-run"]
    example = os.path.join(ROOT, "examples", name + ".mlir")
    report_path = os.path.join(work, name + ".json")
    planned = run([opt, example, "--remat-pipeline=budget=%s best-effort=true "
                   "report=%s" % (BUDGET, report_path)])
    with open(report_path) as f:
        graph = json.load(f)["graphs"][0]
    flops = graph["base_flops"] + graph["extra_flops"]

    fast_ms, fast_arena = remat_time(run_tool, planned, args.repeat)
    naive = run([opt, "-", "--remat-to-cpu=vectorize=false"], stdin=planned)
    naive_ms, naive_arena = remat_time(run_tool, naive, args.repeat)
    for arena in (fast_arena, naive_arena):
        if arena != graph["arena_bytes"]:
            raise SystemExit("%s: measured arena %d, planned %d" %
                             (name, arena, graph["arena_bytes"]))

    step, num_batch = STEPS[name]
    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-0.5, 0.5, s).astype(np.float32)
              for s in signature(example)]
    inputs = [torch.from_numpy(a) for a in arrays[:num_batch]]
    params = [torch.from_numpy(a).requires_grad_() for a in arrays[num_batch:]]
    torch_ms = measure_time_ms(step, inputs, params, args.repeat)
    return dict(name=name, flops=flops, fast=fast_ms, naive=naive_ms,
                torch=torch_ms, arena=graph["arena_bytes"])


def cpu_seconds():
    """User and system CPU seconds of the children waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd, stdin=None):
    """Wall seconds, CPU seconds (of this and every child process) and
    stdout of cmd: the machine may be shared, and CPU time is what the
    compilation costs whatever else runs."""
    cpu = cpu_seconds()
    start = time.perf_counter()
    out = run(cmd, stdin=stdin)
    return time.perf_counter() - start, cpu_seconds() - cpu, out


def measure_compile(args, tools, work):
    """Lowering and JIT seconds of the large step, per lowering and per
    number of compile threads."""
    model = os.path.join(ROOT, "..", "shared", "models", "onnx",
                         LARGE_MODEL + ".onnx")
    imported = os.path.join(work, LARGE_MODEL + ".mlir")
    step = os.path.join(work, LARGE_MODEL + ".step.mlir")
    run([tools["remat-translate"], "--import-onnx", model, "--onnx-batch=1",
         "--onnx-input-shape=3x32x32", "--onnx-adapt", "-o", imported])
    run([tools["remat-opt"], imported, "--remat-autodiff=loss=mse", "-o",
         step])
    threads = os.cpu_count()
    rows = []
    for label, option, thread_counts in (
            ("vectorized", "vectorize=true", (1, threads)),
            ("vectorized, every kernel in place",
             "vectorize=true share-kernels=false", (threads,)),
            ("naive", "vectorize=false", (1, threads))):
        lower, lower_cpu, lowered = timed([tools["remat-opt"], step,
                                           "--remat-to-cpu=" + option])
        for count in thread_counts:
            wall, cpu, out = timed([tools["remat-run"], "-", "--json",
                                    "--compile-threads=%d" % count],
                                   stdin=lowered)
            step_s = json.loads(out)["time_ms"] / 1e3
            rows.append(dict(label=label, option=option, threads=count,
                             lower=lower, lower_cpu=lower_cpu,
                             jit=wall - step_s, jit_cpu=cpu - step_s,
                             step=step_s * 1e3))
    # What a user runs: the step file to its first result in one process,
    # lowered, compiled and run by remat-run (no textual round trip).
    in_process = []
    for count in (1, threads):
        wall, cpu, out = timed([tools["remat-run"], step, "--json",
                                "--compile-threads=%d" % count])
        step_s = json.loads(out)["time_ms"] / 1e3
        in_process.append(dict(threads=count, total=wall - step_s,
                               total_cpu=cpu - step_s, step=step_s * 1e3))
    return rows, in_process


def page(results, compile_results, args, blas):
    peak = core_clock_ghz() * args.flops_per_cycle
    rows = []
    for r in results:
        def rate(ms):
            return r["flops"] / ms / 1e6
        rows.append([
            "`examples/%s.mlir`" % r["name"], "%.1f M" % (r["flops"] / 1e6),
            "%.1f ms" % r["naive"], "%.2f ms" % r["fast"],
            "%.2f ms" % r["torch"], "%.1fx" % (r["naive"] / r["fast"]),
            "%.2f" % (r["fast"] / r["torch"]),
            "%.1f" % rate(r["fast"]),
            "%.0f%%" % (100.0 * rate(r["fast"]) / peak),
            "%.1f" % rate(r["torch"])])
    header = ["step (budget %s)" % BUDGET, "FLOPs", "naive", "vectorized",
              "PyTorch eager", "speed-up", "vectorized / PyTorch",
              "GFLOP/s", "share of peak", "PyTorch GFLOP/s"]
    compile_rows, in_process = compile_results or ([], [])
    compile_table = markdown_table(
        ["lowering", "`remat-to-cpu` options", "remat-to-cpu (s, CPU s)",
         "compile threads", "JIT compile (s, CPU s)", "total (s, CPU s)",
         "step (ms)"],
        [[c["label"], "`%s`" % c["option"],
          "%.1f, %.1f" % (c["lower"], c["lower_cpu"]), "%d" % c["threads"],
          "%.1f, %.1f" % (c["jit"], c["jit_cpu"]),
          "%.1f, %.1f" % (c["lower"] + c["jit"],
                          c["lower_cpu"] + c["jit_cpu"]),
          "%.0f" % c["step"]] for c in compile_rows]) if compile_rows else (
        "Not measured in this run (`--skip-compile`).")
    in_process_table = markdown_table(
        ["compile threads", "step file to compiled step (s, CPU s)",
         "step (ms)"],
        [["%d" % c["threads"], "%.1f, %.1f" % (c["total"], c["total_cpu"]),
          "%.0f" % c["step"]] for c in in_process]) if in_process else ""
    text = """# Compiled step time against PyTorch

%s; one thread each; medians of %d timed runs after a warm-up
(`remat-run --repeat=%d`, PyTorch eager steps the same way). The machine
was shared with other work while this ran, so single figures are noisy.
PyTorch %s with %s. fp32 FMA peak of one core: %.1f GHz x %d FLOP/cycle =
%.0f GFLOP/s. FLOPs are Remat's cost model's for the planned step
(recomputation included); PyTorch's GFLOP/s uses the same count. Every
Remat run measured the planned arena to the byte.

```sh
/usr/bin/python3 bench/compiled-speed.py --repeat %d%s
```

%s

## Compile time

The shared `%s.onnx`, batch 1, 3x32x32, head adapted, mean-squared-error
training step, unplanned: `remat-opt --remat-to-cpu` (MLIR lowering) and
`remat-run`'s JIT compilation of the lowered text (wall time less the
step's `time_ms`, which includes parsing the lowered module; CPU seconds
of the processes beside it, which a shared machine does not stretch), with
one compile thread (the LLVM module whole) and one per core (the module in
parts compiled concurrently, `--compile-threads`). `share-kernels=false`
lowers every linalg op where it is instead of calling one function per
kind of op.

%s

What a user runs, `remat-run step.mlir`: the step lowered, compiled and
run in one process, wall time (and CPU seconds) less the step's own
`time_ms`:

%s
""" % (machine_stamp(), args.repeat, args.repeat, torch.__version__, blas,
       core_clock_ghz(), args.flops_per_cycle, peak, args.repeat,
       " --skip-compile" if not compile_rows else "",
       markdown_table(header, rows), LARGE_MODEL, compile_table,
       in_process_table)
    write_text("compiled-speed.md", text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--flops-per-cycle", type=int, default=32)
    parser.add_argument("--skip-compile", action="store_true",
                        help="leave out the large step's compile time")
    args = parser.parse_args()
    tools = {name: os.path.join(args.build, "bin", name)
             for name in ("remat-opt", "remat-run", "remat-translate")}
    torch.set_num_threads(1)
    blas = blas_library()
    work = tempfile.mkdtemp(prefix="remat-compiled-speed-")
    results = [measure_example(name, args, tools, work) for name in EXAMPLES]
    compile_results = None if args.skip_compile else measure_compile(
        args, tools, work)
    page(results, compile_results, args, blas)


if __name__ == "__main__":
    main()
