//===- ArithMathGradients.cpp - Derivatives of arith/math on tensors ------===//
//
// Elementwise arith and math ops on tensors of one shape (no broadcasting),
// differentiated with arith and math ops on tensors of that shape.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace remat;

namespace {

struct Emitter {
  OpBuilder &b;
  Location loc;

  Value splat(Value like, double v) {
    auto t = cast<RankedTensorType>(like.getType());
    return arith::ConstantOp::create(
        b, loc, t,
        DenseElementsAttr::get(t, b.getFloatAttr(t.getElementType(), v)));
  }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
};

Emitter emitter(GradientRequest &r) {
  return Emitter{r.builder(), r.op->getLoc()};
}

void add(GradientRules &rules, StringRef name,
         std::function<void(GradientRequest &, Emitter &)> fn) {
  rules.add(name, [fn](GradientRequest &r) {
    Emitter e = emitter(r);
    fn(r, e);
    return success();
  });
}

/// The adjoint goes to the operand that was selected (the first on ties).
/// Against a splat constant (relu as maximumf(x, 0)) the mask is read from
/// the output, so the backward keeps the result rather than x; ties then go
/// to the constant (see minMaxRule in TosaGradients.cpp).
void minMax(GradientRequest &r, Emitter &e, bool max) {
  Value zero = e.splat(r.grad(), 0.0);
  if (std::optional<unsigned> x = operandAgainstSplat(r.op)) {
    Value passes = arith::CmpFOp::create(
        e.b, e.loc,
        max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        r.result(), r.operand(1 - *x));
    r.set(*x, arith::SelectOp::create(e.b, e.loc, passes, r.grad(), zero));
    return;
  }
  Value c = arith::CmpFOp::create(
      e.b, e.loc, max ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OLE,
      r.operand(0), r.operand(1));
  r.set(0, arith::SelectOp::create(e.b, e.loc, c, r.grad(), zero));
  r.set(1, arith::SelectOp::create(e.b, e.loc, c, zero, r.grad()));
}

} // namespace

REMAT_GRADIENT_RULES_FILE(addArithMathGradients) {
  add(rules, arith::AddFOp::getOperationName(),
      [](GradientRequest &r, Emitter &) {
        r.set(0, r.grad());
        r.set(1, r.grad());
      });
  add(rules, arith::SubFOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        r.set(0, r.grad());
        if (r.needed[1])
          r.set(1, e.neg(r.grad()));
      });
  add(rules, arith::MulFOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        if (r.needed[0])
          r.set(0, e.mul(r.grad(), r.operand(1)));
        if (r.needed[1])
          r.set(1, e.mul(r.grad(), r.operand(0)));
      });
  // y = a / b: da = g / b, db = -g y / b.
  add(rules, arith::DivFOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        if (r.needed[0])
          r.set(0, e.div(r.grad(), r.operand(1)));
        if (r.needed[1])
          r.set(1, e.neg(e.div(e.mul(r.grad(), r.result()), r.operand(1))));
      });
  add(rules, arith::NegFOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) { r.set(0, e.neg(r.grad())); });
  add(rules, arith::MaximumFOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        minMax(r, e, true);
      });
  add(rules, arith::MinimumFOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        minMax(r, e, false);
      });
  add(rules, math::ExpOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        r.set(0, e.mul(r.grad(), r.result()));
      });
  add(rules, math::LogOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        r.set(0, e.div(r.grad(), r.operand(0)));
      });
  // dx = g (1 - y^2).
  add(rules, math::TanhOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        Value y = r.result();
        r.set(0, e.mul(r.grad(), e.sub(e.splat(y, 1.0), e.mul(y, y))));
      });
  // dx = g / (2 y).
  add(rules, math::SqrtOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        r.set(0, e.div(r.grad(), e.mul(e.splat(r.result(), 2.0), r.result())));
      });
  // dx = -g y^3 / 2.
  add(rules, math::RsqrtOp::getOperationName(),
      [](GradientRequest &r, Emitter &e) {
        Value y = r.result();
        r.set(0, e.mul(r.grad(),
                       e.mul(e.splat(y, -0.5), e.mul(y, e.mul(y, y)))));
      });
}
