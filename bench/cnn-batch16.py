#!/usr/bin/env python3
"""Real CNNs at batch 16 (224x224, fp32): parameters, peaks and FLOPs.

For each model: import with `remat-translate --import-onnx --onnx-batch=16`,
differentiate (`remat-autodiff`, sum loss; once more with `optimizer=sgd`),
plan at `budget=min` (`remat-plan="budget=min schedule best-effort"`, the live
peak of the memory model, inputs not counted) and report the parameter
bytes, the joint step's op count, the unrematerialized peak, the `min` peak
and its extra FLOPs, and the targets of the lean-training-steps work:
`min` <= max(1.25 x parameters, 0.5 x unrematerialized) without the
optimizer, `min` below the parameter bytes with sgd in the step.

Models: the shared ONNX models (../shared/models/onnx) and, when Debian's
python3-torchvision is installed, torchvision's alexnet, googlenet and
resnext50_32x4d (grouped 3x3 convolutions, 32 groups) and a ShuffleNet v1
with 3 groups (defined here: grouped 1x1 convolutions, channel shuffles,
depthwise 3x3) exported to ONNX (opset 13, random weights) at run time.

    python3 bench/cnn-batch16.py [--bin build/bin] [--models DIR]

Writes bench/results/cnn-batch16.md.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from results_page import ROOT, machine_stamp, write_page
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "peers"))
import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels for the PyTorch child)

MIB = 1 << 20
TORCHVISION = ["alexnet", "googlenet", "resnext50_32x4d", "shufflenet_v1_g3"]
EXPORT = r"""
import sys, torch, torchvision
from torch import nn
import torch.nn.functional as F

class ShuffleUnit(nn.Module):
    # ShuffleNet v1 (Zhang et al., 2018): grouped 1x1, channel shuffle,
    # depthwise 3x3, grouped 1x1; stride 2 concatenates an average pool.
    def __init__(self, cin, cout, groups, stride, first):
        super().__init__()
        mid = cout // 4
        self.stride, self.groups = stride, 1 if first else groups
        out = cout - cin if stride == 2 else cout
        self.c1 = nn.Conv2d(cin, mid, 1, groups=self.groups, bias=False)
        self.b1 = nn.BatchNorm2d(mid)
        self.c2 = nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False)
        self.b2 = nn.BatchNorm2d(mid)
        self.c3 = nn.Conv2d(mid, out, 1, groups=groups, bias=False)
        self.b3 = nn.BatchNorm2d(out)

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        n, c, h, w = y.shape
        y = y.view(n, self.groups, c // self.groups, h, w).transpose(1, 2)
        y = y.reshape(n, c, h, w)
        y = self.b3(self.c3(self.b2(self.c2(y))))
        if self.stride == 2:
            return F.relu(torch.cat([y, F.avg_pool2d(x, 3, 2, 1)], 1))
        return F.relu(y + x)

def shufflenet_v1_g3():
    layers = [nn.Conv2d(3, 24, 3, 2, 1, bias=False), nn.BatchNorm2d(24),
              nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 24
    for stage, (cout, repeat) in enumerate([(240, 4), (480, 8), (960, 4)]):
        for i in range(repeat):
            layers.append(ShuffleUnit(cin, cout, 3, 2 if i == 0 else 1,
                                      stage == 0 and i == 0))
            cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 1000)]
    return nn.Sequential(*layers)

name, path = sys.argv[1], sys.argv[2]
if name == "shufflenet_v1_g3":
    model = shufflenet_v1_g3().eval()
else:
    kw = dict(aux_logits=False, init_weights=False) if name == "googlenet" else {}
    model = getattr(torchvision.models, name)(weights=None, **kw).eval()
torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=13,
                  input_names=["input"], output_names=["output"])
"""


def export_torchvision(workdir):
    """torchvision models as ONNX files, or [] without torchvision."""
    python = "/usr/bin/python3"
    paths = []
    for name in TORCHVISION:
        path = os.path.join(workdir, name + ".onnx")
        done = subprocess.run([python, "-c", EXPORT, name, path],
                              capture_output=True)
        if done.returncode != 0:
            print("  %s: not exported (%s)" % (
                name, done.stderr.decode().strip().splitlines()[-1:]),
                file=sys.stderr)
            continue
        paths.append(path)
    return paths


def parameter_bytes(imported):
    """Bytes of the function's arguments but the first (the batch)."""
    signature = re.search(r"func\.func @\w+\((.*?)\) ->", imported, re.S)
    total = 0
    for i, shape in enumerate(re.findall(r"tensor<([0-9x]+)xf32>",
                                         signature.group(1))):
        if i == 0:
            continue
        count = 1
        for d in shape.split("x"):
            count *= int(d)
        total += 4 * count
    return total


def plan(bin_dir, imported, autodiff, workdir):
    step = os.path.join(workdir, "step.mlir")
    report = os.path.join(workdir, "report.json")
    subprocess.run([os.path.join(bin_dir, "remat-opt"),
                    "--remat-autodiff=" + autodiff, "-o", step],
                   input=imported.encode(), check=True)
    subprocess.run([os.path.join(bin_dir, "remat-opt"), step,
                    "--remat-plan=budget=min schedule best-effort report=" +
                    report, "-o", os.devnull],
                   check=True, stderr=subprocess.DEVNULL)
    with open(report) as f:
        return json.load(f)["graphs"][0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--models", default=os.path.join(
        os.path.dirname(ROOT), "shared", "models", "onnx"))
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        models = sorted(os.path.join(args.models, f)
                        for f in os.listdir(args.models)
                        if f.endswith(".onnx"))
        models += export_torchvision(workdir)
        for model in models:
            name = os.path.splitext(os.path.basename(model))[0]
            start = time.monotonic()
            imported = subprocess.run(
                [os.path.join(args.bin, "remat-translate"), "--import-onnx",
                 model, "--onnx-batch=16"], capture_output=True)
            if imported.returncode != 0:
                print("  %s: import failed: %s" % (
                    name, imported.stderr.decode().strip()[:200]),
                    file=sys.stderr)
                continue
            text = imported.stdout.decode()
            params = parameter_bytes(text)
            plain = plan(args.bin, text, "loss=sum", workdir)
            sgd = plan(args.bin, text, "loss=sum optimizer=sgd", workdir)
            target = max(1.25 * params, 0.5 * plain["peak_before_bytes"])
            rows.append([
                name, "%.1f" % (params / MIB), "%d" % plain["ops"],
                "%.1f" % (plain["peak_before_bytes"] / MIB),
                "%.1f" % (plain["peak_after_bytes"] / MIB),
                "%.1f%%" % plain["extra_flops_percent"],
                "%.1f (%s)" % (target / MIB,
                               "met" if plain["peak_after_bytes"] <= target
                               else "missed"),
                "%.1f" % (sgd["peak_before_bytes"] / MIB),
                "%.1f" % (sgd["peak_after_bytes"] / MIB),
                "%.1f%%" % sgd["extra_flops_percent"],
                "met" if sgd["peak_after_bytes"] < params else "missed",
                "%.0f" % (time.monotonic() - start)])
            print("  %s done" % name, file=sys.stderr)

    write_page(
        "cnn-batch16.md", "Real CNNs at batch 16",
        "Training steps at batch 16, 224x224, fp32 (plan only). Produced by "
        "`python3 bench/cnn-batch16.py` (%s). Peaks are the memory model's "
        "live peak (one allocation per buffer), inputs and parameters not "
        "counted; `min` is `remat-plan=\"budget=min schedule best-effort\"`. "
        "Target: `min` <= max(1.25 x parameters, 0.5 x unrematerialized) "
        "without the optimizer; with `optimizer=sgd` (each gradient dies at "
        "its in-place update), `min` below the parameter bytes (a target for "
        "parameter-heavy models such as AlexNet and VGG; elsewhere the "
        "activations alone exceed the parameters). torchvision "
        "models are exported at run time with random weights." %
        machine_stamp(),
        ["model", "params (MiB)", "step ops", "unremat (MiB)", "min (MiB)",
         "min FLOPs", "target (MiB)", "sgd unremat (MiB)", "sgd min (MiB)",
         "sgd min FLOPs", "sgd < params", "time (s)"],
        rows)


if __name__ == "__main__":
    main()
