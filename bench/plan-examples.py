#!/usr/bin/env python3
"""Plans every bundled example at several budgets and tabulates the result.

For each examples/*.mlir and budget (none, 0.7, 0.5, min) runs
`remat-opt --remat-pipeline="budget=... best-effort report=..."`, reads the
JSON report, and prints a Markdown table: peak before and after, whether the
budget is met, extra FLOPs, and the planner's own time (solve_ms, the median
of --repeat runs). Writes the table to bench/results/plan-examples.md too.

    python3 bench/plan-examples.py [--remat-opt build/bin/remat-opt] [--repeat 5]
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile

from results_page import ROOT, machine_stamp, write_page

BUDGETS = ["0.7", "0.5", "min"]


def plan(remat_opt, example, budget, report):
    options = "report=%s" % report
    if budget:
        options += " budget=%s best-effort" % budget
    subprocess.run([remat_opt, example, "--remat-pipeline=" + options,
                    "-o", os.devnull], check=True, stderr=subprocess.DEVNULL)
    with open(report) as f:
        return json.load(f)["graphs"][0]


def kib(n):
    return "%.1f KiB" % (n / 1024.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remat-opt",
                        default=os.path.join(ROOT, "build", "bin", "remat-opt"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        for name in ["mlp", "transformer", "resnet"]:
            example = os.path.join(ROOT, "examples", name + ".mlir")
            base = plan(args.remat_opt, example, None, report)
            row = [name, str(base["ops"]), kib(base["peak_before_bytes"])]
            for budget in BUDGETS:
                runs = [plan(args.remat_opt, example, budget, report)
                        for _ in range(args.repeat)]
                g = runs[-1]
                ms = statistics.median(r["solve_ms"] for r in runs)
                met = "" if g["feasible"] else " (not met)"
                row.append("%s%s, +%.1f%% FLOPs, %.2f ms" % (
                    kib(g["peak_after_bytes"]), met, g["extra_flops_percent"],
                    ms))
            rows.append(row)

    header = ["example", "ops", "peak before"] + [
        "budget %s: peak, extra FLOPs, plan time" % b for b in BUDGETS]
    write_page(
        "plan-examples.md", "Planning the bundled examples",
        "Produced by `python3 bench/plan-examples.py` (%s). Peaks are the "
        "memory model's (docs/memory-model.md); `peak before` is the peak "
        "before any recomputation in the order the pipeline kept (it plans "
        "the given order and remat-schedule's, and keeps the better plan; "
        "fractional budgets are of the given order's peak); plan time is the "
        "solver's own, median of %d runs. Budgets that cannot be met are "
        "planned best-effort and marked." % (machine_stamp(), args.repeat),
        header, rows)


if __name__ == "__main__":
    main()
