#!/usr/bin/python3
"""Compiled step time: Remat's vectorized and naive CPU lowerings against
PyTorch eager, one thread each, then two threads each.

For each example (mlp, transformer, resnet), planned at budget 0.7: the
median of --repeat timed runs after a warm-up (remat-run --repeat) of the
step lowered by remat-to-cpu (vectorized, the default) and by
remat-to-cpu{vectorize=false} (scalar loop nests), and the median of
--repeat warm eager steps of the same model in PyTorch
(bench/peers/torch_steps.py, torch.set_num_threads(1)); then Remat's
vectorized step with two threads (remat-run --step-threads=2) against
PyTorch's with torch.set_num_threads(2). Every Remat run must measure the
planned arena to the byte. GFLOP/s is the planned
step's FLOPs (the report's base_flops + extra_flops, Remat's cost model)
over the median time, and the share of peak is that over one core's fp32
FMA peak, measured by bench/fma_peak.c (compiled with clang -O2
-march=native -mprefer-vector-width=512): the clock /proc/cpuinfo gives is the nominal one, which a
virtual machine's cores exceed.

Then the shared SqueezeNet and ResNet-50 ONNX models' training steps at
batch 4 (3x32x32, head adapted, mean-squared-error loss, unrematerialized)
against torchvision's models of the same architecture in PyTorch eager,
one and two threads each, each PyTorch step timed in a process of its own.

Then the compile time of a large step: the shared ResNet-50 ONNX model
imported at batch 1, 3x32x32, head adapted, with a mean-squared-error
training step (as bench/onnx-optimizers.py makes it), unplanned: the
lowering (remat-opt --remat-to-cpu) and the JIT compilation (remat-run's
wall time less the step's time_ms), for both lowerings with one compile
thread and one per core, and with --unshared for the vectorized one with
share-kernels=false (every kernel lowered in place) with one per core;
then remat-run on the step file, lowering and compiling in one process.

Run with Debian's Python and PyTorch, with OpenBLAS's serial libblas.so.3
selected (update-alternatives; bench/peers/setup.sh installs it): with
the reference BLAS PyTorch's matrix products are 5-15x slower.

    /usr/bin/python3 bench/compiled-speed.py [--build build] [--repeat 5]
        [--skip-models] [--skip-compile] [--unshared]

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

import fair_blas  # noqa: E402,F401  (before numpy and torch)
import numpy as np  # noqa: E402
import torch  # noqa: E402

from results_page import (ROOT, machine_stamp, markdown_table,  # noqa: E402
                          write_text)
from fma_peak import measured_peak_gflops  # noqa: E402
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

    fast_ms, fast_arena = remat_time(run_tool, planned, args.repeat,
                                     ["--step-threads=1"])
    two_ms, two_arena = remat_time(run_tool, planned, args.repeat,
                                   ["--step-threads=2"])
    naive = run([opt, "-", "--remat-to-cpu=vectorize=false"], stdin=planned)
    naive_ms, naive_arena = remat_time(run_tool, naive, args.repeat)
    for arena in (fast_arena, two_arena, naive_arena):
        if arena != graph["arena_bytes"]:
            raise SystemExit("%s: measured arena %d, planned %d" %
                             (name, arena, graph["arena_bytes"]))

    step, num_batch = STEPS[name]
    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-0.5, 0.5, s).astype(np.float32)
              for s in signature(example)]
    inputs = [torch.from_numpy(a) for a in arrays[:num_batch]]
    params = [torch.from_numpy(a).requires_grad_() for a in arrays[num_batch:]]
    torch.set_num_threads(1)
    torch_ms = measure_time_ms(step, inputs, params, args.repeat)
    torch.set_num_threads(2)
    torch_two_ms = measure_time_ms(step, inputs, params, args.repeat)
    torch.set_num_threads(1)
    return dict(name=name, flops=flops, fast=fast_ms, naive=naive_ms,
                torch=torch_ms, fast_two=two_ms, torch_two=torch_two_ms,
                arena=graph["arena_bytes"])


# The shared ONNX models whose training steps are timed at MODEL_BATCH,
# and the torchvision model of the same architecture (the ONNX files are
# torchvision's ResNet-50 and SqueezeNet 1.1 layers).
MODELS = (("squeezenet", "squeezenet1_1"), ("resnet50", "resnet50"))
MODEL_BATCH = 4


def measure_model(name, torchvision_name, args, tools, work):
    """The shared model's training step (batch MODEL_BATCH, 3x32x32, head
    adapted, mean-squared-error loss, unrematerialized) in Remat on one
    and two threads, and torchvision's model of the same architecture in
    PyTorch eager (eval-mode batch normalization, as the ONNX graph has
    it) on one and two threads."""
    model_path = os.path.join(ROOT, "..", "shared", "models", "onnx",
                              name + ".onnx")
    imported = os.path.join(work, name + ".b%d.mlir" % MODEL_BATCH)
    report_path = os.path.join(work, name + ".b%d.json" % MODEL_BATCH)
    run([tools["remat-translate"], "--import-onnx", model_path,
         "--onnx-batch=%d" % MODEL_BATCH, "--onnx-input-shape=3x32x32",
         "--onnx-adapt", "-o", imported])
    step = run([tools["remat-opt"], imported, "--remat-autodiff=loss=mse"])
    planned = run([tools["remat-opt"], "-", "--remat-pipeline=report=%s" %
                   report_path], stdin=step)
    with open(report_path) as f:
        graph = json.load(f)["graphs"][0]
    flops = graph["base_flops"] + graph["extra_flops"]
    lowered = run([tools["remat-opt"], "-", "--remat-to-cpu"], stdin=planned)
    times = {}
    for threads in (1, 2):
        ms, arena = remat_time(tools["remat-run"], lowered, args.repeat,
                               ["--step-threads=%d" % threads])
        if arena != graph["arena_bytes"]:
            raise SystemExit("%s: measured arena %d, planned %d" %
                             (name, arena, graph["arena_bytes"]))
        times["remat%d" % threads] = ms

    for threads in (1, 2):
        times["torch%d" % threads] = torch_model_ms(torchvision_name, threads,
                                                    args.repeat)
    return dict(name=name, flops=flops, **times)


# One PyTorch model's step, timed in a process of its own: in one process,
# a step timed with one thread after another timed with two took 139 ms
# instead of 87 ms (ResNet-50 at batch 4), its thread pool left as the
# two-thread run made it.
TORCH_MODEL_STEP = """
import sys
sys.path.insert(0, sys.argv[1])
import torch, torchvision
from torch_measure import measure_time_ms
torch.set_num_threads(int(sys.argv[3]))
net = getattr(torchvision.models, sys.argv[2])().eval()
params = list(net.parameters())
x = torch.rand(%d, 3, 32, 32) - 0.5
target = torch.zeros(net(x).shape)
def step(x, target, *unused):
    return torch.nn.functional.mse_loss(net(x), target)
print(measure_time_ms(step, [x, target], params, int(sys.argv[4])))
""" % MODEL_BATCH


def torch_model_ms(torchvision_name, threads, repeat):
    """torchvision's model's eager training step (eval-mode batch
    normalization, as the ONNX graph has it, MSE loss) at MODEL_BATCH,
    median of `repeat` warm steps, in a fresh process."""
    out = run([sys.executable, "-c", TORCH_MODEL_STEP,
               os.path.join(ROOT, "bench", "peers"), torchvision_name,
               str(threads), str(repeat)])
    return float(out.strip().splitlines()[-1])


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
    lowerings = [("vectorized", "vectorize=true", (1, threads)),
                 ("naive", "vectorize=false", (1, threads))]
    if args.unshared:
        lowerings.insert(1, ("vectorized, every kernel in place",
                             "vectorize=true share-kernels=false", (threads,)))
    for label, option, thread_counts in lowerings:
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


def page(results, model_results, compile_results, args, blas, peak_gflops):
    peak = peak_gflops
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
    two_rows = [["`examples/%s.mlir`" % r["name"], "%.2f ms" % r["fast_two"],
                 "%.2f ms" % r["torch_two"],
                 "%.2f" % (r["fast_two"] / r["torch_two"]),
                 "%.2fx" % (r["fast"] / r["fast_two"]),
                 "%.2fx" % (r["torch"] / r["torch_two"])] for r in results]
    two_header = ["step (budget %s)" % BUDGET, "vectorized, 2 threads",
                  "PyTorch eager, 2 threads", "Remat / PyTorch",
                  "Remat's gain from 1 to 2", "PyTorch's gain from 1 to 2"]
    model_table = markdown_table(
        ["shared model, batch %d" % MODEL_BATCH, "FLOPs", "Remat, 1 thread",
         "PyTorch, 1 thread", "Remat / PyTorch", "Remat GFLOP/s",
         "share of peak",
         "Remat, 2 threads", "PyTorch, 2 threads", "Remat / PyTorch"],
        [["`%s.onnx`" % m["name"], "%.2f G" % (m["flops"] / 1e9),
          "%.1f ms" % m["remat1"], "%.1f ms" % m["torch1"],
          "%.2f" % (m["remat1"] / m["torch1"]),
          "%.1f" % (m["flops"] / m["remat1"] / 1e6),
          "%.0f%%" % (100.0 * m["flops"] / m["remat1"] / 1e6 / peak),
          "%.1f ms" % m["remat2"], "%.1f ms" % m["torch2"],
          "%.2f" % (m["remat2"] / m["torch2"])] for m in model_results]
    ) if model_results else "Not measured in this run (`--skip-models`)."
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
PyTorch %s with %s (OpenBLAS kernels: %s, bench/peers/fair_blas.py). fp32 FMA peak of one core, measured
(`bench/fma_peak.c`): %.0f GFLOP/s. FLOPs are Remat's cost model's for the planned step
(recomputation included); PyTorch's GFLOP/s uses the same count. Every
Remat run measured the planned arena to the byte.

```sh
/usr/bin/python3 bench/compiled-speed.py --repeat %d%s%s%s
```

%s

## Two threads

The same steps with two threads each: Remat's large kernels share their
tiles across OpenMP threads (`remat-run --step-threads=2`; kernels under
2^20 points stay on one thread), PyTorch with `torch.set_num_threads(2)`.
The arena measured is the planned one here too. Where PyTorch's two-thread
time exceeds its one-thread time, sharing the work cost it more than it
saved on this machine; the one-thread table is the other comparison.

%s

## Training steps of the shared models

The shared ONNX models' training steps at batch %d, 3x32x32 input, head
adapted, mean-squared-error loss, in Remat; torchvision's
model of the same architecture (random weights; batch normalization in
eval mode, as in the ONNX graph) in PyTorch eager with the same loss,
each PyTorch figure from a process of its own (in one process, a step
timed on one thread after one timed on two ran up to 1.6x slower).
Both steps are unrematerialized (planned without a budget), as PyTorch's
is; FLOPs are Remat's cost model's for the step.

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
kind of op (measured with `--unshared` only). The step's own time is one
cold run (no `--repeat`: its arena's pages are faulted in on the way),
with the default step threads (one per core; the naive lowering's kernels
run on one thread).

%s

What a user runs, `remat-run step.mlir`: the step lowered, compiled and
run in one process, wall time (and CPU seconds) less the step's own
`time_ms`:

%s
""" % (machine_stamp(), args.repeat, args.repeat, torch.__version__, blas, fair_blas.CORE,
       peak, args.repeat,
       " --skip-models" if not model_results else "",
       " --skip-compile" if not compile_rows else "",
       " --unshared" if args.unshared else "",
       markdown_table(header, rows), markdown_table(two_header, two_rows),
       MODEL_BATCH, model_table, LARGE_MODEL, compile_table,
       in_process_table)
    write_text("compiled-speed.md", text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-compile", action="store_true",
                        help="leave out the large step's compile time")
    parser.add_argument("--skip-models", action="store_true",
                        help="leave out the shared models' training steps")
    parser.add_argument("--unshared", action="store_true",
                        help="also compile the large step with every kernel "
                        "lowered in place (share-kernels=false; its JIT "
                        "takes ten minutes and more)")
    args = parser.parse_args()
    tools = {name: os.path.join(args.build, "bin", name)
             for name in ("remat-opt", "remat-run", "remat-translate")}
    torch.set_num_threads(1)
    blas = blas_library()
    work = tempfile.mkdtemp(prefix="remat-compiled-speed-")
    results = [measure_example(name, args, tools, work) for name in EXAMPLES]
    model_results = [] if args.skip_models else [
        measure_model(name, tv, args, tools, work) for name, tv in MODELS]
    compile_results = None if args.skip_compile else measure_compile(
        args, tools, work)
    page(results, model_results, compile_results, args, blas,
         measured_peak_gflops(work))


if __name__ == "__main__":
    main()
