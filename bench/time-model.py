#!/usr/bin/env python3
"""Recomputation priced in time against FLOPs, measured.

For each step (the bundled examples, and, when ../shared is there, the
shared SqueezeNet's training step at batch 8, 3x64x64, and ResNet-50's at
batch 2, 3x160x160: sizes where activations, not weights, make the peak)
and each budget (none, 0.7, 0.5, min), plans twice, with cost-model=flops
and cost-model=time, lowers both plans with remat-to-cpu and times them
with remat-run (one thread), round-robin, keeping each plan's fastest run. The page gives,
per plan, the arena, the extra FLOPs, the time model's estimate of the
step and of its extra time, and the measured step time and extra time
over the unplanned step. The measured arena must equal the planned one.

Usage: python3 bench/time-model.py [--build build] [--repeat 3] [--rounds 3]
       [--time-model FILE] [--unshared] [--steps a,b]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_page import (ROOT, machine_stamp, markdown_table,  # noqa: E402
                          write_text)

EXAMPLES = ["mlp", "transformer", "resnet"]
# Shared model, batch, image side.
MODELS = [("squeezenet", 8, 64), ("resnet50", 2, 160)]
BUDGETS = ["none", "0.7", "0.5", "min"]
COST_MODELS = ["flops", "time"]


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, check=True,
                          capture_output=True).stdout


class Bench:
    def __init__(self, args, work):
        self.opt = os.path.join(args.build, "bin", "remat-opt")
        self.run_tool = os.path.join(args.build, "bin", "remat-run")
        self.translate = os.path.join(args.build, "bin", "remat-translate")
        self.repeat = args.repeat
        self.rounds = args.rounds
        self.time_model = args.time_model
        self.work = work

    def plan(self, step, budget, cost_model):
        """The planned step and its report's graph entry."""
        report = os.path.join(self.work, "report.json")
        options = ["report=%s" % report, "cost-model=%s" % cost_model]
        if budget != "none":
            options += ["budget=%s" % budget, "best-effort=true"]
        else:
            options.append("solver=none")
        if cost_model == "time" and self.time_model:
            options.append("time-model=%s" % self.time_model)
        planned = run([self.opt, "-", "--remat-pipeline=" + " ".join(options)],
                      stdin=step)
        with open(report) as f:
            return planned, json.load(f)["graphs"][0]

    def lower(self, planned):
        return run([self.opt, "-", "--remat-to-cpu"], stdin=planned)

    def time(self, lowered):
        """One remat-run process: its fastest warm run, and its arena."""
        report = json.loads(run([self.run_tool, "-", "--json",
                                 "--repeat=%d" % self.repeat,
                                 "--step-threads=1"], stdin=lowered))
        return min(report["times_ms"]), report["arena_bytes"]

    def model_step(self, name, batch, side):
        path = os.path.join(ROOT, "..", "shared", "models", "onnx",
                            name + ".onnx")
        imported = run([self.translate, "--import-onnx", path,
                        "--onnx-batch=%d" % batch,
                        "--onnx-input-shape=3x%dx%d" % (side, side),
                        "--onnx-adapt"])
        return run([self.opt, "-", "--remat-autodiff=loss=mse"],
                   stdin=imported)


def measure_step(bench, name, step, log):
    """Plans `step` at every budget under both cost models, then times the
    lowered plans round-robin, --rounds times, keeping each plan's fastest
    run: this machine's noise only ever adds, and a slow spell then hits
    every plan alike rather than one."""
    rows = []
    for budget in BUDGETS:
        for cost_model in COST_MODELS:
            if budget == "none" and cost_model == "flops":
                continue
            planned, graph = bench.plan(step, budget, cost_model)
            rows.append(dict(step=name, budget=budget, cost_model=cost_model,
                             arena=graph["arena_bytes"],
                             feasible=graph["feasible"],
                             extra_flops_percent=graph["extra_flops_percent"],
                             base_seconds=graph["base_seconds"],
                             extra_seconds=graph["extra_seconds"],
                             lowered=bench.lower(planned), ms=float("inf")))
    for _ in range(bench.rounds):
        for row in rows:
            ms, arena = bench.time(row["lowered"])
            if arena != row["arena"]:
                raise SystemExit("%s at %s (%s): measured arena %d, planned "
                                 "%d" % (name, row["budget"],
                                         row["cost_model"], arena,
                                         row["arena"]))
            row["ms"] = min(row["ms"], ms)
    base_ms = rows[0]["ms"]
    for row in rows:
        del row["lowered"]
        row["extra_ms"] = row["ms"] - base_ms
        log("%s %s %s: arena %d, +%.2f%% FLOPs, %.2f ms" %
            (name, row["budget"], row["cost_model"], row["arena"],
             row["extra_flops_percent"], row["ms"]))
    return rows


def page(rows, args):
    def fmt_ms(x):
        return "—" if x is None else "%.2f" % x

    table = []
    for r in rows:
        est_step = (None if r["base_seconds"] is None else
                    (r["base_seconds"] + r["extra_seconds"]) * 1e3)
        est_extra = (None if r["extra_seconds"] is None else
                     r["extra_seconds"] * 1e3)
        table.append([r["step"], r["budget"], r["cost_model"],
                      "{:,}".format(r["arena"]) +
                      ("" if r["feasible"] else " (not met)"),
                      "%+.2f%%" % r["extra_flops_percent"],
                      fmt_ms(est_step), fmt_ms(est_extra),
                      "%.2f" % r["ms"], "%+.2f" % r["extra_ms"]])
    return """# Recomputation priced in time, measured

`python3 bench/time-model.py --repeat %d --rounds %d%s` (%s). Each step is
planned with `cost-model=flops` (the planner minimizes extra FLOPs) and
with `cost-model=time` (it minimizes the time model's estimate, the cpu's
built-in one, docs/time-model.md), at the same budget
(`budget-kind=arena`, `best-effort`), lowered with `remat-to-cpu` and timed
with `remat-run --repeat=%d --step-threads=1`, every plan of a step in
turn, %d times, keeping each plan's fastest run (this machine's noise
only ever adds). "est." columns are the time model's (only under
`cost-model=time`); "measured extra" is the step's time less the
unplanned step's. The shared models' steps: SqueezeNet at batch 8,
3x64x64; ResNet-50 at batch 2, 3x160x160; mean-squared-error loss. Every
measured arena equals the planned one (the script stops otherwise).

%s
""" % (args.repeat, args.rounds, " --unshared" if args.unshared else "",
       machine_stamp(), args.repeat, args.rounds,
       markdown_table(["step", "budget", "cost model", "arena (B)",
                       "extra FLOPs", "est. step (ms)", "est. extra (ms)",
                       "measured step (ms)", "measured extra (ms)"], table))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=3,
                        help="warm runs per remat-run process")
    parser.add_argument("--rounds", type=int, default=3,
                        help="remat-run processes per plan, round-robin")
    parser.add_argument("--time-model", default="",
                        help="a calibrated JSON time model (default: the "
                        "target's built-in one)")
    parser.add_argument("--unshared", action="store_true",
                        help="the bundled examples only")
    parser.add_argument("--steps", default="",
                        help="comma-separated subset of the steps")
    args = parser.parse_args()
    steps = [(name, None) for name in EXAMPLES]
    if not args.unshared:
        steps += [(model[0], model) for model in MODELS]
    if args.steps:
        steps = [s for s in steps if s[0] in args.steps.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        bench = Bench(args, work)
        for name, model in steps:
            if model is None:
                with open(os.path.join(ROOT, "examples",
                                       name + ".mlir"), "rb") as f:
                    step = f.read()
            else:
                step = bench.model_step(*model)
            rows += measure_step(bench, name, step,
                                 lambda line: print(line, file=sys.stderr))
    write_text("time-model.md", page(rows, args))


if __name__ == "__main__":
    main()
