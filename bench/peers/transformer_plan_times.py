#!/usr/bin/python3
"""How long Remat takes to import, differentiate and plan large GPT-style
models from PyTorch (plan only: nothing is run).

    /usr/bin/python3 bench/peers/transformer_plan_times.py [--build build]
        [--models gpt2-small,deep-narrow,gpt2-96] [--budgets 0.5,min]

Each model is transformer_models.py's gpt-split, exported with
torch.onnx.export (opset 14, training mode, dropout 0). gpt2-96 (GPT-2-small
with 96 blocks) is too large for the export on this machine: it is exported
with three blocks and deepened to 96 in the ONNX graph (onnx_blocks.py);
each run first checks, on a small decoder, that a six-block model deepened
from three imports to the same function as the six-block export. The phases
are timed by wall clock, each as its own process, as a user runs them:
`remat-translate --import-onnx` (reading the ONNX file with its weights),
`remat-opt --remat-autodiff="num-batch-args=1 loss=cross-entropy"`, and
`remat-opt --remat-pipeline="budget=B"` per budget (planning, both orders,
arena fitting, and rewriting the step). The plan's own time (`solve_ms` of
its report) is given beside it. Writes bench/results/transformer-plan-times.md.
The test suite does not use this script.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels: before numpy and torch)
import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from results_page import ROOT, machine_stamp, markdown_table  # noqa: E402
import onnx_blocks  # noqa: E402
import transformer_models  # noqa: E402

# layers, width, heads, seq, vocab, batch
MODELS = {
    "gpt2-small": (12, 768, 12, 1024, 50257, 8),
    "deep-narrow": (96, 128, 4, 256, 512, 8),
    "gpt2-96": (96, 768, 12, 1024, 50257, 8),
}
# Exported with three blocks and deepened (onnx_blocks.py): the export of
# all 96 blocks at GPT-2's width does not fit in this machine's memory.
DEEPENED = {"gpt2-96"}


def timed(argv, **kw):
    start = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, **kw)
    seconds = time.perf_counter() - start
    if p.returncode:
        raise RuntimeError("%s failed:\n%s" % (
            argv[0], p.stderr.decode(errors="replace")[-2000:]))
    return seconds


def export(dims, path):
    """Exports the gpt-split decoder of `dims` to `path`; returns the model."""
    layers, width, heads, seq, vocab, batch = dims
    args = argparse.Namespace(layers=layers, width=width, heads=heads,
                              seq=seq, vocab=vocab, batch=batch, dropout=0.0)
    model, ids = transformer_models.build("gpt-split", args)
    model.train()
    with torch.no_grad():
        torch.onnx.export(model, (ids,), path, opset_version=14,
                          training=torch.onnx.TrainingMode.TRAINING,
                          do_constant_folding=False, input_names=["input"],
                          output_names=["logits"])
    return model


def deepened(dims, path):
    """Exports `dims` with three blocks to `path` and deepens it there to
    dims[0] blocks (the weights in path + ".weights"); returns the
    parameter count of the deep model."""
    model = export((3,) + dims[1:], path)
    per_block = sum(p.numel() for p in model.blocks[1].parameters())
    params = (sum(p.numel() for p in model.parameters()) +
              (dims[0] - 3) * per_block)
    del model
    deep = onnx_blocks.deepen(onnx.load(path), dims[0], path + ".weights")
    onnx.save(deep, path)
    return params


def remove_export(path):
    """Removes an exported model and its weights file, if it has one."""
    for f in (path, path + ".weights"):
        if os.path.exists(f):
            os.remove(f)


def check_deepen(bin_dir, tmp):
    """Raises unless a small decoder deepened from three blocks to six
    imports to the same function, text for text, as its six-block export."""
    dims = (6, 128, 4, 256, 512, 8)
    texts = []
    for name, deepen in (("export6", False), ("deepened6", True)):
        path = os.path.join(tmp, name + ".onnx")
        if deepen:
            deepened(dims, path)
        else:
            export(dims, path)
        texts.append(subprocess.run(
            [os.path.join(bin_dir, "remat-translate"), "--import-onnx", path],
            capture_output=True, check=True).stdout)
        remove_export(path)
    if texts[0] != texts[1]:
        raise RuntimeError("the deepened six-block decoder does not import "
                           "as its six-block export does")


def measure(name, args, tmp):
    bin_dir = os.path.join(args.build, "bin")
    onnx_path = os.path.join(tmp, name + ".onnx")
    if name in DEEPENED:
        params = deepened(MODELS[name], onnx_path)
    else:
        params = sum(p.numel() for p in
                     export(MODELS[name], onnx_path).parameters())
    imported = os.path.join(tmp, name + ".mlir")
    step = os.path.join(tmp, name + ".step.mlir")
    row = dict(name=name, params=params)
    row["import_s"] = timed([os.path.join(bin_dir, "remat-translate"),
                             "--import-onnx", onnx_path, "-o", imported])
    remove_export(onnx_path)
    row["autodiff_s"] = timed([os.path.join(bin_dir, "remat-opt"), imported,
                               "--remat-autodiff=num-batch-args=1 "
                               "loss=cross-entropy", "-o", step])
    row["plans"] = []
    for budget in args.budgets.split(","):
        report = os.path.join(tmp, "report.json")
        seconds = timed([os.path.join(bin_dir, "remat-opt"), step,
                         "--remat-pipeline=budget=%s best-effort=true "
                         "report=%s" % (budget, report),
                         "-o", os.devnull])
        graph = json.load(open(report))["graphs"][0]
        row["plans"].append(dict(budget=budget, seconds=seconds, graph=graph))
    return row


def page(rows, args, loads):
    out = ["# Plan times of large GPT-style models", "",
           "Produced by `/usr/bin/python3 bench/peers/transformer_plan_times.py "
           "--models %s --budgets %s` (%s; PyTorch %s). Plan only: the steps "
           "are imported, differentiated and planned, not run. Each phase is "
           "one process, timed by wall clock on a shared 2-core machine. How "
           "each number is made: the script's docstring." % (
               args.models, args.budgets, machine_stamp(), torch.__version__),
           "", "One-minute load average: %.1f at the start, %.1f at the end, "
           "on %d cores: other work shared the machine, and wall-clock times "
           "stretch with it." % (loads[0], loads[1], os.cpu_count()), ""]
    deep = [r["name"] for r in rows if r["name"] in DEEPENED]
    if deep:
        out += ["%s: exported from PyTorch with three blocks and deepened in "
                "the ONNX graph (`onnx_blocks.py`): blocks 2 onwards are "
                "copies of block 1, each with parameters of its own (whose "
                "values are block 1's: a plan does not read them, the "
                "importer makes every parameter an argument of the step). "
                "This run checked that a six-block decoder (width 128) "
                "deepened from three imports to the same function, text for "
                "text, as its six-block export." % ", ".join(deep), ""]
    shapes = [[n, "%d" % MODELS[n][0], "%d" % MODELS[n][1], "%d" % MODELS[n][2],
               "%d" % MODELS[n][3], "%d" % MODELS[n][4], "%d" % MODELS[n][5],
               "%.1f M" % (r["params"] / 1e6),
               "%d" % r["plans"][0]["graph"]["ops"]]
              for n, r in ((r["name"], r) for r in rows)]
    out += [markdown_table(["model", "layers", "width", "heads", "sequence",
                            "vocabulary", "batch", "parameters",
                            "ops in the step"], shapes), ""]
    table = []
    for r in rows:
        base = r["plans"][0]["graph"]
        for p in r["plans"]:
            g = p["graph"]
            table.append([
                r["name"], "%.1f" % r["import_s"], "%.1f" % r["autodiff_s"],
                p["budget"], "%.2f GiB" % (g["budget_bytes"] / 2.0 ** 30),
                "%.1f" % p["seconds"],
                "%.1f" % (g["solve_ms"] / 1e3),
                "%.2f GiB" % (base["peak_before_bytes"] / 2.0 ** 30),
                "%.2f GiB" % (g["peak_after_bytes"] / 2.0 ** 30),
                "yes" if g["feasible"] else "no",
                "%+.1f%%" % g["extra_flops_percent"]])
    out += [markdown_table(
        ["model", "import s", "autodiff s", "budget", "arena budget",
         "plan (remat-pipeline) s",
         "of which solve s", "unrematerialized live peak", "planned live peak",
         "budget met", "extra FLOPs"], table), ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--budgets", default="0.5,min")
    args = ap.parse_args()
    rows = []
    start_load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        if DEEPENED.intersection(args.models.split(",")):
            check_deepen(os.path.join(args.build, "bin"), tmp)
        for name in args.models.split(","):
            rows.append(measure(name, args, tmp))
            print(name, "done", file=sys.stderr)
    text = page(rows, args, (start_load, os.getloadavg()[0]))
    with open(os.path.join(ROOT, "bench", "results",
                           "transformer-plan-times.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
