#!/usr/bin/env python3
"""Arena placement side by side with allocators, on the same buffers.

For each bundled example (examples/*.mlir), each shared ONNX model and each
--torchvision model (exported here; imported at --onnx-batch,
differentiated with an MSE loss, plan-only), and
each budget (none, 0.7, 0.5, min): plans with remat-pipeline (budget-kind=arena),
reads the JSON report, and compares on the planned step's buffers:

- live peak: the memory model's peak (sum of live bytes, unaligned);
- aligned load: the same with each buffer rounded up to 64 B, a lower bound
  on any arena;
- arena (ours): remat-plan's placement (graphs[].arena_bytes);
- lower bound: graphs[].arena_lower_bound_bytes, no placement of these
  buffers needs fewer bytes (arena - bound is the gap left);
- size best fit: the TFLite/XNNPACK baseline placement of the same buffers;
- glibc malloc: the heap footprint high water when the alloc/free trace is
  replayed with real malloc/free (bench/arena_malloc_replay.c, mallinfo2);
- caching allocator: a simulation of PyTorch's CUDA caching allocator
  without expandable segments on the same trace.

The trace: at each op, the buffers that start there are allocated (in the
report's order), then those whose last op it is are freed.

    python3 bench/arena.py [--remat-opt build/bin/remat-opt]
        [--models ../shared/models/onnx] [--batch 8]
        [--torchvision densenet121 ...]
"""

import argparse
import glob
import json
import os
import subprocess
import tempfile

from results_page import ROOT, machine_stamp, write_page

BUDGETS = [None, "0.7", "0.5", "min"]

KIB = 1024
MIB = 1024 * KIB


def trace_of(buffers):
    """(kind, id, bytes) events in program order."""
    events = {}
    for index, b in enumerate(buffers):
        events.setdefault(b["first"], ([], []))[0].append(index)
        events.setdefault(b["last"], ([], []))[1].append(index)
    trace = []
    for step in sorted(events):
        starts, ends = events[step]
        trace += [("a", i, buffers[i]["bytes"]) for i in starts]
        trace += [("f", i, 0) for i in ends]
    return trace


def malloc_high_water(replay, trace):
    text = "".join("a %d %d\n" % (i, n) if kind == "a" else "f %d\n" % i
                   for kind, i, n in trace)
    out = subprocess.run([replay], input=text, capture_output=True,
                         text=True, check=True)
    return int(out.stdout)


class CachingAllocator:
    """PyTorch's CUDA caching allocator (no expandable segments), as its
    source describes it: requests round up to 512 B; requests up to 1 MiB
    come from a small pool of 2 MiB segments, larger ones from a large pool
    whose segments are 20 MiB below 10 MiB and otherwise the request rounded
    up to 2 MiB. A request takes the smallest cached free block of its pool
    that fits (ties: lower address), else a new segment; the block is split
    when the rest is at least 512 B (small pool) or more than 1 MiB (large
    pool); freed blocks merge with free neighbours in their segment and are
    never returned. Returns the reserved bytes (the sum of segments)."""

    def __init__(self):
        self.reserved = 0
        self.segments = 0
        # Per pool: free blocks as (size, segment, offset); per segment its
        # blocks by offset: offset -> [size, free].
        self.free = {"small": [], "large": []}
        self.blocks = {}
        self.where = {}

    @staticmethod
    def round_size(n):
        return 512 if n < 512 else (n + 511) // 512 * 512

    @staticmethod
    def segment_size(n):
        if n <= 1 * MIB:
            return 2 * MIB
        if n < 10 * MIB:
            return 20 * MIB
        return (n + 2 * MIB - 1) // (2 * MIB) * (2 * MIB)

    def malloc(self, ident, n):
        size = self.round_size(n)
        pool = "small" if size <= 1 * MIB else "large"
        fitting = [f for f in self.free[pool] if f[0] >= size]
        if fitting:
            block = min(fitting, key=lambda f: (f[0], f[1], f[2]))
            self.free[pool].remove(block)
            _, segment, offset = block
        else:
            segment = self.segments
            self.segments += 1
            total = self.segment_size(size)
            self.reserved += total
            self.blocks[segment] = {0: [total, False]}
            offset = 0
        entry = self.blocks[segment][offset]
        rest = entry[0] - size
        split = rest >= 512 if pool == "small" else rest > 1 * MIB
        if split:
            entry[0] = size
            self.blocks[segment][offset + size] = [rest, True]
            self.free[pool].append((rest, segment, offset + size))
        entry[1] = False
        self.where[ident] = (pool, segment, offset)

    def release(self, ident):
        pool, segment, offset = self.where.pop(ident)
        blocks = self.blocks[segment]
        blocks[offset][1] = True
        # Merge with the free neighbours.
        offsets = sorted(blocks)
        position = offsets.index(offset)
        start = offset
        if position > 0:
            before = offsets[position - 1]
            if blocks[before][1]:
                self.free[pool].remove((blocks[before][0], segment, before))
                blocks[before][0] += blocks.pop(offset)[0]
                start = before
        after = start + blocks[start][0]
        if after in blocks and blocks[after][1]:
            self.free[pool].remove((blocks[after][0], segment, after))
            blocks[start][0] += blocks.pop(after)[0]
        self.free[pool].append((blocks[start][0], segment, start))


def caching_reserved(trace):
    allocator = CachingAllocator()
    for kind, i, n in trace:
        if kind == "a":
            allocator.malloc(i, n)
        else:
            allocator.release(i)
    return allocator.reserved


def plan(remat_opt, step, budget, report):
    """The report's graph, or the planner's first error line."""
    options = "report=%s" % report
    if budget:
        options += " budget=%s best-effort" % budget
    done = subprocess.run([remat_opt, step, "--remat-pipeline=" + options,
                           "-o", os.devnull], capture_output=True, text=True)
    if done.returncode != 0:
        error = [l for l in done.stderr.splitlines() if "error:" in l]
        return (error or ["exit %d" % done.returncode])[0].split("error: ")[-1]
    with open(report) as f:
        return json.load(f)["graphs"][0]


def size(n):
    if n >= 10 * MIB:
        return "%.1f MiB" % (n / MIB)
    return "%.1f KiB" % (n / KIB)


def ratio(n, live):
    return "%s (%.3f)" % (size(n), n / live if live else 1.0)


# torchvision models exported at run time (random weights, opset 13), when
# Debian's python3-torchvision is installed (bench/peers/setup.sh): DenseNet
# concatenates every earlier feature map of a block, so its buffers live
# long and overlap unevenly, a hard case for placement.
TORCHVISION = ["densenet121"]
EXPORT = r"""
import sys, torch, torchvision
model = getattr(torchvision.models, sys.argv[1])(weights=None).eval()
torch.onnx.export(model, torch.randn(1, 3, 224, 224), sys.argv[2],
                  opset_version=13, input_names=["input"],
                  output_names=["logits"])
"""


def onnx_models(args, tmp):
    """(name, .onnx path): the shared models, then the torchvision ones."""
    for model in sorted(glob.glob(os.path.join(args.models, "*.onnx"))):
        yield os.path.basename(model)[:-5], model
    for name in args.torchvision:
        path = os.path.join(tmp, name + ".onnx")
        done = subprocess.run(["/usr/bin/python3", "-c", EXPORT, name, path],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print("skipping %s: torchvision export failed (%s)" % (
                name, (done.stderr.strip().splitlines() or ["?"])[-1]))
            continue
        yield name, path


def steps(args, tmp):
    """(name, path of the training step) for examples and models."""
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        yield os.path.basename(path)[:-5], path
    for name, model in onnx_models(args, tmp):
        path = os.path.join(tmp, name + ".mlir")
        imported = subprocess.run(
            [args.remat_translate, "--import-onnx", model,
             "--onnx-batch=%d" % args.batch], check=True,
            capture_output=True).stdout
        subprocess.run([args.remat_opt, "--remat-autodiff=loss=mse", "-",
                        "-o", path], input=imported, check=True)
        yield "%s (batch %d)" % (name, args.batch), path


def place_timing(args):
    """Placement time on a large generated step, from `remat-bench place`."""
    command = [args.remat_bench, "place", "--model=dag", "--depth=850",
               "--dag-width=4"]
    lines = subprocess.run(command, check=True, capture_output=True,
                           text=True).stdout.splitlines()[1:]
    cells = [line.split(",") for line in lines]
    return ("Placement speed (`%s`): %s buffers, %s." % (
        " ".join(["remat-bench"] + command[1:]), cells[0][2],
        ", ".join("%s %.0f ms (arena %.4f of the load)" % (
            c[3], float(c[7]), float(c[6])) for c in cells)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    bin_dir = os.path.join(ROOT, "build", "bin")
    parser.add_argument("--remat-opt",
                        default=os.path.join(bin_dir, "remat-opt"))
    parser.add_argument("--remat-translate",
                        default=os.path.join(bin_dir, "remat-translate"))
    parser.add_argument("--remat-bench",
                        default=os.path.join(bin_dir, "remat-bench"))
    parser.add_argument("--models", default=os.path.join(
        ROOT, "..", "shared", "models", "onnx"))
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--torchvision", nargs="*", default=TORCHVISION,
                        help="torchvision models to export and plan too")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        replay = os.path.join(tmp, "replay")
        subprocess.run(["cc", "-O2", "-o", replay, os.path.join(
            ROOT, "bench", "arena_malloc_replay.c")], check=True)
        report = os.path.join(tmp, "report.json")
        for name, step in steps(args, tmp):
            for budget in BUDGETS:
                g = plan(args.remat_opt, step, budget, report)
                if isinstance(g, str):
                    rows.append([name, budget or "none", "planner failed: "
                                 + g[:120]] + [""] * 8)
                    print(" | ".join(rows[-1]), flush=True)
                    continue
                live = g["peak_after_bytes"]
                buffers = g["arena"]["buffers"]
                trace = trace_of(buffers)
                met = "" if g["feasible"] else " (not met)"
                rows.append([
                    name, (budget or "none") + met, size(live),
                    ratio(g["arena"]["live_bytes"], live),
                    ratio(g["arena_bytes"], live),
                    ratio(g["arena_lower_bound_bytes"], live),
                    ratio(g["arena"]["size_best_fit_bytes"], live),
                    ratio(malloc_high_water(replay, trace), live),
                    ratio(caching_reserved(trace), live),
                    str(len(buffers)), str(g["plans"])])
                print(" | ".join(rows[-1]), flush=True)

    timing = place_timing(args)
    header = ["step", "budget", "live peak", "aligned load", "arena (ours)",
              "lower bound", "size best fit", "glibc malloc", "caching allocator",
              "buffers", "plans"]
    write_page(
        "arena.md", "Arena placement beside allocators",
        "Produced by `python3 bench/arena.py --batch %d` (%s). Each row "
        "plans the step "
        "with `remat-pipeline` (budget-kind=arena, 64 B alignment, "
        "best-effort) and compares, on the planned step's buffers, the live "
        "peak of the memory model with: the aligned load (the most bytes "
        "live at one op with each buffer rounded up to 64 B, a lower bound "
        "on any arena), our arena, the best lower bound placement knows "
        "(the aligned load rounded to the alignment, or the arena itself "
        "where the exact search proved it optimal), the size-sorted best-fit "
        "baseline's arena, the glibc malloc heap high water when the "
        "alloc/free trace is replayed (mallinfo2), and the reserved bytes of "
        "a simulated PyTorch caching allocator; in parentheses, each over "
        "the live peak. A fractional budget is of the unrematerialized "
        "arena. ONNX models are imported at batch %d and differentiated "
        "with an MSE loss (torchvision's %s exported at 224x224 with "
        "random weights); `plans` counts the plans the arena budget took. "
        "%s" % (args.batch, machine_stamp(), args.batch,
                ", ".join(args.torchvision) or "none", timing), header,
        rows)


if __name__ == "__main__":
    main()
