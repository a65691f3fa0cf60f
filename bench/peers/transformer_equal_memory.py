#!/usr/bin/python3
"""A GPT-style model at PyTorch's checkpointing memory: Remat against
per-block checkpointing and selective recomputation.

    /usr/bin/python3 bench/peers/transformer_equal_memory.py [--build build]
        [--layers 4] [--width 128] [--heads 4] [--seq 128] [--vocab 512]
        [--batch 4] [--dropout 0.1] [--repeat 5] [--time-limit 60]
        [--plan-only [--torch-points FILE]]

The model is transformer_models.py's gpt-split (attention written by hand,
so its core can be checkpointed on its own), trained with cross-entropy on
integer labels, on one thread. It
  1. measures PyTorch's step (torch_measure.py: peak live bytes from the
     allocator's events, FLOPs priced as Remat prices them, median time of
     --repeat runs) plain, with torch.utils.checkpoint around every block
     (a), and with torch.utils.checkpoint around the attention core of every
     block only: the score matrix, its softmax and the softmax's dropout
     (b, Megatron-LM's selective recomputation);
  2. exports the model with torch.onnx.export in training mode, imports it
     (remat-translate), differentiates it with loss=cross-entropy
     (remat-opt --remat-autodiff), and plans it with no budget and at
     `budget=<PyTorch's peak in bytes> budget-kind=live` for (a) and (b):
     PyTorch's peak is a sum of live tensors, as the live budget is;
  3. runs each plan with `remat-run --repeat=N` (median) and checks that
     remat-run's measured arena equals the plan's.
Extra FLOPs are a share of Remat's unrematerialized step's FLOPs (the
report's base_flops) for both; extra time is each planned step's median
time minus its own unrematerialized step's. Writes
bench/results/transformer-equal-memory.md.

With --plan-only (for GPT-2-small's size: --layers 12 --width 768 --heads
12 --seq 1024 --vocab 50257 --batch 8) nothing is timed and Remat's plans
are not run: PyTorch's (a) and (b) peaks are measured at the size and its
FLOPs at batch 1, scaled by the batch (torch_plan_points), and the page's
plan-only section is written, keeping the measured one (and a measured run
keeps the plan-only section). PyTorch's side takes an hour or more at that
size on this machine, Remat's a few minutes: with --torch-points FILE the
points are read from FILE when it holds this size's, and otherwise measured
and written there, so Remat's side can be re-planned after a change without
measuring PyTorch again (the page says where the points came from). The
test suite does not use this script.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels: before numpy and torch)
import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.checkpoint as ckpt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from results_page import (ROOT, machine_stamp, markdown_table,  # noqa: E402
                          write_text)
from torch_measure import (measure_flops, measure_peak,  # noqa: E402
                           measure_time_ms)
import transformer_models  # noqa: E402
from transformer_peer import argument_names, run  # noqa: E402


def checkpointed(fn, *args):
    # Reentrant (1.13's default): the non-reentrant form fails to recompute
    # an op with a Python scalar (the scores' 1/sqrt(d)) under the FLOP
    # counter's dispatch mode.
    return ckpt.checkpoint(fn, *args, use_reentrant=True)


SCHEMES = [("autograd", transformer_models.plain, transformer_models.plain),
           ("(a) checkpoint every block", checkpointed,
            transformer_models.plain),
           ("(b) selective: attention core", transformer_models.plain,
            checkpointed)]


def configure(model, block, core):
    model.wrap_block = block
    for b in model.blocks:
        b.wrap_core = core


def training_step(model):
    vocab = model.head.out_features

    def step(ids, labels, *params):
        logits = model(ids)
        return F.cross_entropy(logits.reshape(-1, vocab),
                               labels.reshape(-1).long())
    return step


def torch_points(model, ids, labels, repeat):
    """(label, peak bytes, FLOPs, median ms) of plain autograd, per-block
    checkpointing and selective recomputation of the attention core."""
    params = list(model.parameters())
    step = training_step(model)
    points = []
    for label, block, core in SCHEMES:
        configure(model, block, core)
        inputs = [ids, labels]
        points.append(dict(
            label=label, peak=measure_peak(step, inputs, params),
            flops=measure_flops(step, inputs, params),
            ms=measure_time_ms(step, inputs, params, repeat)))
    configure(model, transformer_models.plain, transformer_models.plain)
    return points


def torch_plan_points(model, ids, labels):
    """(label, peak bytes, extra FLOPs) of (a) and (b) at the full size,
    nothing timed. The peaks are measured at the full batch; plain
    autograd's is not (at GPT-2-small's size its live tensors outgrow the
    memory the machine can spare). The FLOPs are measured at batch 1 and
    scaled by the batch: every op of the step works on one sample's rows,
    so they grow with the batch exactly."""
    params = list(model.parameters())
    step = training_step(model)
    batch = ids.shape[0]
    flops = {}
    for label, block, core in SCHEMES:
        configure(model, block, core)
        flops[label] = batch * measure_flops(step, [ids[:1], labels[:1]],
                                             params)
    points = []
    for label, block, core in SCHEMES[1:]:
        configure(model, block, core)
        points.append(dict(
            label=label, peak=measure_peak(step, [ids, labels], params),
            extra_flops=flops[label] - flops[SCHEMES[0][0]]))
    configure(model, transformer_models.plain, transformer_models.plain)
    return points


def model_size(args):
    return {k: getattr(args, k) for k in
            ("layers", "width", "heads", "seq", "vocab", "batch", "dropout")}


def cached_plan_points(args, model, ids, labels):
    """torch_plan_points, or the ones --torch-points holds for this size,
    with a line saying where they came from."""
    path = args.torch_points
    if path and os.path.exists(path):
        saved = json.load(open(path))
        if saved["size"] != model_size(args):
            sys.exit("%s holds points for %s, not for this size" % (
                path, saved["size"]))
        return saved["points"], saved["source"]
    points = torch_plan_points(model, ids, labels)
    source = "measured %s, PyTorch %s" % (machine_stamp(), torch.__version__)
    if path:
        with open(path, "w") as f:
            json.dump(dict(size=model_size(args), points=points,
                           source=source), f, indent=1)
    return points, source


def remat_step(model, ids, args, tmp):
    """The differentiated step's path and its argument names."""
    bin_dir = os.path.join(args.build, "bin")
    onnx_path = os.path.join(tmp, "gpt.onnx")
    # Without autograd's records: at GPT-2-small's size they would hold
    # every activation of the traced forward pass.
    with torch.no_grad():
        torch.onnx.export(model, (ids,), onnx_path, opset_version=14,
                          training=torch.onnx.TrainingMode.TRAINING,
                          do_constant_folding=False, input_names=["input"],
                          output_names=["logits"])
    imported = run([os.path.join(bin_dir, "remat-translate"), "--import-onnx",
                    onnx_path])
    step = os.path.join(tmp, "gpt.step.mlir")
    # The batch arguments: the token ids and, with dropout, its seed.
    batch = 2 if args.dropout > 0 else 1
    run([os.path.join(bin_dir, "remat-opt"), "-",
         "--remat-autodiff=num-batch-args=%d loss=cross-entropy" % batch,
         "-o", step], input=imported)
    return step, argument_names(open(step).read())


def write_arguments(model, ids, labels, names, tmp):
    params = dict(model.named_parameters())
    paths = []
    for i, name in enumerate(names):
        if i == 0:
            value = ids.to(torch.int32).numpy()
        elif name == "dropout_seed":
            value = np.array(7, dtype=np.int32)
        elif name in params:
            value = params[name].detach().numpy()
        else:
            value = labels.numpy()
        paths.append(os.path.join(tmp, "arg%d.npy" % i))
        np.save(paths[-1], value)
    return paths


def remat_plan(args, step, budget, tmp):
    """The planned step at `budget` (None: unrematerialized) and its
    report's graph."""
    bin_dir = os.path.join(args.build, "bin")
    report = os.path.join(tmp, "report.json")
    options = "best-effort=true time-limit=%d report=%s" % (args.time_limit,
                                                           report)
    if budget is not None:
        options += " budget=%d budget-kind=live" % budget
    planned = run([os.path.join(bin_dir, "remat-opt"), step,
                   "--remat-pipeline=" + options])
    return planned, json.load(open(report))["graphs"][0]


def remat_point(args, step, npys, budget, tmp):
    """Plans at `budget` (None: unrematerialized) and runs the plan."""
    planned, graph = remat_plan(args, step, budget, tmp)
    measured = json.loads(run(
        [os.path.join(args.build, "bin", "remat-run"), "-", "--json",
         "--repeat=%d" % args.repeat] + ["--input=" + p for p in npys],
        input=planned))
    return dict(graph=graph, measured=measured)


def fmt_mib(n):
    return "%.2f MiB" % (n / 2.0 ** 20)


TARGET_HEADER = "target: budget met, Remat extra FLOPs within"
TARGET_NOTE = ("The target column asks, at each PyTorch point's memory, for "
               "the budget met with at most half of per-block "
               "checkpointing's extra FLOPs (a) or at most selective "
               "recomputation's (b).")
PLAN_HEADING = "## Plan only at GPT-2-small's size"


def command_line(args):
    return ("/usr/bin/python3 bench/peers/transformer_equal_memory.py "
            "--layers %d --width %d --heads %d --seq %d --vocab %d "
            "--batch %d --dropout %g --time-limit %d%s" % (
                args.layers, args.width, args.heads, args.seq, args.vocab,
                args.batch, args.dropout, args.time_limit,
                " --torch-points " + os.path.relpath(args.torch_points, ROOT)
                if args.torch_points else ""))


def target(label, torch_extra_percent, graph):
    """Whether Remat met its target at a PyTorch point (TARGET_NOTE)."""
    if label.startswith("(a)"):
        bound, name = torch_extra_percent / 2, "half of (a)'s"
    elif label.startswith("(b)"):
        bound, name = torch_extra_percent, "(b)'s"
    else:
        return "-"
    met = graph["feasible"] and graph["extra_flops_percent"] <= bound
    return "%s (%s: %+.1f%%)" % ("yes" if met else "no", name, bound)


def page(args, points, remat, loads):
    base = remat[0]["graph"]["base_flops"]
    plain_torch, plain_remat = points[0], remat[0]
    command = command_line(args) + " --repeat %d" % args.repeat
    out = ["# A GPT-style model at PyTorch's checkpointing memory", "",
           "Produced by `%s` (%s; PyTorch %s, CPU, one thread). The model is "
           "bench/peers/transformer_models.py's gpt-split (%d layers, width "
           "%d, %d heads, sequence %d, vocabulary %d, batch %d, dropout %g), "
           "trained with cross-entropy on integer labels. How each number is "
           "made: the docstrings of bench/peers/transformer_equal_memory.py "
           "and torch_measure.py." % (
               command, machine_stamp(), torch.__version__, args.layers,
               args.width, args.heads, args.seq, args.vocab, args.batch,
               args.dropout), "",
           "One-minute load average: %.1f at the start, %.1f at the end, on "
           "%d cores: other work shared the machine, so times are noisy." % (
               loads[0], loads[1], os.cpu_count()), ""]
    rows = []
    for p, r in zip(points, remat):
        g, m = r["graph"], r["measured"]
        rows.append([
            p["label"], fmt_mib(p["peak"]),
            "%+.1f%%" % (100.0 * (p["flops"] - plain_torch["flops"]) / base),
            "%.1f" % p["ms"], "%+.1f" % (p["ms"] - plain_torch["ms"]),
            fmt_mib(g["peak_after_bytes"]),
            "yes" if g["feasible"] else "no",
            "%+.1f%%" % g["extra_flops_percent"],
            "%.1f" % m["time_ms"],
            "%+.1f" % (m["time_ms"] - plain_remat["measured"]["time_ms"]),
            "yes" if m["arena_bytes"] == g.get("arena_bytes",
                                               m["arena_bytes"]) else "NO",
            target(p["label"], 100.0 * (p["flops"] - plain_torch["flops"]) /
                   base, g)])
    out += [markdown_table(
        ["PyTorch point", "PyTorch peak", "PyTorch extra FLOPs",
         "PyTorch ms", "PyTorch extra ms", "Remat live peak at that budget",
         "budget met", "Remat extra FLOPs", "Remat ms", "Remat extra ms",
         "Remat measured arena = planned", TARGET_HEADER], rows), ""]
    out += ["Remat's row for autograd is its unrematerialized step (no "
            "budget); the other rows plan at `budget=<PyTorch's peak> "
            "budget-kind=live`. Extra FLOPs are shares of Remat's "
            "unrematerialized step (%.1f MFLOP; PyTorch's plain step prices "
            "at %.1f MFLOP). Times are medians of %d runs after a warm-up "
            "(`remat-run --repeat`, torch_measure.measure_time_ms); extra "
            "time is against each system's own unrematerialized step. %s" % (
                base / 1e6, plain_torch["flops"] / 1e6, args.repeat,
                TARGET_NOTE), ""]
    return "\n".join(out)


def plan_section(args, points, source, graphs, loads):
    """The plan-only section: PyTorch's (a) and (b) peaks at the full size
    as live budgets for Remat's plans, which are not run."""
    base = graphs[0]["base_flops"]
    out = [PLAN_HEADING, "",
           "Produced by `%s --plan-only` (%s; PyTorch %s, CPU, one thread): "
           "gpt-split with %d layers, width %d, %d heads, sequence %d, "
           "vocabulary %d, batch %d, dropout %g. PyTorch's points: %s. "
           "Nothing is run but "
           "PyTorch's steps: PyTorch's peaks are torch_measure's, measured "
           "at this size (plain autograd's is not: its live tensors outgrow "
           "what this 24 GiB machine can spare beside other work); its "
           "FLOPs are measured at batch 1 and scaled by the batch "
           "(torch_plan_points). Remat's numbers are its plan's report at "
           "`budget=<PyTorch's peak> budget-kind=live`, not measured runs. "
           "One-minute load average %.1f at the start, %.1f at the end, on "
           "%d cores." % (
               command_line(args), machine_stamp(), torch.__version__,
               args.layers, args.width, args.heads, args.seq, args.vocab,
               args.batch, args.dropout, source, loads[0], loads[1],
               os.cpu_count()), ""]
    rows = [["autograd", "not measured", "+0.0%",
             fmt_mib(graphs[0]["peak_after_bytes"]), "yes", "+0.0%", "-"]]
    for p, g in zip(points, graphs[1:]):
        torch_extra = 100.0 * p["extra_flops"] / base
        rows.append([
            p["label"], fmt_mib(p["peak"]), "%+.1f%%" % torch_extra,
            fmt_mib(g["peak_after_bytes"]),
            "yes" if g["feasible"] else "no",
            "%+.1f%%" % g["extra_flops_percent"],
            target(p["label"], torch_extra, g)])
    out += [markdown_table(
        ["PyTorch point", "PyTorch peak", "PyTorch extra FLOPs",
         "Remat planned live peak at that budget", "budget met",
         "Remat extra FLOPs", TARGET_HEADER], rows), ""]
    out += ["Remat's autograd row is its unrematerialized step's predicted "
            "live peak. Extra FLOPs are shares of Remat's unrematerialized "
            "step (%.1f GFLOP)." % (base / 1e9), ""]
    return "\n".join(out)


def write_sections(main=None, plan=None):
    """Writes the page with the measured section `main` and the plan-only
    section `plan`, keeping the page's current one where either is None."""
    path = os.path.join(ROOT, "bench", "results",
                        "transformer-equal-memory.md")
    old = open(path).read() if os.path.exists(path) else ""
    old_main, heading, old_plan = old.partition(PLAN_HEADING)
    main = old_main if main is None else main
    plan = heading + old_plan if plan is None else plan
    text = main.rstrip("\n") + "\n"
    if plan:
        text += "\n" + plan.rstrip("\n") + "\n"
    write_text("transformer-equal-memory.md", text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=512)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--plan-only", action="store_true",
                    help="measure PyTorch's (a) and (b) peaks and plan "
                         "Remat at them, running nothing of Remat's; "
                         "writes the page's plan-only section")
    ap.add_argument("--time-limit", type=int, default=60,
                    help="remat-pipeline's time-limit in seconds for each "
                         "plan; a wall-clock limit, so on a loaded machine "
                         "a larger one keeps the plans from depending on "
                         "the load")
    ap.add_argument("--torch-points", metavar="FILE",
                    help="with --plan-only: PyTorch's (a) and (b) points, "
                         "read from FILE if it holds this size's, else "
                         "measured and written there")
    args = ap.parse_args()
    torch.set_num_threads(1)
    model, ids = transformer_models.build("gpt-split", args)
    model.train()
    gen = torch.Generator().manual_seed(1)
    labels = torch.randint(0, args.vocab, ids.shape, generator=gen,
                           dtype=torch.int32)
    start_load = os.getloadavg()[0]
    if args.plan_only:
        points, source = cached_plan_points(args, model, ids, labels)
        with tempfile.TemporaryDirectory() as tmp:
            step, _ = remat_step(model, ids, args, tmp)
            graphs = [remat_plan(args, step, budget, tmp)[1]
                      for budget in [None] + [p["peak"] for p in points]]
        write_sections(plan=plan_section(
            args, points, source, graphs,
            (start_load, os.getloadavg()[0])))
        return
    points = torch_points(model, ids, labels, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        step, names = remat_step(model, ids, args, tmp)
        npys = write_arguments(model, ids, labels, names, tmp)
        remat = [remat_point(args, step, npys, None, tmp)]
        remat += [remat_point(args, step, npys, p["peak"], tmp)
                  for p in points[1:]]
    write_sections(main=page(args, points, remat,
                             (start_load, os.getloadavg()[0])))


if __name__ == "__main__":
    main()
