#!/usr/bin/env python3
"""Runs the compiled examples and compares measured with predicted peaks.

For each examples/*.mlir and budget (none, 0.7, 0.5, min): plans it with
remat-opt (best-effort), runs the step with remat-run (CPU JIT, --seed 0)
--repeat times with one allocation per buffer (--arena=false), and
tabulates the predicted peak (the report's peak_after_bytes), the peak the
runtime's tracking allocator measured, whether the outputs are bit-identical
to the unrematerialized step, and the median run time; then once lowered to
one arena (remat-run's default): the planned arena (the report's
arena_bytes) and the arena the allocator handed out (remat-run's
arena_bytes). Writes bench/results/measured-examples.md.

    python3 bench/measure-examples.py [--build build] [--repeat 5]
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile

from results_page import ROOT, machine_stamp, write_page

BUDGETS = [None, "0.7", "0.5", "min"]


def run_json(cmd, stdin=None):
    out = subprocess.run(cmd, input=stdin, check=True, capture_output=True)
    return out.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "remat-opt")
    run = os.path.join(args.build, "bin", "remat-run")

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        for name in ["mlp", "transformer", "resnet"]:
            example = os.path.join(ROOT, "examples", name + ".mlir")
            reference = None
            for budget in BUDGETS:
                options = "best-effort=true report=" + report
                if budget:
                    options += " budget=" + budget
                planned = run_json([opt, example,
                                    "--remat-pipeline=" + options])
                with open(report) as f:
                    graph = json.load(f)["graphs"][0]
                runs = [json.loads(run_json([run, "-", "--json", "--seed=0",
                                             "--arena=false"], stdin=planned))
                        for _ in range(args.repeat)]
                arena = json.loads(run_json([run, "-", "--json", "--seed=0"],
                                            stdin=planned))
                hashes = [o["hash"] for o in runs[0]["outputs"]]
                if reference is None:
                    reference = hashes
                measured = runs[0]["peak_bytes"]
                predicted = graph["peak_after_bytes"]
                rows.append([
                    name, budget or "none",
                    str(graph["budget_bytes"] or "-"), str(predicted),
                    str(measured), "yes" if measured == predicted else "NO",
                    "yes" if hashes == reference else "NO",
                    str(graph["arena_bytes"]), str(arena["arena_bytes"]),
                    "yes" if arena["arena_bytes"] == graph["arena_bytes"]
                    and arena["alloc_count"] == 1 else "NO",
                    "yes" if [o["hash"] for o in arena["outputs"]] == reference
                    else "NO",
                    "%.1f%%" % graph["extra_flops_percent"],
                    "%.1f" % statistics.median(r["time_ms"] for r in runs)])

    header = ["example", "budget", "budget bytes", "predicted peak",
              "measured peak", "equal", "outputs identical", "planned arena",
              "measured arena", "one arena, equal", "arena outputs identical",
              "extra FLOPs",
              "run time (ms)"]
    write_page(
        "measured-examples.md",
        "Measured against predicted: the bundled examples on the CPU",
        "Produced by `python3 bench/measure-examples.py` (%s): remat-opt "
        "--remat-pipeline (best-effort) | remat-run --json --seed=0 "
        "--arena=false, and once without --arena=false for the arena "
        "columns; run time is the JIT-compiled step's (one allocation per "
        "buffer), median of %d runs."
        % (machine_stamp(), args.repeat),
        header, rows)


if __name__ == "__main__":
    main()
