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

OpImporter onnx_import::identity() {
  return [](Importer &im, const onnx::NodeProto &node) -> LogicalResult {
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

const llvm::StringMap<OpImporter> &onnx_import::operatorTable() {
  static const llvm::StringMap<OpImporter> table = [] {
    llvm::StringMap<OpImporter> t;
    addMathOperators(t);
    addNeuralNetworkOperators(t);
    addTensorOperators(t);
    return t;
  }();
  return table;
}
