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
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
    lines = ["| " + " | ".join(header) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    stamp = "%s, %s, %s" % (datetime.date.today().isoformat(),
                            platform.node() or "unknown host",
                            platform.processor() or platform.machine())
    text = ("# Planning the bundled examples\n\n"
            "Produced by `python3 bench/plan-examples.py` (%s). Peaks are the "
            "memory model's (docs/memory-model.md), `peak before` is after remat-schedule and before any recomputation; plan time is the solver's "
            "own, median of %d runs. Budgets that cannot be met are planned "
            "best-effort and marked.\n\n" % (stamp, args.repeat)
            + "\n".join(lines) + "\n")
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", "plan-examples.md"),
              "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
