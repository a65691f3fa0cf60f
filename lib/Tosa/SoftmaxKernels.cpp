//===- SoftmaxKernels.cpp - Softmax and its adjoint as linalg kernels ------===//

#include "remat/Tosa/SoftmaxKernels.h"

#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace remat;

namespace {

using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// Kernels over the iteration space of a tensor of `shape`, reading full
/// tensors through the identity map and reduced ones (without `axis`)
/// through the projection that drops it.
struct AxisKernels {
  OpBuilder &b;
  Location loc;
  ArrayRef<int64_t> shape;
  int64_t axis;
  Type element;

  int64_t rank() const { return shape.size(); }
  AffineMap full() const { return b.getMultiDimIdentityMap(rank()); }
  AffineMap reduced() const {
    return full().dropResult(static_cast<unsigned>(axis));
  }
  SmallVector<int64_t> reducedShape() const {
    SmallVector<int64_t> s(shape);
    s.erase(s.begin() + axis);
    return s;
  }
  Value constant(double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(element, v));
  }

  /// One kernel: `fulls` then `reduceds` are read, the result is written
  /// into a tensor of the full shape (`reduce` false) or, accumulating from
  /// `init` along the axis, of the reduced shape (`reduce` true).
  linalg::GenericOp kernel(ValueRange fulls, ValueRange reduceds, bool reduce,
                           double init, BodyFn body) {
    Value out;
    if (reduce) {
      Value empty = tensor::EmptyOp::create(b, loc, reducedShape(), element);
      out = linalg::FillOp::create(b, loc, constant(init), empty).getResult(0);
    } else {
      out = tensor::EmptyOp::create(b, loc, shape, element);
    }
    SmallVector<Value> inputs(fulls);
    llvm::append_range(inputs, reduceds);
    SmallVector<AffineMap> maps(fulls.size(), full());
    maps.append(reduceds.size(), reduced());
    maps.push_back(reduce ? reduced() : full());
    SmallVector<utils::IteratorType> iterators(rank(),
                                               utils::IteratorType::parallel);
    if (reduce)
      iterators[axis] = utils::IteratorType::reduction;
    return linalg::GenericOp::create(
        b, loc, TypeRange{out.getType()}, inputs, ValueRange{out}, maps,
        iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
          linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
        });
  }
};

AxisKernels kernelsOver(OpBuilder &b, Location loc, Value x, int64_t axis) {
  auto type = cast<RankedTensorType>(x.getType());
  return {b, loc, type.getShape(), axis, type.getElementType()};
}

} // namespace

Value remat::buildSoftmax(OpBuilder &b, Location loc, Value x, int64_t axis,
                          bool logOutput) {
  AxisKernels k = kernelsOver(b, loc, x, axis);
  // The lowest finite value rather than -inf: a row that starts with -inf
  // (a masked position) keeps exp(x - m) = 0 instead of exp(-inf + inf).
  double lowest = -std::numeric_limits<float>::max();
  Value max = k.kernel(x, {}, /*reduce=*/true, lowest,
                       [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                         return arith::MaximumFOp::create(nb, l, a[0], a[1]);
                       })
                  .getResult(0);
  Value sum =
      k.kernel(x, max, /*reduce=*/true, 0.0,
               [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                 Value shifted = arith::SubFOp::create(nb, l, a[0], a[1]);
                 Value e = math::ExpOp::create(nb, l, shifted);
                 return arith::AddFOp::create(nb, l, a[2], e);
               })
          .getResult(0);
  linalg::GenericOp y = k.kernel(
      x, {max, sum}, /*reduce=*/false, 0.0,
      [logOutput](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value shifted = arith::SubFOp::create(nb, l, a[0], a[1]);
        if (logOutput)
          return arith::SubFOp::create(nb, l, shifted,
                                       math::LogOp::create(nb, l, a[2]));
        return arith::DivFOp::create(nb, l, math::ExpOp::create(nb, l, shifted),
                                     a[2]);
      });
  y->setAttr(logOutput ? kLogSoftmaxAttrName : kSoftmaxAttrName,
             b.getI64IntegerAttr(axis));
  return y.getResult(0);
}

Value remat::buildSoftmaxGradient(OpBuilder &b, Location loc, Value y, Value g,
                                  int64_t axis, bool logOutput) {
  AxisKernels k = kernelsOver(b, loc, y, axis);
  // Softmax: dx = y * (g - sum(g * y)). Log-softmax: dx = g - exp(y) * sum(g).
  Value sum =
      k.kernel({y, g}, {}, /*reduce=*/true, 0.0,
               [logOutput](OpBuilder &nb, Location l, ValueRange a) -> Value {
                 Value term = logOutput
                                  ? a[1]
                                  : arith::MulFOp::create(nb, l, a[0], a[1]);
                 return arith::AddFOp::create(nb, l, a[2], term);
               })
          .getResult(0);
  return k.kernel({y, g}, sum, /*reduce=*/false, 0.0,
                  [logOutput](OpBuilder &nb, Location l,
                              ValueRange a) -> Value {
                    if (logOutput) {
                      Value p = math::ExpOp::create(nb, l, a[0]);
                      return arith::SubFOp::create(
                          nb, l, a[1], arith::MulFOp::create(nb, l, p, a[2]));
                    }
                    Value centered = arith::SubFOp::create(nb, l, a[1], a[2]);
                    return arith::MulFOp::create(nb, l, a[0], centered);
                  })
      .getResult(0);
}
