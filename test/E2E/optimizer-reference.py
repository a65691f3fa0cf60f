#!/usr/bin/env python3
"""Reference updates for the optimizer steps of Inputs/optimizer-layers.mlir.

Usage:
  optimizer-reference.py inputs DIR
      Writes the step's inputs as DIR/*.npy and the response files
      DIR/{gradients,sgd,momentum,adam}.rsp for `remat-run @FILE`.
  optimizer-reference.py check DIR OPTIMIZER GRADIENT_RUN RUN [KEY=VALUE]...
      Computes the gradients of y = (x * w1 + b1) * w2 + b2 under the mean
      squared error in IEEE single precision (each operation rounded to f32,
      as the compiled step does), applies OPTIMIZER's update (sgd, momentum
      or adam; hyper-parameters lr, momentum, beta1, beta2, eps as KEY=VALUE,
      PyTorch's update rules) and compares the hashes remat-run printed:
      GRADIENT_RUN (the step without optimizer) must hold the loss and the
      reference gradients, RUN the same loss and the reference update. Prints
      one line; exits non-zero on a mismatch.

No numpy: values go through struct, and the Adam case starts from step count
0, so that its bias corrections (1 - beta^1) are exact in f32 too.
"""

import importlib.util
import json
import math
import os
import random
import struct
import sys

SHAPE = (4, 16)
COUNT = SHAPE[0] * SHAPE[1]
PARAMS = ["w1", "b1", "w2", "b2"]


def f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def load_init_inputs():
    """init-inputs.py, for its .npy writer (the file name has a hyphen)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "init-inputs.py")
    spec = importlib.util.spec_from_file_location("init_inputs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_npy(path, shape, values):
    load_init_inputs().npy(path, shape,
                           struct.pack("<%df" % len(values), *values))


def tensors():
    """The inputs: batch, parameters, target, optimizer state (by name)."""
    rng = random.Random(11)
    uniform = lambda lo, hi: [f32(rng.uniform(lo, hi)) for _ in range(COUNT)]
    values = {name: uniform(-1.0, 1.0) for name in ["x"] + PARAMS + ["t"]}
    for name in PARAMS:
        values["buf_" + name] = uniform(-0.1, 0.1)
        values["m_" + name] = uniform(-0.1, 0.1)
        values["v_" + name] = uniform(0.0, 0.01)
    return values


def arguments(optimizer):
    names = ["x"] + PARAMS + ["t"]
    if optimizer == "momentum":
        names += ["buf_" + p for p in PARAMS]
    elif optimizer == "adam":
        names += ["m_" + p for p in PARAMS] + ["v_" + p for p in PARAMS]
        names += ["step"]
    return names


def write_inputs(outdir):
    os.makedirs(outdir, exist_ok=True)
    for name, values in tensors().items():
        write_npy(os.path.join(outdir, name + ".npy"), SHAPE, values)
    write_npy(os.path.join(outdir, "step.npy"), (), [0.0])
    for optimizer in ["gradients", "sgd", "momentum", "adam"]:
        with open(os.path.join(outdir, optimizer + ".rsp"), "w") as f:
            for name in arguments(optimizer):
                f.write("--input=%s\n" % os.path.join(outdir, name + ".npy"))


def gradients(v):
    """The step's gradients, rounded as its ops round (2/n is exact)."""
    grads = {p: [] for p in PARAMS}
    for i in range(COUNT):
        x, w1, b1, w2, b2, t = (v[k][i] for k in ["x"] + PARAMS + ["t"])
        h = f32(f32(x * w1) + b1)
        y = f32(f32(h * w2) + b2)
        dy = f32(f32(y - t) * (2.0 / COUNT))
        dh = f32(dy * w2)
        grads["w1"].append(f32(dh * x))
        grads["b1"].append(dh)
        grads["w2"].append(f32(dy * h))
        grads["b2"].append(dy)
    return grads


def update(optimizer, v, grads, hyper):
    """Updated parameters, then updated state, in the step's result order."""
    lr = f32(hyper.get("lr", 0.01))
    params, state1, state2 = [], [], []
    for p in PARAMS:
        new_p, new_s1, new_s2 = [], [], []
        for i, g in enumerate(grads[p]):
            w = v[p][i]
            if optimizer == "sgd":
                new_p.append(f32(w - f32(lr * g)))
            elif optimizer == "momentum":
                mu = f32(hyper.get("momentum", 0.9))
                b = f32(f32(mu * v["buf_" + p][i]) + g)
                new_p.append(f32(w - f32(lr * b)))
                new_s1.append(b)
            else:
                beta1 = hyper.get("beta1", 0.9)
                beta2 = hyper.get("beta2", 0.999)
                b1, b2 = f32(beta1), f32(beta2)
                eps = f32(hyper.get("eps", 1e-8))
                # The moving averages' weights are f32 constants of 1 - beta;
                # the bias corrections are computed in f32 from the step
                # count (1 here: 1 - beta^1 = 1 - f32(beta), exact).
                m = f32(f32(b1 * v["m_" + p][i]) + f32(f32(1.0 - beta1) * g))
                s = f32(f32(b2 * v["v_" + p][i]) +
                        f32(f32(1.0 - beta2) * f32(g * g)))
                m_hat = f32(m / f32(1.0 - b1))
                s_hat = f32(s / f32(1.0 - b2))
                step = f32(f32(lr * m_hat) / f32(f32(math.sqrt(s_hat)) + eps))
                new_p.append(f32(w - step))
                new_s1.append(m)
                new_s2.append(s)
        params.append(new_p)
        state1.append(new_s1)
        state2.append(new_s2)
    results = params
    if optimizer == "momentum":
        results += state1
    if optimizer == "adam":
        results += state1 + state2 + [[1.0]]
    return results


def fnv1a(values):
    h = 0xcbf29ce484222325
    for byte in struct.pack("<%df" % len(values), *values):
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def check(outdir, optimizer, gradient_run, run, hyper):
    values = tensors()
    grads = gradients(values)
    with open(gradient_run) as f:
        reference = json.load(f)["outputs"]
    with open(run) as f:
        outputs = json.load(f)["outputs"]
    problems = []
    for i, p in enumerate(PARAMS):
        if reference[1 + i]["hash"] != fnv1a(grads[p]):
            problems.append("gradient of %s differs from the reference" % p)
    if outputs[0]["hash"] != reference[0]["hash"]:
        problems.append("the loss differs from the gradient step's")
    expected = update(optimizer, values, grads, hyper)
    if len(outputs) != 1 + len(expected):
        problems.append("%d results, expected %d" %
                        (len(outputs), 1 + len(expected)))
    for i, want in enumerate(expected):
        if i + 1 < len(outputs) and outputs[i + 1]["hash"] != fnv1a(want):
            problems.append("result #%d differs from the reference update "
                            "(sum %r, expected %r)" %
                            (i + 1, outputs[i + 1]["sum"], sum(want)))
    print("%s: %s" % (optimizer, "; ".join(problems) if problems else "OK"))
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "inputs":
        write_inputs(argv[2])
        return 0
    if len(argv) >= 6 and argv[1] == "check":
        hyper = {k: float(v) for k, v in (a.split("=", 1) for a in argv[6:])}
        return check(argv[2], argv[3], argv[4], argv[5], hyper)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
