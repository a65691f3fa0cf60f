//===- Operators.cpp - The operator table and shared helpers --------------===//
//
// The table of operator importers, filled by each family's file, and the
// helpers the families share.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

int32_t onnx_import::nhwcAxis(int64_t axis) {
  static const int32_t map[] = {0, 3, 1, 2};
  return map[axis];
}

int64_t onnx_import::normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

LogicalResult onnx_import::checkAxes(Importer &im, ArrayRef<int64_t> axes,
                                     int64_t rank) {
  SmallVector<bool> seen(std::max<int64_t>(rank, 0), false);
  for (int64_t a : axes) {
    if (a < 0 || a >= rank || seen[a])
      return im.error() << "axes must be distinct and in [-" << rank << ", "
                        << rank << ")";
    seen[a] = true;
  }
  return success();
}

FailureOr<int64_t> onnx_import::axisAttr(Importer &im,
                                         const onnx::NodeProto &node,
                                         StringRef name, int64_t fallback,
                                         int64_t rank) {
  int64_t axis = normalizeAxis(intAttr(node, name, fallback), rank);
  if (failed(checkAxes(im, axis, rank)))
    return failure();
  return axis;
}

OpImporter onnx_import::identity() {
  return [](Importer &im, const onnx::NodeProto &node) -> LogicalResult {
    if (const IntConstant *c = im.intConstant(node.input(0))) {
      IntConstant copy = *c;
      im.defineInts(node.output(0), copy.values, ArrayRef<int64_t>(copy.dims));
      return success();
    }
    FailureOr<Entry> x = im.lookup(node.input(0));
    if (failed(x))
      return failure();
    im.define(node.output(0), x->value, x->nhwc);
    return success();
  };
}

FailureOr<SmallVector<int64_t>>
onnx_import::axesOf(Importer &im, const onnx::NodeProto &node,
                    int64_t inputSinceOpset, int64_t rank) {
  SmallVector<int64_t> axes;
  if (im.opset() >= inputSinceOpset && Importer::hasInput(node, 1)) {
    std::optional<SmallVector<int64_t>> v = im.constantInts(node.input(1));
    if (!v)
      return im.error() << "axes must be a compile-time constant";
    axes = *v;
  } else {
    axes = intsAttr(node, "axes");
  }
  for (int64_t &a : axes)
    a = normalizeAxis(a, rank);
  llvm::sort(axes);
  return axes;
}

std::optional<IntConstant>
onnx_import::foldInts(Importer &im, const onnx::NodeProto &node,
                      function_ref<int64_t(ArrayRef<int64_t>)> fn) {
  SmallVector<const IntConstant *> operands;
  for (const std::string &name : node.input()) {
    const IntConstant *c = im.intConstant(name);
    if (!c)
      return std::nullopt;
    operands.push_back(c);
  }
  // Numpy broadcasting: dims aligned at the end, 1 stretches.
  size_t rank = 0;
  for (const IntConstant *c : operands)
    rank = std::max(rank, c->dims.size());
  IntConstant out;
  out.dims.assign(rank, 1);
  for (const IntConstant *c : operands)
    for (auto [i, d] : llvm::enumerate(c->dims)) {
      int64_t &o = out.dims[rank - c->dims.size() + i];
      if (o != d && o != 1 && d != 1)
        return std::nullopt;
      o = o == 1 ? d : o;
    }
  int64_t count = numElements(out.dims);
  SmallVector<int64_t> args(operands.size());
  for (int64_t flat = 0; flat < count; ++flat) {
    for (auto [k, c] : llvm::enumerate(operands)) {
      // The operand's element at the output position `flat`.
      int64_t rest = flat, index = 0, stride = 1;
      for (int64_t d = rank - 1, cd = c->dims.size() - 1; cd >= 0; --d, --cd) {
        int64_t pos = rest % out.dims[d];
        rest /= out.dims[d];
        if (c->dims[cd] != 1)
          index += pos * stride;
        stride *= c->dims[cd];
      }
      args[k] = c->values[index];
    }
    out.values.push_back(fn(args));
  }
  return out;
}

const llvm::StringMap<OpImporter> &onnx_import::operatorTable() {
  static const llvm::StringMap<OpImporter> table = [] {
    llvm::StringMap<OpImporter> t;
    addMathOperators(t);
    addNeuralNetworkOperators(t);
    addNormalizationOperators(t);
    addTensorOperators(t);
    addIndexingOperators(t);
    addLogicOperators(t);
    return t;
  }();
  return table;
}
