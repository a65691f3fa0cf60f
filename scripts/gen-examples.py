#!/usr/bin/env python3
"""Generates the example joint forward+backward training graphs in examples/.

Each example is ONE training step: a function whose arguments are the batch
and the parameters and whose results are the loss (tensor<f32>) followed by
the gradient of every parameter, in argument order.  The backward pass is a
hand-derived reverse-mode pass written out op by op below; the derivations
are in the comments next to the code that emits them.

Usage:
  scripts/gen-examples.py                     # writes examples/*.mlir (graph form)
  scripts/gen-examples.py --form=func --out-dir=/tmp/ex
  scripts/gen-examples.py --verify            # numeric gradient check (pure Python)

Forms (the body is identical in all of them):
  graph  remat.graph @f(...) -> (...) { ... remat.backward ... remat.return ... }
         with `%v = remat.name "tag" %x : T` tags.  The real example files.
  func   func.func + "remat.backward"() : () -> () + return, and
         "remat.name"(%x) {tag = "..."} : (T) -> T.  Parses with upstream
         `mlir-opt --allow-unregistered-dialect`.
  plain  func form with the remat ops dropped (a tag's result is replaced by
         its operand).  Pure upstream IR: lowers with tosa-to-linalg etc.

Only the Python standard library is used; output is deterministic.

Op semantics relied upon (MLIR 22 TOSA):
  tosa.matmul   (B,M,K) x (B,K,N) -> (B,M,N), plus zero-point operands.
  tosa.conv2d   NHWC input, OHWI weight, cross-correlation:
                out[n,y,x,o] = b[o] + sum_{kh,kw,i} in_pad[n,y+kh,x+kw,i]*w[o,kh,kw,i]
                where in_pad is the input padded by `pad` = [top,bottom,left,right].
  tosa.reduce_* keep the reduced axis with size 1.
  elementwise ops broadcast between equal-rank operands (size-1 dims).
"""

import argparse
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time

# ----------------------------------------------------------------------------
# Graph builder
# ----------------------------------------------------------------------------


def ttype(shape, elt="f32"):
    if len(shape) == 0:
        return "tensor<%s>" % elt
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), elt)


def fmt_float(v):
    """An MLIR float literal that round-trips the f32 value."""
    if v == 0.0:
        return "0.000000e+00"
    return "%.8e" % v


class Value:
    def __init__(self, name, shape, elt="f32"):
        self.name = name
        self.shape = tuple(shape)
        self.elt = elt

    @property
    def type(self):
        return ttype(self.shape, self.elt)


class Op:
    def __init__(self, kind, result, operands, attrs):
        self.kind = kind          # e.g. "tosa.add", "const", "name", "backward"
        self.result = result      # Value or None
        self.operands = operands  # list of Value
        self.attrs = attrs        # dict


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def bcast_shape(a, b):
    assert len(a) == len(b), "TOSA elementwise ops need equal ranks: %s %s" % (a, b)
    out = []
    for x, y in zip(a, b):
        assert x == y or x == 1 or y == 1, (a, b)
        out.append(max(x, y))
    return tuple(out)


class Graph:
    def __init__(self, name):
        self.name = name
        self.args = []
        self.ops = []
        self.results = []
        self.names = set()
        self.consts = {}

    # -- naming --------------------------------------------------------------
    def fresh(self, hint):
        if hint not in self.names:
            self.names.add(hint)
            return hint
        i = 1
        while "%s_%d" % (hint, i) in self.names:
            i += 1
        n = "%s_%d" % (hint, i)
        self.names.add(n)
        return n

    def _emit(self, kind, hint, shape, operands, elt="f32", **attrs):
        res = Value(self.fresh(hint), shape, elt) if shape is not None else None
        self.ops.append(Op(kind, res, list(operands), attrs))
        return res

    # -- graph structure -----------------------------------------------------
    def arg(self, name, shape):
        v = Value(self.fresh(name), shape)
        self.args.append(v)
        return v

    def backward(self):
        self._emit("backward", None, None, [])

    def ret(self, values):
        self.results = list(values)

    def tag(self, x, tag):
        return self._emit("name", tag.replace(".", "_") + "n", x.shape, [x], tag=tag)

    # -- constants (deduplicated) --------------------------------------------
    def splat(self, value, shape, hint="cst"):
        key = ("splat", float(value), tuple(shape))
        if key not in self.consts:
            self.consts[key] = self._emit("tosa.const", hint, shape, [], value=float(value))
        return self.consts[key]

    def zp(self):
        return self.splat(0.0, (1,), "zp")

    def shift(self):
        key = ("shift",)
        if key not in self.consts:
            self.consts[key] = self._emit("tosa.const", "shift", (1,), [], elt="i8", value=0)
        return self.consts[key]

    def const_shape(self, shape):
        key = ("shape", tuple(shape))
        if key not in self.consts:
            self.consts[key] = self._emit(
                "tosa.const_shape", "shape" + ("_" + "x".join(map(str, shape)) if shape else "_scalar"),
                (len(shape),), [], elt="shape", value=tuple(shape))
        return self.consts[key]

    # -- TOSA ops --------------------------------------------------------------
    def _bin(self, kind, a, b, hint):
        return self._emit(kind, hint, bcast_shape(a.shape, b.shape), [a, b])

    def add(self, a, b, hint="add"):
        return self._bin("tosa.add", a, b, hint)

    def sub(self, a, b, hint="sub"):
        return self._bin("tosa.sub", a, b, hint)

    def mul(self, a, b, hint="mul"):
        return self._emit("tosa.mul", hint, bcast_shape(a.shape, b.shape), [a, b, self.shift()])

    def scale(self, a, s, hint="scaled"):
        return self.mul(a, self.splat(s, (1,) * len(a.shape)), hint)

    def greater(self, a, b, hint="gt"):
        return self._emit("tosa.greater", hint, bcast_shape(a.shape, b.shape), [a, b], elt="i1")

    def select(self, c, a, b, hint="sel"):
        return self._emit("tosa.select", hint,
                          bcast_shape(c.shape, bcast_shape(a.shape, b.shape)), [c, a, b])

    def _un(self, kind, a, hint, **attrs):
        return self._emit(kind, hint, a.shape, [a], **attrs)

    def exp(self, a, hint="exp"):
        return self._un("tosa.exp", a, hint)

    def tanh(self, a, hint="tanh"):
        return self._un("tosa.tanh", a, hint)

    def reciprocal(self, a, hint="recip"):
        return self._un("tosa.reciprocal", a, hint)

    def relu(self, a, hint="relu"):
        return self._un("tosa.clamp", a, hint, min_val=0.0, max_val=3.40282347e38)

    def reduce_sum(self, a, axis, hint="sum"):
        shape = list(a.shape)
        shape[axis] = 1
        return self._emit("tosa.reduce_sum", hint, shape, [a], axis=axis)

    def reduce_max(self, a, axis, hint="max"):
        shape = list(a.shape)
        shape[axis] = 1
        return self._emit("tosa.reduce_max", hint, shape, [a], axis=axis)

    def reshape(self, a, shape, hint="reshape"):
        assert numel(a.shape) == numel(shape), (a.shape, shape)
        return self._emit("tosa.reshape", hint, shape, [a, self.const_shape(shape)])

    def transpose(self, a, perms, hint="tr"):
        shape = [a.shape[p] for p in perms]
        return self._emit("tosa.transpose", hint, shape, [a], perms=tuple(perms))

    def reverse(self, a, axis, hint="rev"):
        return self._emit("tosa.reverse", hint, a.shape, [a], axis=axis)

    def matmul(self, a, b, hint="mm"):
        B, M, K = a.shape
        B2, K2, N = b.shape
        assert B == B2 and K == K2, (a.shape, b.shape)
        return self._emit("tosa.matmul", hint, (B, M, N), [a, b, self.zp(), self.zp()])

    def conv2d(self, x, w, bias, pad, hint="conv"):
        N, H, W, C = x.shape
        O, KH, KW, I = w.shape
        assert C == I and bias.shape == (O,), (x.shape, w.shape, bias.shape)
        OH = H + pad[0] + pad[1] - KH + 1
        OW = W + pad[2] + pad[3] - KW + 1
        return self._emit("tosa.conv2d", hint, (N, OH, OW, O), [x, w, bias, self.zp(), self.zp()],
                          pad=tuple(pad))

    # -- derived helpers used by the examples ---------------------------------
    def mT(self, a, hint="T"):
        """Swap the last two dims of a rank-3 tensor."""
        return self.transpose(a, (0, 2, 1), hint)

    def sum_all(self, a, hint="sum"):
        for ax in range(len(a.shape)):
            if a.shape[ax] != 1:
                a = self.reduce_sum(a, ax, hint)
        return a

    # -- statistics ----------------------------------------------------------
    def counts(self):
        fwd = bwd = 0
        seen_bwd = False
        for op in self.ops:
            if op.kind == "backward":
                seen_bwd = True
                continue
            if seen_bwd:
                bwd += 1
            else:
                fwd += 1
        return fwd, bwd


# ----------------------------------------------------------------------------
# Printer
# ----------------------------------------------------------------------------


def print_graph(g, form, header_lines):
    alias = {}

    def nm(v):
        while v.name in alias:
            v = alias[v.name]
        return "%" + v.name

    def sig(op):
        ins = ", ".join(v.type for v in op.operands)
        return "(%s) -> %s" % (ins, op.result.type)

    out = []
    for h in header_lines:
        out.append("// " + h if h else "//")
    out.append("")
    kw = "remat.graph" if form == "graph" else "func.func"
    out.append("%s @%s(" % (kw, g.name))
    for i, a in enumerate(g.args):
        out.append("    %%%s: %s%s" % (a.name, a.type, "," if i + 1 < len(g.args) else ""))
    out.append("  ) -> (")
    for i, r in enumerate(g.results):
        out.append("    %s%s" % (r.type, "," if i + 1 < len(g.results) else ""))
    out.append("  ) {")
    ind = "  "
    for op in g.ops:
        k = op.kind
        r = op.result
        a = attrs = op.attrs
        ops = ", ".join(nm(v) for v in op.operands)
        if k == "backward":
            out.append("")
            out.append(ind + ("remat.backward" if form == "graph" else
                              '"remat.backward"() : () -> ()' if form == "func" else
                              "// ---- backward ----"))
            out.append("")
            continue
        if k == "name":
            x = op.operands[0]
            if form == "graph":
                line = '%s = remat.name "%s" %s : %s' % (nm(r), a["tag"], nm(x), x.type)
            elif form == "func":
                line = '%s = "remat.name"(%s) {tag = "%s"} : (%s) -> %s' % (
                    nm(r), nm(x), a["tag"], x.type, r.type)
            else:
                alias[r.name] = x
                continue
            out.append(ind + line)
            continue
        if k == "tosa.const":
            if r.elt == "i8":
                lit = "dense<%d>" % a["value"]
            else:
                lit = "dense<%s>" % fmt_float(a["value"])
            line = '%s = "tosa.const"() <{values = %s : %s}> : () -> %s' % (nm(r), lit, r.type, r.type)
        elif k == "tosa.const_shape":
            shp = a["value"]
            line = "%s = tosa.const_shape {values = dense<%s> : tensor<%dxindex>} : () -> !tosa.shape<%d>" % (
                nm(r), ("[%s]" % ", ".join(map(str, shp))) if shp else "", len(shp), len(shp))
        elif k == "tosa.reshape":
            line = "%s = tosa.reshape %s : (%s, !tosa.shape<%d>) -> %s" % (
                nm(r), ops, op.operands[0].type, len(r.shape), r.type)
        else:
            attr = ""
            if k in ("tosa.reduce_sum", "tosa.reduce_max", "tosa.reverse"):
                attr = " {axis = %d : i32}" % a["axis"]
            elif k == "tosa.transpose":
                attr = " {perms = array<i32: %s>}" % ", ".join(map(str, a["perms"]))
            elif k == "tosa.clamp":
                attr = " {max_val = %s : f32, min_val = %s : f32}" % (
                    fmt_float(a["max_val"]), fmt_float(a["min_val"]))
            elif k == "tosa.conv2d":
                attr = (" {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: %s>, "
                        "stride = array<i64: 1, 1>}" % ", ".join(map(str, a["pad"])))
            line = "%s = %s %s%s : %s" % (nm(r), k, ops, attr, sig(op))
        out.append(ind + line)
    rets = ", ".join(nm(v) for v in g.results)
    rtys = ", ".join(v.type for v in g.results)
    out.append("")
    out.append(ind + "%s %s : %s" % ("remat.return" if form == "graph" else "return", rets, rtys))
    out.append("}")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------
# Reference interpreter (pure Python, float64) for --verify
# ----------------------------------------------------------------------------


class T:
    """A dense tensor: shape tuple + flat row-major list."""

    def __init__(self, shape, data):
        self.shape = tuple(shape)
        self.data = data
        assert len(data) == numel(shape), (shape, len(data))


def strides(shape):
    s = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        s[i] = s[i + 1] * shape[i + 1]
    return s


def unravel(shape):
    """All multi-indices of `shape` in row-major order."""
    idx = [()]
    for d in shape:
        idx = [i + (j,) for i in idx for j in range(d)]
    return idx


def ew(fn, ts, out_shape):
    st = []
    for t in ts:
        s = strides(t.shape)
        st.append([0 if t.shape[k] == 1 else s[k] for k in range(len(t.shape))])
    data = []
    for ix in unravel(out_shape):
        vals = []
        for t, s in zip(ts, st):
            off = 0
            for k, i in enumerate(ix):
                off += s[k] * i
            vals.append(t.data[off])
        data.append(fn(*vals))
    return T(out_shape, data)


def reduce(t, axis, fn):
    shape = list(t.shape)
    outer = numel(shape[:axis])
    n = shape[axis]
    inner = numel(shape[axis + 1:])
    data = []
    for o in range(outer):
        for i in range(inner):
            data.append(fn([t.data[(o * n + k) * inner + i] for k in range(n)]))
    shape[axis] = 1
    return T(shape, data)


def transpose_t(t, perms):
    s = strides(t.shape)
    shape = [t.shape[p] for p in perms]
    data = []
    for ix in unravel(shape):
        off = 0
        for k, p in enumerate(perms):
            off += ix[k] * s[p]
        data.append(t.data[off])
    return T(shape, data)


def reverse_t(t, axis):
    s = strides(t.shape)
    data = []
    for ix in unravel(t.shape):
        off = 0
        for k, i in enumerate(ix):
            off += s[k] * (t.shape[k] - 1 - i if k == axis else i)
        data.append(t.data[off])
    return T(t.shape, data)


def matmul_t(a, b):
    B, M, K = a.shape
    _, _, N = b.shape
    data = [0.0] * (B * M * N)
    for bb in range(B):
        for m in range(M):
            row = a.data[(bb * M + m) * K:(bb * M + m + 1) * K]
            for n in range(N):
                acc = 0.0
                base = bb * K * N + n
                for k in range(K):
                    acc += row[k] * b.data[base + k * N]
                data[(bb * M + m) * N + n] = acc
    return T((B, M, N), data)


def conv2d_t(x, w, bias, pad, out_shape):
    N, H, W, C = x.shape
    O, KH, KW, I = w.shape
    _, OH, OW, _ = out_shape
    data = []
    for n in range(N):
        for oy in range(OH):
            for ox in range(OW):
                for o in range(O):
                    acc = bias.data[o]
                    for kh in range(KH):
                        iy = oy + kh - pad[0]
                        if iy < 0 or iy >= H:
                            continue
                        for kw in range(KW):
                            ixx = ox + kw - pad[2]
                            if ixx < 0 or ixx >= W:
                                continue
                            xo = ((n * H + iy) * W + ixx) * C
                            wo = ((o * KH + kh) * KW + kw) * I
                            for i in range(C):
                                acc += x.data[xo + i] * w.data[wo + i]
                    data.append(acc)
    return T(out_shape, data)


def interpret(g, inputs, forward_only=False):
    env = {}
    for a in g.args:
        env[a.name] = inputs[a.name]
    for op in g.ops:
        k = op.kind
        if k == "backward":
            if forward_only:
                return env[g.results[0].name]
            continue
        r = op.result
        v = [env[o.name] for o in op.operands]
        a = op.attrs
        if k == "tosa.const":
            res = T(r.shape, [float(a["value"])] * numel(r.shape))
        elif k == "tosa.const_shape":
            res = None
        elif k == "name":
            res = v[0]
        elif k == "tosa.add":
            res = ew(lambda p, q: p + q, v, r.shape)
        elif k == "tosa.sub":
            res = ew(lambda p, q: p - q, v, r.shape)
        elif k == "tosa.mul":
            res = ew(lambda p, q: p * q, v[:2], r.shape)
        elif k == "tosa.greater":
            res = ew(lambda p, q: p > q, v, r.shape)
        elif k == "tosa.select":
            res = ew(lambda c, p, q: p if c else q, v, r.shape)
        elif k == "tosa.exp":
            res = ew(math.exp, v, r.shape)
        elif k == "tosa.tanh":
            res = ew(math.tanh, v, r.shape)
        elif k == "tosa.reciprocal":
            res = ew(lambda p: 1.0 / p, v, r.shape)
        elif k == "tosa.clamp":
            lo, hi = a["min_val"], a["max_val"]
            res = ew(lambda p: min(max(p, lo), hi), v, r.shape)
        elif k == "tosa.reduce_sum":
            res = reduce(v[0], a["axis"], sum)
        elif k == "tosa.reduce_max":
            res = reduce(v[0], a["axis"], max)
        elif k == "tosa.reshape":
            res = T(r.shape, v[0].data)
        elif k == "tosa.transpose":
            res = transpose_t(v[0], a["perms"])
        elif k == "tosa.reverse":
            res = reverse_t(v[0], a["axis"])
        elif k == "tosa.matmul":
            res = matmul_t(v[0], v[1])
        elif k == "tosa.conv2d":
            res = conv2d_t(v[0], v[1], v[2], a["pad"], r.shape)
        else:
            raise NotImplementedError(k)
        if res is not None:
            assert res.shape == r.shape, (k, res.shape, r.shape)
        env[r.name] = res
    return [env[x.name] for x in g.results]


def random_inputs(g, seed, scale):
    rng = random.Random(seed)
    ins = {}
    for a in g.args:
        s = scale.get(a.name, 0.5)
        ins[a.name] = T(a.shape, [rng.uniform(-s, s) for _ in range(numel(a.shape))])
    return ins


# Central differences at eps 1e-7 (in float64): at 1e-5 the MLP's relu kinks
# and the transformer's saturated softmax/tanh put truncation errors of 1e-2
# and 1e-1 into the numeric side; at 1e-7 the worst is 3e-5 (transformer,
# falling with eps^2), and at 1e-8 rounding takes over. A wrong derivative
# is off by far more than VERIFY_TOLERANCE.
VERIFY_EPS = 1e-7
VERIFY_TOLERANCE = 1e-4


def verify(g, params, scale, seed=1, eps=VERIFY_EPS):
    """Checks each parameter gradient against a central finite difference of
    the loss along a random direction: (L(p+eps*v) - L(p-eps*v)) / (2 eps)
    vs <grad_p, v>.  Returns the worst relative error."""
    ins = random_inputs(g, seed, scale)
    outs = interpret(g, ins)
    loss, grads = outs[0], outs[1:]
    assert len(grads) == len(params)
    rng = random.Random(seed + 1000)
    worst = 0.0
    for p, gr in zip(params, grads):
        assert gr.shape == ins[p].shape, (p, gr.shape, ins[p].shape)
        dirn = [rng.uniform(-1, 1) for _ in gr.data]
        analytic = sum(x * y for x, y in zip(gr.data, dirn))
        plus = dict(ins)
        minus = dict(ins)
        plus[p] = T(ins[p].shape, [x + eps * d for x, d in zip(ins[p].data, dirn)])
        minus[p] = T(ins[p].shape, [x - eps * d for x, d in zip(ins[p].data, dirn)])
        lp = interpret(g, plus, forward_only=True).data[0]
        lm = interpret(g, minus, forward_only=True).data[0]
        numeric = (lp - lm) / (2 * eps)
        rel = abs(numeric - analytic) / max(1e-12, abs(numeric), abs(analytic))
        worst = max(worst, rel)
        print("  %-8s analytic %+.9e numeric %+.9e rel.err %.2e" % (p, analytic, numeric, rel))
    print("  loss %.9e, worst rel.err %.2e" % (loss.data[0], worst))
    return worst


# ----------------------------------------------------------------------------
# Example 1: 6-layer MLP, MSE loss
# ----------------------------------------------------------------------------


def build_mlp():
    """x[1024x64] -> 5 x 128 -> 10, relu between layers, MSE loss.

    Forward (rank-3 with a unit batch dim, since tosa.matmul is rank 3):
      h0 = x;  z_l = h_{l-1} W_l + b_l;  h_l = relu(z_l) (l = 1..3);  y = z_4
      d = y - t;  L = sum(d^2) / (B*C)
    Backward:
      dL/dy = 2 d / (B*C)
      dz_4 = dL/dy;  dz_l = dh_l * [h_l > 0]          (relu'(0) taken as 0)
    The relu mask reads the output h_l (h_l > 0 iff z_l > 0), which the
    weight gradient keeps anyway, so z_l dies in the forward.
      dW_l = h_{l-1}^T dz_l;  db_l = sum_rows(dz_l);  dh_{l-1} = dz_l W_l^T
    """
    B, widths, C = 1024, [64] + [128] * 5, 10
    L = len(widths)
    dims = widths + [C]
    g = Graph("mlp_step")
    x = g.arg("x", (B, dims[0]))
    t = g.arg("target", (B, C))
    W, b, params = [], [], []
    for l in range(L):
        W.append(g.arg("w%d" % (l + 1), (dims[l], dims[l + 1])))
        b.append(g.arg("b%d" % (l + 1), (dims[l + 1],)))
        params += [W[-1].name, b[-1].name]

    # ---- forward
    h = g.reshape(x, (1, B, dims[0]), "x3")
    t3 = g.reshape(t, (1, B, C), "target3")
    W3 = [g.reshape(W[l], (1, dims[l], dims[l + 1]), "w%d_3" % (l + 1)) for l in range(L)]
    b3 = [g.reshape(b[l], (1, 1, dims[l + 1]), "b%d_3" % (l + 1)) for l in range(L)]
    hs, zs = [h], []
    for l in range(L):
        mm = g.matmul(h, W3[l], "mm%d" % (l + 1))
        z = g.add(mm, b3[l], "z%d" % (l + 1))
        z = g.tag(z, "z%d" % (l + 1))      # pre-activation
        zs.append(z)
        if l < L - 1:
            h = g.relu(z, "h%d" % (l + 1))
            hs.append(h)
    y = zs[L - 1]
    d = g.sub(y, t3, "diff")
    sq = g.mul(d, d, "sq")
    inv_n = 1.0 / (B * C)
    loss = g.reshape(g.scale(g.sum_all(sq, "sqsum"), inv_n, "mse"), (), "loss")

    g.backward()
    # ---- backward
    dz = g.scale(d, 2.0 * inv_n, "dy")                      # dL/dy = 2 d / (B*C)
    grads = [None] * (2 * L)
    zero = g.splat(0.0, (1, 1, 1), "zero")
    for l in range(L - 1, -1, -1):
        if l < L - 1:
            # dz_l = dh_l * relu'(z_l), masked on h_l = relu(z_l)
            mask = g.greater(hs[l + 1], zero, "mask%d" % (l + 1))
            dz = g.select(mask, dh, zero, "dz%d" % (l + 1))
        hT = g.mT(hs[l], "h%dT" % l)
        dW = g.matmul(hT, dz, "dw%d_3" % (l + 1))            # h_{l-1}^T dz_l
        db = g.reduce_sum(dz, 1, "db%d_3" % (l + 1))         # sum over batch rows
        grads[2 * l] = g.reshape(dW, (dims[l], dims[l + 1]), "gw%d" % (l + 1))
        grads[2 * l + 1] = g.reshape(db, (dims[l + 1],), "gb%d" % (l + 1))
        if l > 0:
            dh = g.matmul(dz, g.mT(W3[l], "w%dT" % (l + 1)), "dh%d" % l)   # dz_l W_l^T
    g.ret([loss] + grads)
    header = [
        "Example: one training step of a %d-layer MLP (batch %d, widths %s),"
        % (L, B, "->".join(str(w) for w in dims)),
        "relu activations, mean-squared-error loss against %target.",
        "Results: the loss, then the gradient of every parameter (w1, b1, ..., w%d, b%d)." % (L, L),
        "Pre-activations are tagged z1..z%d with remat.name." % L,
    ]
    return g, params, header, {}


# ----------------------------------------------------------------------------
# Example 2: 4 transformer blocks
# ----------------------------------------------------------------------------


def build_transformer():
    """Four blocks, seq S=128, d_model D=32, H=2 heads (head dim 16), FFN F=64.

    Block forward (x: 1xSxD):
      q = x Wq, k = x Wk, v = x Wv                              (1xSxD)
      split heads: qh = transpose(reshape(q, SxHxE), [1,0,2])   (HxSxE), same for k, v
      s = (qh kh^T) * c,  c = 1/sqrt(E)                          (HxSxS)
      p = softmax_rows(s) = e * 1/sum(e), e = exp(s - max_row(s))
      oh = p vh (HxSxE);  o = reshape(transpose(oh, [1,0,2]), 1xSxD)
      x1 = x + o Wo
      u = x1 W1 + b1;  g = tanh(u);  x2 = x1 + g W2 + b2
    Loss: L = sum(x2_final^2).  dL/dx2_final = 2 x2_final.
    Block backward (dx2 given):
      dW2 = g^T dx2;  db2 = sum_rows(dx2);  dg = dx2 W2^T
      du = dg * (1 - g^2);  dW1 = x1^T du;  db1 = sum_rows(du)
      dx1 = dx2 + du W1^T
      dWo = o^T dx1;  do = dx1 Wo^T;  doh = transpose(reshape(do, SxHxE), [1,0,2])
      dp = doh vh^T;  dvh = p^T doh
      ds = p * (dp - sum_row(dp * p))        (softmax VJP; the max shift is a
                                              constant w.r.t. the result, no gradient)
      dsc = ds * c;  dqh = dsc kh;  dkh = dsc^T qh
      dq/dk/dv = merge heads of dqh/dkh/dvh (inverse of the split)
      dWq = x^T dq (same for k, v);  dx = dx1 + dq Wq^T + dk Wk^T + dv Wv^T
    """
    S, D, H, F = 128, 32, 2, 64
    NUM_BLOCKS = 4
    E = D // H
    c = 1.0 / math.sqrt(E)
    g = Graph("transformer_step")
    x = g.arg("x", (S, D))
    names = ["wq", "wk", "wv", "wo", "w1", "b1", "w2", "b2"]
    shapes = {"wq": (D, D), "wk": (D, D), "wv": (D, D), "wo": (D, D),
              "w1": (D, F), "b1": (F,), "w2": (F, D), "b2": (D,)}
    P = []
    params = []
    for blk in range(NUM_BLOCKS):
        P.append({})
        for n in names:
            a = g.arg("%s_%d" % (n, blk), shapes[n])
            P[blk][n] = a
            params.append(a.name)

    def split(v, hint):
        r = g.reshape(v, (S, H, E), hint + "_r")
        return g.transpose(r, (1, 0, 2), hint)

    def merge(vh, hint):
        tr = g.transpose(vh, (1, 0, 2), hint + "_t")
        return g.reshape(tr, (1, S, D), hint)

    # ---- forward
    h = g.reshape(x, (1, S, D), "x3")
    saved = []
    P3 = []
    for blk in range(NUM_BLOCKS):
        p = P[blk]
        q3 = {}
        for n in ("wq", "wk", "wv", "wo", "w1", "w2"):
            q3[n] = g.reshape(p[n], (1,) + shapes[n], "%s_%d_3" % (n, blk))
        q3["b1"] = g.reshape(p["b1"], (1, 1, F), "b1_%d_3" % blk)
        q3["b2"] = g.reshape(p["b2"], (1, 1, D), "b2_%d_3" % blk)
        P3.append(q3)
        pre = "blk%d_" % blk
        xin = h
        q = g.matmul(xin, q3["wq"], pre + "q")
        k = g.matmul(xin, q3["wk"], pre + "k")
        v = g.matmul(xin, q3["wv"], pre + "v")
        qh, kh, vh = split(q, pre + "qh"), split(k, pre + "kh"), split(v, pre + "vh")
        s = g.scale(g.matmul(qh, g.mT(kh, pre + "khT"), pre + "qk"), c, pre + "scores")
        mx = g.reduce_max(s, 2, pre + "rowmax")
        e = g.exp(g.sub(s, mx, pre + "shifted"), pre + "exp")
        den = g.reduce_sum(e, 2, pre + "rowsum")
        probs = g.mul(e, g.reciprocal(den, pre + "inv"), pre + "probs")
        probs = g.tag(probs, "blk%d.probs" % blk)
        oh = g.matmul(probs, vh, pre + "oh")
        o = merge(oh, pre + "o")
        x1 = g.add(xin, g.matmul(o, q3["wo"], pre + "attn"), pre + "x1")
        x1 = g.tag(x1, "blk%d.x1" % blk)
        u = g.add(g.matmul(x1, q3["w1"], pre + "ffn1"), q3["b1"], pre + "u")
        u = g.tag(u, "blk%d.u" % blk)
        gt = g.tanh(u, pre + "g")
        x2 = g.add(x1, g.add(g.matmul(gt, q3["w2"], pre + "ffn2"), q3["b2"], pre + "f"), pre + "x2")
        saved.append(dict(x=xin, qh=qh, kh=kh, vh=vh, p=probs, o=o, x1=x1, g=gt))
        h = x2
    sq = g.mul(h, h, "sq")
    loss = g.reshape(g.sum_all(sq, "sqsum"), (), "loss")

    g.backward()
    # ---- backward
    one = g.splat(1.0, (1, 1, 1), "one")
    dx2 = g.scale(h, 2.0, "dout")                             # d sum(y^2) / dy = 2y
    grads = {}
    for blk in reversed(range(NUM_BLOCKS)):
        sv, q3 = saved[blk], P3[blk]
        pre = "d%d_" % blk
        # FFN
        grads["w2"] = g.matmul(g.mT(sv["g"], pre + "gT"), dx2, pre + "w2")
        grads["b2"] = g.reduce_sum(dx2, 1, pre + "b2")
        dg = g.matmul(dx2, g.mT(q3["w2"], pre + "w2T"), pre + "g")
        gsq = g.mul(sv["g"], sv["g"], pre + "gsq")
        du = g.mul(dg, g.sub(one, gsq, pre + "dtanh"), pre + "u")     # tanh' = 1 - tanh^2
        grads["w1"] = g.matmul(g.mT(sv["x1"], pre + "x1T"), du, pre + "w1")
        grads["b1"] = g.reduce_sum(du, 1, pre + "b1")
        dx1 = g.add(dx2, g.matmul(du, g.mT(q3["w1"], pre + "w1T"), pre + "x1_ffn"), pre + "x1")
        # attention output projection
        grads["wo"] = g.matmul(g.mT(sv["o"], pre + "oT"), dx1, pre + "wo")
        do = g.matmul(dx1, g.mT(q3["wo"], pre + "woT"), pre + "o")
        doh = split(do, pre + "oh")
        # oh = p vh
        dp = g.matmul(doh, g.mT(sv["vh"], pre + "vhT"), pre + "p")
        dvh = g.matmul(g.mT(sv["p"], pre + "pT"), doh, pre + "vh")
        # softmax: ds = p * (dp - rowsum(dp * p))
        rs = g.reduce_sum(g.mul(dp, sv["p"], pre + "pdp"), 2, pre + "pdp_sum")
        ds = g.mul(sv["p"], g.sub(dp, rs, pre + "dp_c"), pre + "s")
        dsc = g.scale(ds, c, pre + "qk")
        dqh = g.matmul(dsc, sv["kh"], pre + "qh")
        dkh = g.matmul(g.mT(dsc, pre + "qkT"), sv["qh"], pre + "kh")
        dq, dk, dv = merge(dqh, pre + "q"), merge(dkh, pre + "k"), merge(dvh, pre + "v")
        xT = g.mT(sv["x"], pre + "xT")
        grads["wq"] = g.matmul(xT, dq, pre + "wq")
        grads["wk"] = g.matmul(xT, dk, pre + "wk")
        grads["wv"] = g.matmul(xT, dv, pre + "wv")
        dx = g.add(dx1, g.matmul(dq, g.mT(q3["wq"], pre + "wqT"), pre + "x_q"), pre + "x_a")
        dx = g.add(dx, g.matmul(dk, g.mT(q3["wk"], pre + "wkT"), pre + "x_k"), pre + "x_b")
        dx = g.add(dx, g.matmul(dv, g.mT(q3["wv"], pre + "wvT"), pre + "x_v"), pre + "x")
        for n in names:
            grads["%s_%d" % (n, blk)] = g.reshape(grads.pop(n), shapes[n], "g%s_%d" % (n, blk))
        dx2 = dx
    g.ret([loss] + [grads[p] for p in params])
    header = [
        "Example: one training step of a stack of 4 transformer blocks (seq 128, d_model 32,",
        "2 heads of 16, FFN 64 with tanh, residual adds, no layernorm); softmax is written",
        "out as exp / reduce_sum / reciprocal / mul.  Loss: sum of squares of the output.",
        "Results: the loss, then the gradient of every parameter, in argument order.",
        "Tagged with remat.name: blk<i>.probs, blk<i>.x1, blk<i>.u.",
    ]
    return g, params, header, {}


# ----------------------------------------------------------------------------
# Example 3: 3 residual blocks of 3x3 convolutions
# ----------------------------------------------------------------------------


def build_resnet():
    """x: NxHxWxC = 4x16x16x8 (NHWC), conv weights OHWI 8x3x3x8, pad 1, stride 1.

    Block forward:
      c1 = conv(x, W1) + b1;  h = relu(c1);  c2 = conv(h, W2) + b2
      s = c2 + x;  y = relu(s)
    Loss: L = sum(y_final^2).
    Backward of one conv c = conv(a, W) + b with pad 1 (given dc):
      db[o]         = sum_{n,y,x} dc[n,y,x,o]
      dW[o,kh,kw,i] = sum_{n,y,x} dc[n,y,x,o] * a_pad[n,y+kh,x+kw,i]
                    = conv(A, G, pad 1) transposed, where
                      A = transpose(a, [3,1,2,0])   (I x H x W x N: "batch" i, "channels" n)
                      G = transpose(dc, [3,1,2,0])  (O x H x W x N: an OHWI kernel of size HxW)
                      conv(A, G)[i,kh,kw,o] = sum_{y,x,n} a_pad[n,kh+y,kw+x,i] dc[n,y,x,o]
                      and dW = transpose(that, [3,1,2,0])  (O x 3 x 3 x I)
      da[n,y,x,i]   = sum_{o,kh,kw} dc[n,y+1-kh,x+1-kw,o] * W[o,kh,kw,i]
                    = conv(dc, W', pad 1) with W'[i,a,b,o] = W[o,2-a,2-b,i]
                      i.e. W' = transpose(reverse(reverse(W, 1), 2), [3,1,2,0])
    Block backward (dy given):
      ds = dy * [y > 0];  dc2 = ds;  dh = conv_input_grad(dc2, W2)
      dc1 = dh * [h > 0];  dx = ds + conv_input_grad(dc1, W1)
    The relu masks read the outputs (y > 0 iff s > 0, h > 0 iff c1 > 0):
    h is kept for W2's gradient and y is the next block's input, so c1 and s
    die in the forward.
    """
    N, Hs, Ws, C = 4, 16, 16, 8
    K = 3
    g = Graph("resnet_step")
    x = g.arg("x", (N, Hs, Ws, C))
    P, params = [], []
    for blk in range(3):
        d = {}
        for n, shp in (("w1", (C, K, K, C)), ("b1", (C,)), ("w2", (C, K, K, C)), ("b2", (C,))):
            d[n] = g.arg("%s_%d" % (n, blk), shp)
            params.append(d[n].name)
        P.append(d)
    pad = (1, 1, 1, 1)

    # ---- forward
    h = x
    saved = []
    for blk in range(3):
        p = P[blk]
        pre = "blk%d_" % blk
        c1 = g.tag(g.conv2d(h, p["w1"], p["b1"], pad, pre + "c1"), "blk%d.c1" % blk)
        a1 = g.relu(c1, pre + "h")
        c2 = g.conv2d(a1, p["w2"], p["b2"], pad, pre + "c2")
        s = g.tag(g.add(c2, h, pre + "s"), "blk%d.s" % blk)
        y = g.relu(s, pre + "y")
        saved.append(dict(x=h, h=a1, y=y))
        h = y
    loss = g.reshape(g.sum_all(g.mul(h, h, "sq"), "sqsum"), (), "loss")

    g.backward()
    # ---- backward
    zero = g.splat(0.0, (1, 1, 1, 1), "zero")
    zbias = g.splat(0.0, (C,), "zbias")

    def input_grad(w, dc, pre):
        wf = g.reverse(g.reverse(w, 1, pre + "wrev_h"), 2, pre + "wrev")
        wt = g.transpose(wf, (3, 1, 2, 0), pre + "wflip")
        return g.conv2d(dc, wt, zbias, pad, pre + "in")

    def param_grads(a, dc, pre):
        dbs = dc
        for ax in (0, 1, 2):                       # sum over n, y, x
            dbs = g.reduce_sum(dbs, ax, pre + "b_sum")
        db = g.reshape(dbs, (C,), pre + "b")
        A = g.transpose(a, (3, 1, 2, 0), pre + "in_t")
        G = g.transpose(dc, (3, 1, 2, 0), pre + "out_t")
        dWt = g.conv2d(A, G, zbias, pad, pre + "w_t")
        dW = g.transpose(dWt, (3, 1, 2, 0), pre + "w")
        return dW, db

    # Per block the order lets each value die early: h's relu mask is taken
    # first (1 byte per element), so h dies in the transpose of W2's weight
    # gradient, and dc1 dies in the transpose of W1's, which comes last.
    dy = g.scale(h, 2.0, "dout")
    grads = {}
    for blk in (2, 1, 0):
        sv, p = saved[blk], P[blk]
        pre = "d%d_" % blk
        ds = g.select(g.greater(sv["y"], zero, pre + "ymask"), dy, zero, pre + "s")
        hmask = g.greater(sv["h"], zero, pre + "hmask")
        dW2, db2 = param_grads(sv["h"], ds, pre + "c2_")
        dh = input_grad(p["w2"], ds, pre + "c2_")
        dc1 = g.select(hmask, dh, zero, pre + "c1")
        dxc = input_grad(p["w1"], dc1, pre + "c1_")
        dy = g.add(ds, dxc, pre + "x")
        dW1, db1 = param_grads(sv["x"], dc1, pre + "c1_")
        grads["w1_%d" % blk], grads["b1_%d" % blk] = dW1, db1
        grads["w2_%d" % blk], grads["b2_%d" % blk] = dW2, db2
    g.ret([loss] + [grads[p] for p in params])
    header = [
        "Example: one training step of 3 residual blocks on a 4x16x16x8 NHWC feature map:",
        "conv2d 3x3 (pad 1, stride 1) + relu + conv2d + residual add + relu, per block.",
        "Loss: sum of squares of the output.  Conv gradients are tosa.conv2d ops over",
        "transposed / spatially reversed tensors (derivation in scripts/gen-examples.py).",
        "Results: the loss, then the gradient of every parameter, in argument order.",
        "Tagged with remat.name: blk<i>.c1 (first conv output), blk<i>.s (pre-relu sum).",
    ]
    return g, params, header, {}


# ----------------------------------------------------------------------------
# --check: upstream MLIR parse / lowering / execution checks
# ----------------------------------------------------------------------------

LOWER_TOSA = ("builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,"
              "tosa-to-arith,tosa-to-tensor),canonicalize)")
LOWER_LLVM = ["--one-shot-bufferize=bufferize-function-boundaries", "--convert-linalg-to-loops",
              "--expand-strided-metadata", "--lower-affine", "--convert-scf-to-cf",
              "--math-expand-ops", "--convert-math-to-llvm", "--convert-math-to-libm",
              "--convert-arith-to-llvm", "--finalize-memref-to-llvm", "--convert-func-to-llvm",
              "--convert-cf-to-llvm", "--reconcile-unrealized-casts"]


def find_tool(name):
    env = os.environ.get(name.upper().replace("-", "_"))
    if env:
        return env
    for cand in ("/usr/lib/llvm-22/bin/" + name,):
        if os.path.exists(cand):
            return cand
    return shutil.which(name + "-22") or shutil.which(name) or name


def run_tool(argv, text):
    p = subprocess.run(argv, input=text, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(argv[:2]), p.stderr[-4000:]))
    return p.stdout


def runner_main(g, inputs):
    """A @main that feeds `inputs` to the step function and prints every result."""
    lines = ["func.func private @printMemrefF32(memref<*xf32>)", "func.func @main() {"]
    argn = []
    for i, a in enumerate(g.args):
        t = inputs[a.name]
        n = numel(a.shape)
        lit = ", ".join(repr(v) for v in t.data)
        lines.append("  %%flat%d = arith.constant dense<[%s]> : tensor<%dxf32>" % (i, lit, n))
        lines.append("  %%shp%d = tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : "
                     "() -> !tosa.shape<%d>" % (i, ", ".join(map(str, a.shape)), len(a.shape),
                                                len(a.shape)))
        lines.append("  %%in%d = tosa.reshape %%flat%d, %%shp%d : (tensor<%dxf32>, !tosa.shape<%d>) -> %s"
                     % (i, i, i, n, len(a.shape), a.type))
        argn.append("%%in%d" % i)
    rtys = ", ".join(r.type for r in g.results)
    lines.append("  %%r:%d = call @%s(%s) : (%s) -> (%s)" % (
        len(g.results), g.name, ", ".join(argn), ", ".join(a.type for a in g.args), rtys))
    for i, r in enumerate(g.results):
        mt = r.type.replace("tensor<", "memref<")
        lines.append("  %%m%d = bufferization.to_buffer %%r#%d : %s to %s" % (i, i, r.type, mt))
        lines.append("  %%u%d = memref.cast %%m%d : %s to memref<*xf32>" % (i, i, mt))
        lines.append("  call @printMemrefF32(%%u%d) : (memref<*xf32>) -> ()" % i)
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def parse_runner_output(out):
    res = []
    for chunk in out.split("Unranked Memref")[1:]:
        data = chunk.split("data =", 1)[1]
        res.append([float(v) for v in re.findall(r"[-+]?(?:nan|inf|[0-9.]+(?:e[-+]?[0-9]+)?)", data)])
    return res


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def check_example(name, g, params, scale):
    """1. numeric gradient check in the reference interpreter;
    2. func form parses and verifies with upstream mlir-opt;
    3. plain form lowers to linalg/arith/tensor with no TOSA left;
    4. plain form + a @main, lowered to LLVM and run with mlir-runner, gives the
       same loss and gradients (to f32 accuracy) as the reference interpreter."""
    mlir_opt, mlir_runner = find_tool("mlir-opt"), find_tool("mlir-runner")
    fwd, bwd = g.counts()
    print("%s: %d forward ops, %d backward ops" % (name, fwd, bwd))
    ok = verify(g, params, scale) < VERIFY_TOLERANCE
    run_tool([mlir_opt, "--allow-unregistered-dialect", "-o", os.devnull], print_graph(g, "func", []))
    print("  func form parses and verifies: ok")
    lowered = run_tool([mlir_opt, "--pass-pipeline=" + LOWER_TOSA], print_graph(g, "plain", []))
    left = sorted(set(re.findall(r"\btosa\.[a-z_0-9]+", lowered)))
    if left:
        print("  FAILED: TOSA ops left after lowering: %s" % left)
        ok = False
    else:
        print("  plain form lowers to linalg/arith/tensor: ok")
    ins = random_inputs(g, 7, scale)
    ins = {k: T(t.shape, [f32(v) for v in t.data]) for k, t in ins.items()}
    prog = run_tool([mlir_opt, "--pass-pipeline=" + LOWER_TOSA],
                    print_graph(g, "plain", []) + runner_main(g, ins))
    llvm = run_tool([mlir_opt] + LOWER_LLVM, prog)
    libdir = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(mlir_runner))), "lib")
    libs = ",".join(os.path.join(libdir, l) for l in ("libmlir_runner_utils.so",
                                                      "libmlir_c_runner_utils.so"))
    t0 = time.time()
    out = run_tool([mlir_runner, "-e", "main", "-entry-point-result=void", "-shared-libs=" + libs], llvm)
    elapsed = time.time() - t0
    got = parse_runner_output(out)
    ref = interpret(g, ins)
    worst = 0.0
    if len(got) != len(ref):
        print("  FAILED: runner printed %d results, expected %d" % (len(got), len(ref)))
        return False
    for r, vals in zip(ref, got):
        if len(vals) != len(r.data):
            print("  FAILED: result size %d vs %d" % (len(vals), len(r.data)))
            return False
        m = max(abs(v) for v in r.data) or 1.0
        for a, b in zip(r.data, vals):
            worst = max(worst, abs(a - b) / m)
    good = worst < 1e-3
    ok = ok and good
    print("  mlir-runner (lowered to loops, jit %.2fs incl. compile) vs reference: max err/max|ref| "
          "%.2e %s" % (elapsed, worst, "ok" if good else "FAILED"))
    return ok


EXAMPLES = [("mlp", build_mlp), ("transformer", build_transformer), ("resnet", build_resnet)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--form", choices=["graph", "func", "plain"], default="graph")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(here), "examples"))
    ap.add_argument("--verify", action="store_true",
                    help="check every gradient numerically (pure Python, slow-ish) instead of writing")
    ap.add_argument("--check", action="store_true",
                    help="--verify plus upstream mlir-opt parse / lowering / mlir-runner execution checks")
    ap.add_argument("--only", help="comma-separated subset of: mlp,transformer,resnet")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    worst = 0.0
    if args.check:
        ok = True
        for name, build in EXAMPLES:
            if not only or name in only:
                g, params, _, scale = build()
                ok = check_example(name, g, params, scale) and ok
        print("check: %s" % ("OK" if ok else "FAILED"))
        return 0 if ok else 1
    if not args.verify:
        os.makedirs(args.out_dir, exist_ok=True)
    for name, build in EXAMPLES:
        if only and name not in only:
            continue
        g, params, header, scale = build()
        fwd, bwd = g.counts()
        if args.verify:
            print("%s: %d forward ops, %d backward ops" % (name, fwd, bwd))
            worst = max(worst, verify(g, params, scale))
            continue
        hdr = header + [
            "",
            "Generated by scripts/gen-examples.py (form=%s); do not edit." % args.form,
            "Regenerate: python3 scripts/gen-examples.py%s" % (
                "" if args.form == "graph" else " --form=%s" % args.form),
            "Ops: %d forward, %d backward (constants and tosa.const_shape included)." % (fwd, bwd),
        ]
        path = os.path.join(args.out_dir, name + ".mlir")
        with open(path, "w") as f:
            f.write(print_graph(g, args.form, hdr))
        print("wrote %s (%d forward ops, %d backward ops)" % (path, fwd, bwd))
    if args.verify:
        ok = worst < VERIFY_TOLERANCE
        print("verify: %s (worst rel.err %.2e)" % ("OK" if ok else "FAILED", worst))
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
