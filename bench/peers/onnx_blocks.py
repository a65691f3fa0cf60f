"""Deepens an exported transformer by repeating one of its blocks in the
ONNX graph, for models too large to export from PyTorch on this machine.

torch.onnx.export's memory grows with every traced block (about 150 MB a
block at GPT-2's width, at batch 1): a 96-layer decoder at that width needs
more than this machine has. The export of the same
model with three blocks holds everything a deeper one is made of: block 0
(which also defines constants that later blocks share), block 1 (a block
as every later one is), and block 2, which shows how one block feeds the
next. `deepen` learns from blocks 1 and 2 which inputs of a block are the
previous block's outputs, which are its own parameters and which are
shared, then writes blocks 2 to layers - 1 as copies of block 1, each with
its own parameters.

The copies' parameters are new initializers that point at block 1's bytes
in the external data file (the weight values do not enter a plan: the
importer makes every parameter an argument of the step), so the file on
disk stays the size of the three-block export.
"""

import os
import re

import onnx
from onnx import external_data_helper

SCOPE = re.compile(r"^/blocks\.(\d+)/")


def _spans(nodes):
    """[start, end) of each block's nodes in graph order: from its first
    node scoped /blocks.k/ to the next block's first node (unscoped nodes
    between, such as Unsqueeze axes, belong to the block they sit in)."""
    first, last = {}, {}
    for i, n in enumerate(nodes):
        m = SCOPE.match(n.name)
        if m:
            k = int(m.group(1))
            first.setdefault(k, i)
            last[k] = i
    blocks = sorted(first)
    if blocks != list(range(len(blocks))):
        raise ValueError("blocks are not numbered 0, 1, ...: %s" % blocks)
    ends = [first[k + 1] for k in blocks[:-1]] + [last[blocks[-1]] + 1]
    return [(first[k], ends[k]) for k in blocks]


def _param(name, src, dst):
    """The name of block dst's copy of block src's parameter `name`."""
    prefix = "blocks.%d." % src
    if not name.startswith(prefix):
        raise ValueError("parameter '%s' is not named after its block" % name)
    return "blocks.%d.%s" % (dst, name[len(prefix):])


def _scoped(name, j):
    """A value or node name of block 1, renamed for block j."""
    if name.startswith("/blocks.1/"):
        return "/blocks.%d/%s" % (j, name[len("/blocks.1/"):])
    return "/blocks.%d/%s" % (j, name)


def _same_node(a, b):
    """Whether two nodes do the same thing, their wiring aside."""
    return (a.op_type == b.op_type and a.domain == b.domain and
            len(a.input) == len(b.input) and len(a.output) == len(b.output)
            and [x.SerializeToString() for x in a.attribute] ==
            [x.SerializeToString() for x in b.attribute])


def deepen(model, layers, weights):
    """`model` (a three-block export, loaded with its weights) with `layers`
    blocks. Its weights are written to the file `weights` (a path); save
    the model in the same folder with onnx.save."""
    g = model.graph
    nodes = list(g.node)
    spans = _spans(nodes)
    if len(spans) != 3 or layers < 3:
        raise ValueError("expects a three-block export and at least three "
                         "layers, got %d blocks and %d layers" %
                         (len(spans), layers))
    template = nodes[spans[1][0]:spans[1][1]]
    check = nodes[spans[2][0]:spans[2][1]]
    if len(template) != len(check) or not all(
            _same_node(a, b) for a, b in zip(template, check)):
        raise ValueError("blocks 1 and 2 differ: not one repeated block")
    made = {v for n in template for v in n.output}
    # Block 1's values by position in block 2, which is block 1 applied to
    # block 1's outputs: block 2's wiring says how copies are wired.
    to_check = {a: b for t, c in zip(template, check)
                for a, b in zip(t.output, c.output)}
    from_check = {b: a for a, b in to_check.items()}
    inits = {t.name: t for t in g.initializer}
    carry = {}  # block 0's value -> the block 1 value it becomes next block
    params = set()
    for t, c in zip(template, check):
        for a, b in zip(t.input, c.input):
            if a in made:
                ok = to_check[a] == b
            elif a == b:
                ok = True  # shared by every block, defined before block 1
            elif b in made:
                ok = carry.setdefault(a, b) == b
            else:
                ok = a in inits and b in inits and _param(a, 1, 2) == b
                params.add(a)
            if not ok:
                raise ValueError("block 2's input '%s' (block 1: '%s') is "
                                 "not wired as a repeated block's" % (b, a))

    # Written now, so that the copies can point at block 1's bytes.
    external_data_helper.convert_model_to_external_data(
        model, all_tensors_to_one_file=True,
        location=os.path.basename(weights))
    external_data_helper.write_external_data_tensors(
        model, os.path.dirname(weights))

    copies, names = [], {v: v for v in made}  # block j - 1's value names
    for j in range(2, layers):
        prev, names = names, {v: _scoped(v, j) for v in made}
        for t in template:
            n = onnx.NodeProto()
            n.CopyFrom(t)
            n.name = _scoped(t.name, j)
            for i, a in enumerate(t.input):
                if a in made:
                    n.input[i] = names[a]
                elif a in carry:
                    n.input[i] = prev[carry[a]]
                elif a in params:
                    n.input[i] = _param(a, 1, j)
            for i, a in enumerate(t.output):
                n.output[i] = names[a]
            copies.append(n)
    suffix = nodes[spans[2][1]:]
    for n in suffix:
        for i, a in enumerate(n.input):
            if a in from_check:
                n.input[i] = names[from_check[a]]
    for o in g.output:
        if o.name in from_check:
            o.name = names[from_check[o.name]]

    kept = [t for t in g.initializer if not t.name.startswith("blocks.2.")]
    for j in range(2, layers):
        for a in sorted(params):
            t = onnx.TensorProto()
            t.CopyFrom(inits[a])
            t.name = _param(a, 1, j)
            kept.append(t)
    del g.initializer[:]
    g.initializer.extend(kept)
    del g.node[:]
    g.node.extend(nodes[:spans[2][0]] + copies + suffix)
    return model
