#!/usr/bin/env python3
"""The largest VGG-19 batch whose training step fits a 16 GiB device.

Checkmate's headline figure (Jain et al., "Checkmate: Breaking the Memory
Wall with Optimal Tensor Rematerialization", MLSys 2020): VGG-19 at
224x224, fp32, parameters counted; 167 without rematerialization, 266 with
Chen's greedy heuristic, 289 with its MILP on a 16 GB V100. Here: the shared
ONNX model, imported with `remat-translate --import-onnx --onnx-batch=B`,
differentiated with `remat-autodiff` (sum loss), planned (not run) with
`remat-plan="budget=min count-inputs schedule best-effort"`; the step fits
when the planned peak, inputs counted, is at most 16 GiB. Three settings:

  * none:     the step as differentiated, without rematerialization
              (the plan's peak before);
  * min:      the least peak the planner reaches;
  * sgd, min: the same with `optimizer=sgd` (parameters updated in place
              inside the step, each gradient dying at its update).

The fit is judged on the live peak (one allocation per buffer) and, in the
rows marked "arena", on the size of the single arena the default lowering
allocates.

The peak grows with the batch (parameters and optimizer state are fixed,
activations linear), so each setting is bisected: two probes fit a line,
then bisection between a batch that fits and one that does not. One plan
per probe gives both the "none" and the "min" peak of that batch.

    python3 bench/vgg19-batch.py [--bin build/bin]
        [--model /work/shared/models/onnx/vgg19.onnx] [--limit 16GiB]

Writes bench/results/vgg19-batch.md.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from results_page import ROOT, machine_stamp, write_page

GIB = 1 << 30


class Planner:
    def __init__(self, bin_dir, model, workdir):
        self.bin = bin_dir
        self.model = model
        self.workdir = workdir
        self.cache = {}
        self.seconds = 0.0
        self.probes = 0

    def plan(self, batch, optimizer):
        """The plan report of the step at `batch` (cached)."""
        key = (batch, optimizer)
        if key in self.cache:
            return self.cache[key]
        step = os.path.join(self.workdir, "step.mlir")
        report = os.path.join(self.workdir, "report.json")
        autodiff = "loss=sum" + (" optimizer=" + optimizer if optimizer else "")
        start = time.monotonic()
        imported = subprocess.run(
            [os.path.join(self.bin, "remat-translate"), "--import-onnx",
             self.model, "--onnx-batch=%d" % batch],
            check=True, capture_output=True).stdout
        subprocess.run([os.path.join(self.bin, "remat-opt"),
                        "--remat-autodiff=" + autodiff, "-o", step],
                       input=imported, check=True)
        subprocess.run([os.path.join(self.bin, "remat-opt"), step,
                        "--remat-plan=budget=min count-inputs schedule "
                        "best-effort report=" + report, "-o", os.devnull],
                       check=True, stderr=subprocess.DEVNULL)
        self.seconds += time.monotonic() - start
        self.probes += 1
        with open(report) as f:
            graph = json.load(f)["graphs"][0]
        self.cache[key] = graph
        print("  batch %d %s: none %.2f GiB, min %.2f GiB (+%.1f%% FLOPs)" %
              (batch, optimizer or "-", graph["peak_before_bytes"] / GIB,
               graph["peak_after_bytes"] / GIB, graph["extra_flops_percent"]),
              file=sys.stderr)
        return graph

    def peak(self, batch, optimizer, field):
        return self.plan(batch, optimizer)[field]


def largest_batch(planner, optimizer, field, limit):
    """Bisection for the largest batch whose `field` peak is <= limit."""
    # Peak(B) = fixed + B * per-sample: two probes give a first guess.
    p1, p2 = (planner.peak(b, optimizer, field) for b in (32, 64))
    per_sample = max((p2 - p1) / 32.0, 1.0)
    guess = max(1, int((limit - (p1 - 32 * per_sample)) / per_sample))
    lo, hi = 0, None  # lo fits (0: trivially), hi does not
    for b in (guess, guess + 1):
        if planner.peak(b, optimizer, field) <= limit:
            lo = max(lo, b)
        else:
            hi = b if hi is None else min(hi, b)
    step = 4
    while hi is None:
        b = lo + step
        if planner.peak(b, optimizer, field) <= limit:
            lo = b
        else:
            hi = b
        step *= 2
    if lo == 0:
        step = 4
        while planner.peak(max(1, hi - step), optimizer, field) > limit:
            hi = max(1, hi - step)
            step *= 2
            if hi == 1:
                return 0
        lo = max(1, hi - step)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if planner.peak(mid, optimizer, field) <= limit:
            lo = mid
        else:
            hi = mid
    return lo


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--model", default=os.path.join(
        os.path.dirname(ROOT), "shared", "models", "onnx", "vgg19.onnx"))
    parser.add_argument("--limit-gib", type=float, default=16.0)
    args = parser.parse_args()
    limit = int(args.limit_gib * GIB)

    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        planner = Planner(args.bin, args.model, workdir)
        for label, optimizer, field in [
                ("none (no rematerialization)", None, "peak_before_bytes"),
                ("min", None, "peak_after_bytes"),
                ("min, arena", None, "arena_bytes"),
                ("sgd in the step, none", "sgd", "peak_before_bytes"),
                ("sgd in the step, min", "sgd", "peak_after_bytes"),
                ("sgd in the step, min, arena", "sgd", "arena_bytes")]:
            probes, seconds = planner.probes, planner.seconds
            batch = largest_batch(planner, optimizer, field, limit)
            graph = planner.plan(batch, optimizer)
            planned = field != "peak_before_bytes"
            rows.append([label, str(batch),
                         "%.2f" % (graph[field] / GIB),
                         "%.2f" % (graph["arena_bytes" if planned else
                                         "arena_before_bytes"] / GIB),
                         "%.1f%%" % (graph["extra_flops_percent"]
                                     if planned else 0.0),
                         str(planner.probes - probes),
                         "%.0f" % (planner.seconds - seconds)])
    preamble = (
        "Largest batch of VGG-19 (224x224, fp32, `vgg19.onnx`) whose "
        "training step's planned peak, parameters and inputs counted "
        "(`count-inputs`), is at most %g GiB. Checkmate (MLSys 2020, "
        "TensorFlow graph, 16 GB V100): 167 without rematerialization, 266 "
        "with Chen's greedy, 289 with its MILP. Produced by `python3 "
        "bench/vgg19-batch.py` (%s); each probe imports, differentiates "
        "and plans (`remat-plan=\"budget=min count-inputs schedule "
        "best-effort\"`) one batch; the time column sums the probes a row "
        "added (earlier rows' probes are reused). The peak is the live "
        "peak of the memory model (what the step allocates with one "
        "allocation per buffer, `remat-run --arena=false`); the arena "
        "column is the size of the one arena the default lowering "
        "allocates instead (`remat-arena-allocation`), larger by its "
        "fragmentation; the `arena` rows bisect on that size." %
        (args.limit_gib, machine_stamp()))
    write_page("vgg19-batch.md", "VGG-19: the largest batch in 16 GiB",
               preamble,
               ["setting", "largest batch", "peak (GiB)", "arena (GiB)",
                "extra FLOPs",
                "new probes", "probe time (s)"], rows)


if __name__ == "__main__":
    main()
