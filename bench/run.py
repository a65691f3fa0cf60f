#!/usr/bin/env python3
"""Benchmarks every solver on synthetic training steps; writes bench/results/.

    python3 bench/run.py [--quick] [--ilp-time-limit 60] [--no-scaling]
                         [--families mlp,layered,...] [--layered-sizes 100,250]

For each model (MLP, transformer, ResNet, U-Net, a random layered DAG) x
budget (0.9 0.8 0.6 0.5 0.4 0.3 of the peak without rematerialization, and
min) x solver (greedy ilp chain checkpoint-all sqrt-n xla) runs
`build/bin/remat-bench run` and collects peak, extra FLOPs, solve time and
the ILP's optimality gap. The random layered families of the CP remat study
(Gagrani et al.'s generator as `remat-bench --model=layered`, n = 100, 250,
500, 1000, no backward part, the graph's own fixed order) run on a finer
grid (1.0 down to 0.3 in steps of 0.05, and min) for a budget-reach table:
the smallest fraction of the fixed-order peak each solver meets, beside the
working-set floor. Then a scaling sweep plans random DAGs of about 1k,
10k and 100k ops with each solver that finishes within --scale-time-limit
(a solver that times out at one size is not tried at the next), and fits
plan time ~ ops^k by least squares on log-log.

A solver that did not run its own method is marked in every table
(chain->greedy off chains, ilp->heuristics when the MIP was not built or
CBC stopped before it bounded it), and an ILP optimum counts as a proof only
when CBC ran and proved it (a plan needing no extra FLOPs is optimal
without it, and is counted apart).

Writes bench/results/solvers.md (tables), solvers.csv (every run),
scaling.csv, and SVG plots: extra-flops-<model>.svg (extra FLOPs vs budget,
one line per solver) and plan-time.svg (plan time vs graph size, log-log).
Plots are written by this script (no matplotlib).
"""

import argparse
import csv
import datetime
import io
import json
import math
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
SOLVERS = ["greedy", "ilp", "chain", "checkpoint-all", "sqrt-n", "xla"]
BUDGETS = ["0.9", "0.8", "0.6", "0.5", "0.4", "0.3", "min"]
# Models small enough for the ILP (a few hundred ops at most).
MODELS = [
    ("mlp", ["--model=mlp", "--layers=12", "--width=256", "--batch=4096"]),
    ("transformer", ["--model=transformer", "--layers=3", "--width=256",
                     "--length=128"]),
    ("resnet", ["--model=resnet", "--layers=6", "--width=64", "--length=32"]),
    ("unet", ["--model=unet", "--layers=3", "--width=64", "--length=64"]),
    ("dag", ["--model=dag", "--depth=10", "--dag-width=3", "--density=0.15",
             "--seed=3"]),
]
# Random layered DAGs of the CP study's sizes (the published n).
LAYERED_SIZES = [100, 250, 500, 1000]
# The budget-reach grid: 1.0, 0.95, ..., 0.3 of the fixed-order peak.
REACH_GRID = ["%g" % (k / 100.0) for k in range(100, 25, -5)] + ["min"]
COLORS = {"greedy": "#1f77b4", "ilp": "#d62728", "chain": "#2ca02c",
          "checkpoint-all": "#9467bd", "sqrt-n": "#ff7f0e", "xla": "#8c564b"}


def run_bench(tool, graph_args, solvers, budgets, time_limit, timeout):
    cmd = [tool, "run"] + graph_args + [
        "--solvers=" + ",".join(solvers), "--budgets=" + ",".join(budgets),
        "--time-limit=%g" % time_limit]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                         timeout=timeout).stdout
    return list(csv.DictReader(io.StringIO(out)))


def layered_models(sizes):
    return [("layered-n%d" % n, ["--model=layered", "--nodes=%d" % n,
                                 "--seed=1"]) for n in sizes]


def fallback(r):
    """What a solver fell back to, from its note, or None."""
    note = r.get("note", "")
    if r["solver"] == "chain" and "not a chain" in note:
        return "chain\u2192greedy"
    if r["solver"] == "ilp" and ("too large for the MIP" in note or
                                 "before it bounded the MIP" in note):
        return "ilp\u2192heuristics"
    return None


def cbc_proof(r):
    """An optimum the exact solver proved: CBC ran (no fallback) and there
    were extra FLOPs to prove minimal."""
    return (r["solver"] == "ilp" and r["optimal"] == "1" and
            r["feasible"] == "1" and not fallback(r) and
            int(r["extra_flops"]) > 0)


def topo_mem(graph_json):
    """The CP study's fixed-order peak, from the published rule: at each
    step the running node's output and every earlier output a node at this
    step or later reads."""
    order = graph_json["graph"]["order"]
    step = {v: j for j, v in enumerate(order)}
    last = {}
    for link in graph_json["links"]:
        last[link["0"]] = max(last.get(link["0"], 0), step[link["1"]])
    size = {node["name"]: node["out_cost"] for node in graph_json["nodes"]}
    ends = [[] for _ in order]
    for v, j in last.items():
        ends[j].append(v)
    live, peak = 0, 0
    for j, v in enumerate(order):
        peak = max(peak, live + size[v])
        live += size[v] if v in last else 0
        live -= sum(size[u] for u in ends[j])
    return peak


# --- SVG --------------------------------------------------------------------

def svg_plot(path, title, xlabel, ylabel, series, xs_labels=None, logx=False,
             logy=False):
    """series: {name: [(x, y), ...]}; xs_labels: [(x, label)] for ticks."""
    w, h, left, right, top, bottom = 640, 400, 70, 150, 40, 50
    pts = [p for s in series.values() for p in s if p[1] is not None]
    if not pts:
        return
    tx = (lambda v: math.log10(v)) if logx else (lambda v: v)
    ty = (lambda v: math.log10(max(v, 1e-9))) if logy else (lambda v: v)
    xs = [tx(p[0]) for p in pts]
    ys = [ty(p[1]) for p in pts]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if not logy:
        y0 = min(0.0, y0)
    if x1 == x0:
        x1 = x0 + 1
    if y1 == y0:
        y1 = y0 + 1
    pad = (y1 - y0) * 0.05
    y1 += pad

    def px(v):
        return left + (tx(v) - x0) / (x1 - x0) * (w - left - right)

    def py(v):
        return h - bottom - (ty(v) - y0) / (y1 - y0) * (h - top - bottom)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="14">%s</text>' % (left, title),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
               left, h - bottom, w - right, h - bottom),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
               left, top, left, h - bottom)]
    # Ticks.
    if xs_labels:
        for x, label in xs_labels:
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                       % (px(x), h - bottom + 15, label))
    else:
        for i in range(5):
            v = x0 + (x1 - x0) * i / 4
            label = "%.3g" % (10 ** v if logx else v)
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                       % (left + (v - x0) / (x1 - x0) * (w - left - right),
                          h - bottom + 15, label))
    for i in range(5):
        v = y0 + (y1 - y0) * i / 4
        label = "%.3g" % (10 ** v if logy else v)
        y = h - bottom - (v - y0) / (y1 - y0) * (h - top - bottom)
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (
            left - 5, y + 4, label))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>'
                   % (left, y, w - right, y))
    out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % (
        (left + w - right) // 2, h - 10, xlabel))
    out.append('<text x="15" y="%d" transform="rotate(-90 15 %d)" '
               'text-anchor="middle">%s</text>' % (h // 2, h // 2, ylabel))
    for k, (name, points) in enumerate(series.items()):
        color = COLORS.get(name, "#333")
        points = [p for p in points if p[1] is not None]
        if points:
            path_d = " ".join("%s%.1f,%.1f" % ("M" if i == 0 else "L",
                                               px(x), py(y))
                              for i, (x, y) in enumerate(points))
            out.append('<path d="%s" fill="none" stroke="%s" '
                       'stroke-width="2"/>' % (path_d, color))
            for x, y in points:
                out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (
                    px(x), py(y), color))
        ly = top + 15 * k
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
                   'stroke-width="2"/>' % (w - right + 10, ly, w - right + 30,
                                           ly, color))
        out.append('<text x="%d" y="%d">%s</text>' % (w - right + 35, ly + 4,
                                                     name))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def fit_exponent(points):
    """Least-squares slope of log(time) over log(ops)."""
    pts = [(math.log(n), math.log(max(t, 1e-3))) for n, t in points]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def model_table(rows, name):
    """Extra FLOPs per solver at each of BUDGETS on one model."""
    sample = next(r for r in rows if r["model"] == name)
    md = ["## %s (%s ops, peak %.1f KiB)" % (
        name, sample["ops"], int(sample["peak_before"]) / 1024.0), "",
        "| solver | " + " | ".join(BUDGETS) + " | plan time (max) |",
        "|---|" + "---|" * (len(BUDGETS) + 1)]
    for solver in SOLVERS:
        runs = [r for r in rows if r["model"] == name and
                r["solver"] == solver and r["budget"] in BUDGETS]
        falls = {fallback(r) for r in runs}
        # One label when every run fell back the same way; else a mark per
        # run.
        label = falls.pop() if len(falls) == 1 and None not in falls else None
        cells, worst = [], 0.0
        for b in BUDGETS:
            r = next((r for r in runs if r["budget"] == b), None)
            if r is None:
                cells.append("")
                continue
            worst = max(worst, float(r["solve_ms"]))
            cells.append(run_cell(r) +
                         (" \u2020" if fallback(r) and not label else ""))
        md.append("| %s | %s | %.1f ms |" % (label or solver, " | ".join(cells),
                                              worst))
    md.append("")
    return md


def run_cell(r):
    if "needs a forward/backward boundary" in r["note"]:
        return "no plan"
    frac = int(r["peak"]) / max(1, int(r["peak_before"]))
    if r["budget"] == "min":
        cell = "%.2f: +%.1f%%" % (frac, float(r["extra_flops_percent"]))
    elif r["feasible"] == "1":
        cell = "+%.1f%%" % float(r["extra_flops_percent"])
    else:
        return "miss (%.2f)" % frac
    if r["solver"] == "ilp" and not fallback(r):
        gap = float(r["gap"])
        if cbc_proof(r):
            cell += " *"
        elif r["optimal"] != "1" and gap >= 0:
            cell += " gap %.0f%%" % (100 * gap)
    return cell


def reach_section(rows, layered, tool):
    """The smallest fraction of the fixed-order peak each solver meets."""
    md = ["## Budget reach on random layered DAGs", "",
          "Random layered DAGs after Gagrani et al. 2022 (`remat-bench gen "
          "--model=layered --nodes=N --seed=1`; the generator is described "
          "in lib/Planning/Testing/RandomGraphs.cpp), planned in their own fixed "
          "order, as in the CP study of Bartan et al. 2023. The fixed-order "
          "peak is checked against the study's rule (a node's inputs and "
          "output live during its step, a buffer freed after its last "
          "reader), computed here from the graph's JSON. Each cell is the "
          "smallest fraction of that peak the solver met on the grid "
          "1.0, 0.95, ..., 0.3, or at `min` (its own least peak), whichever "
          "is lower; `\u2020` marks a fallback. The floor is the "
          "larger of the working-set floor (the most one op needs at once, "
          "operands and output) and the step's results, all live at its "
          "end: no plan goes below it, and it is the best lower bound "
          "these runs prove (the ILP does not report a budget it proved "
          "out of reach). `ilp proofs` lists the grid budgets at which CBC "
          "proved the ILP's plan optimal.", "",
          "| graph | ops | fixed-order peak | = CP rule | " +
          " | ".join(SOLVERS) + " | floor | ilp proofs |",
          "|---|---|---|---|" + "---|" * (len(SOLVERS) + 2)]
    for name, graph_args in layered:
        runs = [r for r in rows if r["model"] == name]
        if not runs:
            continue
        peak = int(runs[0]["peak_before"])
        gen = subprocess.run([tool, "gen"] + graph_args + ["--format=json"],
                             check=True, capture_output=True, text=True)
        cp_peak = topo_mem(json.loads(gen.stdout))
        cells = []
        for solver in SOLVERS:
            mine = [r for r in runs if r["solver"] == solver and
                    "needs a forward/backward boundary" not in r["note"]]
            met = [float(r["budget"]) if r["budget"] != "min" else
                   int(r["peak"]) / max(1, peak)
                   for r in mine if r["feasible"] == "1"]
            fell = {fallback(r) for r in mine} - {None}
            cell = "%.2f" % min(met) if met else "no plan"
            cells.append(cell + (" \u2020 (%s)" % ", ".join(sorted(fell))
                                 if fell else ""))
        proofs = [r["budget"] for r in runs if cbc_proof(r)]
        md.append("| %s | %s | %d | %s | %s | %.2f | %s |" % (
            name, runs[0]["ops"], peak,
            "yes" if cp_peak == peak else "no (%d)" % cp_peak,
            " | ".join(cells), int(runs[0]["floor"]) / max(1, peak),
            ", ".join(proofs) or "none"))
    md.append("")
    return md


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remat-bench",
                        default=os.path.join(ROOT, "build", "bin",
                                             "remat-bench"))
    parser.add_argument("--ilp-time-limit", type=float, default=5,
                        help="seconds per ILP run (60 for the thorough run)")
    parser.add_argument("--scale-time-limit", type=float, default=20,
                        help="seconds one scaling run may take")
    parser.add_argument("--quick", action="store_true",
                        help="ILP limit 2 s, scaling up to 10k ops")
    parser.add_argument("--no-scaling", action="store_true")
    parser.add_argument("--results", default=RESULTS,
                        help="folder for the tables, CSVs and plots")
    parser.add_argument("--families",
                        help="comma-separated families to run (mlp, "
                        "transformer, resnet, unet, dag, layered); default "
                        "all")
    parser.add_argument("--layered-sizes", default=",".join(
        str(n) for n in LAYERED_SIZES),
        help="node counts of the random layered families")
    args = parser.parse_args()
    if args.quick:
        args.ilp_time_limit = min(args.ilp_time_limit, 2)
    families = set(args.families.split(",")) if args.families else None
    models = [m for m in MODELS if families is None or m[0] in families]
    layered = []
    if families is None or "layered" in families:
        layered = layered_models(
            int(n) for n in args.layered_sizes.split(",") if n)
    models += layered
    layered_names = {name for name, _ in layered}
    if not os.path.exists(args.remat_bench):
        sys.exit("remat-bench not found at %s: build it with "
                 "`ninja -C build remat-bench`" % args.remat_bench)
    os.makedirs(args.results, exist_ok=True)
    started = time.time()

    rows = []
    for name, graph_args in models:
        budgets = REACH_GRID if name in layered_names else BUDGETS
        for solver in SOLVERS:
            limit = args.ilp_time_limit
            # Each budget runs separately in one process; the ILP's limit
            # applies per budget.
            got = run_bench(args.remat_bench, graph_args, [solver], budgets,
                            limit, timeout=limit * len(budgets) * 2 + 120)
            for r in got:
                r["model"] = name
            rows += got
            print("%-12s %-15s %6.1fs" % (name, solver, time.time() - started),
                  file=sys.stderr)

    fields = ["model", "ops", "peak_before", "solver", "budget",
              "budget_bytes", "peak", "feasible", "extra_flops", "base_flops",
              "extra_flops_percent", "solve_ms", "optimal", "gap", "note",
              "floor"]
    with open(os.path.join(args.results, "solvers.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for r in rows:
            writer.writerow({k: r[k] for k in fields})

    # Plots: extra FLOPs (% of the step) vs budget, per model.
    budget_x = {b: i for i, b in enumerate(BUDGETS)}
    for name, _ in models:
        series = {}
        for solver in SOLVERS:
            pts = []
            for r in rows:
                if (r["model"] == name and r["solver"] == solver and
                        r["budget"] in budget_x):
                    y = (float(r["extra_flops_percent"])
                         if r["feasible"] == "1" else None)
                    pts.append((budget_x[r["budget"]], y))
            series[solver] = sorted(pts)
        svg_plot(os.path.join(args.results, "extra-flops-%s.svg" % name),
                 "%s: extra FLOPs vs budget (feasible runs)" % name,
                 "budget (fraction of the peak without remat)",
                 "extra FLOPs (% of the step)", series,
                 xs_labels=[(i, b) for b, i in budget_x.items()])

    # Scaling sweep.
    scaling = []
    if not args.no_scaling:
        sizes = [(1000, "--depth=120"), (10000, "--depth=1240"),
                 (100000, "--depth=12480")]
        if args.quick:
            sizes = sizes[:2]
        alive = set(SOLVERS)
        for target, depth in sizes:
            graph_args = ["--model=dag", depth, "--dag-width=4",
                          "--density=0.05", "--seed=1"]
            for solver in SOLVERS:
                if solver not in alive:
                    continue
                try:
                    got = run_bench(args.remat_bench, graph_args, [solver],
                                    ["0.5"], args.scale_time_limit,
                                    timeout=args.scale_time_limit + 10)
                except (subprocess.TimeoutExpired,
                        subprocess.CalledProcessError) as error:
                    alive.discard(solver)
                    why = ("timed out (> %g s)" % args.scale_time_limit
                           if isinstance(error, subprocess.TimeoutExpired)
                           else "failed (exit %d)" % error.returncode)
                    scaling.append({"solver": solver, "target": target,
                                    "ops": "", "solve_ms": "",
                                    "extra_flops_percent": "",
                                    "feasible": "", "note": why})
                    print("scaling %-15s %7d ops: %s" % (
                        solver, target, why), file=sys.stderr)
                    continue
                r = got[0]
                r["target"] = target
                scaling.append(r)
                print("scaling %-15s %7s ops: %.0f ms" % (
                    solver, r["ops"], float(r["solve_ms"])), file=sys.stderr)
        with open(os.path.join(args.results, "scaling.csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=[
                "solver", "target", "ops", "solve_ms", "extra_flops_percent",
                "feasible", "note"])
            writer.writeheader()
            for r in scaling:
                writer.writerow({k: r.get(k, "") for k in writer.fieldnames})
        series = {}
        for solver in SOLVERS:
            pts = [(int(r["ops"]), float(r["solve_ms"]) / 1000.0)
                   for r in scaling if r["solver"] == solver and r["ops"]]
            if pts:
                series[solver] = pts
        svg_plot(os.path.join(args.results, "plan-time.svg"),
                 "plan time vs graph size (random DAGs, budget 0.5)",
                 "ops (log)", "seconds (log)", series, logx=True, logy=True)

    # Markdown.
    stamp = "%s, %s, %s" % (datetime.date.today().isoformat(),
                            platform.node() or "unknown host",
                            platform.processor() or platform.machine())
    md = ["# Solvers on synthetic training steps", "",
          "Produced by `python3 bench/run.py` (%s; %.0f s in all). Every "
          "peak is the memory model's, measured on the materialized plan "
          "(evaluatePlan). Extra FLOPs are a percentage of the step's FLOPs; "
          "a run that misses the budget shows its peak as a fraction of the "
          "original peak and `miss`. `min` asks each solver for the smallest "
          "peak it can reach (the ILP: the smallest the heuristics reach, "
          "then the fewest FLOPs). ILP time limit %g s per run; `*` marks a "
          "plan CBC proved optimal, otherwise the ILP's gap is shown. A "
          "solver that fell back is named by what ran (`chain\u2192greedy`, "
          "`ilp\u2192heuristics`: the MIP was too large or CBC stopped "
          "before it bounded it); `\u2020` marks single runs that fell "
          "back." % (stamp, time.time() - started, args.ilp_time_limit), ""]
    for name, _ in models:
        md += model_table(rows, name)
        md += ["![](extra-flops-%s.svg)" % name, ""]
    if layered:
        md += reach_section(rows, layered, args.remat_bench)
    md += targets_section(rows, scaling, [m[0] for m in models])
    if scaling:
        md += ["## Scaling (random layered DAGs, budget 0.5)", "",
               "| solver | ops | plan time | extra FLOPs | budget met | note |",
               "|---|---|---|---|---|---|"]
        for r in scaling:
            if not r["ops"]:
                md.append("| %s | ~%d | | | | %s |" % (
                    r["solver"], r["target"], r["note"]))
                continue
            md.append("| %s | %s | %.1f ms | +%.1f%% | %s | %s |" % (
                fallback(r) or r["solver"], r["ops"], float(r["solve_ms"]),
                float(r["extra_flops_percent"]),
                "yes" if r["feasible"] == "1" else "no", r.get("note", "")))
        md += ["", "Fitted exponent k in plan time ~ ops^k (least squares on "
               "log-log, sizes that finished):", ""]
        for solver in SOLVERS:
            pts = [(int(r["ops"]), float(r["solve_ms"]) / 1000.0)
                   for r in scaling if r["solver"] == solver and r["ops"]]
            k = fit_exponent(pts)
            md.append("- %s: %s" % (solver, "%.2f" % k if k is not None
                                     else "n/a (fewer than two sizes)"))
        md += ["", "![](plan-time.svg)", ""]
    with open(os.path.join(args.results, "solvers.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("wrote %s" % os.path.join(args.results, "solvers.md"), file=sys.stderr)


def targets_section(rows, scaling, names):
    """Where the issue's targets stand, computed from this run."""
    def find(model, solver, budget):
        return next((r for r in rows if r["model"] == model and
                     r["solver"] == solver and r["budget"] == budget), None)

    def extra(r):
        return int(r["extra_flops"])

    md = ["## Targets", ""]
    # greedy never worse than xla or sqrt-n where both meet the budget.
    worse, compared = [], 0
    for name in names:
        for b in BUDGETS:
            g = find(name, "greedy", b)
            for other in ("xla", "sqrt-n"):
                o = find(name, other, b)
                if not g or not o or o["feasible"] != "1":
                    continue
                compared += 1
                if b == "min":
                    # Lower peaks first, then fewer FLOPs.
                    lose = (int(g["peak"]), extra(g)) > (int(o["peak"]),
                                                         extra(o))
                else:
                    lose = g["feasible"] != "1" or extra(g) > extra(o)
                if lose:
                    worse.append("%s %s vs %s" % (name, b, other))
    md.append("- greedy never worse than xla or sqrt-n (same budget, both "
              "meeting it; at min, the lower peak wins, then fewer FLOPs): "
              "%d comparisons, %s." % (
                  compared, "met" if not worse else
                  "greedy worse in " + ", ".join(worse)))
    # ilp proofs (CBC ran and proved) and greedy within 5% of them.
    proofs = [r for r in rows if cbc_proof(r)]
    trivial = [r for r in rows if r["solver"] == "ilp" and
               r["optimal"] == "1" and not cbc_proof(r)]
    ilp_runs = [r for r in rows if r["solver"] == "ilp"]
    fell = [r for r in ilp_runs if fallback(r)]
    md.append("- ilp proves optimality: %d of %d runs (%s); %d more need no "
              "extra FLOPs (optimal without CBC); %d fell back to the "
              "heuristics (MIP too large, or CBC stopped before a bound)." % (
                  len(proofs), len(ilp_runs), ", ".join(
                      "%s %s in %.1f s" % (r["model"], r["budget"],
                                           float(r["solve_ms"]) / 1000)
                      for r in proofs) or "none", len(trivial), len(fell)))
    within, outside = 0, []
    for r in proofs:
        g = find(r["model"], "greedy", r["budget"])
        if not g:
            continue
        if extra(g) <= 1.05 * extra(r) and g["feasible"] == "1":
            within += 1
        else:
            outside.append("%s %s (+%s vs +%s FLOPs)" % (
                r["model"], r["budget"], g["extra_flops"], r["extra_flops"]))
    md.append("- greedy within 5%% of a proven ilp optimum: %d of %d%s." % (
        within, len(proofs), "" if not outside else
        "; not in " + ", ".join(outside)))
    # The default meets every budget any solver meets.
    missed, met_any = [], 0
    for name in names:
        for b in BUDGETS:
            if b == "min":
                continue
            runs = [r for r in rows if r["model"] == name and
                    r["budget"] == b]
            if not any(r["feasible"] == "1" for r in runs):
                continue
            met_any += 1
            g = find(name, "greedy", b)
            if not g or g["feasible"] != "1":
                missed.append("%s %s" % (name, b))
    md.append("- the default (greedy) meets every budget some solver meets: "
              "%d budgets met by some solver, %s." % (
                  met_any, "greedy met all" if not missed else
                  "greedy missed " + ", ".join(missed)))
    # min within 1.1x of the floor (a peak no plan goes below).
    ratios = []
    for name in names:
        g = find(name, "greedy", "min")
        if g and int(g["floor"]) > 0:
            ratios.append((int(g["peak"]) / int(g["floor"]), name))
    if ratios:
        over = ["%s %.2fx" % (n, q) for q, n in ratios if q > 1.1]
        md.append("- greedy's `min` within 1.1x of the floor: %d of %d "
                  "models%s." % (len(ratios) - len(over), len(ratios),
                                 "" if not over else
                                 "; not " + ", ".join(over)))
    big = [r for r in scaling if r["solver"] == "greedy" and r["ops"]]
    if big:
        largest = max(big, key=lambda r: int(r["ops"]))
        k = fit_exponent([(int(r["ops"]), float(r["solve_ms"]) / 1000.0)
                          for r in big])
        md.append("- greedy plans %s ops in %.2f s; fitted exponent %s." % (
            largest["ops"], float(largest["solve_ms"]) / 1000,
            "%.2f" % k if k is not None else "n/a"))
    md.append("")
    return md


if __name__ == "__main__":
    main()
