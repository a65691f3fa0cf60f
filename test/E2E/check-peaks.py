#!/usr/bin/env python3
"""Checks remat-run measurements against the planner's predictions.

Usage: check-peaks.py [--arena] REFERENCE_RUN [REPORT RUN]...

REFERENCE_RUN is remat-run's JSON for the step without rematerialization.
Each REPORT RUN pair is a remat-plan JSON report and remat-run's JSON for
the planned step. For every pair: the outputs are bit-identical to the
reference's (same shapes, dtypes and hashes), the measured peak equals the
predicted one (peak_after_bytes), and it is within the budget when the plan
is feasible. Prints one line per case; exits non-zero on any failure.

With --arena the runs are of steps lowered to one arena (remat-run's
default) and the bytes compared are the arena's: the extent of the
allocations the runtime saw (arena_bytes) equals the planned arena
(graphs[].arena_bytes), the step made one allocation (none for an arena of
0 bytes) and nothing outside it (peak_bytes == arena_bytes), and a feasible plan's arena is within an
arena budget.
"""

import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def strip(outputs):
    return [(o["shape"], o["dtype"], o["hash"]) for o in outputs]


def main(argv):
    arena = len(argv) > 1 and argv[1] == "--arena"
    if arena:
        argv = argv[1:]
    if len(argv) < 2 or len(argv) % 2 != 0:
        print(__doc__, file=sys.stderr)
        return 2
    reference = load(argv[1])
    failures = 0
    for report_path, run_path in zip(argv[2::2], argv[3::2]):
        graph = load(report_path)["graphs"][0]
        run = load(run_path)
        problems = []
        if arena:
            predicted = graph["arena_bytes"]
            measured = run["arena_bytes"]
            # A step whose buffers all have no bytes has an arena of 0
            # bytes, which the runtime does not allocate.
            expected = 1 if predicted else 0
            if run["alloc_count"] != expected:
                problems.append("%d allocations, not %d" %
                                (run["alloc_count"], expected))
            if run["peak_bytes"] != measured:
                problems.append("peak %d != arena %d" %
                                (run["peak_bytes"], measured))
            budget = (graph.get("budget_bytes")
                      if graph.get("budget_kind") == "arena" else None)
        else:
            predicted = graph["peak_after_bytes"]
            measured = run["peak_bytes"]
            budget = graph.get("budget_bytes")
        if strip(run["outputs"]) != strip(reference["outputs"]):
            problems.append("outputs differ from the reference")
        if measured != predicted:
            problems.append("measured %d != predicted %d" % (measured, predicted))
        if graph.get("feasible") and budget is not None and measured > budget:
            problems.append("measured %d > budget %d" % (measured, budget))
        status = "FAIL " + "; ".join(problems) if problems else "OK"
        print("%s: budget=%s predicted=%d measured=%d %s" %
              (graph["name"], graph.get("budget"), predicted, measured, status))
        failures += bool(problems)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
