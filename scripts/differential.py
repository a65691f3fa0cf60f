#!/usr/bin/env python3
"""Differential testing of the whole path on random training steps.

Usage:
  scripts/differential.py --seeds=FIRST:END [--bin=DIR] [--work=DIR]
  scripts/differential.py --seconds=N [--first-seed=S] ...   # a soak
  scripts/differential.py --step=FILE [--first-seed=S]       # one step

For each seed, scripts/random_step.py writes a random step; remat-opt plans
it without a budget and at 0.7, 0.5 and min (`--remat-pipeline`, best
effort); remat-run lowers and runs each plan on the same generated inputs;
test/E2E/check-peaks.py then requires outputs bit-identical to the
unplanned run and measured peak == predicted peak, every time. A tool that
fails (non-zero exit) is a failure too. Each plan runs twice: with
--arena=false (the peak of one allocation per buffer is the predicted live
peak) and in one arena (the arena remat-run measures is the planned one,
check-peaks.py --arena).

Prints each failing seed with what failed and the command that reproduces
it (the step's file is kept under --work, with the planned steps, reports
and runs next to it), then a summary line:
  differential: N steps, M runs, F failed (T s)
Exits 1 when any seed failed. Only the Python standard library is used.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import random_step  # noqa: E402

BUDGETS = [None, "0.7", "0.5", "min"]
CHECK_PEAKS = os.path.join(ROOT, "test", "E2E", "check-peaks.py")


def run_tool(argv, out_path=None):
    """Runs argv; returns None on success, else a one-line reason."""
    out = open(out_path, "w") if out_path else subprocess.DEVNULL
    try:
        done = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE,
                              text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "%s timed out" % os.path.basename(argv[0])
    finally:
        if out_path:
            out.close()
    if done.returncode != 0:
        first = done.stderr.strip().splitlines()[:1] or ["(no message)"]
        return "%s exit %d: %s" % (os.path.basename(argv[0]),
                                   done.returncode, first[0][:300])
    return None


def run_options(bindir):
    """remat-run's options for the live-peak run (one allocation per buffer)
    and for the arena run."""
    common = ["--json", "-O", "0"]
    return common + ["--arena=false"], common

def check_step(step, seed, bindir, options):
    """Plans, runs and checks one step file; returns (runs, check-peaks
    lines, problem or None). Keeps every file next to the step on failure."""
    live_options, arena_options = options
    stem = os.path.splitext(step)[0]
    runs, arenas = [], []
    made = []
    for budget in BUDGETS:
        tag = budget or "none"
        report, planned, measured, arena = (
            "%s.%s.%s" % (stem, tag, ext)
            for ext in ("json", "planned.mlir", "run", "arena.run"))
        made += [report, planned, measured, arena]
        plan = "best-effort=true report=%s" % report
        if budget:
            plan = "budget=%s %s" % (budget, plan)
        problem = run_tool([os.path.join(bindir, "remat-opt"), step,
                            "--remat-pipeline=" + plan, "-o", planned])
        run = [os.path.join(bindir, "remat-run"), planned, "--seed=%d" % seed]
        if not problem:
            problem = run_tool(run + live_options, measured)
        if not problem:
            problem = run_tool(run + arena_options, arena)
        if problem:
            return len(runs) + 1, [], "budget=%s: %s" % (tag, problem)
        runs += [report, measured]
        arenas += [report, arena]
    lines = []
    failures = []
    for mode in ([], ["--arena"]):
        pairs = runs if not mode else arenas
        check = subprocess.run([sys.executable, CHECK_PEAKS] + mode +
                               [runs[1]] + pairs,
                               stdout=subprocess.PIPE, text=True)
        lines += ["%s%s" % ("arena " if mode else "", line)
                  for line in check.stdout.splitlines()]
        if check.returncode != 0:
            failures += [line for line in check.stdout.splitlines()
                         if "FAIL" in line]
    if failures:
        return 2 * len(BUDGETS), lines, "; ".join(failures)
    for path in made:
        os.remove(path)
    return 2 * len(BUDGETS), lines, None


def check_seed(seed, ops, bindir, work, options):
    """Generates the step of `seed` under `work` and checks it; returns
    (runs, problem or None). The step file is the reproducer."""
    step = os.path.join(work, "step-%d.mlir" % seed)
    with open(step, "w") as f:
        f.write(random_step.generate(seed, ops))
    runs, _, problem = check_step(step, seed, bindir, options)
    if not problem:
        os.remove(step)
    return runs, problem


def default_bindir():
    """Where remat-opt is on PATH (as in lit), else build/bin."""
    found = shutil.which("remat-opt")
    return os.path.dirname(found) if found else os.path.join(ROOT, "build",
                                                            "bin")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", help="FIRST:END, END excluded")
    parser.add_argument("--step", help="check this step file (inputs from "
                        "--first-seed) and print each budget's result")
    parser.add_argument("--seconds", type=float,
                        help="run seeds from --first-seed until this long")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--ops", type=int, default=12,
                        help="forward ops per step (default 12)")
    parser.add_argument("--bin", default=default_bindir(),
                        help="directory of remat-opt and remat-run (default: "
                        "the one on PATH, else build/bin)")
    parser.add_argument("--work", help="where reproducers are kept "
                        "(default: a new temporary directory)")
    args = parser.parse_args(argv[1:])
    options = run_options(args.bin)
    if args.step:
        _, lines, problem = check_step(args.step, args.first_seed, args.bin,
                                       options)
        print("\n".join(lines))
        if problem:
            print("FAIL %s: %s" % (args.step, problem))
        return 1 if problem else 0
    if (args.seeds is None) == (args.seconds is None):
        parser.error("give exactly one of --seeds, --seconds and --step")
    work = args.work or tempfile.mkdtemp(prefix="remat-differential-")
    os.makedirs(work, exist_ok=True)

    start = time.monotonic()
    if args.seeds:
        first, end = (int(s) for s in args.seeds.split(":"))
        seeds = iter(range(first, end))
    else:
        seeds = iter(range(args.first_seed, 1 << 62))
    steps = runs = failed = 0
    for seed in seeds:
        if args.seconds and time.monotonic() - start > args.seconds:
            break
        count, problem = check_seed(seed, args.ops, args.bin, work, options)
        steps += 1
        runs += count
        if problem:
            failed += 1
            step = os.path.join(work, "step-%d.mlir" % seed)
            print("FAIL seed %d: %s\n  reproduce: %s --step=%s --first-seed=%d"
                  % (seed, problem, argv[0], step, seed), flush=True)
    last = args.first_seed + steps - 1 if args.seconds else None
    print("differential: %d steps, %d runs, %d failed (%.0f s)%s" % (
        steps, runs, failed, time.monotonic() - start,
        "" if last is None else ", seeds %d..%d" % (args.first_seed, last)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
