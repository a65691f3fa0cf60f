//===- IndexingOperators.cpp - Gather, Slice, Split, Expand, Trilu --------===//
//
// The operators that select parts of a tensor. Indices, bounds and shapes
// are compile-time constants, except the indices of an embedding lookup
// (Gather of a table's rows by token ids), which are an integer input.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

using onnx::NodeProto;

namespace {

/// The position of `index` on an axis of `size` (negative counts from the
/// end), or failure when it is outside.
FailureOr<int64_t> indexOnAxis(Importer &im, int64_t index, int64_t size) {
  int64_t i = index < 0 ? index + size : index;
  if (i < 0 || i >= size)
    return im.error() << "index " << index << " is outside an axis of "
                      << size;
  return i;
}

/// Gather on a compile-time integer tensor: shape arithmetic
/// (Shape -> Gather -> Unsqueeze -> Concat -> Reshape).
LogicalResult gatherInts(Importer &im, const NodeProto &node,
                         const IntConstant &data) {
  const IntConstant *indices = im.intConstant(node.input(1));
  if (!indices)
    return im.error() << "indices into a compile-time integer tensor must "
                         "be compile-time constants";
  int64_t rank = data.dims.size();
  FailureOr<int64_t> axisOr = axisAttr(im, node, "axis", 0, rank);
  if (failed(axisOr))
    return failure();
  int64_t axis = *axisOr;
  ArrayRef<int64_t> dims = data.dims;
  int64_t outer = numElements(dims.take_front(axis)), size = dims[axis];
  int64_t inner = numElements(dims.drop_front(axis + 1));
  SmallVector<int64_t> values;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t index : indices->values) {
      FailureOr<int64_t> i = indexOnAxis(im, index, size);
      if (failed(i))
        return failure();
      for (int64_t k = 0; k < inner; ++k)
        values.push_back(data.values[(o * size + *i) * inner + k]);
    }
  SmallVector<int64_t> outDims(dims.take_front(axis));
  outDims.append(indices->dims.begin(), indices->dims.end());
  outDims.append(dims.begin() + axis + 1, dims.end());
  im.defineInts(node.output(0), values, ArrayRef<int64_t>(outDims));
  return success();
}

/// The first input of an op that works along one axis, and that axis (the
/// `axis` attribute, 0 by default), checked against its rank.
struct AxisOperand {
  Value value;
  int64_t axis;
};

FailureOr<AxisOperand> axisOperand(Importer &im, const NodeProto &node) {
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  FailureOr<int64_t> axis =
      axisAttr(im, node, "axis", 0, static_cast<int64_t>(shapeOf(*x).size()));
  if (failed(axis))
    return failure();
  return AxisOperand{*x, *axis};
}

LogicalResult importGather(Importer &im, const NodeProto &node) {
  if (const IntConstant *data = im.intConstant(node.input(0))) {
    IntConstant copy = *data;
    return gatherInts(im, node, copy);
  }
  TosaBuilder &tb = im.tosa();
  FailureOr<AxisOperand> operand = axisOperand(im, node);
  if (failed(operand))
    return failure();
  Value x = operand->value;
  SmallVector<int64_t> dims(shapeOf(x));
  int64_t rank = dims.size(), axis = operand->axis;
  int64_t outer = numElements(ArrayRef<int64_t>(dims).take_front(axis));
  int64_t size = dims[axis];
  int64_t inner = numElements(ArrayRef<int64_t>(dims).drop_front(axis + 1));
  SmallVector<int64_t> indexDims;
  Value y;
  if (const IntConstant *indices = im.intConstant(node.input(1))) {
    // Constant indices (a class token, x[:, 0], positions 0..T-1): slices
    // of the axis, one per run of consecutive indices.
    if (indices->values.empty())
      return im.error() << "no indices: empty tensors are not supported";
    SmallVector<Value> parts;
    SmallVector<int64_t> start(rank, 0), sizes(dims);
    sizes[axis] = 0;
    auto flush = [&] {
      if (sizes[axis])
        parts.push_back(tb.slice(x, start, sizes));
    };
    for (int64_t index : indices->values) {
      FailureOr<int64_t> i = indexOnAxis(im, index, size);
      if (failed(i))
        return failure();
      if (sizes[axis] && *i == start[axis] + sizes[axis]) {
        ++sizes[axis];
        continue;
      }
      flush();
      start[axis] = *i;
      sizes[axis] = 1;
    }
    flush();
    y = parts.size() == 1 ? parts.front() : tb.concat(parts, axis);
    indexDims = indices->dims;
  } else {
    // Indices only known at run time (token ids): rows of a table.
    FailureOr<Value> ids = im.logical(node.input(1));
    if (failed(ids))
      return failure();
    if (!cast<RankedTensorType>(ids->getType()).getElementType().isInteger(32))
      return im.error() << "indices '" << node.input(1)
                        << "' must be an integer input";
    if (outer != 1)
      return im.error() << "indices known only at run time select along "
                           "the first axis only";
    indexDims.assign(shapeOf(*ids).begin(), shapeOf(*ids).end());
    int64_t count = numElements(indexDims);
    // TOSA leaves an out-of-range index undefined (the lowering would read
    // out of bounds), so ids are clamped to the table: an id past either
    // end reads the nearest row, and its gradient goes to that row.
    OpBuilder &b = tb.builder();
    Value flat = tb.reshape(*ids, {1, count});
    Value clamped = tosa::ClampOp::create(
        b, tb.getLoc(), flat.getType(), flat, b.getI32IntegerAttr(0),
        b.getI32IntegerAttr(static_cast<int32_t>(size - 1)));
    y = tb.gather(tb.reshape(x, {1, size, inner}), clamped);
  }
  SmallVector<int64_t> outDims(ArrayRef<int64_t>(dims).take_front(axis));
  outDims.append(indexDims.begin(), indexDims.end());
  outDims.append(dims.begin() + axis + 1, dims.end());
  im.define(node.output(0), tb.reshape(y, outDims));
  return success();
}

/// The begin and size of each axis a Slice node cuts (ONNX clamps its
/// bounds to the axis); steps other than 1 are refused.
FailureOr<std::pair<SmallVector<int64_t>, SmallVector<int64_t>>>
sliceBounds(Importer &im, const NodeProto &node, ArrayRef<int64_t> dims) {
  int64_t rank = dims.size();
  std::optional<SmallVector<int64_t>> starts, ends, axes, steps;
  if (im.opset() < 10) {
    starts = intsAttr(node, "starts");
    ends = intsAttr(node, "ends");
    axes = intsAttr(node, "axes");
  } else {
    if (node.input_size() < 3)
      return im.error() << "expected the starts and ends inputs";
    starts = im.constantInts(node.input(1));
    ends = im.constantInts(node.input(2));
    axes = Importer::hasInput(node, 3) ? im.constantInts(node.input(3))
                                       : SmallVector<int64_t>();
    steps = Importer::hasInput(node, 4) ? im.constantInts(node.input(4))
                                        : SmallVector<int64_t>();
    if (!steps)
      return im.error() << "steps must be compile-time constants";
  }
  if (!starts || !ends || !axes)
    return im.error() << "starts, ends and axes must be compile-time "
                         "constants";
  if (axes->empty())
    for (int64_t d = 0, e = starts->size(); d < e; ++d)
      axes->push_back(d);
  if (starts->size() != ends->size() || starts->size() != axes->size() ||
      (steps && !steps->empty() && steps->size() != starts->size()))
    return im.error() << "starts, ends, axes and steps differ in length";
  if (steps && llvm::any_of(*steps, [](int64_t s) { return s != 1; }))
    return im.error() << "only steps of 1 are supported";
  for (int64_t &a : *axes)
    a = normalizeAxis(a, rank);
  if (failed(checkAxes(im, *axes, rank)))
    return failure();
  SmallVector<int64_t> begin(rank, 0), size(dims);
  for (auto [a, s, e] : llvm::zip(*axes, *starts, *ends)) {
    int64_t dim = dims[a];
    auto clampBound = [dim](int64_t b) {
      return std::clamp<int64_t>(b < 0 ? b + dim : b, 0, dim);
    };
    begin[a] = clampBound(s);
    size[a] = clampBound(e) - begin[a];
    if (size[a] <= 0)
      return im.error() << "the slice of axis " << a
                        << " is empty: empty tensors are not supported";
  }
  return std::make_pair(begin, size);
}

LogicalResult importSlice(Importer &im, const NodeProto &node) {
  if (const IntConstant *c = im.intConstant(node.input(0))) {
    IntConstant data = *c;
    if (data.dims.size() != 1)
      return im.error() << "only 1-D integer tensors are sliced at import";
    auto bounds = sliceBounds(im, node, data.dims);
    if (failed(bounds))
      return failure();
    int64_t begin = bounds->first[0], size = bounds->second[0];
    im.defineInts(node.output(0),
                  ArrayRef<int64_t>(data.values).slice(begin, size));
    return success();
  }
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  auto bounds = sliceBounds(im, node, shapeOf(*x));
  if (failed(bounds))
    return failure();
  im.define(node.output(0),
            im.tosa().slice(*x, bounds->first, bounds->second));
  return success();
}

LogicalResult importSplit(Importer &im, const NodeProto &node) {
  FailureOr<AxisOperand> operand = axisOperand(im, node);
  if (failed(operand))
    return failure();
  Value x = operand->value;
  SmallVector<int64_t> dims(shapeOf(x));
  int64_t rank = dims.size(), axis = operand->axis;
  int64_t parts = node.output_size();
  SmallVector<int64_t> sizes;
  if (im.opset() >= 13 && Importer::hasInput(node, 1)) {
    std::optional<SmallVector<int64_t>> v = im.constantInts(node.input(1));
    if (!v)
      return im.error() << "the split sizes must be compile-time constants";
    sizes = *v;
  } else if (im.opset() < 13) {
    sizes = intsAttr(node, "split");
  }
  if (sizes.empty()) {
    // Equal parts; from opset 18 a last smaller one (ceil division).
    int64_t n = im.opset() >= 18 ? intAttr(node, "num_outputs", parts) : parts;
    if (n != parts)
      return im.error() << "num_outputs is " << n << " but the node has "
                        << parts << " outputs";
    int64_t each = (dims[axis] + n - 1) / n;
    if (im.opset() < 18 && dims[axis] % n)
      return im.error() << "axis " << axis << " of " << dims[axis]
                        << " does not split into " << n << " equal parts";
    for (int64_t i = 0, left = dims[axis]; i < n; ++i, left -= each)
      sizes.push_back(std::min(each, left));
  }
  if (static_cast<int64_t>(sizes.size()) != parts)
    return im.error() << "expected " << parts << " split sizes, got "
                      << sizes.size();
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s <= 0)
      return im.error() << "split sizes must be positive: empty tensors are "
                           "not supported";
    total += s;
  }
  if (total != dims[axis])
    return im.error() << "split sizes add up to " << total << ", not to the "
                      << dims[axis] << " of axis " << axis;
  SmallVector<int64_t> start(rank, 0), size(dims);
  for (auto [out, s] : llvm::zip(node.output(), sizes)) {
    size[axis] = s;
    if (!out.empty())
      im.define(out, im.tosa().slice(x, start, size));
    start[axis] += s;
  }
  return success();
}

LogicalResult importExpand(Importer &im, const NodeProto &node) {
  if (node.input_size() < 2)
    return im.error() << "expected the shape input";
  std::optional<SmallVector<int64_t>> target = im.constantInts(node.input(1));
  if (!target)
    return im.error() << "the shape must be a compile-time constant";
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  // Numpy broadcasting both ways: a 1 in the target keeps the input's dim.
  size_t rank = std::max(target->size(), shapeOf(*x).size());
  Value v = im.tosa().expandRank(*x, rank);
  SmallVector<int64_t> shape(rank - target->size(), 1);
  shape.append(target->begin(), target->end());
  for (auto [s, d] : llvm::zip(shape, shapeOf(v))) {
    if (s != d && s != 1 && d != 1)
      return im.error() << "the input does not broadcast to the shape";
    s = s == 1 ? d : s;
  }
  if (failed(im.checkShape("output '" + node.output(0) + "'", shape)))
    return failure();
  im.define(node.output(0), im.tosa().broadcastTo(v, shape));
  return success();
}

/// Trilu keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the
/// last two dims and zeroes the rest, through a constant mask.
LogicalResult importTrilu(Importer &im, const NodeProto &node) {
  int64_t k = 0;
  if (Importer::hasInput(node, 1)) {
    std::optional<SmallVector<int64_t>> v = im.constantInts(node.input(1));
    if (!v || v->size() != 1)
      return im.error() << "k must be a compile-time scalar";
    k = v->front();
  }
  bool upper = intAttr(node, "upper", 1);
  auto keeps = [&](int64_t i, int64_t j) {
    return upper ? j - i >= k : j - i <= k;
  };
  if (const IntConstant *c = im.intConstant(node.input(0))) {
    IntConstant data = *c;
    if (data.dims.size() < 2)
      return im.error() << "the input must have at least 2 dims";
    int64_t rows = data.dims[data.dims.size() - 2], cols = data.dims.back();
    for (auto [flat, v] : llvm::enumerate(data.values))
      if (!keeps((flat / cols) % rows, flat % cols))
        v = 0;
    im.defineInts(node.output(0), data.values, ArrayRef<int64_t>(data.dims));
    return success();
  }
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  ArrayRef<int64_t> dims = shapeOf(*x);
  if (dims.size() < 2)
    return im.error() << "the input must have at least 2 dims";
  IntConstant mask;
  int64_t rows = dims[dims.size() - 2], cols = dims.back();
  mask.dims.assign(dims.size() - 2, 1);
  mask.dims.append({rows, cols});
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask.values.push_back(keeps(i, j));
  TosaBuilder &tb = im.tosa();
  Value cond = im.materializeInts(mask, tb.builder().getI1Type());
  im.define(node.output(0), tb.select(cond, *x, tb.scalarLike(*x, 0.0)));
  return success();
}

} // namespace

void onnx_import::addIndexingOperators(llvm::StringMap<OpImporter> &t) {
  t["Gather"] = importGather;
  t["Slice"] = importSlice;
  t["Split"] = importSplit;
  t["Expand"] = importExpand;
  t["Trilu"] = importTrilu;
}
