#!/usr/bin/env python3
"""Random valid training steps for differential testing of the whole path.

Usage: scripts/random_step.py SEED [--ops=N]   # prints one step (MLIR)

A step is a `remat.graph` with a forward pass, a `remat.backward` marker and
a backward pass that reads the forward activations in reverse order, as a
gradient pass does. The ops are drawn from the supported families:

- TOSA elementwise (tanh, sigmoid, abs, negate, clamp as ReLU, add, sub,
  mul, maximum), reductions, transposes, matmuls between reshapes (views),
  i1 masks (greater feeding select), constants;
- pairs that fold (negate(negate x), abs(abs x), transpose(transpose x));
- linalg (matmul into a filled init, elementwise add), tensor views
  (extract_slice, collapse_shape/expand_shape);
- strided views (a window of a value at a random offset, cutting columns)
  returned as results or collapsed, which bufferization cannot return or
  collapse as they are;
- padded average and max pools (kernels with several scratch buffers),
  rank-0 tensors, and zero-size tensors;
- arith and math on tensors;
- calls to private helper functions defined in the module;
- destination-passing ops that write into an existing value (linalg.generic
  with that value as its init, linalg.fill, tensor.insert_slice), which
  bufferization writes in place where the value dies there and copies
  where it is read again;
- donated weights (`remat.aliasing_output`) updated in place at the end of
  the backward pass by an SGD step on a weight-shaped gradient.

The values do not compute a real gradient: the point is a program shape
whose peak memory and outputs the planner must preserve. Every value that
nothing reads is a result, so nothing is dead. The same seed gives the same
text (Python's `random.Random`, no other state). Standard library only.
"""

import argparse
import random
import sys

F32_ZERO = "0.000000e+00"
F32_MAX = "3.40282347e+38"


def ttype(shape, elt="f32"):
    if not shape:
        return "tensor<%s>" % elt
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), elt)


class Step:
    """Builds the text of one step; values are (name, shape) pairs."""

    def __init__(self, rng, ops):
        self.rng = rng
        self.ops = ops
        self.lines = []
        self.helpers = []
        self.uses = {}
        self.counter = 0
        self.consts = {}
        b = rng.choice([4, 8, 16])
        w = rng.choice([8, 16, 32])
        self.batch, self.width = b, w
        self.args = [("%x", (b, w))] + [
            ("%%w%d" % i, (w, w)) for i in range(rng.randint(1, 3))]
        # Weights updated in place at the end (their results come first).
        self.donated = [v for v in self.args[1:] if rng.random() < 0.4]
        self.maps = False
        self.shapes = dict(self.args)
        for name, _ in self.args:
            self.uses[name] = 0

    # -- emission helpers ---------------------------------------------------

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def emit(self, text, shape, operands, prefix="v"):
        name = self.fresh(prefix)
        self.lines.append("  %s = %s" % (name, text))
        self.shapes[name] = shape
        for o in operands:
            self.uses[o[0]] = self.uses.get(o[0], 0) + 1
        self.uses[name] = 0
        return (name, shape)

    def cached(self, key, prefix, definition):
        """The value `definition` ("= ..." text) defines, emitted once: shapes
        and constants are defined where first needed and then shared."""
        if key not in self.consts:
            name = self.fresh(prefix)
            self.lines.append("  %s = %s" % (name, definition))
            self.consts[key] = name
        return self.consts[key]

    def const_shape(self, shape):
        return self.cached(
            ("shape",) + tuple(shape), "s",
            "tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : "
            "() -> !tosa.shape<%d>" % (", ".join(str(d) for d in shape),
                                       len(shape), len(shape)))

    def zp(self):
        return self.cached(("zp",), "zp", '"tosa.const"() <{values = dense<%s>'
                           " : tensor<1xf32>}> : () -> tensor<1xf32>"
                           % F32_ZERO)

    def shift(self):
        return self.cached(("shift",), "shift", '"tosa.const"() <{values = '
                           "dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>")

    def zeros(self, rank):
        """A broadcastable zero of the given rank (tosa.const, a global)."""
        t = ttype((1,) * rank)
        name = self.cached(("zero", rank), "zero",
                           '"tosa.const"() <{values = dense<%s> : %s}> : () -> '
                           "%s" % (F32_ZERO, t, t))
        return (name, (1,) * rank)

    def constant(self, shape):
        """A non-splat constant tensor of the given shape."""
        n = 1
        for d in shape:
            n *= d
        vals = ", ".join("%.1f" % (self.rng.randint(-8, 8) / 4.0)
                         for _ in range(n))
        t = ttype(shape)
        name = self.fresh("c")
        if len(shape) == 2:
            rows = []
            for r in range(shape[0]):
                rows.append("[" + ", ".join(
                    vals.split(", ")[r * shape[1]:(r + 1) * shape[1]]) + "]")
            vals = ", ".join(rows)
        self.lines.append(
            '  %s = "tosa.const"() <{values = dense<[%s]> : %s}> : () -> %s'
            % (name, vals, t, t))
        self.uses[name] = 1  # a global: never a result of its own
        return (name, shape)

    # -- ops ----------------------------------------------------------------

    def unary(self, a, op):
        t = ttype(a[1])
        if op == "tosa.negate":
            zp = self.zp()
            return self.emit(
                "tosa.negate %s, %s, %s : (%s, tensor<1xf32>, tensor<1xf32>)"
                " -> %s" % (a[0], zp, zp, t, t), a[1], [a])
        if op == "tosa.clamp":
            return self.emit(
                "tosa.clamp %s {max_val = %s : f32, min_val = %s : f32} : "
                "(%s) -> %s" % (a[0], F32_MAX, F32_ZERO, t, t), a[1], [a])
        return self.emit("%s %s : (%s) -> %s" % (op, a[0], t, t), a[1], [a])

    def binary(self, a, b, op):
        ta, tb = ttype(a[1]), ttype(b[1])
        shape = tuple(max(x, y) for x, y in zip(a[1], b[1]))
        t = ttype(shape)
        if op == "tosa.mul":
            return self.emit(
                "tosa.mul %s, %s, %s : (%s, %s, tensor<1xi8>) -> %s"
                % (a[0], b[0], self.shift(), ta, tb, t), shape, [a, b])
        return self.emit("%s %s, %s : (%s, %s) -> %s"
                         % (op, a[0], b[0], ta, tb, t), shape, [a, b])

    def mask_select(self, a, b):
        """select(a > 0, b, 0): the ReLU-gradient idiom with an i1 mask."""
        zero = self.zeros(len(a[1]))
        m = self.emit("tosa.greater %s, %s : (%s, %s) -> %s"
                      % (a[0], zero[0], ttype(a[1]), ttype(zero[1]),
                         ttype(a[1], "i1")), a[1], [a])
        return self.emit(
            "tosa.select %s, %s, %s : (%s, %s, %s) -> %s"
            % (m[0], b[0], zero[0], ttype(a[1], "i1"), ttype(b[1]),
               ttype(zero[1]), ttype(b[1])), b[1], [m, b])

    def transpose(self, a):
        shape = (a[1][1], a[1][0])
        return self.emit(
            "tosa.transpose %s {perms = array<i32: 1, 0>} : (%s) -> %s"
            % (a[0], ttype(a[1]), ttype(shape)), shape, [a])

    def reshape(self, a, shape):
        return self.emit("tosa.reshape %s, %s : (%s, !tosa.shape<%d>) -> %s"
                         % (a[0], self.const_shape(shape), ttype(a[1]),
                            len(shape), ttype(shape)), shape, [a])

    def tosa_matmul(self, a, b):
        """(M,K) x (K,N) through rank-3 reshapes (views) and back."""
        m, k = a[1]
        n = b[1][1]
        a3 = self.reshape(a, (1, m, k))
        b3 = self.reshape(b, (1, k, n))
        zp = self.zp()
        mm = self.emit(
            "tosa.matmul %s, %s, %s, %s : (%s, %s, tensor<1xf32>, "
            "tensor<1xf32>) -> %s" % (a3[0], b3[0], zp, zp, ttype(a3[1]),
                                      ttype(b3[1]), ttype((1, m, n))),
            (1, m, n), [a3, b3])
        return self.reshape(mm, (m, n))

    def linalg_matmul(self, a, b):
        m, n = a[1][0], b[1][1]
        t = ttype((m, n))
        e = self.emit("tensor.empty() : %s" % t, (m, n), [])
        c0 = self.scalar_zero()
        f = self.emit("linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                      % (c0, e[0], t, t), (m, n), [e])
        return self.emit(
            "linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
            % (a[0], b[0], ttype(a[1]), ttype(b[1]), f[0], t, t), (m, n),
            [a, b, f])

    def scalar_zero(self):
        key = ("f32zero",)
        if key not in self.consts:
            name = self.fresh("f")
            self.lines.append("  %s = arith.constant %s : f32"
                              % (name, F32_ZERO))
            self.consts[key] = name
        return self.consts[key]

    def linalg_add(self, a, b):
        t = ttype(a[1])
        e = self.emit("tensor.empty() : %s" % t, a[1], [])
        return self.emit("linalg.add ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                         % (a[0], b[0], t, t, e[0], t, t), a[1], [a, b, e])

    def slice_pad(self, a):
        """A half-width extract_slice view, then a concat back to width."""
        m, n = a[1]
        half = (m, n // 2)
        s = self.emit(
            "tensor.extract_slice %s[0, %d] [%d, %d] [1, 1] : %s to %s"
            % (a[0], n // 2, m, n // 2, ttype(a[1]), ttype(half)), half, [a])
        t = self.unary(s, "tosa.tanh")
        return self.emit("tosa.concat %s, %s {axis = 1 : i32} : (%s, %s) -> %s"
                         % (t[0], s[0], ttype(half), ttype(half),
                            ttype(a[1])), a[1], [t, s])

    def collapse_expand(self, a):
        m, n = a[1]
        flat = self.emit("tensor.collapse_shape %s [[0, 1]] : %s into %s"
                         % (a[0], ttype(a[1]), ttype((m * n,))), (m * n,), [a])
        e = self.unary(flat, "tosa.sigmoid")
        return self.emit(
            "tensor.expand_shape %s [[0, 1]] output_shape [%d, %d] : %s into %s"
            % (e[0], m, n, ttype((m * n,)), ttype(a[1])), a[1], [e])

    def strided_view(self, a):
        """A window of `a` at a random offset, returned as a result or
        collapsed and returned; `a` goes on through a tanh."""
        rng = self.rng
        m, n = a[1]
        rows, cols = rng.randint(1, m), rng.randint(1, n)
        r0, c0 = rng.randint(0, m - rows), rng.randint(0, n - cols)
        window = (rows, cols)
        v = self.emit(
            "tensor.extract_slice %s[%d, %d] [%d, %d] [1, 1] : %s to %s"
            % (a[0], r0, c0, rows, cols, ttype(a[1]), ttype(window)),
            window, [a])
        if rng.random() < 0.5:
            flat = (rows * cols,)
            f = self.emit("tensor.collapse_shape %s [[0, 1]] : %s into %s"
                          % (v[0], ttype(window), ttype(flat)), flat, [v])
            self.unary(f, "tosa.sigmoid")
        return self.unary(a, "tosa.tanh")

    def pool2d(self, a):
        """A padded 3x3 average or max pool over `a` as one NHWC channel:
        kernels whose lowering allocates several scratch buffers."""
        m, n = a[1]
        x4 = self.reshape(a, (1, m, n, 1))
        t4 = ttype(x4[1])
        if self.rng.random() < 0.5:
            zp = self.zp()
            p = self.emit(
                "tosa.avg_pool2d %s, %s, %s {acc_type = f32, kernel = "
                "array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = "
                "array<i64: 1, 1>} : (%s, tensor<1xf32>, tensor<1xf32>) -> %s"
                % (x4[0], zp, zp, t4, t4), x4[1], [x4])
        else:
            p = self.emit(
                "tosa.max_pool2d %s {kernel = array<i64: 3, 3>, pad = "
                "array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : "
                "(%s) -> %s" % (x4[0], t4, t4), x4[1], [x4])
        return self.reshape(p, (m, n))

    def scalar_path(self, a):
        """The sum of `a` as a rank-0 tensor, through a tanh, broadcast
        back onto `a`."""
        m, n = a[1]
        r = self.emit("tosa.reduce_sum %s {axis = 1 : i32} : (%s) -> %s"
                      % (a[0], ttype(a[1]), ttype((m, 1))), (m, 1), [a])
        r = self.emit("tosa.reduce_sum %s {axis = 0 : i32} : (%s) -> %s"
                      % (r[0], ttype((m, 1)), ttype((1, 1))), (1, 1), [r])
        s = self.emit("tensor.collapse_shape %s [] : %s into %s"
                      % (r[0], ttype((1, 1)), ttype(())), (), [r])
        s = self.unary(s, "tosa.tanh")
        b = self.emit("tensor.expand_shape %s [] output_shape [1, 1] : "
                      "%s into %s" % (s[0], ttype(()), ttype((1, 1))),
                      (1, 1), [s])
        return self.binary(a, b, "tosa.add")

    def zero_size(self, a):
        """No rows of `a`, through a tanh, returned: buffers of no bytes."""
        n = a[1][1]
        z = self.emit("tensor.extract_slice %s[0, 0] [0, %d] [1, 1] : %s to "
                      "%s" % (a[0], n, ttype(a[1]), ttype((0, n))), (0, n),
                      [a])
        # TOSA takes no empty tensors; math on tensors does.
        self.emit("math.tanh %s : %s" % (z[0], ttype((0, n))), (0, n), [z])
        return self.unary(a, "tosa.sigmoid")

    def reduce_broadcast(self, a):
        m, n = a[1]
        r = self.emit("tosa.reduce_sum %s {axis = 1 : i32} : (%s) -> %s"
                      % (a[0], ttype(a[1]), ttype((m, 1))), (m, 1), [a])
        return self.binary(a, r, "tosa.sub")

    def arith_math(self, a, b):
        t = ttype(a[1])
        op = self.rng.choice(["arith.addf", "arith.mulf", "arith.subf"])
        s = self.emit("%s %s, %s : %s" % (op, a[0], b[0], t), a[1], [a, b])
        fn = self.rng.choice(["math.tanh", "math.absf", "math.exp"])
        if fn == "math.exp":
            s = self.emit("math.tanh %s : %s" % (s[0], t), a[1], [s])
        return self.emit("%s %s : %s" % (fn, s[0], t), a[1], [s])

    def call(self, a):
        """A call to a private helper (tanh then a square) defined here."""
        t = ttype(a[1])
        name = "@helper%d" % len(self.helpers)
        self.helpers.append(
            "func.func private %s(%%a: %s) -> %s {\n"
            "  %%shift = \"tosa.const\"() <{values = dense<0> : tensor<1xi8>}>"
            " : () -> tensor<1xi8>\n"
            "  %%t = tosa.tanh %%a : (%s) -> %s\n"
            "  %%s = tosa.mul %%t, %%a, %%shift : (%s, %s, tensor<1xi8>) -> %s\n"
            "  return %%s : %s\n}\n" % (name, t, t, t, t, t, t, t, t))
        return self.emit("func.call %s(%s) : (%s) -> %s"
                         % (name, a[0], t, t), a[1], [a])

    def write_into(self, a, dest):
        """dest <- a * dest, written into dest's buffer (a linalg.generic
        whose init is `dest`)."""
        t = ttype(a[1])
        ids = ", ".join("d%d" % i for i in range(len(a[1])))
        self.maps = True
        return self.emit(
            "linalg.generic {indexing_maps = [#id%d, #id%d], iterator_types = "
            "[%s]} ins(%s : %s) outs(%s : %s) {\n"
            "  ^bb0(%%in: f32, %%out: f32):\n"
            "    %%r = arith.mulf %%in, %%out : f32\n"
            "    linalg.yield %%r : f32\n"
            "  } -> %s" % (len(a[1]), len(a[1]),
                           ", ".join(['"parallel"'] * len(a[1])), a[0], t,
                           dest[0], t, t), a[1], [a, dest])

    def fill_into(self, dest):
        t = ttype(dest[1])
        return self.emit("linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                         % (self.scalar_zero(), dest[0], t, t), dest[1],
                         [dest])

    def insert_into(self, a, dest):
        """The left half of tanh(a) inserted into dest."""
        m, n = a[1]
        half = (m, n // 2)
        s = self.emit(
            "tensor.extract_slice %s[0, 0] [%d, %d] [1, 1] : %s to %s"
            % (a[0], m, n // 2, ttype(a[1]), ttype(half)), half, [a])
        t = self.unary(s, "tosa.tanh")
        return self.emit(
            "tensor.insert_slice %s into %s[0, 0] [%d, %d] [1, 1] : %s into %s"
            % (t[0], dest[0], m, n // 2, ttype(half), ttype(dest[1])),
            dest[1], [t, dest])

    def sgd_update(self, weight, a, g):
        """weight - 0.01 * transpose(a) x g, written into the weight."""
        grad = self.tosa_matmul(self.transpose(a), g)
        t = ttype(weight[1])
        lr = self.cached(("lr",), "lr", "arith.constant 1.000000e-02 : f32")
        self.maps = True
        return self.emit(
            "linalg.generic {indexing_maps = [#id2, #id2], iterator_types = "
            "[\"parallel\", \"parallel\"]} ins(%s : %s) outs(%s : %s) {\n"
            "  ^bb0(%%in: f32, %%out: f32):\n"
            "    %%m = arith.mulf %%in, %s : f32\n"
            "    %%r = arith.subf %%out, %%m : f32\n"
            "    linalg.yield %%r : f32\n"
            "  } -> %s" % (grad[0], t, weight[0], t, lr, t), weight[1],
            [grad, weight])

    # -- the step -----------------------------------------------------------

    def same_shape(self, pool, shape):
        return [v for v in pool if v[1] == shape]

    def forward_op(self, pool):
        """One random op on recent values; returns the new activation."""
        rng = self.rng
        a = pool[-1] if rng.random() < 0.6 else rng.choice(pool)
        square = a[1][0] == a[1][1]
        kinds = ["unary", "unary", "binary", "fold", "mask", "matmul",
                 "linalg_matmul", "linalg_add", "const", "slice", "collapse",
                 "reduce", "arith", "call", "transpose", "write_into",
                 "fill_into", "insert_into", "strided", "pool", "scalar",
                 "zero_size"]
        kind = rng.choice(kinds)
        if kind == "unary":
            return self.unary(a, rng.choice(
                ["tosa.tanh", "tosa.sigmoid", "tosa.abs", "tosa.negate",
                 "tosa.clamp"]))
        if kind == "fold":
            op = rng.choice(["tosa.negate", "tosa.abs"])
            return self.unary(self.unary(a, op), op)
        if kind == "transpose":
            t = self.transpose(a)
            if square and rng.random() < 0.5:
                return t
            return self.transpose(t)
        other = rng.choice(self.same_shape(pool, a[1]))
        if kind == "binary":
            return self.binary(a, other, rng.choice(
                ["tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum"]))
        if kind == "mask":
            return self.mask_select(a, other)
        if kind in ("matmul", "linalg_matmul"):
            weights = [v for v in pool + self.args
                       if v[1] == (a[1][1], a[1][1])]
            if not weights:
                return self.unary(a, "tosa.tanh")
            w = rng.choice(weights)
            if kind == "matmul":
                return self.tosa_matmul(a, w)
            return self.linalg_matmul(a, w)
        if kind == "linalg_add":
            return self.linalg_add(a, other)
        # Destinations are activations, never the step's arguments: those
        # belong to the caller unless donated.
        dests = [v for v in self.same_shape(pool, a[1])
                 if v[0] != a[0] and v not in self.args]
        if kind == "write_into" and dests:
            return self.write_into(a, rng.choice(dests))
        if kind == "fill_into" and dests:
            return self.binary(a, self.fill_into(rng.choice(dests)),
                               "tosa.add")
        if kind == "insert_into" and dests and a[1][1] % 2 == 0:
            return self.insert_into(a, rng.choice(dests))
        if kind == "const":
            return self.binary(a, self.constant(a[1]), "tosa.add")
        if kind == "slice" and a[1][1] % 2 == 0:
            return self.slice_pad(a)
        if kind == "collapse":
            return self.collapse_expand(a)
        if kind == "strided":
            return self.strided_view(a)
        if kind == "pool":
            return self.pool2d(a)
        if kind == "scalar":
            return self.scalar_path(a)
        if kind == "zero_size":
            return self.zero_size(a)
        if kind == "reduce":
            return self.reduce_broadcast(a)
        if kind == "arith":
            return self.arith_math(a, other)
        if kind == "call":
            return self.call(a)
        return self.unary(a, "tosa.tanh")

    def build(self):
        rng = self.rng
        x = self.args[0]
        pool = [self.unary(x, "tosa.tanh")]
        for _ in range(self.ops):
            pool.append(self.forward_op(pool))
        self.lines.append("  remat.backward")
        # Backward: a running value meets the activations in reverse order.
        g = pool[-1]
        for act in reversed(pool[:-1]):
            if act[1] != g[1] or rng.random() < 0.3:
                continue
            how = rng.choice(["mul", "mask", "add", "op"])
            if how == "mul":
                g = self.binary(g, act, "tosa.mul")
            elif how == "mask":
                g = self.mask_select(act, g)
            elif how == "add":
                g = self.binary(g, act, "tosa.add")
            else:
                g = self.forward_op([act, g])
        updated = [self.sgd_update(w, x, g) for w in self.donated
                   if g[1] == x[1]]
        # The gradient needs the shape of x; without it nothing is donated.
        if not updated:
            self.donated = []
        # Every value nothing reads is a result, so nothing is dead.
        arguments = dict(self.args)
        rest = [(v, self.shapes[v]) for v in self.uses
                if self.uses[v] == 0 and v not in arguments and
                v not in dict(updated)]
        return updated + rest

    def text(self, seed):
        out = self.build()
        head = ["// Random step, seed %d (scripts/random_step.py %d --ops=%d)."
                % (seed, seed, self.ops)]
        if self.maps:
            head += ["#id%d = affine_map<(%s) -> (%s)>" % (r, ids, ids)
                     for r, ids in ((1, "d0"), (2, "d0, d1"))]
        head += self.helpers

        def arg(name, shape):
            text = "%s: %s" % (name, ttype(shape))
            if (name, shape) in self.donated:
                text += " {remat.aliasing_output = %d : i64}" % (
                    self.donated.index((name, shape)))
            return text
        args = ", ".join(arg(n, s) for n, s in self.args)
        rtypes = ", ".join(ttype(s) for _, s in out)
        head.append("remat.graph @step(%s) -> (%s) {" % (args, rtypes))
        body = self.lines + ["  remat.return %s : %s"
                             % (", ".join(n for n, _ in out), rtypes), "}"]
        return "\n".join(head + body) + "\n"


def generate(seed, ops):
    """The text of the step for this seed."""
    return Step(random.Random(seed), ops).text(seed)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("--ops", type=int, default=12,
                        help="forward ops drawn (default 12)")
    args = parser.parse_args(argv[1:])
    sys.stdout.write(generate(args.seed, args.ops))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
