//===- Builder.cpp - Building TOSA 22 ops with computed types -------------===//

#include "remat/Tosa/Builder.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mlir;
using namespace remat;

ArrayRef<int64_t> remat::shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

int64_t remat::numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

SmallVector<int64_t> remat::broadcastShapes(ArrayRef<int64_t> a,
                                            ArrayRef<int64_t> b) {
  assert(a.size() == b.size() && "TOSA broadcasting needs equal ranks");
  SmallVector<int64_t> out;
  for (auto [x, y] : llvm::zip(a, b))
    out.push_back(x == 1 ? y : x);
  return out;
}

/// The element type of a tensor value: data movement keeps it (i32 indices,
/// i1 masks, f32 data).
static Type elementOf(Value x) {
  return cast<ShapedType>(x.getType()).getElementType();
}

std::optional<double> remat::splatValue(Value x) {
  DenseElementsAttr values;
  if (!matchPattern(x, m_Constant(&values)) || !values.isSplat() ||
      !values.getElementType().isF32())
    return std::nullopt;
  return values.getSplatValue<APFloat>().convertToDouble();
}

int64_t Window2d::outputSize(int d, int64_t input) const {
  int64_t span = input + pad[2 * d] + pad[2 * d + 1] - (kernel[d] - 1) * dilation[d] - 1;
  return span < 0 ? 0 : span / stride[d] + 1;
}

int64_t Window2d::fitToStride(int d, int64_t input) {
  int64_t span = input - 1 + pad[2 * d] + pad[2 * d + 1] -
                 (kernel[d] - 1) * dilation[d];
  if (span < 0)
    return 0;
  int64_t excess = span % stride[d];
  int64_t trimmed = std::min(excess, pad[2 * d + 1]);
  pad[2 * d + 1] -= trimmed;
  return excess - trimmed;
}

RankedTensorType TosaBuilder::type(ArrayRef<int64_t> shape, Type element) {
  return RankedTensorType::get(shape, element ? element : b.getF32Type());
}

Value TosaBuilder::splat(ArrayRef<int64_t> shape, double value) {
  RankedTensorType t = type(shape);
  return constant(DenseElementsAttr::get(t, b.getFloatAttr(b.getF32Type(), value)));
}

Value TosaBuilder::scalarLike(Value like, double value) {
  SmallVector<int64_t> ones(shapeOf(like).size(), 1);
  return splat(ones, value);
}

Value TosaBuilder::constant(DenseElementsAttr values) {
  Value &cached = constants[values];
  if (!cached)
    cached = tosa::ConstOp::create(b, loc, values.getType(), values);
  return cached;
}

Value TosaBuilder::constShape(ArrayRef<int64_t> shape) {
  auto attr = DenseIntElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(shape.size())},
                            b.getIndexType()),
      shape);
  Value &cached = constants[attr];
  if (!cached)
    cached = tosa::ConstShapeOp::create(
        b, loc, tosa::shapeType::get(b.getContext(), shape.size()), attr);
  return cached;
}

Value TosaBuilder::zeroPoint() { return splat({1}, 0.0); }

Value TosaBuilder::shift() {
  auto t = RankedTensorType::get({1}, b.getI8Type());
  return constant(
      DenseElementsAttr::get(t, b.getIntegerAttr(b.getI8Type(), 0)));
}

namespace {
template <typename OpTy>
Value binary(OpBuilder &b, Location loc, Value x, Value y, Type element = {}) {
  auto tx = cast<RankedTensorType>(x.getType());
  auto shape = broadcastShapes(tx.getShape(), shapeOf(y));
  return OpTy::create(b, loc,
                      RankedTensorType::get(shape, element ? element
                                                           : tx.getElementType()),
                      x, y);
}
} // namespace

Value TosaBuilder::add(Value x, Value y) { return binary<tosa::AddOp>(b, loc, x, y); }
Value TosaBuilder::sub(Value x, Value y) { return binary<tosa::SubOp>(b, loc, x, y); }
Value TosaBuilder::maximum(Value x, Value y) {
  return binary<tosa::MaximumOp>(b, loc, x, y);
}
Value TosaBuilder::minimum(Value x, Value y) {
  return binary<tosa::MinimumOp>(b, loc, x, y);
}
Value TosaBuilder::pow(Value x, Value y) { return binary<tosa::PowOp>(b, loc, x, y); }
Value TosaBuilder::greater(Value x, Value y) {
  return binary<tosa::GreaterOp>(b, loc, x, y, b.getI1Type());
}
Value TosaBuilder::greaterEqual(Value x, Value y) {
  return binary<tosa::GreaterEqualOp>(b, loc, x, y, b.getI1Type());
}
Value TosaBuilder::equal(Value x, Value y) {
  return binary<tosa::EqualOp>(b, loc, x, y, b.getI1Type());
}
Value TosaBuilder::logicalAnd(Value x, Value y) {
  return binary<tosa::LogicalAndOp>(b, loc, x, y);
}
Value TosaBuilder::logicalNot(Value x) {
  return tosa::LogicalNotOp::create(b, loc, x.getType(), x);
}
Value TosaBuilder::cast(Value x, Type element) {
  return tosa::CastOp::create(b, loc, type(shapeOf(x), element), x);
}
Value TosaBuilder::gather(Value values, Value indices) {
  ArrayRef<int64_t> v = shapeOf(values), i = shapeOf(indices);
  return tosa::GatherOp::create(b, loc, type({v[0], i[1], v[2]}), values,
                                indices);
}

Value TosaBuilder::mul(Value x, Value y) {
  auto shape = broadcastShapes(shapeOf(x), shapeOf(y));
  return tosa::MulOp::create(b, loc, type(shape), x, y, shift());
}

Value TosaBuilder::scale(Value x, double factor) {
  return mul(x, scalarLike(x, factor));
}

Value TosaBuilder::div(Value x, Value y) { return mul(x, reciprocal(y)); }

Value TosaBuilder::select(Value cond, Value x, Value y) {
  auto shape = broadcastShapes(shapeOf(cond), broadcastShapes(shapeOf(x), shapeOf(y)));
  return tosa::SelectOp::create(b, loc, type(shape), cond, x, y);
}

Value TosaBuilder::negate(Value x) {
  Value zp = zeroPoint();
  return tosa::NegateOp::create(b, loc, x.getType(), x, zp, zp);
}

Value TosaBuilder::unary(StringRef kind, Value x) {
  Type t = x.getType();
  if (kind == "reciprocal")
    return tosa::ReciprocalOp::create(b, loc, t, x);
  if (kind == "rsqrt")
    return tosa::RsqrtOp::create(b, loc, t, x);
  if (kind == "exp")
    return tosa::ExpOp::create(b, loc, t, x);
  if (kind == "log")
    return tosa::LogOp::create(b, loc, t, x);
  if (kind == "tanh")
    return tosa::TanhOp::create(b, loc, t, x);
  if (kind == "sigmoid")
    return tosa::SigmoidOp::create(b, loc, t, x);
  if (kind == "erf")
    return tosa::ErfOp::create(b, loc, t, x);
  assert(kind == "abs" && "unknown unary op");
  return tosa::AbsOp::create(b, loc, t, x);
}

Value TosaBuilder::reciprocal(Value x) {
  // 1/c of a constant c is a constant: an op on constants alone is folded
  // away by the lowering, and the memory model would count its buffer.
  if (std::optional<double> c = splatValue(x))
    return constant(DenseElementsAttr::get(
        llvm::cast<ShapedType>(x.getType()), b.getF32FloatAttr(1.0 / *c)));
  return unary("reciprocal", x);
}
Value TosaBuilder::rsqrt(Value x) { return unary("rsqrt", x); }
Value TosaBuilder::exp(Value x) { return unary("exp", x); }
Value TosaBuilder::log(Value x) { return unary("log", x); }
Value TosaBuilder::tanh(Value x) { return unary("tanh", x); }
Value TosaBuilder::sigmoid(Value x) { return unary("sigmoid", x); }
Value TosaBuilder::erf(Value x) { return unary("erf", x); }
Value TosaBuilder::abs(Value x) { return unary("abs", x); }

Value TosaBuilder::clamp(Value x, float min, float max) {
  return tosa::ClampOp::create(b, loc, x.getType(), x, b.getF32FloatAttr(min),
                               b.getF32FloatAttr(max));
}

Value TosaBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (shapeOf(x) == shape)
    return x;
  // A reshaped splat constant is a splat constant (see reciprocal).
  DenseElementsAttr values;
  if (matchPattern(x, m_Constant(&values)) && values.isSplat())
    return constant(values.resizeSplat(type(shape, elementOf(x))));
  return tosa::ReshapeOp::create(b, loc, type(shape, elementOf(x)), x,
                                 constShape(shape));
}

Value TosaBuilder::transpose(Value x, ArrayRef<int32_t> perms) {
  // A transpose of a transpose reads the first one's input: no copy of a
  // copy, and none at all when the two cancel (a weight transposed for the
  // forward and back for the backward).
  SmallVector<int32_t> composed(perms);
  if (auto inner = x.getDefiningOp<tosa::TransposeOp>()) {
    ArrayRef<int32_t> first = inner.getPerms();
    for (auto [i, p] : llvm::enumerate(perms))
      composed[i] = first[p];
    x = inner.getInput1();
  }
  ArrayRef<int64_t> in = shapeOf(x);
  SmallVector<int64_t> shape;
  for (int32_t p : composed)
    shape.push_back(in[p]);
  // A permutation that keeps the dims of more than one element in their
  // order only moves unit dims (the identity among them): the elements stay
  // where they are, and a reshape (a view, no copy; none at all for the
  // identity) says the same. A 1x1 convolution's weight in ONNX's layout
  // and TOSA's is one such: ResNet-50 copied 12 M of them twice a step.
  int64_t lastMoved = -1;
  bool onlyUnitDimsMove = true;
  for (int32_t p : composed) {
    if (in[p] == 1)
      continue;
    onlyUnitDimsMove &= p > lastMoved;
    lastMoved = p;
  }
  if (onlyUnitDimsMove)
    return reshape(x, shape);
  perms = composed;
  return tosa::TransposeOp::create(b, loc, type(shape, elementOf(x)), x,
                                   b.getDenseI32ArrayAttr(perms));
}

Value TosaBuilder::slice(Value x, ArrayRef<int64_t> start,
                         ArrayRef<int64_t> size) {
  if (shapeOf(x) == size)
    return x;
  return tosa::SliceOp::create(b, loc, type(size, elementOf(x)), x,
                               constShape(start),
                               constShape(size));
}

Value TosaBuilder::pad(Value x, ArrayRef<int64_t> lo, ArrayRef<int64_t> hi,
                       double value) {
  SmallVector<int64_t> padding, shape;
  bool none = true;
  for (auto [d, l, h] : llvm::zip(shapeOf(x), lo, hi)) {
    padding.push_back(l);
    padding.push_back(h);
    shape.push_back(d + l + h);
    none &= l == 0 && h == 0;
  }
  if (none)
    return x;
  return tosa::PadOp::create(b, loc, type(shape), x, constShape(padding),
                             splat({1}, value));
}

Value TosaBuilder::concat(ValueRange xs, int32_t axis) {
  if (xs.size() == 1)
    return xs.front();
  SmallVector<int64_t> shape(shapeOf(xs.front()));
  shape[axis] = 0;
  for (Value x : xs)
    shape[axis] += shapeOf(x)[axis];
  return tosa::ConcatOp::create(b, loc, type(shape, elementOf(xs.front())), xs,
                                b.getI32IntegerAttr(axis));
}

Value TosaBuilder::reverse(Value x, int32_t axis) {
  if (shapeOf(x)[axis] == 1)
    return x;
  return tosa::ReverseOp::create(b, loc, x.getType(), x,
                                 b.getI32IntegerAttr(axis));
}

Value TosaBuilder::tile(Value x, ArrayRef<int64_t> multiples) {
  SmallVector<int64_t> shape;
  bool none = true;
  for (auto [d, m] : llvm::zip(shapeOf(x), multiples)) {
    shape.push_back(d * m);
    none &= m == 1;
  }
  if (none)
    return x;
  return tosa::TileOp::create(b, loc, type(shape, elementOf(x)), x,
                              constShape(multiples));
}

Value TosaBuilder::expandRank(Value x, int64_t rank) {
  ArrayRef<int64_t> in = shapeOf(x);
  if (static_cast<int64_t>(in.size()) >= rank)
    return x;
  SmallVector<int64_t> shape(rank - in.size(), 1);
  shape.append(in.begin(), in.end());
  return reshape(x, shape);
}

Value TosaBuilder::broadcastTo(Value x, ArrayRef<int64_t> shape) {
  x = expandRank(x, shape.size());
  SmallVector<int64_t> multiples;
  for (auto [d, t] : llvm::zip(shapeOf(x), shape))
    multiples.push_back(d == t ? 1 : t);
  return tile(x, multiples);
}

Value TosaBuilder::sumTo(Value x, ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> in = shapeOf(x);
  int64_t lead = in.size() - shape.size();
  for (int64_t i = 0, e = in.size(); i < e; ++i) {
    int64_t target = i < lead ? 1 : shape[i - lead];
    if (target == 1 && shapeOf(x)[i] != 1)
      x = reduceSum(x, i);
  }
  return reshape(x, shape);
}

Value TosaBuilder::reduceSum(Value x, int32_t axis) {
  SmallVector<int64_t> shape(shapeOf(x));
  shape[axis] = 1;
  return tosa::ReduceSumOp::create(b, loc, type(shape), x,
                                   b.getI32IntegerAttr(axis));
}

Value TosaBuilder::reduceMax(Value x, int32_t axis) {
  SmallVector<int64_t> shape(shapeOf(x));
  shape[axis] = 1;
  return tosa::ReduceMaxOp::create(b, loc, type(shape), x,
                                   b.getI32IntegerAttr(axis));
}

Value TosaBuilder::reduceAll(Value x) {
  for (int32_t i = 0, e = shapeOf(x).size(); i < e; ++i)
    if (shapeOf(x)[i] != 1)
      x = reduceSum(x, i);
  return x;
}

Value TosaBuilder::matmul(Value x, Value y) {
  ArrayRef<int64_t> a = shapeOf(x), c = shapeOf(y);
  Value zp = zeroPoint();
  return tosa::MatMulOp::create(b, loc, type({a[0], a[1], c[2]}), x, y, zp, zp);
}

Value TosaBuilder::conv2d(Value x, Value w, Value bias, const Window2d &win) {
  ArrayRef<int64_t> in = shapeOf(x), ws = shapeOf(w);
  Window2d full = win;
  full.kernel = {ws[1], ws[2]};
  SmallVector<int64_t> shape = {in[0], full.outputSize(0, in[1]),
                                full.outputSize(1, in[2]), ws[0]};
  Value zp = zeroPoint();
  return tosa::Conv2DOp::create(
      b, loc, type(shape), x, w, bias, zp, zp, b.getDenseI64ArrayAttr(win.pad),
      b.getDenseI64ArrayAttr(win.stride), b.getDenseI64ArrayAttr(win.dilation),
      TypeAttr::get(b.getF32Type()));
}

Value TosaBuilder::depthwiseConv2d(Value x, Value w, Value bias,
                                   const Window2d &win) {
  ArrayRef<int64_t> in = shapeOf(x), ws = shapeOf(w);
  Window2d full = win;
  full.kernel = {ws[0], ws[1]};
  SmallVector<int64_t> shape = {in[0], full.outputSize(0, in[1]),
                                full.outputSize(1, in[2]), ws[2] * ws[3]};
  Value zp = zeroPoint();
  return tosa::DepthwiseConv2DOp::create(
      b, loc, type(shape), x, w, bias, zp, zp, b.getDenseI64ArrayAttr(win.pad),
      b.getDenseI64ArrayAttr(win.stride), b.getDenseI64ArrayAttr(win.dilation),
      TypeAttr::get(b.getF32Type()));
}

Value TosaBuilder::maxPool2d(Value x, const Window2d &win) {
  ArrayRef<int64_t> in = shapeOf(x);
  SmallVector<int64_t> shape = {in[0], win.outputSize(0, in[1]),
                                win.outputSize(1, in[2]), in[3]};
  return tosa::MaxPool2dOp::create(b, loc, type(shape), x, win.kernel,
                                   win.stride, win.pad);
}

Value TosaBuilder::avgPool2d(Value x, const Window2d &win) {
  ArrayRef<int64_t> in = shapeOf(x);
  SmallVector<int64_t> shape = {in[0], win.outputSize(0, in[1]),
                                win.outputSize(1, in[2]), in[3]};
  Value zp = zeroPoint();
  return tosa::AvgPool2dOp::create(
      b, loc, type(shape), x, zp, zp, b.getDenseI64ArrayAttr(win.kernel),
      b.getDenseI64ArrayAttr(win.stride), b.getDenseI64ArrayAttr(win.pad),
      TypeAttr::get(b.getF32Type()));
}
