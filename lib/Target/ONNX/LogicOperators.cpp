//===- LogicOperators.cpp - Equal, Not, Where, Cast -----------------------===//
//
// Comparisons, selection and conversions. On compile-time integer tensors
// (shape arithmetic, constant masks) they fold; on data they become TOSA
// ops on i1 masks, which stay 1 byte per element.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

using onnx::NodeProto;

namespace {

/// An operand as data of `element` type: float data as it is, a
/// compile-time integer tensor as a constant.
FailureOr<Value> operandAs(Importer &im, StringRef name, Type element) {
  if (const IntConstant *c = im.intConstant(name)) {
    IntConstant copy = *c;
    return im.materializeInts(copy, element);
  }
  return im.logical(name);
}

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// Brings operands to one rank (TOSA broadcasts only between equal ranks).
SmallVector<Value> sameRank(TosaBuilder &tb, SmallVector<Value> values) {
  size_t rank = 0;
  for (Value v : values)
    rank = std::max(rank, shapeOf(v).size());
  for (Value &v : values)
    v = tb.expandRank(v, rank);
  return values;
}

FailureOr<SmallVector<int64_t>> broadcastDims(Importer &im,
                                              ArrayRef<Value> values) {
  SmallVector<int64_t> shape(shapeOf(values.front()));
  for (Value v : values.drop_front())
    for (auto [s, d] : llvm::zip(shape, shapeOf(v))) {
      if (s != d && s != 1 && d != 1)
        return im.error() << "operand shapes do not broadcast";
      s = s == 1 ? d : s;
    }
  return shape;
}

LogicalResult defineFolded(Importer &im, const NodeProto &node,
                           std::optional<IntConstant> folded) {
  if (!folded)
    return im.error() << "operand shapes do not broadcast";
  im.defineInts(node.output(0), folded->values,
                ArrayRef<int64_t>(folded->dims));
  return success();
}

bool allIntConstants(Importer &im, const NodeProto &node) {
  return llvm::all_of(node.input(), [&](const std::string &name) {
    return im.intConstant(name) != nullptr;
  });
}

LogicalResult importEqual(Importer &im, const NodeProto &node) {
  if (allIntConstants(im, node))
    return defineFolded(im, node, foldInts(im, node, [](ArrayRef<int64_t> a) {
                          return static_cast<int64_t>(a[0] == a[1]);
                        }));
  // A constant compared with data takes the data's element type.
  std::optional<Type> element;
  for (const std::string &name : node.input())
    if (!im.intConstant(name)) {
      FailureOr<Value> v = im.logical(name);
      if (failed(v))
        return failure();
      element = elementOf(*v);
    }
  FailureOr<Value> a = operandAs(im, node.input(0), *element);
  FailureOr<Value> b = failed(a) ? a : operandAs(im, node.input(1), *element);
  if (failed(b))
    return failure();
  SmallVector<Value> ops = sameRank(im.tosa(), {*a, *b});
  if (failed(broadcastDims(im, ops)))
    return failure();
  im.define(node.output(0), im.tosa().equal(ops[0], ops[1]));
  return success();
}

LogicalResult importNot(Importer &im, const NodeProto &node) {
  if (allIntConstants(im, node))
    return defineFolded(im, node, foldInts(im, node, [](ArrayRef<int64_t> a) {
                          return static_cast<int64_t>(a[0] == 0);
                        }));
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  if (!elementOf(*x).isInteger(1))
    return im.error() << "the input must be a boolean tensor";
  im.define(node.output(0), im.tosa().logicalNot(*x));
  return success();
}

LogicalResult importWhere(Importer &im, const NodeProto &node) {
  if (allIntConstants(im, node))
    return defineFolded(im, node, foldInts(im, node, [](ArrayRef<int64_t> a) {
                          return a[0] ? a[1] : a[2];
                        }));
  TosaBuilder &tb = im.tosa();
  Type i1 = tb.builder().getI1Type(), f32 = tb.builder().getF32Type();
  FailureOr<Value> cond = operandAs(im, node.input(0), i1);
  if (failed(cond))
    return failure();
  if (!elementOf(*cond).isInteger(1))
    return im.error() << "the condition must be a boolean tensor";
  FailureOr<Value> x = operandAs(im, node.input(1), f32);
  FailureOr<Value> y = failed(x) ? x : operandAs(im, node.input(2), f32);
  if (failed(y))
    return failure();
  if (!elementOf(*x).isF32() || !elementOf(*y).isF32())
    return im.error() << "only float data is selected";
  SmallVector<Value> ops = sameRank(tb, {*cond, *x, *y});
  if (failed(broadcastDims(im, ops)))
    return failure();
  im.define(node.output(0), tb.select(ops[0], ops[1], ops[2]));
  return success();
}

LogicalResult importCast(Importer &im, const NodeProto &node) {
  int64_t to = intAttr(node, "to", 0);
  bool toInt = to == onnx::TensorProto::INT64 ||
               to == onnx::TensorProto::INT32 || to == onnx::TensorProto::BOOL;
  bool toFloat = to == onnx::TensorProto::FLOAT;
  if (!toInt && !toFloat)
    return im.error() << "only casts to float, int32, int64 and bool are "
                         "supported, not to type "
                      << to;
  TosaBuilder &tb = im.tosa();
  if (const IntConstant *c = im.intConstant(node.input(0))) {
    IntConstant data = *c;
    if (to == onnx::TensorProto::BOOL)
      for (int64_t &v : data.values)
        v = v != 0;
    if (toInt) {
      im.defineInts(node.output(0), data.values, ArrayRef<int64_t>(data.dims));
      return success();
    }
    if (data.values.size() == 1)
      im.defineFloat(node.output(0), data.values.front());
    im.define(node.output(0), im.materializeInts(data, tb.builder().getF32Type()));
    return success();
  }
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  Type from = elementOf(*x);
  Type target = toFloat ? Type(tb.builder().getF32Type())
                : to == onnx::TensorProto::BOOL ? Type(tb.builder().getI1Type())
                                                : tb.builder().getI32Type();
  if (from == target) {
    im.define(node.output(0), *x);
    return success();
  }
  // Masks to floats and indices to floats; float data does not become
  // integers (it would carry no gradient and is not an index).
  if (!toFloat)
    return im.error() << "float data is not cast to integers";
  im.define(node.output(0), tb.cast(*x, target));
  return success();
}

} // namespace

void onnx_import::addLogicOperators(llvm::StringMap<OpImporter> &t) {
  t["Equal"] = importEqual;
  t["Not"] = importNot;
  t["Where"] = importWhere;
  t["Cast"] = importCast;
}
