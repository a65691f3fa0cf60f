#!/usr/bin/env python3
"""Real models with the optimizer inside: planned, lowered, run, measured.

For each shared ONNX model (../shared/models/onnx), imported at batch 1 and
3x32x32 with the classifier head adapted, and each optimizer (none: the
loss and gradients; sgd, momentum, adam: the parameters and state updated
in place in the caller's donated buffers), plans the step without a budget
and at 0.7, 0.5 and min (best effort), then lowers and runs each plan twice
with remat-run (-O 0): with one allocation per buffer and in one arena.
test/E2E/check-peaks.py compares outputs with the unplanned run (bit for
bit) and the measured live peak and arena with the predicted ones. A plan
that the lowering refuses is a failure, as is any mismatch.

Writes bench/results/onnx-optimizers.md.

    python3 bench/onnx-optimizers.py [--build build] [--models squeezenet ...]
        [--optimizers none sgd ...] [--page onnx-optimizers.md]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

from results_page import ROOT, machine_stamp, write_page

MODELS = ["squeezenet", "inception_v1", "resnet50", "vgg19"]
OPTIMIZERS = [None, "sgd", "momentum", "adam"]
BUDGETS = [None, "0.7", "0.5", "min"]
CHECK_PEAKS = os.path.join(ROOT, "test", "E2E", "check-peaks.py")
INIT_INPUTS = os.path.join(ROOT, "test", "E2E", "init-inputs.py")


def run(cmd, out=None, stdin=None):
    """Runs cmd; returns None, or the first line of its error."""
    with open(out, "w") if out else open(os.devnull, "w") as sink:
        done = subprocess.run(cmd, stdout=sink, stderr=subprocess.PIPE,
                              stdin=stdin, text=True)
    if done.returncode == 0:
        return None
    lines = [l for l in done.stderr.splitlines() if "error" in l] or \
        done.stderr.splitlines() or ["exit %d" % done.returncode]
    return lines[0][:160]


def check(mode, reference, report, measured):
    cmd = [sys.executable, CHECK_PEAKS] + mode + [reference, report, measured]
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.returncode == 0, done.stdout.strip().splitlines()[-1:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", nargs="*", default=MODELS)
    parser.add_argument("--optimizers", nargs="*",
                        default=[o or "none" for o in OPTIMIZERS],
                        choices=[o or "none" for o in OPTIMIZERS])
    parser.add_argument("--page", default="onnx-optimizers.md",
                        help="the page under bench/results to write")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    opt, translate, remat_run = (os.path.join(bindir, t) for t in
                                 ("remat-opt", "remat-translate", "remat-run"))
    onnx_dir = os.path.join(ROOT, "..", "shared", "models", "onnx")
    work = tempfile.mkdtemp(prefix="remat-onnx-optimizers-")
    rows = []
    failures = 0
    for model in args.models:
        imported = os.path.join(work, model + ".mlir")
        problem = run([translate, "--import-onnx",
                       os.path.join(onnx_dir, model + ".onnx"),
                       "--onnx-batch=1", "--onnx-input-shape=3x32x32",
                       "--onnx-adapt"], imported)
        if problem:
            rows.append([model, "-", "-", "import failed: " + problem] +
                        [""] * 4)
            failures += 1
            continue
        for name in args.optimizers:
            optimizer = None if name == "none" else name
            stem = os.path.join(work, "%s.%s" % (model, name))
            autodiff = "loss=mse" + (" optimizer=" + optimizer
                                     if optimizer else "")
            problem = run([opt, imported, "--remat-autodiff=" + autodiff,
                           "-o", stem + ".mlir"])
            rsp = stem + ".rsp"
            if not problem:
                with open(rsp, "w") as f:
                    done = subprocess.run([sys.executable, INIT_INPUTS,
                                           stem + ".mlir", stem + ".inputs"],
                                          stdout=f)
                problem = None if done.returncode == 0 else "inputs failed"
            if problem:
                rows.append([model, name, "-", problem] + [""] * 4)
                failures += 1
                continue
            reference = None
            for budget in BUDGETS:
                tag = budget or "none"
                report, planned = stem + "." + tag + ".json", \
                    stem + "." + tag + ".planned.mlir"
                live, arena = stem + "." + tag + ".run", \
                    stem + "." + tag + ".arena.run"
                plan = "best-effort=true report=" + report
                if budget:
                    plan = "budget=%s %s" % (budget, plan)
                base = [remat_run, planned, "--json", "-O", "0", "@" + rsp]
                problem = (run([opt, stem + ".mlir", "--remat-pipeline=" + plan,
                                "-o", planned]) or
                           run(base + ["--arena=false"], live) or
                           run(base, arena))
                if problem:
                    rows.append([model, name, tag, "FAIL: " + problem] +
                                [""] * 4)
                    failures += 1
                    continue
                reference = reference or live
                with open(report) as f:
                    graph = json.load(f)["graphs"][0]
                with open(live) as f:
                    measured_live = json.load(f)["peak_bytes"]
                with open(arena) as f:
                    measured_arena = json.load(f)["arena_bytes"]
                ok_live, _ = check([], reference, report, live)
                ok_arena, _ = check(["--arena"], reference, report, arena)
                ok = ok_live and ok_arena
                failures += not ok
                rows.append([
                    model, name, tag,
                    "OK" if ok else "FAIL",
                    "met" if graph["feasible"] else "missed",
                    "%d / %d" % (graph["peak_after_bytes"], measured_live),
                    "%d / %d" % (graph["arena_bytes"], measured_arena),
                    "%.3f" % graph["fragmentation"],
                ])
                print(" ".join(rows[-1]), flush=True)
    write_page(
        args.page,
        "Real models with the optimizer inside: predicted against measured",
        "`python3 bench/onnx-optimizers.py --models %s%s%s` on %s. Batch 1, "
        "3x32x32, head adapted, mean-squared-error loss; each plan lowered "
        "and run with remat-run -O 0 with one allocation per buffer "
        "(live: predicted / measured bytes) and in one arena (arena: "
        "planned / measured bytes). OK: outputs bit-identical to the "
        "unplanned run and both measurements equal to the prediction. "
        "Budget: whether the plan met it (best effort keeps the best plan "
        "otherwise). %d failure(s)."
        % (" ".join(args.models),
           "" if args.optimizers == [o or "none" for o in OPTIMIZERS]
           else " --optimizers " + " ".join(args.optimizers),
           "" if args.page == "onnx-optimizers.md" else " --page " + args.page,
           machine_stamp(), failures),
        ["model", "optimizer", "budget", "check", "budget met", "live",
         "arena", "arena / live"],
        rows)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
