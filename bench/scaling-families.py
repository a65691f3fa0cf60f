#!/usr/bin/env python3
"""Plan time of one solver on every model family at about 1k, 10k and 100k ops.

    python3 bench/scaling-families.py [--solver greedy] [--budgets 0.5,0.7,min]
                                      [--time-limit 60] [--quick]
    python3 bench/scaling-families.py --driver [--budgets 0.5,min] [--repeat 3]

`--driver` times `remat-bench plan` instead: planStep, as remat-plan plans
(both orders, arena fitting with its re-plans and placements), at about
3.5k, 10k, 50k and 100k ops, one process per budget so that each run's CPU
seconds are known beside its wall time, and writes
scaling-families-driver.md and .csv.

bench/run.py sweeps sizes on random DAGs only; deep transformers, ResNets
and U-Nets have structure (residual streams, long skips) that random DAGs
lack, and a solver can be near-linear on one and not on the other. For
each family x size x budget this runs `build/bin/remat-bench run` once and
fits plan time ~ ops^k by least squares on log-log, per family and budget.

Writes bench/results/scaling-families.md and scaling-families.csv.
"""

import argparse
import csv
import io
import math
import os
import platform
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")

# Depths that give about 1k, 10k and 100k ops. The MLP and U-Net use the
# shapes under which their activations, not their weight gradients, are
# the memory (bench/run.py's MLP batch; a 256-pixel U-Net).
FAMILIES = [
    ("transformer", ["--model=transformer"], "--layers", [30, 300, 3000]),
    ("resnet", ["--model=resnet"], "--layers", [55, 550, 5500]),
    ("unet", ["--model=unet", "--width=64", "--length=256"], "--layers",
     [50, 500, 5000]),
    ("mlp", ["--model=mlp", "--batch=4096"], "--layers", [200, 2000, 20000]),
    ("dag", ["--model=dag", "--dag-width=4", "--density=0.05", "--seed=1"],
     "--depth", [120, 1240, 12480]),
    # Random layered DAGs after Gagrani et al. 2022, one op per node.
    ("layered", ["--model=layered", "--seed=1"], "--nodes",
     [1000, 10000, 100000]),
]

# About 3.5k, 10k, 50k and 100k ops, for --driver. The smallest size is
# below the 5,000 ops up to which the default solver adds its local search
# (GreedySearchSolver.cpp), where plan time can exceed that of the larger
# steps.
DRIVER_DEPTHS = {
    "transformer": [100, 300, 1500, 3000],
    "resnet": [200, 550, 2750, 5500],
    "unet": [150, 500, 2500, 5000],
    "mlp": [700, 2000, 10000, 20000],
    "dag": [400, 1240, 6240, 12480],
    "layered": [3500, 10000, 50000, 100000],
}


def fit_exponent(points):
    """Least-squares slope of log(time) over log(ops)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(t, 1e-6)) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    if var == 0:
        return float("nan")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var


def child_cpu_seconds():
    """User plus system CPU seconds of the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def plan_sizes(args, command, budgets, depths_of, detail, per_budget=False):
    """One `remat-bench COMMAND` row per family x size x budget; `detail`
    says what to print of each beside its time. With `per_budget`, each
    budget gets a process of its own and its row the CPU seconds of that
    process (cpu_s, graph generation and the final placement included).
    Each command runs `args.repeat` times (rows of the median time)."""
    repeat = max(1, args.repeat)
    groups = [[b] for b in budgets] if per_budget else [budgets]
    rows = []
    for family, graph_args, depth_flag, depths in FAMILIES:
        depths = depths_of(family, depths)
        for depth in depths[:2] if args.quick else depths:
            for group in groups:
                cmd = [args.remat_bench, command] + graph_args + [
                    "%s=%d" % (depth_flag, depth), "--solvers=" + args.solver,
                    "--budgets=" + ",".join(group),
                    "--time-limit=%g" % args.time_limit]
                # Each run's rows by budget; a repeated group keeps each
                # budget's row of the median plan time, with the median
                # CPU seconds of its runs.
                runs = {}
                for _ in range(repeat):
                    cpu = child_cpu_seconds()
                    out = subprocess.run(cmd, check=True, capture_output=True,
                                         text=True).stdout
                    cpu = child_cpu_seconds() - cpu
                    for r in csv.DictReader(io.StringIO(out)):
                        r["family"] = family
                        if per_budget:
                            r["cpu_s"] = "%.2f" % cpu
                        runs.setdefault(r["budget"], []).append(r)
                for budget_runs in runs.values():
                    r = median_run(budget_runs, "solve_ms")
                    if per_budget:
                        r["cpu_s"] = median_run(budget_runs, "cpu_s")["cpu_s"]
                    rows.append(r)
                    print("%-11s %7s ops %-4s %9.0f ms  %s  %s" % (
                        family, r["ops"], r["budget"], float(r["solve_ms"]),
                        detail(r),
                        "feasible" if r["feasible"] == "1" else "infeasible"),
                        file=sys.stderr)
    return rows


def median_run(runs, field):
    """The run whose `field` is the median (the lower one of an even
    number)."""
    ranked = sorted(runs, key=lambda r: float(r[field]))
    return ranked[(len(ranked) - 1) // 2]


def series(rows, budgets):
    """(family, budget, its rows by size) for every pair that has rows."""
    for family, _, _, _ in FAMILIES:
        for budget in budgets:
            runs = sorted((r for r in rows if r["family"] == family and
                           r["budget"] == budget),
                          key=lambda r: int(r["ops"]))
            if runs:
                yield family, budget, runs


def driver_table(args, budgets):
    """Plan time of planStep (remat-bench plan) per family, size and budget."""
    # The recomputes column of a 100k-op plan is megabytes long.
    csv.field_size_limit(sys.maxsize)
    rows = plan_sizes(args, "plan", budgets,
                      lambda family, _: DRIVER_DEPTHS[family],
                      lambda r: "arena %s cpu %s s" % (r["arena"], r["cpu_s"]),
                      per_budget=True)

    os.makedirs(RESULTS, exist_ok=True)
    fields = ["family", "ops", "operands", "budget", "solve_ms", "cpu_s",
              "arena", "peak", "feasible", "extra_flops", "plans"]
    with open(os.path.join(RESULTS, "scaling-families-driver.csv"), "w",
              newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)

    md = ["# Plan time per model family, as remat-plan plans", "",
          "`python3 %s` (solver `%s`, time limit %g s) on %s, %s." % (
              " ".join(["bench/scaling-families.py"] + sys.argv[1:]),
              args.solver, args.time_limit,
              platform.processor() or platform.machine(),
              platform.platform()),
          "Plan time is `remat-bench plan`'s solve time (ms, wall clock): "
          "planStep with remat-plan's defaults (both orders, the budget "
          "bounding the placed arena, re-plans until it fits). cpu is the "
          "CPU seconds of the whole `remat-bench plan` process for that "
          "budget (graph generation and the final placement included). k10 "
          "is the log-log slope of the wall time between the two largest "
          "sizes, k10 cpu that of the CPU seconds, and k10 size that of "
          "the wall time against the size of the input, ops plus operands "
          "(the ops' operands, counted per op), which grows faster than "
          "the ops where the graphs get denser. The target is under 10 s "
          "at 100k ops and k10 at most 1.2.%s" % (
              " Each time is the median of %d runs, and each cpu the median "
              "of their CPU seconds (not always the same run's)." % args.repeat
              if args.repeat > 1 else ""), ""]
    sizes = max(len(depths) for depths in DRIVER_DEPTHS.values())
    md.append("| family | budget | " + " | ".join(
        "ops | ms | cpu" for _ in range(sizes)) +
        " | k10 | k10 cpu | k10 size |")
    md.append("|---|---|" + "---|---|---|" * sizes + "---|---|---|")
    for family, budget, runs in series(rows, budgets):
        cells = ["%s | %.0f%s | %s" % (
            r["ops"], float(r["solve_ms"]),
            "" if r["feasible"] == "1" else " (infeasible)", r["cpu_s"])
                 for r in runs]
        cells += [" |  | "] * (sizes - len(runs))
        wall = [(int(r["ops"]), float(r["solve_ms"])) for r in runs]
        cpu = [(int(r["ops"]), float(r["cpu_s"])) for r in runs]
        size = [(int(r["ops"]) + int(r["operands"]), float(r["solve_ms"]))
                for r in runs]
        md.append("| %s | %s | %s | %.2f | %.2f | %.2f |" % (
            family, budget, " | ".join(cells), fit_exponent(wall[-2:]),
            fit_exponent(cpu[-2:]), fit_exponent(size[-2:])))
    md.append("")
    with open(os.path.join(RESULTS, "scaling-families-driver.md"), "w") as f:
        f.write("\n".join(md))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--remat-bench",
                        default=os.path.join(ROOT, "build", "bin",
                                             "remat-bench"))
    parser.add_argument("--solver", default="greedy")
    parser.add_argument("--budgets", default="0.5,0.7,min")
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--quick", action="store_true",
                        help="the two smaller sizes only")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per family, size and budget; the tables "
                        "take the median plan time (and the median CPU "
                        "seconds)")
    parser.add_argument("--driver", action="store_true",
                        help="time remat-bench plan (planStep) at 3.5k-100k "
                        "ops")
    args = parser.parse_args()
    budgets = args.budgets.split(",")
    if args.driver:
        return driver_table(args, budgets)

    rows = plan_sizes(args, "run", budgets, lambda _, depths: depths,
                      lambda r: "extra %s%%" % r["extra_flops_percent"])

    os.makedirs(RESULTS, exist_ok=True)
    fields = ["family", "ops", "budget", "solve_ms", "peak", "feasible",
              "extra_flops_percent", "note"]
    with open(os.path.join(RESULTS, "scaling-families.csv"), "w",
              newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for r in rows:
            writer.writerow({k: r.get(k, "") for k in fields})

    md = ["# Plan time per model family", "",
          "`python3 bench/scaling-families.py` (solver `%s`, time limit "
          "%g s) on %s, %s." % (args.solver, args.time_limit,
                                platform.processor() or platform.machine(),
                                platform.platform()),
          "Plan time is `remat-bench run`'s solve time; the exponent k fits "
          "time ~ ops^k over the sizes (least squares on log-log), k10 over "
          "the two largest only (a fixed cost per run flattens k). Below "
          "5,000 ops the default solver adds a local search where greedy "
          "misses the budget or under `min`, which runs for seconds: k of "
          "`min` is not greedy's.%s" % (
              " Each time is the median of %d runs." % args.repeat
              if args.repeat > 1 else ""), ""]
    md.append("| family | budget | " + " | ".join(
        "ops | ms | extra FLOPs" for _ in range(3)) + " | k | k10 |")
    md.append("|---|---|" + "---|---|---|" * 3 + "---|---|")
    for family, budget, runs in series(rows, budgets):
        cells = []
        for r in runs:
            extra = "%.3f%%" % float(r["extra_flops_percent"])
            if r["feasible"] != "1":
                extra += " (infeasible)"
            cells.append("%s | %.0f | %s" % (r["ops"],
                                             float(r["solve_ms"]), extra))
        cells += [" |  | "] * (3 - len(runs))
        points = [(int(r["ops"]), float(r["solve_ms"])) for r in runs]
        md.append("| %s | %s | %s | %.2f | %.2f |" % (
            family, budget, " | ".join(cells), fit_exponent(points),
            fit_exponent(points[-2:])))
    md.append("")
    with open(os.path.join(RESULTS, "scaling-families.md"), "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    main()
