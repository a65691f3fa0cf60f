"""Runs a function's `gpu.launch` kernels on the CPU, thread by thread, and
compares what they compute with a reference function.

Usage:
  gpu-kernel-emulator.py [--seed N] [--check-order] REFERENCE KERNELS

REFERENCE and KERNELS are MLIR modules in the generic form
(`--mlir-print-op-generic`), each with one `func.func` that takes the same
memrefs and returns nothing: REFERENCE computes with `linalg.generic` ops
(`--linalg-generalize-named-ops`), KERNELS with `gpu.launch` ops and no
linalg op. Both run on the same arguments: each memref a buffer of its
own, NaN outside the view its type describes (offset, padded strides),
inside it deterministic float32 values of random sign and magnitudes from
2^-12 to 2^12, so that sums taken in another order round differently.
Afterwards every element of every buffer must hold the same bits. With
--check-order, the reference's reductions run in another order (each loop
reversed; with several reduction loops, also nested the other way round)
must change at least one output: the comparison then pins the summation
order, not only the sum.

The emulation checks what the IR means with threads and barriers, which
running a kernel's loops one after another cannot:
  * every memref access is within its view (each index within its
    dimension), and every subview within its source;
  * the threads of a block all reach the same `gpu.barrier`s in the same
    order, or all end;
  * no thread reads workgroup (shared) memory that no thread of its block
    has written in the launch;
  * no two threads access an element, one of them writing, without a
    barrier between them: in workgroup memory two threads of a block
    between the same two barriers, in global memory also two threads of
    different blocks, which nothing orders within a launch;
  * the launch fits an NVIDIA GPU: at most 1024 threads per block, the
    grid's limits, at most 48 KiB of workgroup memory per block.
It says nothing about code generation (PTX, registers), timing, or the
behaviour of a kernel under memory orderings weaker than the barriers'.

Approach. A recursive-descent parser reads the generic form: operations
with their results, operands, properties, regions, attributes and types;
attribute and type texts are kept as bracket-balanced text and decoded by
the operations that use them. The function is then translated into Python
source, a statement or two per operation, and compiled: `scf.for` becomes
a `for` loop, `scf.if` an `if`, each `gpu.launch` a generator function of
the block and thread ids that yields at every `gpu.barrier`, and a
`linalg.generic` the nest of its loops in their order. The emulator runs
each thread of a block up to its next barrier, checks that all stopped at
the same one, and starts the next interval. Integers are Python ints
modulo 2^width (unsigned representation). Every float operation is
rounded to float32 by storing it into an `array('f')`: the sum or product
of two float32 values, computed in double precision and then rounded to
float32, is the float32 sum or product. Memory is an `array('f')` per
buffer, so that buffers compare by their bits, NaN included.
"""

import argparse
import array
import bisect
import itertools
import math
import random
import re
import sys

# ---------------------------------------------------------------------------
# Parsing the generic form


class EmulationError(Exception):
    """The IR cannot be emulated, or running it broke one of the checks."""


class Operation:
    """An operation: its name, SSA names, and the raw texts of its
    attributes and types."""

    def __init__(self, name, line):
        self.name = name
        self.line = line
        self.results = []        # '%5', or '%5#0', '%5#1'... for '%5:2'
        self.operands = []       # SSA uses, '%5' or '%5#1'
        self.properties = {}     # name -> attribute text, from <{...}>
        self.attributes = {}     # name -> attribute text, from {...}
        self.regions = []        # each a Block: regions of several blocks
                                 # (unstructured control flow) are refused
        self.operand_types = []  # type texts
        self.result_types = []


class Block:
    """A region's only block."""

    def __init__(self):
        self.arguments = []      # (SSA name, type text)
        self.operations = []


OPENING = "([{<"
CLOSING = ")]}>"
SUFFIX_ID = r"(?:\d+|[A-Za-z_$.\-][\w$.\-]*)"
VALUE_ID = re.compile(r"%" + SUFFIX_ID)
RESULT_NUMBER = re.compile(r"#\d+")
BLOCK_ID = re.compile(r"\^" + SUFFIX_ID)
ALIAS_ID = re.compile(r"[#!]" + SUFFIX_ID)
BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")
INTEGER = re.compile(r"\d+")


def string_end(text, pos):
    """The position after the string literal that starts at `pos`."""
    pos += 1
    while pos < len(text) and text[pos] != '"':
        pos += 2 if text[pos] == "\\" else 1
    if pos >= len(text):
        raise EmulationError("unterminated string literal")
    return pos + 1


def balanced_end(text, pos, stops):
    """The position from `pos` on of the first character of `stops` outside
    brackets, or of the bracket that closes one opened before `pos`. String
    literals are skipped, and so is the `>` of `->` (function types and
    affine maps)."""
    depth = 0
    while pos < len(text):
        char = text[pos]
        if char == '"':
            pos = string_end(text, pos)
            continue
        if depth == 0 and char in stops:
            return pos
        elif char in OPENING:
            depth += 1
        elif char in CLOSING and not (char == ">" and text[pos - 1] == "-"):
            if depth == 0:
                return pos
            depth -= 1
        pos += 1
    return pos


def split_top_level(text):
    """The comma-separated items of `text`, commas within brackets kept."""
    items, pos = [], 0
    while pos < len(text):
        end = balanced_end(text, pos, ",")
        items.append(text[pos:end].strip())
        pos = end + 1
    return [item for item in items if item]


class Parser:
    """Reads a module in the generic form: attribute and type aliases, then
    one top-level operation (builtin.module)."""

    def __init__(self, text, filename):
        self.text = text
        self.filename = filename
        self.pos = 0
        self.aliases = {}
        self.line_ends = [found.start() for found in re.finditer("\n", text)]

    def line(self):
        return bisect.bisect_left(self.line_ends, self.pos) + 1

    def error(self, message):
        column = self.pos - self.text.rfind("\n", 0, self.pos)
        return EmulationError("%s:%d:%d: %s" % (self.filename, self.line(),
                                                column, message))

    def skip_space(self):
        while True:
            while self.pos < len(self.text) and self.text[self.pos].isspace():
                self.pos += 1
            if not self.text.startswith("//", self.pos):
                return
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end

    def at(self, literal):
        self.skip_space()
        return self.text.startswith(literal, self.pos)

    def accept(self, literal):
        if self.at(literal):
            self.pos += len(literal)
            return True
        return False

    def expect(self, literal):
        if not self.accept(literal):
            raise self.error("expected '%s'" % literal)

    def match(self, pattern, what):
        self.skip_space()
        found = pattern.match(self.text, self.pos)
        if not found:
            raise self.error("expected " + what)
        self.pos = found.end()
        return found.group(0)

    def balanced(self, stops):
        """An attribute's or a type's text, up to a character of `stops`
        outside brackets."""
        self.skip_space()
        start = self.pos
        self.pos = balanced_end(self.text, self.pos, stops)
        if self.pos == start:
            raise self.error("expected an attribute or a type")
        return self.text[start:self.pos].strip()

    def string(self):
        if not self.at('"'):
            raise self.error("expected a string")
        start, self.pos = self.pos, string_end(self.text, self.pos)
        return self.text[start + 1:self.pos - 1]

    def module(self):
        self.alias_definitions()
        operation = self.operation()
        # Location aliases (--mlir-print-debuginfo) follow the module.
        self.alias_definitions()
        if self.pos != len(self.text):
            raise self.error("expected the end of the module")
        return operation

    def alias_definitions(self):
        while self.at("#") or self.at("!"):
            name = self.match(ALIAS_ID, "an alias")
            self.expect("=")
            self.aliases[name] = self.balanced("\n")

    def operation(self):
        self.skip_space()
        line = self.line()
        results = []
        if self.at("%"):
            while True:
                name = self.match(VALUE_ID, "a result name")
                count = int(self.match(INTEGER, "a result count")) \
                    if self.accept(":") else 1
                results += [name] if count == 1 else \
                    ["%s#%d" % (name, i) for i in range(count)]
                if not self.accept(","):
                    break
            self.expect("=")
        if not self.at('"'):
            raise self.error("expected an operation in the generic form "
                             "(--mlir-print-op-generic)")
        operation = Operation(self.string(), line)
        operation.results = results
        self.expect("(")
        while not self.accept(")"):
            if operation.operands:
                self.expect(",")
            use = self.match(VALUE_ID, "an operand")
            if self.text.startswith("#", self.pos):
                use += self.match(RESULT_NUMBER, "a result number")
            operation.operands.append(use)
        if self.at("["):
            raise self.error("successors (unstructured control flow) are "
                             "not supported")
        if self.accept("<"):
            operation.properties = self.attribute_dictionary()
            self.expect(">")
        if self.accept("("):
            while not self.accept(")"):
                if operation.regions:
                    self.expect(",")
                operation.regions.append(self.region())
        if self.at("{"):
            operation.attributes = self.attribute_dictionary()
        self.expect(":")
        operation.operand_types, operation.result_types = self.function_type()
        if len(operation.operand_types) != len(operation.operands) or \
                len(operation.result_types) != len(operation.results):
            raise self.error("the type of '%s' does not match its operands "
                             "and results" % operation.name)
        self.location()
        return operation

    def location(self):
        """Skips a location, loc(...), as --mlir-print-debuginfo prints."""
        if self.accept("loc("):
            self.balanced(")")
            self.expect(")")

    def region(self):
        self.expect("{")
        block = Block()
        if self.at("^"):
            self.match(BLOCK_ID, "a block label")
            if self.accept("("):
                while not self.accept(")"):
                    if block.arguments:
                        self.expect(",")
                    name = self.match(VALUE_ID, "a block argument")
                    self.expect(":")
                    block.arguments.append((name, self.balanced(" \t\n,)")))
                    self.location()
            self.expect(":")
        while not self.accept("}"):
            if self.at("^"):
                raise self.error("regions of several blocks (unstructured "
                                 "control flow) are not supported")
            block.operations.append(self.operation())
        return block

    def attribute_dictionary(self):
        self.expect("{")
        entries = {}
        while not self.accept("}"):
            if entries:
                self.expect(",")
            name = self.string() if self.at('"') else \
                self.match(BARE_ID, "an attribute name")
            entries[name] = self.balanced(",}") if self.accept("=") else "unit"
        return entries

    def function_type(self):
        self.expect("(")
        inputs = [] if self.at(")") else split_top_level(self.balanced(")"))
        self.expect(")")
        self.expect("->")
        if self.accept("("):
            outputs = [] if self.at(")") else \
                split_top_level(self.balanced(")"))
            self.expect(")")
        else:
            outputs = [self.balanced(" \t\n,)}")]
        return inputs, outputs


# ---------------------------------------------------------------------------
# Attributes and types


def integer_attribute(text):
    """`12 : index`, `6 : i64`, `true`."""
    found = re.fullmatch(r"(-?\d+|true|false)(?:\s*:\s*\w+)?", text)
    if not found:
        raise EmulationError("expected an integer attribute, not " + text)
    value = found.group(1)
    return 1 if value == "true" else 0 if value == "false" else int(value)


def float32_attribute(text):
    """`1.500000e+00 : f32` or its bits, `0x7FC00000 : f32`, rounded to
    float32."""
    found = re.fullmatch(r"(\S+)\s*:\s*f32", text)
    if not found:
        raise EmulationError("expected an f32 attribute, not " + text)
    value = found.group(1)
    if value.startswith("0x"):
        return array.array("f", int(value, 16).to_bytes(4, "little"))[0]
    return array.array("f", [float(value)])[0]


def dense_array(text):
    """`array<i64: 0, 1>` or `array<i32>`: the list of its integers."""
    found = re.fullmatch(r"array<\w+(?::(.*))?>", text, re.S)
    if not found:
        raise EmulationError("expected a dense array, not " + text)
    return [int(item) for item in split_top_level(found.group(1) or "")]


def list_attribute(text):
    if not (text.startswith("[") and text.endswith("]")):
        raise EmulationError("expected a list attribute, not " + text)
    return split_top_level(text[1:-1])


def integer_width(type_text):
    """The bit width of `index` (64) or of an integer type `iN`."""
    if type_text == "index":
        return 64
    found = re.fullmatch(r"i(\d+)", type_text)
    if not found:
        raise EmulationError("unsupported type " + type_text)
    return int(found.group(1))


def signed(value, width):
    """An integer of the unsigned representation, read as signed."""
    return value - (1 << width) if value >> (width - 1) else value


# The sentinel of a dynamic offset, size or stride (ShapedType::kDynamic)
# in the static arrays of memref.subview.
DYNAMIC = -(1 << 63)


class MemRefType:
    """A memref type of float32 with a static shape and a strided layout:
    `memref<4x8xf32>`, `memref<4x8xf32, strided<[10, 1], offset: ?>>`,
    `memref<64x16xf32, #gpu.address_space<workgroup>>`. Strides and the
    offset are None where the type leaves them dynamic (`?`)."""

    def __init__(self, text, resolve):
        self.text = text
        if not (text.startswith("memref<") and text.endswith(">")):
            raise EmulationError("unsupported type " + text)
        parts = split_top_level(text[len("memref<"):-1])
        *sizes, element = parts[0].split("x")
        if element != "f32" or "?" in sizes:
            raise EmulationError("only memrefs of f32 with static sizes "
                                 "are supported, not " + text)
        self.shape = [int(size) for size in sizes]
        self.strides = [math.prod(self.shape[i + 1:])
                        for i in range(len(self.shape))]
        self.offset = 0
        self.workgroup = False
        for part in map(resolve, parts[1:]):
            strided = re.fullmatch(
                r"strided<\[([^\]]*)\](?:,\s*offset:\s*([?\d]+))?>", part)
            if strided:
                self.strides = [
                    None if stride == "?" else int(stride)
                    for stride in split_top_level(strided.group(1))]
                offset = strided.group(2) or "0"
                self.offset = None if offset == "?" else int(offset)
            elif part == "#gpu.address_space<workgroup>":
                self.workgroup = True
            elif part != "#gpu.address_space<global>":
                raise EmulationError("unsupported layout or memory space "
                                     "in " + text)
        if len(self.strides) != len(self.shape):
            raise EmulationError("strides do not match the rank: " + text)


class AffineMap:
    """`affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>`, its results
    translated into Python expressions of the dimensions and symbols."""

    TOKEN = re.compile(r"\s*(\d+|[A-Za-z_]\w*|[-+*()])")

    def __init__(self, text):
        found = re.fullmatch(
            r"affine_map<\(([^)]*)\)(?:\[([^\]]*)\])?\s*->\s*\((.*)\)>",
            text, re.S)
        if not found:
            raise EmulationError("expected an affine map, not " + text)
        self.text = text
        self.dimensions = split_top_level(found.group(1))
        self.symbols = split_top_level(found.group(2) or "")
        self.results = split_top_level(found.group(3))

    def result_dimension(self, position):
        """The dimension that result `position` is, if it is one alone."""
        result = self.results[position]
        return self.dimensions.index(result) \
            if result in self.dimensions else None

    def python(self, dimensions, symbols=()):
        """The results as Python expressions, each dimension and symbol
        replaced by the expression given for it."""
        names = dict(zip(self.dimensions, dimensions))
        names.update(zip(self.symbols, symbols))
        return [self.expression(result, names) for result in self.results]

    def expression(self, text, names):
        tokens = self.TOKEN.findall(text)
        if "".join(tokens) != re.sub(r"\s", "", text):
            raise EmulationError("unsupported affine expression " + text)
        position = 0

        def peek():
            return tokens[position] if position < len(tokens) else None

        def take():
            nonlocal position
            if position == len(tokens):
                raise EmulationError("incomplete affine expression " + text)
            position += 1
            return tokens[position - 1]

        def sum_():
            result = product()
            while peek() in ("+", "-"):
                result = "(%s %s %s)" % (result, take(), product())
            return result

        def product():
            result = factor()
            while peek() in ("*", "floordiv", "ceildiv", "mod"):
                operator, operand = take(), factor()
                if operator == "ceildiv":
                    result = "(-(-%s // %s))" % (result, operand)
                else:
                    # MLIR's floordiv and mod round towards minus infinity,
                    # as Python's // and % do.
                    result = "(%s %s %s)" % (
                        result, {"*": "*", "floordiv": "//", "mod": "%"}
                        [operator], operand)
            return result

        def factor():
            token = take()
            if token == "-":
                return "(-%s)" % factor()
            if token == "(":
                result = sum_()
                if take() != ")":
                    raise EmulationError("unbalanced affine expression "
                                         + text)
                return result
            if token.isdigit():
                return token
            if token not in names:
                raise EmulationError("unknown name %s in %s" % (token, text))
            return names[token]

        result = sum_()
        if peek() is not None:
            raise EmulationError("unsupported affine expression " + text)
        return result


# ---------------------------------------------------------------------------
# Memory and the emulated device


class Buffer:
    """An allocation: its float32 elements and, during a launch, who
    accessed each of them (address -> Accesses)."""

    __slots__ = ("name", "data", "workgroup", "accesses")

    def __init__(self, name, data, workgroup):
        self.name = name
        self.data = data
        self.workgroup = workgroup
        self.accesses = {}


class View:
    """A memref value: a strided view of a buffer."""

    __slots__ = ("buffer", "offset", "shape", "strides")

    def __init__(self, buffer, offset, shape, strides):
        self.buffer = buffer
        self.offset = offset
        self.shape = shape
        self.strides = strides

    def addresses(self):
        """The view's elements' addresses, in row-major order of indices."""
        for indices in itertools.product(*map(range, self.shape)):
            yield indices, self.offset + sum(
                index * stride for index, stride in zip(indices, self.strides))


# Accesses.reader where several threads read the element in the interval.
SEVERAL = -1


class Accesses:
    """The accesses to an element during a launch, summarized as much as
    the race check needs. Blocks run one after the other, so the accesses
    of the blocks before the current one are all unordered with the current
    block's: only whether they wrote and read counts. Within the current
    block, accesses before the current barrier interval are ordered before
    it by the barrier: only the interval's writer and reader count."""

    __slots__ = ("block", "interval", "writer", "reader", "block_wrote",
                 "block_read", "others_wrote", "others_read")

    def __init__(self, block, interval):
        self.others_wrote = self.others_read = False
        self.block_wrote = self.block_read = False
        self.enter_block(block, interval)

    def enter_block(self, block, interval):
        self.others_wrote = self.others_wrote or self.block_wrote
        self.others_read = self.others_read or self.block_read
        self.block = block
        self.block_wrote = self.block_read = False
        self.enter_interval(interval)

    def enter_interval(self, interval):
        self.interval = interval
        self.writer = self.reader = None


# What a device of compute capability 5.0 or later allows.
MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK = (1024, 1024, 64)
MAX_GRID = ((1 << 31) - 1, 65535, 65535)
MAX_WORKGROUP_BYTES = 48 * 1024


class Emulator:
    """Memory accesses and launches of the translated code, with the
    checks. `thread` is None on the host, else the running thread's number,
    unique within the launch: block number * threads per block + thread
    number, each numbered x fastest."""

    def __init__(self):
        self.thread = None
        self.block = 0
        self.interval = 0
        self.grid = self.block_size = (1, 1, 1)
        self.launches = self.blocks = self.threads = self.intervals = 0
        self.global_buffers = []

    # -- Memory

    def address(self, view, indices, verb):
        address = view.offset
        for index, size, stride in zip(indices, view.shape, view.strides):
            if not 0 <= index < size:
                raise EmulationError(
                    "%s%s %s at %s, outside the view of shape %s" % (
                        self.who(), verb, view.buffer.name,
                        list(map(self.signed_index, indices)), view.shape))
            address += index * stride
        return address

    def load(self, view, indices):
        address = self.address(view, indices, "loads")
        if self.thread is not None:
            self.record(view, indices, address, False)
        return view.buffer.data[address]

    def store(self, value, view, indices):
        address = self.address(view, indices, "stores")
        if self.thread is not None:
            self.record(view, indices, address, True)
        view.buffer.data[address] = value

    def record(self, view, indices, address, write):
        """Notes a thread's access and checks it against the launch's
        earlier accesses to the element."""
        buffer = view.buffer
        accesses = buffer.accesses.get(address)
        if accesses is None:
            accesses = buffer.accesses[address] = \
                Accesses(self.block, self.interval)
        elif accesses.block != self.block:
            accesses.enter_block(self.block, self.interval)
        elif accesses.interval != self.interval:
            accesses.enter_interval(self.interval)
        thread = self.thread
        if write:
            if accesses.others_wrote or accesses.others_read:
                other = "a thread of another block"
            elif accesses.writer not in (None, thread):
                other = self.thread_name(accesses.writer)
            elif accesses.reader not in (None, thread):
                other = self.thread_name(accesses.reader)
            else:
                other = None
            accesses.writer = thread
            accesses.block_wrote = True
        else:
            if buffer.workgroup and not accesses.block_wrote:
                raise EmulationError(
                    "%sreads %s at %s, which no thread of its block has "
                    "written"
                    % (self.who(), buffer.name, list(indices)))
            if accesses.others_wrote:
                other = "a thread of another block"
            elif accesses.writer not in (None, thread):
                other = self.thread_name(accesses.writer)
            else:
                other = None
            accesses.reader = thread \
                if accesses.reader in (None, thread) else SEVERAL
            accesses.block_read = True
        if other is not None:
            raise EmulationError(
                "race: %s%s %s at %s, which %s also accesses (one of them "
                "writing) with no barrier between them" % (
                    self.who(), "writes" if write else "reads", buffer.name,
                    list(indices), other))

    def subview(self, source, offsets, sizes, strides, result):
        """memref.subview: the view, rank-reduced to the result type by
        dropping unit dimensions (which dimension of size 1 goes does not
        change an address: its index is always 0)."""
        for dimension, (offset, size, stride) in enumerate(
                zip(offsets, sizes, strides)):
            if size and not (0 <= offset and
                             offset + (size - 1) * stride
                             < source.shape[dimension]):
                raise EmulationError(
                    "%ssubview offsets %s sizes %s strides %s outside its "
                    "source of shape %s" % (self.who(), offsets, sizes,
                                            strides, source.shape))
        offset = source.offset + sum(
            offset * stride for offset, stride in zip(offsets, source.strides))
        shape, view_strides = [], []
        for size, stride, source_stride in zip(sizes, strides, source.strides):
            kept = len(shape)
            if kept < len(result.shape) and size == result.shape[kept] and \
                    result.strides[kept] in (None, stride * source_stride):
                shape.append(size)
                view_strides.append(stride * source_stride)
            elif size != 1:
                raise EmulationError("subview sizes %s do not reduce to "
                                     "%s" % (sizes, result.text))
        if shape != result.shape or result.offset not in (None, offset):
            raise EmulationError("subview of offset %d, shape %s, strides %s "
                                 "is not of type %s" % (offset, shape,
                                                        view_strides,
                                                        result.text))
        return View(source.buffer, offset, shape, view_strides)

    # -- Launches

    def launch(self, kernel, grid, block_size, workgroup_types):
        """Runs `kernel` (a generator function of the block and thread ids,
        sizes and workgroup buffers) on a grid of blocks, the threads of a
        block up to each barrier in turn."""
        if self.thread is not None:
            raise EmulationError(self.who() + "launches a kernel")
        grid, block_size = tuple(grid), tuple(block_size)
        threads_per_block = math.prod(block_size)
        workgroup_bytes = 4 * sum(math.prod(memref.shape)
                                  for memref in workgroup_types)
        if not (all(1 <= size <= limit for size, limit in zip(grid, MAX_GRID))
                and all(1 <= size <= limit
                        for size, limit in zip(block_size, MAX_BLOCK))
                and threads_per_block <= MAX_THREADS_PER_BLOCK
                and workgroup_bytes <= MAX_WORKGROUP_BYTES):
            raise EmulationError(
                "launch of grid %s, blocks %s, %d bytes of workgroup memory: "
                "beyond the device's limits" % (grid, block_size,
                                                workgroup_bytes))
        self.grid, self.block_size = grid, block_size
        self.launches += 1
        for block, (block_z, block_y, block_x) in enumerate(
                itertools.product(*map(range, reversed(grid)))):
            workgroup = [
                View(Buffer("workgroup buffer %d" % number,
                            array.array("f", [0.0]) * math.prod(memref.shape),
                            True), 0, memref.shape, memref.strides)
                for number, memref in enumerate(workgroup_types)]
            threads = [kernel(block_x, block_y, block_z, x, y, z, *grid,
                              *block_size, *workgroup)
                       for z, y, x in itertools.product(
                           *map(range, reversed(block_size)))]
            self.block, self.interval = block, 0
            while True:
                stops = []
                for number, thread in enumerate(threads):
                    self.thread = block * threads_per_block + number
                    stops.append(next(thread, None))
                self.check_same_barrier(stops)
                self.interval += 1
                if stops[0] is None:
                    break
            self.blocks += 1
            self.threads += threads_per_block
            self.intervals += self.interval
        self.thread = None
        for buffer in self.global_buffers:
            buffer.accesses.clear()

    def check_same_barrier(self, stops):
        """The threads of a block, each stopped at a barrier (its line) or
        ended (None), must all have stopped at the same place."""
        for number, stop in enumerate(stops):
            if stop != stops[0]:
                raise EmulationError(
                    "the threads of a block diverge at a barrier: %s %s, "
                    "%s %s" % (
                        self.thread_name(self.block * len(stops)),
                        describe_stop(stops[0]),
                        self.thread_name(self.block * len(stops) + number),
                        describe_stop(stop)))

    # -- Messages

    def thread_name(self, thread):
        threads_per_block = math.prod(self.block_size)
        block, number = divmod(thread, threads_per_block)
        return "thread %s of block %s" % (
            self.coordinates(number, self.block_size),
            self.coordinates(block, self.grid))

    @staticmethod
    def coordinates(number, sizes):
        x, rest = number % sizes[0], number // sizes[0]
        return (x, rest % sizes[1], rest // sizes[1])

    def who(self):
        if self.thread is None:
            return ""
        return self.thread_name(self.thread) + " "

    @staticmethod
    def signed_index(index):
        return signed(index, 64) if index >= 0 else index


def describe_stop(line):
    return "ended" if line is None else \
        "waits at the gpu.barrier of line %d" % line


def loop_range(lower, upper, step, width, unsigned):
    """The induction variable's values of an scf.for, in the unsigned
    representation; the bounds compare as signed integers unless the loop
    says `unsignedCmp`."""
    if not unsigned:
        lower, upper, step = (signed(value, width)
                              for value in (lower, upper, step))
    if step <= 0:
        raise EmulationError("scf.for with step %d: the step must be "
                             "positive" % step)
    if lower >= 0:
        return range(lower, upper, step)
    mask = (1 << width) - 1
    return [value & mask for value in range(lower, upper, step)]


# ---------------------------------------------------------------------------
# Translation into Python


INTEGER_BINARY = {
    "arith.addi": "({0} + {1}) & {mask}",
    "arith.subi": "({0} - {1}) & {mask}",
    "arith.muli": "({0} * {1}) & {mask}",
    "arith.divui": "{0} // {1}",
    "arith.remui": "{0} % {1}",
    "arith.minui": "min({0}, {1})",
    "arith.maxui": "max({0}, {1})",
    "arith.andi": "{0} & {1}",
    "arith.ori": "{0} | {1}",
    "arith.xori": "{0} ^ {1}",
}

FLOAT_BINARY = {"arith.addf": "+", "arith.subf": "-", "arith.mulf": "*"}

# arith.cmpi's predicates: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge.
COMPARISONS = ["==", "!=", "<", "<=", ">", ">=", "<", "<=", ">", ">="]
SIGNED_PREDICATES = range(2, 6)

# The orders in which the reference can run a linalg.generic's reduction
# loops: the op's own, each loop reversed, or nested the other way round.
REDUCTION_ORDERS = ("in order", "each reversed", "nested in reverse")


class Translator:
    """Translates a func.func into the source of a Python function of its
    memref arguments (Views). A `reference` computes with linalg.generic
    ops, run as the nest of their loops with the reductions in
    `reduction_order`, and launches nothing; other functions have no
    linalg ops."""

    def __init__(self, aliases, reference, reduction_order="in order"):
        self.aliases = aliases
        self.reference = reference
        self.reduction_order = reduction_order
        self.lines = []           # (Python line, IR line)
        self.indent = 0
        self.scopes = [{}]
        self.names = 0
        self.types = []           # MemRefTypes the code refers to
        self.yield_targets = []   # what an scf.yield or linalg.yield does
        self.in_kernel = False
        self.ir_line = 0
        self.most_reductions = 0  # in one linalg.generic

    def resolve(self, text):
        while text in self.aliases:
            text = self.aliases[text]
        return text

    def memref_type(self, text):
        return MemRefType(self.resolve(text), self.resolve)

    # -- Names and emission

    def emit(self, code):
        self.lines.append(("    " * self.indent + code, self.ir_line))

    def fresh(self, prefix="v"):
        self.names += 1
        return "%s%d" % (prefix, self.names)

    def define(self, ssa_name, python_name=None):
        python_name = python_name or self.fresh()
        self.scopes[-1][ssa_name] = python_name
        return python_name

    def use(self, ssa_name):
        for scope in reversed(self.scopes):
            if ssa_name in scope:
                return scope[ssa_name]
        raise EmulationError("%s is not defined" % ssa_name)

    def type_constant(self, memref):
        self.types.append(memref)
        return "_types[%d]" % (len(self.types) - 1)

    def block(self, block, bindings, yield_target=None):
        """Translates a region's block at the current indentation, its
        arguments bound to Python names; `yield_target` translates the
        values of its terminating scf.yield or linalg.yield."""
        self.scopes.append({})
        self.yield_targets.append(yield_target)
        for (name, _), python_name in zip(block.arguments, bindings):
            self.define(name, python_name)
        start = len(self.lines)
        for operation in block.operations:
            self.operation(operation)
        if len(self.lines) == start:
            self.emit("pass")
        self.yield_targets.pop()
        self.scopes.pop()

    def nested(self, block, bindings, yield_target=None):
        """Translates a block one indentation level deeper."""
        self.indent += 1
        self.block(block, bindings, yield_target)
        self.indent -= 1

    # -- Operations

    def function(self, function):
        """The Python source of `function` (a func.func), its argument
        types, and the translated code's line -> IR line table."""
        self.ir_line = function.line
        block = function.regions[0]
        parameters = [self.fresh("argument") for _ in block.arguments]
        self.emit("def emulated(%s):" % ", ".join(parameters))
        try:
            types = [self.memref_type(memref) for _, memref in block.arguments]
            self.nested(block, parameters)
        except EmulationError as error:
            raise EmulationError("%d: %s" % (self.ir_line, error)) from None
        source = "\n".join(code for code, _ in self.lines) + "\n"
        return source, types, [line for _, line in self.lines]

    def operation(self, operation):
        self.ir_line = operation.line
        name = operation.name
        if name in INTEGER_BINARY:
            mask = (1 << integer_width(operation.result_types[0])) - 1
            self.emit("%s = %s" % (
                self.define(operation.results[0]),
                INTEGER_BINARY[name].format(
                    *map(self.use, operation.operands), mask=mask)))
        elif name in FLOAT_BINARY:
            self.check_float32(operation)
            self.emit("_f32[0] = %s %s %s" % (
                self.use(operation.operands[0]), FLOAT_BINARY[name],
                self.use(operation.operands[1])))
            self.emit("%s = _f32[0]" % self.define(operation.results[0]))
        else:
            forbidden = "gpu" if self.reference else "linalg"
            if name.startswith(forbidden + "."):
                raise EmulationError("'%s' in the %s function, which may "
                                     "have no %s op" % (
                                         name, "reference" if self.reference
                                         else "kernels'", forbidden))
            handler = getattr(self, "op_" + name.replace(".", "_"), None)
            if handler is None:
                raise EmulationError("unsupported operation '%s'" % name)
            handler(operation)

    def check_float32(self, operation):
        if set(operation.operand_types + operation.result_types) != {"f32"}:
            raise EmulationError("only f32 arithmetic is supported")

    def op_arith_constant(self, operation):
        value, type_text = operation.properties["value"], \
            operation.result_types[0]
        result = self.define(operation.results[0])
        if type_text == "f32":
            self.emit("%s = float.fromhex(%r)" % (
                result, float32_attribute(value).hex()))
        else:
            mask = (1 << integer_width(type_text)) - 1
            self.emit("%s = %d" % (result, integer_attribute(value) & mask))

    def op_arith_cmpi(self, operation):
        predicate = integer_attribute(operation.properties["predicate"])
        left, right = map(self.use, operation.operands)
        if predicate in SIGNED_PREDICATES:
            width = integer_width(operation.operand_types[0])
            left, right = ("_signed(%s, %d)" % (value, width)
                           for value in (left, right))
        self.emit("%s = %s %s %s" % (self.define(operation.results[0]), left,
                                     COMPARISONS[predicate], right))

    def op_arith_select(self, operation):
        condition, if_true, if_false = map(self.use, operation.operands)
        self.emit("%s = %s if %s else %s" % (
            self.define(operation.results[0]), if_true, condition, if_false))

    def op_memref_load(self, operation):
        view, *indices = map(self.use, operation.operands)
        self.check_rank(operation, operation.operand_types[0], indices)
        self.emit("%s = _load(%s, (%s))" % (self.define(operation.results[0]),
                                            view, self.tuple(indices)))

    def op_memref_store(self, operation):
        value, view, *indices = map(self.use, operation.operands)
        self.check_rank(operation, operation.operand_types[1], indices)
        self.emit("_store(%s, %s, (%s))" % (value, view, self.tuple(indices)))

    def check_rank(self, operation, type_text, indices):
        if len(self.memref_type(type_text).shape) != len(indices):
            raise EmulationError("%d indices into %s" % (len(indices),
                                                         type_text))

    @staticmethod
    def tuple(items):
        return "".join(item + ", " for item in items)

    def op_memref_subview(self, operation):
        segments = dense_array(operation.properties["operandSegmentSizes"])
        source, *dynamic = map(self.use, operation.operands)
        dynamic = iter(dynamic)
        lists = []
        for key in ("static_offsets", "static_sizes", "static_strides"):
            lists.append(self.tuple(
                next(dynamic) if value == DYNAMIC else str(value)
                for value in dense_array(operation.properties[key])))
        if segments[0] != 1 or next(dynamic, None) is not None:
            raise EmulationError("malformed memref.subview")
        result_type = self.type_constant(
            self.memref_type(operation.result_types[0]))
        self.emit("%s = _subview(%s, (%s), (%s), (%s), %s)" % (
            self.define(operation.results[0]), source, *lists, result_type))

    def op_scf_for(self, operation):
        lower, upper, step, *initial = map(self.use, operation.operands)
        width = integer_width(operation.operand_types[0])
        unsigned = "unsignedCmp" in operation.properties
        carried = [self.fresh() for _ in initial]
        if carried:
            self.emit("%s = %s" % (", ".join(carried), ", ".join(initial)))
        induction = self.fresh()
        self.emit("for %s in _loop_range(%s, %s, %s, %d, %s):" % (
            induction, lower, upper, step, width, unsigned))
        self.nested(operation.regions[0], [induction] + carried,
                    lambda values: self.assign(carried, values))
        for result, python_name in zip(operation.results, carried):
            self.define(result, python_name)

    def op_scf_if(self, operation):
        has_else = len(operation.regions) > 1 and \
            operation.regions[1].operations
        if operation.results and not has_else:
            raise EmulationError("scf.if with results and no else")
        results = [self.define(result) for result in operation.results]
        self.emit("if %s:" % self.use(operation.operands[0]))
        self.nested(operation.regions[0], [],
                    lambda values: self.assign(results, values))
        if has_else:
            self.emit("else:")
            self.nested(operation.regions[1], [],
                        lambda values: self.assign(results, values))

    def assign(self, targets, values):
        if len(targets) != len(values):
            raise EmulationError("%d values yielded to %d results"
                                 % (len(values), len(targets)))
        if targets:
            self.emit("%s = %s" % (", ".join(targets), ", ".join(values)))

    def op_scf_yield(self, operation):
        if self.yield_targets[-1] is None:
            raise EmulationError("%s outside the op it should end"
                                 % operation.name)
        self.yield_targets[-1](list(map(self.use, operation.operands)))

    def op_affine_apply(self, operation):
        affine_map = AffineMap(self.resolve(operation.properties["map"]))
        operands = ["_signed(%s, 64)" % self.use(operand)
                    for operand in operation.operands]
        dimensions = len(affine_map.dimensions)
        if len(operands) != dimensions + len(affine_map.symbols) or \
                len(affine_map.results) != 1:
            raise EmulationError("malformed affine.apply")
        self.emit("%s = %s & %d" % (
            self.define(operation.results[0]),
            affine_map.python(operands[:dimensions], operands[dimensions:])[0],
            (1 << 64) - 1))

    def op_gpu_launch(self, operation):
        if self.in_kernel:
            raise EmulationError("gpu.launch within a kernel")
        segments = dense_array(operation.properties["operandSegmentSizes"])
        if segments[0] or segments[1:7] != [1] * 6 or any(segments[7:]):
            raise EmulationError("gpu.launch with async dependencies, "
                                 "clusters or dynamic shared memory is not "
                                 "supported")
        sizes = list(map(self.use, operation.operands))
        block = operation.regions[0]
        workgroup_count = integer_attribute(
            operation.attributes.get("workgroup_attributions", "0"))
        if len(block.arguments) != 12 + workgroup_count:
            raise EmulationError("private attributions are not supported")
        workgroup_types = [
            self.memref_type(memref) for _, memref in block.arguments[12:]]
        if not all(memref.workgroup for memref in workgroup_types):
            raise EmulationError("workgroup attributions must be in the "
                                 "workgroup memory space")
        parameters = [self.fresh("id") for _ in range(12)] + \
            [self.fresh("workgroup") for _ in workgroup_types]
        kernel = self.fresh("kernel")
        self.emit("def %s(%s):" % (kernel, ", ".join(parameters)))
        self.indent += 1
        self.emit("yield from ()  # a generator even without barriers")
        self.in_kernel = True
        self.block(block, parameters)
        self.in_kernel = False
        self.indent -= 1
        self.ir_line = operation.line
        self.emit("_launch(%s, (%s), (%s), (%s))" % (
            kernel, ", ".join(sizes[:3]), ", ".join(sizes[3:6]),
            self.tuple(map(self.type_constant, workgroup_types))))

    def op_gpu_barrier(self, operation):
        if not self.in_kernel:
            raise EmulationError("gpu.barrier outside a kernel")
        self.emit("yield %d" % operation.line)

    def op_gpu_terminator(self, operation):
        self.emit("return")

    def op_func_return(self, operation):
        if operation.operands:
            raise EmulationError("the function must return nothing")
        self.emit("return")

    def op_linalg_generic(self, operation):
        """The op's loops, in its order, around its body: the body's
        arguments loaded from the operands, linalg.yield storing into the
        outputs."""
        inputs, outputs = dense_array(
            operation.properties["operandSegmentSizes"])
        views = list(map(self.use, operation.operands))
        types = [self.memref_type(memref)
                 for memref in operation.operand_types]
        maps = [AffineMap(self.resolve(text)) for text in
                list_attribute(operation.properties["indexing_maps"])]
        iterators = [self.resolve(text) for text in
                     list_attribute(operation.properties["iterator_types"])]
        if inputs + outputs != len(views) or len(maps) != len(views):
            raise EmulationError("malformed linalg.generic")
        sizes = []
        for loop in range(len(iterators)):
            size = next((memref.shape[position]
                         for memref, indexing in zip(types, maps)
                         for position in range(len(indexing.results))
                         if indexing.result_dimension(position) == loop), None)
            if size is None:
                raise EmulationError("no operand dimension gives the size "
                                     "of loop %d" % loop)
            sizes.append(size)
        order = list(range(len(iterators)))
        reductions = [loop for loop in order if
                      iterators[loop] == "#linalg.iterator_type<reduction>"]
        self.most_reductions = max(self.most_reductions, len(reductions))
        if self.reduction_order == "nested in reverse":
            for position, loop in zip(reductions, reversed(reductions)):
                order[position] = loop
        variables = [self.fresh("loop") for _ in iterators]
        for loop in order:
            backwards = self.reduction_order == "each reversed" and \
                loop in reductions
            self.emit("for %s in range(%s):" % (
                variables[loop], "%d - 1, -1, -1" % sizes[loop]
                if backwards else sizes[loop]))
            self.indent += 1
        indices = [self.tuple(indexing.python(variables)) for indexing in maps]
        arguments = [self.fresh() for _ in views]
        for argument, view, index in zip(arguments, views, indices):
            self.emit("%s = _load(%s, (%s))" % (argument, view, index))

        def store(values):
            for value, view, index in zip(values, views[inputs:],
                                          indices[inputs:]):
                self.emit("_store(%s, %s, (%s))" % (value, view, index))
        self.block(operation.regions[0], arguments, store)
        self.indent -= len(order)

    def op_linalg_yield(self, operation):
        self.op_scf_yield(operation)


# ---------------------------------------------------------------------------
# Running and comparing


class Program:
    """The one func.func of a module in the generic form, translated."""

    def __init__(self, path, reference, reduction_order="in order"):
        with open(path) as file:
            parser = Parser(file.read(), path)
        module = parser.module()
        functions = [operation for region in module.regions
                     for operation in region.operations
                     if operation.name == "func.func"]
        if module.name != "builtin.module" or len(functions) != 1:
            raise EmulationError("%s: expected a module of one func.func"
                                 % path)
        self.path = path
        self.name = functions[0].properties["sym_name"].strip('"')
        translator = Translator(parser.aliases, reference, reduction_order)
        try:
            source, self.argument_types, self.ir_lines = \
                translator.function(functions[0])
        except EmulationError as error:
            raise EmulationError("%s:%s" % (path, error)) from None
        self.types = translator.types
        self.most_reductions = translator.most_reductions
        self.code = compile(source, "<translated %s>" % path, "exec")

    def run(self, arguments):
        """Runs the function on `arguments` (Views); returns the Emulator,
        with its counts of launches, blocks, threads, barrier intervals."""
        emulator = Emulator()
        emulator.global_buffers = [view.buffer for view in arguments]
        namespace = {
            "_load": emulator.load, "_store": emulator.store,
            "_subview": emulator.subview, "_launch": emulator.launch,
            "_loop_range": loop_range, "_signed": signed,
            "_f32": array.array("f", [0.0]), "_types": self.types,
        }
        exec(self.code, namespace)
        try:
            namespace["emulated"](*arguments)
        except (EmulationError, ArithmeticError) as error:
            raise EmulationError("%s:%d: %s" % (
                self.path, self.failing_line(error.__traceback__),
                error)) from None
        return emulator

    def failing_line(self, traceback):
        """The IR line of the innermost translated code in `traceback`."""
        line = 0
        while traceback is not None:
            if traceback.tb_frame.f_code.co_filename == self.code.co_filename:
                line = self.ir_lines[traceback.tb_lineno - 1]
            traceback = traceback.tb_next
        return line


def make_arguments(types, seed):
    """A buffer per memref argument: NaN outside the view, inside it values
    of random sign and magnitudes in [2^-12, 2^12), rounded to float32."""
    generator = random.Random(seed)
    arguments = []
    for number, memref in enumerate(types):
        if memref.offset is None or None in memref.strides:
            raise EmulationError("argument %d has a dynamic layout: %s"
                                 % (number, memref.text))
        size = memref.offset + 1 + sum((size - 1) * stride for size, stride
                                       in zip(memref.shape, memref.strides))
        buffer = Buffer("argument %d" % number,
                        array.array("f", [math.nan]) * size, False)
        view = View(buffer, memref.offset, memref.shape, memref.strides)
        for _, address in view.addresses():
            buffer.data[address] = generator.choice((-1.0, 1.0)) * \
                (1.0 + generator.random()) * 2.0 ** generator.randint(-12, 11)
        arguments.append(view)
    return arguments


def copy_arguments(arguments):
    return [View(Buffer(view.buffer.name, array.array("f", view.buffer.data),
                        False), view.offset, view.shape, view.strides)
            for view in arguments]


def differences(expected, actual):
    """The elements whose bits differ: (argument number, address) pairs."""
    found = []
    for number, (left, right) in enumerate(zip(expected, actual)):
        left_bits = array.array("I", left.buffer.data.tobytes())
        right_bits = array.array("I", right.buffer.data.tobytes())
        found += [(number, address) for address, (a, b)
                  in enumerate(zip(left_bits, right_bits)) if a != b]
    return found


def describe(arguments, number, address):
    """Where an element is: its indices in its argument's view, if in it."""
    view = arguments[number]
    where = next((list(indices) for indices, element in view.addresses()
                  if element == address), "outside the view")
    return "argument %d %s (address %d)" % (number, where, address)


def check(reference_path, kernels_path, seed, check_order):
    """Runs both functions on the same arguments and compares; prints what
    ran and what was compared, or raises an EmulationError."""
    reference = Program(reference_path, reference=True)
    kernels = Program(kernels_path, reference=False)
    if [memref.text for memref in reference.argument_types] != \
            [memref.text for memref in kernels.argument_types]:
        raise EmulationError("the two functions take different arguments")
    inputs = make_arguments(reference.argument_types, seed)
    expected = copy_arguments(inputs)
    reference.run(expected)
    changed = len(differences(inputs, expected))
    if not changed:
        raise EmulationError("the reference changes no element")
    actual = copy_arguments(inputs)
    emulator = kernels.run(actual)
    if not emulator.launches:
        raise EmulationError("the kernels' function launches nothing")
    wrong = differences(expected, actual)
    if wrong:
        raise EmulationError("%d elements differ from the reference's: %s" % (
            len(wrong), "; ".join(
                "%s is %r, not %r" % (describe(actual, number, address),
                                      actual[number].buffer.data[address],
                                      expected[number].buffer.data[address])
                for number, address in wrong[:5])))
    print("%s: %d launches, %d blocks, %d threads, %d barrier intervals" % (
        kernels.name, emulator.launches, emulator.blocks, emulator.threads,
        emulator.intervals))
    print("%s: all %d elements bit-identical to the reference's, %d of them "
          "changed" % (kernels.name, sum(len(view.buffer.data)
                                         for view in inputs), changed))
    if not check_order:
        return
    orders = REDUCTION_ORDERS[1:] if reference.most_reductions > 1 else \
        REDUCTION_ORDERS[1:2]
    for order in orders:
        other = copy_arguments(inputs)
        Program(reference_path, reference=True,
                reduction_order=order).run(other)
        differing = len(differences(expected, other))
        if not differing:
            raise EmulationError("the reference's reductions %s give the "
                                 "same outputs: the comparison would not "
                                 "tell the summation order" % order)
        print("%s: with the reductions %s, %d outputs differ" % (
            kernels.name, order, differing))


def main():
    options = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("reference", help="the function with linalg.generic "
                         "ops, in the generic form")
    options.add_argument("kernels", help="the function with gpu.launch ops, "
                         "in the generic form")
    options.add_argument("--seed", type=int, default=1,
                         help="seed of the arguments' values")
    options.add_argument("--check-order", action="store_true",
                         help="require that the reference's reductions "
                         "summed in another order change an output")
    arguments = options.parse_args()
    try:
        check(arguments.reference, arguments.kernels, arguments.seed,
              arguments.check_order)
    except EmulationError as error:
        print("error: %s" % error, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
