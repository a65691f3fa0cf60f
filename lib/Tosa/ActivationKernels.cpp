//===- ActivationKernels.cpp - GELU and its adjoint as linalg kernels -----===//

#include "remat/Tosa/ActivationKernels.h"

#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace remat;

namespace {

using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// An elementwise kernel over `inputs` (all of x's shape) into a new tensor.
linalg::GenericOp elementwise(OpBuilder &b, Location loc, ValueRange inputs,
                              BodyFn body) {
  auto type = cast<RankedTensorType>(inputs.front().getType());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                       type.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<AffineMap> maps(inputs.size() + 1, id);
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
}

struct Arith {
  OpBuilder &b;
  Location loc;
  Value c(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  /// tanh(sqrt(2/pi) (x + 0.044715 x^3)).
  Value innerTanh(Value x) {
    Value cube = mul(x, mul(x, x));
    Value u = mul(c(kGeluTanhScale), add(x, mul(c(kGeluTanhCubic), cube)));
    return math::TanhOp::create(b, loc, u);
  }
};

} // namespace

Value remat::buildTanhGelu(OpBuilder &b, Location loc, Value x) {
  linalg::GenericOp op =
      elementwise(b, loc, x, [](OpBuilder &nb, Location nloc, ValueRange a) {
        Arith m{nb, nloc};
        Value t = m.innerTanh(a[0]);
        return m.mul(m.mul(m.c(0.5), a[0]), m.add(m.c(1.0), t));
      });
  op->setAttr(kTanhGeluAttrName, b.getUnitAttr());
  return op.getResult(0);
}

Value remat::buildTanhGeluGradient(OpBuilder &b, Location loc, Value x,
                                   Value g) {
  return elementwise(
             b, loc, ValueRange{x, g},
             [](OpBuilder &nb, Location nloc, ValueRange a) {
               // d/dx = 0.5 (1 + t) + 0.5 x (1 - t^2) du/dx, with
               // du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2).
               Arith m{nb, nloc};
               Value x = a[0];
               Value t = m.innerTanh(x);
               Value du = m.mul(
                   m.c(kGeluTanhScale),
                   m.add(m.c(1.0), m.mul(m.c(3 * kGeluTanhCubic), m.mul(x, x))));
               Value sech2 = m.sub(m.c(1.0), m.mul(t, t));
               Value d = m.add(m.mul(m.c(0.5), m.add(m.c(1.0), t)),
                               m.mul(m.mul(m.c(0.5), x), m.mul(sech2, du)));
               return m.mul(a[1], d);
             })
      .getResult(0);
}
