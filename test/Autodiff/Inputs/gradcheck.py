#!/usr/bin/env python3
"""Checks remat-autodiff against central finite differences, with remat-run.

The input is a forward function `func.func @NAME(...)`. For every parameter
p_i (the arguments after `num-batch-args`) the check draws a base value
p0_i and a direction v_i, and builds

  func.func @probe(%t_1, ..., %t_k) = NAME(batch, p0_1 + t_1 v_1, ...)

with every value but the t_i baked in as constants. remat-autodiff turns
@probe into a step whose gradient outputs are the directional derivatives
dL/dt_i = <dL/dp_i, v_i>; remat-run evaluates them at t = 0 and the loss at
t_i = +-eps. Options come from `// GRADCHECK:` lines in the input:

  // GRADCHECK: num-batch-args=1 loss=sum positive eps=1e-3 tol=1e-2

`positive` draws every value in [0.5, 1.5) (for log, rsqrt, pow).
Prints one line per parameter and `gradcheck: OK` or `gradcheck: FAILED`.
"""

import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile


def parse_options(text):
    opts = {"num-batch-args": "1", "loss": "sum", "eps": "1e-3", "tol": "1e-2",
            "seed": "1"}
    flags = set()
    for line in re.findall(r"//\s*GRADCHECK:(.*)", text):
        for item in line.split():
            if "=" in item:
                k, v = item.split("=", 1)
                opts[k] = v
            else:
                flags.add(item)
    return opts, flags


def parse_signature(text):
    m = re.search(r"func\.func\s+@([\w.$]+)\((.*?)\)\s*->\s*(\(.*?\)|tensor<[^>]*>)",
                  text, re.S)
    if not m:
        sys.exit("gradcheck: no func.func in the input")
    name, args, results = m.group(1), m.group(2), m.group(3)
    arg_types = re.findall(r"%[\w]+\s*:\s*(tensor<[^>]*>)", args)
    result_types = re.findall(r"tensor<[^>]*>", results)
    return name, arg_types, result_types


def dims(ttype):
    body = ttype[len("tensor<"):-1]
    parts = body.split("x")
    return [int(p) for p in parts[:-1]]


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def literal(shape, values):
    ttype = "tensor<%sf32>" % "".join("%dx" % d for d in shape)
    return "dense<[%s]> : %s" % (", ".join("%.9e" % v for v in values), ttype) \
        if shape else "dense<%.9e> : %s" % (values[0], ttype)


def const_op(name, shape, values):
    ttype = "tensor<%sf32>" % "".join("%dx" % d for d in shape)
    if shape:
        # Flat literal reshaped: nested literals are not needed.
        flat = "tensor<%dxf32>" % numel(shape)
        return [
            '  %%%s_flat = "tosa.const"() <{values = dense<[%s]> : %s}> : () -> %s'
            % (name, ", ".join("%.9e" % v for v in values), flat, flat),
            "  %%%s_shape = tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : () -> !tosa.shape<%d>"
            % (name, ", ".join(map(str, shape)), len(shape), len(shape)),
            "  %%%s = tosa.reshape %%%s_flat, %%%s_shape : (%s, !tosa.shape<%d>) -> %s"
            % (name, name, name, flat, len(shape), ttype),
        ]
    return ['  %%%s = "tosa.const"() <{values = dense<%.9e> : %s}> : () -> %s'
            % (name, values[0], ttype, ttype)]


def write_npy(path, shape, values):
    dims_text = "%d," % shape[0] if len(shape) == 1 else ", ".join(map(str, shape))
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims_text
    header = header.ljust(((len(header) + 11) // 64 + 1) * 64 - 11) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def run(argv, stdin=None):
    p = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("gradcheck: %s failed:\n%s" % (argv[0], p.stderr[-3000:]))
    return p.stdout


def main():
    path = sys.argv[1]
    text = open(path).read()
    opts, flags = parse_options(text)
    name, arg_types, result_types = parse_signature(text)
    nb = int(opts["num-batch-args"])
    eps, tol = float(opts["eps"]), float(opts["tol"])
    rng = random.Random(int(opts["seed"]))
    lo, hi = (0.5, 1.5) if "positive" in flags else (-1.0, 1.0)

    def draw(n):
        return [f32(rng.uniform(lo, hi)) for _ in range(n)]

    # The probe: batch and base parameters baked in, one t per parameter.
    body = text[text.index("func.func"):]
    body = re.sub(r"func\.func\s+@[\w.$]+", "func.func private @fwd", body, count=1)
    params = list(range(nb, len(arg_types)))
    lines = []
    t_types = []
    call_args = []
    for i, ty in enumerate(arg_types):
        shape = dims(ty)
        lines += const_op("a%d" % i, shape, draw(numel(shape)))
        if i < nb:
            call_args.append("%%a%d" % i)
            continue
        ones = [1] * len(shape)
        tty = "tensor<%sf32>" % "".join("%dx" % d for d in ones)
        t_types.append((len(t_types), tty, ones))
        lines += const_op("v%d" % i, shape, [rng.uniform(-1.0, 1.0) for _ in range(numel(shape))])
        k = len(t_types) - 1
        lines += [
            '  %%shift%d = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>' % i,
            "  %%tv%d = tosa.mul %%v%d, %%t%d, %%shift%d : (%s, %s, tensor<1xi8>) -> %s"
            % (i, i, k, i, ty, tty, ty),
            "  %%p%d = tosa.add %%a%d, %%tv%d : (%s, %s) -> %s" % (i, i, i, ty, ty, ty),
        ]
        call_args.append("%%p%d" % i)
    rtys = ", ".join(result_types)
    probe = ["func.func @probe(%s) -> (%s) {" % (
        ", ".join("%%t%d: %s" % (k, tty) for k, tty, _ in t_types), rtys)]
    probe += lines
    probe.append("  %%r:%d = func.call @fwd(%s) : (%s) -> (%s)" % (
        len(result_types), ", ".join(call_args), ", ".join(arg_types), rtys))
    probe.append("  return %s : %s" % (
        ", ".join("%%r#%d" % i for i in range(len(result_types))), rtys))
    probe.append("}")
    module = "module {\n" + body.rstrip() + "\n" + "\n".join(probe) + "\n}\n"
    # Everything the module held besides the function is not needed.
    module = re.sub(r"^//.*$", "", module, flags=re.M)

    step = run(["remat-opt", "--inline", "--symbol-dce",
                "--remat-autodiff=function=probe num-batch-args=0 loss=%s" % opts["loss"],
                # remat-run lowers TOSA and linalg; arith/math on tensors
                # become linalg first.
                "--convert-elementwise-to-linalg"],
               module)
    targets = [draw(numel(dims(ty))) for ty in result_types] if opts["loss"] == "mse" else []

    with tempfile.TemporaryDirectory() as tmp:
        step_path = os.path.join(tmp, "step.mlir")
        with open(step_path, "w") as f:
            f.write(step)

        def evaluate(ts):
            files = []
            for k, (_, _, shape) in enumerate(t_types):
                fp = os.path.join(tmp, "t%d.npy" % k)
                write_npy(fp, shape, [ts[k]])
                files.append(fp)
            for j, ty in enumerate(result_types if targets else []):
                fp = os.path.join(tmp, "target%d.npy" % j)
                write_npy(fp, dims(ty), targets[j])
                files.append(fp)
            out = json.loads(run(["remat-run", step_path, "--json"] +
                                 ["--input=%s" % fp for fp in files]))
            return [o["sum"] for o in out["outputs"]]

        zero = [0.0] * len(t_types)
        base = evaluate(zero)
        ok = True
        for k, p in enumerate(params):
            analytic = base[1 + k]
            plus, minus = list(zero), list(zero)
            plus[k], minus[k] = eps, -eps
            numeric = (evaluate(plus)[0] - evaluate(minus)[0]) / (2 * eps)
            err = abs(numeric - analytic) / max(1.0, abs(numeric), abs(analytic))
            good = err <= tol
            ok = ok and good
            print("arg %d: analytic %+.6e numeric %+.6e err %.1e %s" % (
                p, analytic, numeric, err, "ok" if good else "FAILED"))
    print("gradcheck: %s" % ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
