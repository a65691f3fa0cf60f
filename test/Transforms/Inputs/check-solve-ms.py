#!/usr/bin/env python3
"""Checks that every graph of a remat-plan report was planned in time.

Usage: check-solve-ms.py REPORT LIMIT_SECONDS
Fails unless each graph's solve_ms is at most the limit plus 10% and a
quarter second for the work around the solves (placing, materializing).
"""

import json
import sys


def main(path, limit):
    bound = float(limit) * 1000 * 1.1 + 250
    with open(path) as f:
        graphs = json.load(f)["graphs"]
    for graph in graphs:
        ms = graph["solve_ms"]
        verdict = "within" if ms <= bound else "OVER"
        print("%s: %s the limit (%d ms for %s s, %d plans)" %
              (graph["name"], verdict, ms, limit, graph["plans"]))
        if ms > bound:
            sys.exit(1)


if __name__ == "__main__":
    main(*sys.argv[1:])
