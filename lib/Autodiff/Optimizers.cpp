//===- Optimizers.cpp - Parameter updates inside a training step ----------===//
//
// SGD, SGD with momentum and Adam as PyTorch defines them (torch.optim, no
// weight decay, no Nesterov, Adam without amsgrad):
//
//   sgd:      p <- p - lr g
//   momentum: b <- mu b + g;                      p <- p - lr b
//   adam:     t <- t + 1;  m <- b1 m + (1 - b1) g;  v <- b2 v + (1 - b2) g^2
//             p <- p - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
//
// (Kingma & Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015,
// Algorithm 1, with epsilon added outside the square root as PyTorch does.)
//
//===----------------------------------------------------------------------===//

#include "Optimizers.h"

#include "remat/Analysis/CostModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace remat;

std::optional<OptimizerKind> remat::parseOptimizerKind(StringRef name) {
  return llvm::StringSwitch<std::optional<OptimizerKind>>(name)
      .Case("sgd", OptimizerKind::Sgd)
      .Case("momentum", OptimizerKind::Momentum)
      .Case("adam", OptimizerKind::Adam)
      .Default(std::nullopt);
}

unsigned remat::stateTensorsPerParameter(OptimizerKind kind) {
  switch (kind) {
  case OptimizerKind::Sgd:
    return 0;
  case OptimizerKind::Momentum:
    return 1;
  case OptimizerKind::Adam:
    return 2;
  }
  llvm_unreachable("unknown optimizer");
}

namespace {

/// Arithmetic on scalars of one float type inside a linalg.generic body.
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;
  FloatType type;

  Value constant(double value) {
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }
  Value pow(Value x, Value y) { return math::PowFOp::create(b, loc, x, y); }
  /// `decay * old + (1 - decay) * value`: an exponential moving average.
  Value average(double decay, Value old, Value value) {
    return add(mul(constant(decay), old), mul(constant(1.0 - decay), value));
  }
  /// `x` in this builder's float type (the step count is f32).
  Value cast(Value x) {
    if (x.getType() == type)
      return x;
    if (x.getType().getIntOrFloatBitWidth() < type.getWidth())
      return arith::ExtFOp::create(b, loc, type, x);
    return arith::TruncFOp::create(b, loc, type, x);
  }
};

/// A linalg.generic over `init`'s shape that reads `inputs` (each either of
/// that shape or 0-d) and writes its results into `inits`.
SmallVector<Value> emitElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, ValueRange inits,
    function_ref<SmallVector<Value>(ScalarBuilder &, ValueRange)> body) {
  auto type = cast<RankedTensorType>(inits.front().getType());
  unsigned rank = type.getRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, {}, b.getContext());
  SmallVector<AffineMap> maps;
  for (Value v : inputs)
    maps.push_back(
        cast<RankedTensorType>(v.getType()).getRank() == 0 ? scalar : identity);
  maps.append(inits.size(), identity);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange(inits), inputs, inits, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        ScalarBuilder s{nested, nestedLoc,
                        cast<FloatType>(type.getElementType())};
        linalg::YieldOp::create(nested, nestedLoc, body(s, args));
      });
  // The update runs once, where it stands: recomputing it would write a
  // donated buffer twice.
  generic->setAttr(kNeverAttrName, b.getUnitAttr());
  return SmallVector<Value>(generic.getResults());
}

} // namespace

Value remat::emitStepCountIncrement(OpBuilder &b, Location loc, Value count) {
  return emitElementwise(b, loc, {}, count,
                         [](ScalarBuilder &s, ValueRange args) {
                           return SmallVector<Value>{
                               s.add(args[0], s.constant(1.0))};
                         })
      .front();
}

SmallVector<Value> remat::emitParameterUpdate(OpBuilder &b, Location loc,
                                              const OptimizerOptions &options,
                                              Value param, Value grad,
                                              ValueRange state,
                                              Value stepCount) {
  SmallVector<Value> inits = {param};
  inits.append(state.begin(), state.end());
  switch (options.kind) {
  case OptimizerKind::Sgd:
    return emitElementwise(
        b, loc, grad, inits, [&](ScalarBuilder &s, ValueRange args) {
          Value g = args[0], p = args[1];
          return SmallVector<Value>{
              s.sub(p, s.mul(s.constant(options.learningRate), g))};
        });
  case OptimizerKind::Momentum:
    return emitElementwise(
        b, loc, grad, inits, [&](ScalarBuilder &s, ValueRange args) {
          Value g = args[0], p = args[1], buffer = args[2];
          Value velocity =
              s.add(s.mul(s.constant(options.momentum), buffer), g);
          return SmallVector<Value>{
              s.sub(p, s.mul(s.constant(options.learningRate), velocity)),
              velocity};
        });
  case OptimizerKind::Adam:
    return emitElementwise(
        b, loc, {grad, stepCount}, inits,
        [&](ScalarBuilder &s, ValueRange args) {
          Value g = args[0], t = s.cast(args[1]), p = args[2], m = args[3],
                v = args[4];
          Value one = s.constant(1.0);
          Value m1 = s.average(options.beta1, m, g);
          Value v1 = s.average(options.beta2, v, s.mul(g, g));
          Value mHat =
              s.div(m1, s.sub(one, s.pow(s.constant(options.beta1), t)));
          Value vHat =
              s.div(v1, s.sub(one, s.pow(s.constant(options.beta2), t)));
          Value step = s.div(s.mul(s.constant(options.learningRate), mHat),
                             s.add(s.sqrt(vHat), s.constant(options.epsilon)));
          return SmallVector<Value>{s.sub(p, step), m1, v1};
        });
  }
  llvm_unreachable("unknown optimizer");
}
