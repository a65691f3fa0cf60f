#!/usr/bin/python3
"""Transformers from PyTorch through Remat, gradients against autograd.

    /usr/bin/python3 bench/peers/transformer_peer.py [--build build]
        [--families gpt,gpt-split,bert,vit] [--layers 2] [--width 128]
        [--budgets none,0.7,0.5,min]

For each family of transformer_models.py (the same sizes and flags) it
  1. exports the model with torch.onnx.export in training mode (dropout 0,
     so the graph keeps PyTorch's parameter names), imports it with
     remat-translate and differentiates it with
     `--remat-autodiff="num-batch-args=1 loss=cross-entropy"`;
  2. writes the model's input, integer labels and every parameter as .npy
     and runs the step at each budget with remat-run (one allocation per
     buffer), comparing the measured peak with the plan's prediction and
     every output with the unrematerialized step's, bit for bit;
  3. compares the loss and every parameter's gradient with PyTorch's
     autograd of F.cross_entropy on the same model, element by element: the
     largest difference relative to the largest magnitude of that gradient,
     against float32 and float64 PyTorch.
Prints one line per family and budget and a table; exits non-zero when a
gradient differs by more than --tol (relative) from PyTorch's float64.
The test suite does not use this script.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels: before numpy and torch)
import numpy
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import transformer_models  # noqa: E402


def write_npy(path, tensor):
    numpy.save(path, tensor.detach().contiguous().numpy())


def read_npy(path, shape):
    return torch.from_numpy(numpy.load(path)).to(torch.float64).reshape(shape)


def run(argv, **kw):
    p = subprocess.run(argv, capture_output=True, text=True, **kw)
    if p.returncode:
        raise RuntimeError("%s failed:\n%s" % (argv[0], p.stderr[-2000:]))
    return p.stdout


def argument_names(step_text):
    m = re.search(r"remat\.graph\s+@[\w.$]+\((.*?)\)\s*->", step_text, re.S)
    args = re.findall(r"%\w+\s*:\s*tensor<[^>]*>(\s*\{[^}]*\})?", m.group(1))
    names = []
    for attrs in args:
        n = re.search(r'onnx\.name = "([^"]*)"', attrs or "")
        names.append(n.group(1) if n else None)
    return names


def torch_gradients(model, example, labels, dtype):
    model = model.to(dtype)
    model.zero_grad()
    x = example.to(dtype) if example.is_floating_point() else example
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                           labels.reshape(-1).long())
    loss.backward()
    grads = {n: p.grad.detach().to(torch.float64)
             for n, p in model.named_parameters()}
    return float(loss), grads


def relative(a, b):
    scale = max(float(b.abs().max()), 1e-30)
    return float((a - b).abs().max()) / scale


def check_family(family, args, tmp):
    bin_dir = os.path.join(args.build, "bin")
    model, example = transformer_models.build(family, args)
    model.train()
    path = os.path.join(tmp, family + ".onnx")
    torch.onnx.export(model, (example,), path, opset_version=args.opset,
                      training=torch.onnx.TrainingMode.TRAINING,
                      do_constant_folding=False, input_names=["input"],
                      output_names=["logits"])
    imported = run([os.path.join(bin_dir, "remat-translate"), "--import-onnx",
                    path])
    step = os.path.join(tmp, family + ".step.mlir")
    run([os.path.join(bin_dir, "remat-opt"), "-",
         "--remat-autodiff=num-batch-args=1 loss=cross-entropy", "-o", step],
        input=imported)
    names = argument_names(open(step).read())
    with torch.no_grad():
        logits = model(example)
    classes = logits.shape[-1]
    gen = torch.Generator().manual_seed(1)
    labels = torch.randint(0, classes, logits.shape[:-1], generator=gen,
                           dtype=torch.int32)
    params = dict(model.named_parameters())
    inputs = []
    for i, name in enumerate(names):
        npy = os.path.join(tmp, "%s.arg%d.npy" % (family, i))
        if i == 0:
            value = example.to(torch.int32) if not example.is_floating_point() \
                else example
        elif i == 1:
            value = labels
        else:
            value = params[name]
        write_npy(npy, value)
        inputs.append("--input=" + npy)

    loss64, grads64 = torch_gradients(model, example, labels, torch.float64)
    loss32, grads32 = torch_gradients(model, example, labels, torch.float32)
    rows = []
    reference_hashes = None
    for budget in args.budgets.split(","):
        option = "" if budget == "none" else "budget=%s " % budget
        report = os.path.join(tmp, "%s.%s.json" % (family, budget))
        planned = run([os.path.join(bin_dir, "remat-opt"), step,
                       "--remat-pipeline=%sbest-effort=true report=%s" %
                       (option, report)])
        out_dir = os.path.join(tmp, "%s.%s.out" % (family, budget))
        os.makedirs(out_dir, exist_ok=True)
        measured = json.loads(run(
            [os.path.join(bin_dir, "remat-run"), "-", "--arena=false",
             "--json", "--output-dir=" + out_dir] + inputs, input=planned))
        graph = json.load(open(report))["graphs"][0]
        hashes = [o["hash"] for o in measured["outputs"]]
        if reference_hashes is None:
            reference_hashes = hashes
        loss = float(read_npy(os.path.join(out_dir, "result-0.npy"), ()))
        worst32 = worst64 = 0.0
        worst_name = ""
        for i, name in enumerate(names[2:]):
            p = params[name]
            got = read_npy(os.path.join(out_dir, "result-%d.npy" % (i + 1)),
                           tuple(p.shape))
            e64 = relative(got, grads64[name])
            if e64 > worst64:
                worst64, worst_name = e64, name
            worst32 = max(worst32, relative(grads32[name], grads64[name]))
        rows.append({
            "family": family, "budget": budget,
            "predicted": graph["peak_after_bytes"],
            "measured": measured["peak_bytes"],
            "extra_flops_percent": graph["extra_flops_percent"],
            "identical": hashes == reference_hashes,
            "loss": loss, "torch_loss": loss64,
            "grad_rel_err": worst64, "worst": worst_name,
            "torch32_rel_err": worst32,
        })
    return rows


def main():
    ap = transformer_models.parser()
    ap.description = __doc__.splitlines()[0]
    ap.set_defaults(out_dir=None)
    ap.add_argument("--build", default="build")
    ap.add_argument("--budgets", default="none,0.7,0.5,min")
    ap.add_argument("--tol", type=float, default=1e-4)
    args = ap.parse_args(["-"] + sys.argv[1:])
    args.dropout = 0.0
    failures = 0
    print("| family | budget | predicted | measured | extra FLOPs | outputs == "
          "none | loss (Remat / PyTorch) | gradient rel. err. vs float64 "
          "(Remat / PyTorch float32) |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for family in args.families.split(","):
            try:
                rows = check_family(family, args, tmp)
            except RuntimeError as e:
                print("| %s | error: %s |" % (family, str(e).splitlines()[0]))
                failures += 1
                continue
            for r in rows:
                bad = (r["grad_rel_err"] > args.tol or not r["identical"] or
                       r["predicted"] != r["measured"])
                failures += bad
                print("| %s | %s | %d | %d | %.1f%% | %s | %.6f / %.6f | "
                      "%.1e (%s) / %.1e |" % (
                          r["family"], r["budget"], r["predicted"],
                          r["measured"], r["extra_flops_percent"],
                          "yes" if r["identical"] else "NO", r["loss"],
                          r["torch_loss"], r["grad_rel_err"], r["worst"],
                          r["torch32_rel_err"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
