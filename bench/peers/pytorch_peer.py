#!/usr/bin/python3
"""PyTorch side by side with Remat on the bundled examples.

    /usr/bin/python3 bench/peers/pytorch_peer.py [--build build] [--repeat 5]

Needs Debian's python3-torch (PyTorch 1.13, CPU; the system interpreter
/usr/bin/python3 has it) and python3-networkx (for AOTAutograd's min-cut
partitioner): `bench/peers/setup.sh` installs them. The test suite does not
use this script.

For each example (examples/<name>.mlir, written in PyTorch op for op in
torch_steps.py) it
  1. draws the step's arguments, writes them as .npy files, runs the
     unrematerialized Remat step on them with `remat-run --input` and checks
     that the loss and every gradient agree with PyTorch's element by element
     (remat-run writes every output with `--output-dir`; the check takes the
     largest difference from PyTorch's float64 step relative to the largest
     magnitude of that output);
  2. measures PyTorch's points: plain autograd; torch.utils.checkpoint around
     the whole forward, around every block and around every other block;
     AOTAutograd (functorch.compile.aot_function, the graphs run eagerly)
     with the default and the min-cut partitioner. Peak, FLOPs and run time
     as torch_measure.py describes, on one thread;
  3. plans Remat at each point's memory (`budget=<PyTorch's peak in bytes>`)
     and runs the plan with remat-run (measured peak; run time: the median
     of --repeat runs after a warm-up in one process, one thread), and
     reports each framework's extra time over its own unrematerialized
     step; and finds by
     bisection the smallest budget at which Remat recomputes no more than
     the point does (equal recompute).
Extra FLOPs are a share of Remat's FLOPs for the whole unrematerialized step
(the report's base_flops), for PyTorch and Remat alike. Writes
bench/results/pytorch-peer.md.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels: before numpy and torch)
import numpy as np
import torch
import torch.utils.checkpoint as ckpt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from results_page import ROOT, machine_stamp, markdown_table  # noqa: E402
from torch_measure import (measure_flops, measure_peak,  # noqa: E402
                           measure_time_ms, run_step)
from torch_steps import STEPS  # noqa: E402

EXAMPLES = ["mlp", "transformer", "resnet"]
# Remat's outputs agree with PyTorch's when their distance from the float64
# step is at most NOISE_FACTOR times PyTorch's own float32 distance from it
# (or TOLERANCE, whichever is larger).
NOISE_FACTOR = 10.0
TOLERANCE = 1e-5


# ---------------------------------------------------------------------------
# PyTorch points
# ---------------------------------------------------------------------------

def checkpointed(fn, *args):
    return ckpt.checkpoint(fn, *args, use_reentrant=False)


class EveryOther:
    """Checkpoints the first, third, ... block of one step."""

    def __init__(self):
        self.calls = 0

    def __call__(self, fn, *args):
        self.calls += 1
        return checkpointed(fn, *args) if self.calls % 2 else fn(*args)


def aot(step, partition):
    from functorch.compile import aot_function, nop
    return aot_function(step, fw_compiler=nop, bw_compiler=nop,
                        partition_fn=partition)


def schemes(step):
    from functorch.compile import (default_partition,
                                   min_cut_rematerialization_partition)
    return [
        ("autograd", step),
        ("checkpoint: whole forward",
         lambda *a: step(*a, whole=checkpointed)),
        ("checkpoint: every block",
         lambda *a: step(*a, segment=checkpointed)),
        ("checkpoint: every other block",
         lambda *a: step(*a, segment=EveryOther())),
        ("AOTAutograd: default partitioner", aot(step, default_partition)),
        ("AOTAutograd: min-cut partitioner",
         aot(step, min_cut_rematerialization_partition)),
    ]


# ---------------------------------------------------------------------------
# Remat
# ---------------------------------------------------------------------------

def signature(example):
    """The shapes of the step's arguments, in order."""
    with open(example) as f:
        text = f.read()
    header = re.search(r"remat\.graph @\w+\((.*?)\)\s*->", text, re.S).group(1)
    return [tuple(int(d) for d in body.split("x")[:-1])
            for body in re.findall(r"tensor<([^>]*)>", header)]


def predicted(graph):
    """The bytes remat-run should measure for a plan: the arena's size when
    the report gives one (the step is lowered into one arena), else the live
    peak."""
    return graph.get("arena_bytes", graph["peak_after_bytes"])


def plan(opt, example, budget, report):
    options = "best-effort=true report=" + report
    if budget is not None:
        options += " budget=%s" % budget
    planned = subprocess.run([opt, example, "--remat-pipeline=" + options],
                             check=True, capture_output=True).stdout
    with open(report) as f:
        return planned, json.load(f)["graphs"][0]


def remat_run(run, planned, npys, repeat, output_dir=None):
    """remat-run's report and its time: the median of `repeat` runs after a
    warm-up in one process, on one thread as PyTorch runs here."""
    extra = ["--output-dir=" + output_dir] if output_dir else []
    out = subprocess.run([run, "-", "--json", "--repeat=%d" % repeat,
                          "--step-threads=1"] +
                         ["--input=" + p for p in npys] + extra,
                         input=planned, check=True, capture_output=True)
    report = json.loads(out.stdout)
    return report, report["time_ms"]


def equal_recompute(opt, example, report, extra_percent, unplanned, lo):
    """The smallest planned peak whose extra FLOPs are at most extra_percent,
    by bisection on the budget between min's peak (lo) and the unplanned
    step (which recomputes nothing)."""
    best, hi = unplanned, unplanned["peak_after_bytes"]
    for _ in range(14):
        if hi - lo <= 64:
            break
        mid = (lo + hi) // 2
        _, graph = plan(opt, example, mid, report)
        if graph["feasible"] and graph["extra_flops_percent"] <= extra_percent:
            if graph["peak_after_bytes"] < best["peak_after_bytes"]:
                best = graph
            hi = mid
        else:
            lo = mid
    return best


# ---------------------------------------------------------------------------

def fmt_bytes(n):
    return "%.1f KiB" % (n / 1024.0)


def fmt_percent(v):
    return "%+.1f%%" % (round(v, 1) + 0.0)   # no "-0.0%"


def worst_difference(values, outputs):
    """The worst max |value - output| / max |output| over the step's outputs
    (element by element)."""
    worst = 0.0
    for value, out in zip(values, outputs):
        out = out.detach().double()
        value = torch.as_tensor(value).double().reshape(out.shape)
        scale = max(float(out.abs().max()), 1e-30)
        worst = max(worst, float((value - out).abs().max()) / scale)
    return worst


def check_outputs(output_dir, count, step, inputs, params):
    """Remat's and PyTorch's float32 outputs, each against PyTorch's step in
    float64: (Remat's worst difference, PyTorch's, whether Remat's is within
    float32 noise)."""
    exact = run_step(step, [t.double() for t in inputs],
                     [p.detach().double().requires_grad_() for p in params])
    for p in params:
        p.grad = None
    single = run_step(step, inputs, params)
    outputs = [np.load(os.path.join(output_dir, "result-%d.npy" % i))
               for i in range(count)]
    remat = worst_difference(outputs, exact)
    torch32 = worst_difference(single, exact)
    return remat, torch32, remat <= max(NOISE_FACTOR * torch32, TOLERANCE)


def measure_example(name, args, tmp):
    example = os.path.join(ROOT, "examples", name + ".mlir")
    opt = os.path.join(args.build, "bin", "remat-opt")
    run = os.path.join(args.build, "bin", "remat-run")
    report = os.path.join(tmp, "report.json")
    step, num_batch = STEPS[name]

    shapes = signature(example)
    rng = np.random.default_rng(args.seed)
    arrays = [rng.uniform(-0.5, 0.5, s).astype(np.float32) for s in shapes]
    npys = []
    for i, a in enumerate(arrays):
        npys.append(os.path.join(tmp, "%s-%d.npy" % (name, i)))
        np.save(npys[-1], a)
    inputs = [torch.from_numpy(a) for a in arrays[:num_batch]]
    params = [torch.from_numpy(a).requires_grad_() for a in arrays[num_batch:]]

    planned, unplanned = plan(opt, example, None, report)
    base, remat_peak = unplanned["base_flops"], unplanned["peak_after_bytes"]
    output_dir = os.path.join(tmp, name + "-outputs")
    os.makedirs(output_dir, exist_ok=True)
    reference, remat_ms = remat_run(run, planned, npys, args.repeat,
                                    output_dir)
    _, at_min = plan(opt, example, "min", report)
    error = check_outputs(output_dir, len(reference["outputs"]), step, inputs,
                          params)

    points = []
    plain_flops = None
    for label, fn in schemes(step):
        peak = measure_peak(fn, inputs, params)
        flops = measure_flops(fn, inputs, params)
        if plain_flops is None:
            plain_flops = flops
        torch_ms = measure_time_ms(fn, inputs, params, args.repeat)
        extra = 100.0 * (flops - plain_flops) / base
        planned_at, graph = plan(opt, example, peak, report)
        measured, ms = remat_run(run, planned_at, npys, args.repeat)
        same = equal_recompute(opt, example, report, extra, unplanned,
                               at_min["peak_after_bytes"])
        points.append(dict(label=label, peak=peak, extra=extra, ms=torch_ms,
                           remat=graph, remat_measured=measured["peak_bytes"],
                           remat_ms=ms, same=same))
    return dict(name=name, error=error, remat_peak=remat_peak,
                measured=reference["peak_bytes"],
                predicted=predicted(unplanned), remat_ms=remat_ms,
                base=base, torch_base=plain_flops, at_min=at_min,
                points=points)


def page(results, args):
    out = ["# PyTorch side by side: the bundled examples",
           "",
           "Produced by `/usr/bin/python3 bench/peers/pytorch_peer.py` (%s; "
           "PyTorch %s, CPU, one thread; --repeat %d). Inputs are not counted, "
           "the loss and the gradients are (Remat's accounting). PyTorch's "
           "peak is the running sum of its allocator's events during one "
           "step, so it is a sum of live tensors, as Remat's live peak (the "
           "memory model's) is; fragmentation shows in neither. `Remat "
           "measured` is what remat-run's allocator measured for the compiled "
           "step, which must equal the plan's prediction (its arena's size "
           "when the report gives one, else the live peak). Extra FLOPs are "
           "priced with Remat's cost model and given as a share of Remat's "
           "unrematerialized step. How each number is made: the docstrings "
           "of bench/peers/pytorch_peer.py and torch_measure.py."
           % (machine_stamp(), torch.__version__, args.repeat),
           ""]
    out += ["## Outputs and unrematerialized peaks", ""]
    rows = []
    for r in results:
        plain = r["points"][0]
        remat_err, torch_err, same = r["error"]
        rows.append([r["name"], "%.1e" % remat_err, "%.1e" % torch_err,
                     "yes" if same else "NO",
                     fmt_bytes(plain["peak"]), fmt_bytes(r["remat_peak"]),
                     fmt_bytes(r["measured"]),
                     "yes" if r["measured"] == r["predicted"] else "NO",
                     "yes" if r["remat_peak"] <= plain["peak"] else "NO",
                     "%.1f M" % (r["torch_base"] / 1e6),
                     "%.1f M" % (r["base"] / 1e6),
                     "%.2f" % plain["ms"], "%.2f" % r["remat_ms"],
                     "%.2f" % (r["remat_ms"] / plain["ms"])])
    out += [markdown_table(
        ["example", "Remat's difference", "PyTorch's difference", "equal",
         "PyTorch autograd peak", "Remat live peak", "Remat measured",
         "measured = predicted", "Remat live peak <= PyTorch",
         "PyTorch step FLOPs", "Remat step FLOPs", "PyTorch ms", "Remat ms", "time ratio (Remat / PyTorch)"], rows), ""]
    out += ["Differences are from PyTorch's step in float64, the worst over "
            "the loss and every gradient of max |float32 element - float64 "
            "element| / max |float64 element| (remat-run writes every output "
            "with --output-dir). Equal: Remat's difference is at most %g "
            "times PyTorch's float32 one (or %g). The examples' activations "
            "grow large (no normalization), so float32 rounding shows."
            % (NOISE_FACTOR, TOLERANCE), ""]

    out += ["## At equal memory", "",
            "Remat planned with `budget=<PyTorch's peak in bytes>`; the plan "
            "is run with remat-run.", ""]
    rows = [[r["name"], p["label"], fmt_bytes(p["peak"]),
             fmt_percent(p["extra"]), fmt_bytes(p["remat"]["peak_after_bytes"]),
             "yes" if p["remat"]["feasible"] else "no",
             fmt_percent(p["remat"]["extra_flops_percent"]),
             fmt_bytes(p["remat_measured"]),
             "yes" if p["remat_measured"] == predicted(p["remat"]) else "NO",
             "%.2f" % p["ms"], "%.2f" % p["remat_ms"],
             "%.2f" % (p["remat_ms"] / p["ms"]),
             "%+.2f" % (p["ms"] - r["points"][0]["ms"]),
             "%+.2f" % (p["remat_ms"] - r["remat_ms"])]
            for r in results for p in r["points"]]
    out += [markdown_table(
        ["example", "PyTorch point", "PyTorch peak", "PyTorch extra FLOPs",
         "Remat live peak", "budget met", "Remat extra FLOPs",
         "Remat measured", "measured = predicted", "PyTorch ms", "Remat ms",
         "time ratio", "PyTorch extra ms", "Remat extra ms"], rows), "",
            "Extra ms: the point's step time less the same framework's "
            "unrematerialized step (PyTorch's autograd row; Remat's step "
            "planned without a budget). Differences of a few percent of the "
            "step are within the noise of one run of medians.", ""]

    out += ["## At equal recompute", "",
            "The smallest Remat peak whose extra FLOPs are at most the "
            "PyTorch point's (bisection on the budget, 14 steps at most).", ""]
    rows = [[r["name"], p["label"], fmt_percent(p["extra"]),
             fmt_bytes(p["peak"]), fmt_bytes(p["same"]["peak_after_bytes"]),
             fmt_percent(p["same"]["extra_flops_percent"]),
             "%.2f" % (p["same"]["peak_after_bytes"] / p["peak"])]
            for r in results for p in r["points"]]
    out += [markdown_table(
        ["example", "PyTorch point", "PyTorch extra FLOPs", "PyTorch peak",
         "Remat live peak", "Remat extra FLOPs",
         "peak ratio (Remat / PyTorch)"],
        rows), ""]
    out += ["AOTAutograd runs traced ATen graphs whose decompositions differ "
            "a little from eager mode's, so its FLOPs can differ from plain "
            "autograd's by a fraction of a percent without any "
            "recomputation.", ""]
    out += ["Remat's `budget=min` for reference: " + "; ".join(
        "%s %s at %s" % (r["name"], fmt_bytes(r["at_min"]["peak_after_bytes"]),
                         fmt_percent(r["at_min"]["extra_flops_percent"]))
        for r in results) + ".", ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated subset of " +
                        ",".join(EXAMPLES))
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    names = args.only.split(",") if args.only else EXAMPLES
    with tempfile.TemporaryDirectory() as tmp:
        results = [measure_example(n, args, tmp) for n in names]
    text = page(results, args)
    path = os.path.join(ROOT, "bench", "results", "pytorch-peer.md")
    with open(path, "w") as f:
        f.write(text)
    sys.stdout.write(text)
    bad = [r["name"] for r in results if not r["error"][2]]
    if bad:
        sys.exit("pytorch_peer: outputs differ from Remat's for " + ", ".join(bad))


if __name__ == "__main__":
    main()
