#!/usr/bin/env python3
"""Plans each bundled training step at a series of budgets and shows the
trade-off: per step, a table of the arena and live peak reached at each
budget against the FLOPs recomputation adds, and one picture of all of them
(tradeoff.svg). With a single budget it prints remat-opt's summary instead:
what is recomputed and what is live at the new peak.

The rewritten IR, the JSON reports and the SVG memory timelines go to the
output directory, one set per step and budget. Exits non-zero when any step
misses a budget or remat-opt fails, after trying them all.

    budget-sweep.py --out DIR                  # 0.9 0.8 0.7 0.6 min
    budget-sweep.py --out DIR 0.7              # one budget, with summaries
    budget-sweep.py --out DIR --bin build/bin 2MiB min
"""

import argparse
import json
import os
import subprocess
import sys

EXAMPLES = ["mlp", "transformer", "resnet"]
DEFAULT_BUDGETS = ["0.9", "0.8", "0.7", "0.6", "min"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def human(nbytes):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= size:
            return "%.1f %s" % (nbytes / size, unit)
    return "%d B" % nbytes


def plan(remat_opt, example, budget, out, summary):
    """Runs the pipeline on one step; returns its report's graph, or None."""
    stem = os.path.join(out, "%s-%s" % (example, budget))
    options = "budget=%s report=%s.json timeline=%s.svg" % (budget, stem, stem)
    if summary:
        options += " summary"
    command = [remat_opt, os.path.join(ROOT, "examples", example + ".mlir"),
               "--remat-pipeline=" + options, "-o", stem + ".remat.mlir"]
    # The summary and any error go to the terminal as remat-opt writes them.
    if subprocess.run(command).returncode != 0:
        return None
    with open(stem + ".json") as report:
        return json.load(report)["graphs"][0]


def print_table(example, rows):
    first = rows[0][1]
    print("@%s (%d ops): %s arena, %s live peak without rematerialization"
          % (first["name"], first["ops"], human(first["arena_before_bytes"]),
             human(first["peak_before_bytes"])))
    print("  %-8s %12s %8s %12s %12s %11s" % ("budget", "arena", "of orig",
                                             "live peak", "extra FLOPs",
                                             "recomputed"))
    for budget, graph in rows:
        if graph is None:
            print("  %-8s  failed (see the error above)" % budget)
            continue
        print("  %-8s %12s %7.1f%% %12s %+11.1f%% %11d"
              % (budget, human(graph["arena_bytes"]),
                 100.0 * graph["arena_bytes"] / graph["arena_before_bytes"],
                 human(graph["peak_after_bytes"]),
                 graph["extra_flops_percent"], len(graph["recomputed"])))
    print()


def write_tradeoff_svg(path, results):
    """One polyline per step: arena (% of the unrematerialized arena) against
    extra FLOPs (%), one point per budget."""
    width, height, margin = 640, 400, 60
    points = [(100.0 * g["arena_bytes"] / g["arena_before_bytes"],
               g["extra_flops_percent"])
              for rows in results.values() for _, g in rows if g]
    max_flops = max([p[1] for p in points] + [1.0]) * 1.1
    min_arena = min([p[0] for p in points] + [100.0])
    low = max(0.0, (int(min_arena) // 10) * 10.0)

    def x(arena):
        return margin + (arena - low) / (100.0 - low) * (width - 2 * margin)

    def y(flops):
        return height - margin - flops / max_flops * (height - 2 * margin)

    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'font-family="sans-serif" font-size="12">' % (width, height),
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="%d" y="20" font-size="14">Arena against recomputation, '
        'one point per budget</text>' % margin,
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
        % (margin, height - margin, width - margin, height - margin),
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
        % (margin, margin, margin, height - margin),
        '<text x="%d" y="%d">arena, %% of the unrematerialized arena</text>'
        % (width // 2 - 120, height - 20),
        '<text x="15" y="%d" transform="rotate(-90 15 %d)">extra FLOPs, %%'
        '</text>' % (height // 2 + 40, height // 2 + 40),
    ]
    for tick in range(int(low), 101, 10):
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
                     % (x(tick), height - margin + 16, tick))
    for i in range(5):
        flops = max_flops * i / 4
        parts.append('<text x="%d" y="%.1f" text-anchor="end">%.0f</text>'
                     % (margin - 6, y(flops) + 4, flops))
    for index, (example, rows) in enumerate(results.items()):
        color = colors[index % len(colors)]
        coords = [(x(100.0 * g["arena_bytes"] / g["arena_before_bytes"]),
                   y(g["extra_flops_percent"]), budget)
                  for budget, g in rows if g]
        if not coords:
            continue
        parts.append('<polyline fill="none" stroke="%s" stroke-width="2" '
                     'points="%s"/>' % (color, " ".join(
                         "%.1f,%.1f" % (cx, cy) for cx, cy, _ in coords)))
        for cx, cy, budget in coords:
            parts.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s">'
                         '<title>%s at %s</title></circle>'
                         % (cx, cy, color, example, budget))
        parts.append('<text x="%d" y="%d" fill="%s">%s</text>'
                     % (width - margin - 90, margin + 16 * index, color,
                        example))
    parts.append("</svg>")
    with open(path, "w") as svg:
        svg.write("\n".join(parts) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("budgets", nargs="*", default=DEFAULT_BUDGETS,
                        help="bytes (67108864), sizes (2MiB), fractions "
                             "(0.7) or min; default: %s"
                             % " ".join(DEFAULT_BUDGETS))
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--bin", help="directory of remat-opt (default: "
                                      "remat-opt on PATH)")
    args = parser.parse_args()
    remat_opt = os.path.join(args.bin, "remat-opt") if args.bin else "remat-opt"
    os.makedirs(args.out, exist_ok=True)

    summary = len(args.budgets) == 1
    results = {}
    for example in EXAMPLES:
        results[example] = [(budget, plan(remat_opt, example, budget,
                                          args.out, summary))
                            for budget in args.budgets]
        if summary:
            print()
    if not summary:
        for example, rows in results.items():
            print_table(example, rows)
        write_tradeoff_svg(os.path.join(args.out, "tradeoff.svg"), results)
        print("Trade-off picture: %s" % os.path.join(args.out, "tradeoff.svg"))
    print("Rewritten IR (.remat.mlir), reports (.json) and memory timelines "
          "(.svg): %s" % args.out)
    failed = [(e, b) for e, rows in results.items() for b, g in rows if not g]
    if failed:
        print("failed: %s" % ", ".join("%s at %s" % f for f in failed),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
