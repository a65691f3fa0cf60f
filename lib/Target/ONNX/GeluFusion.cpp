//===- GeluFusion.cpp - The tanh GELU of torch.onnx as one kernel ---------===//
//
// Before opset 20 ONNX has no tanh GELU, and torch.onnx.export writes
// F.gelu(x, approximate="tanh") as nine elementwise nodes:
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x x x))). Imported node by node,
// each is a full-size tensor, and the backward part keeps four of them
// (x, x^2, the tanh and 1 + tanh). The importer recognizes the formula in
// the TOSA it made and replaces it with one kernel whose derivative reads
// only x (ActivationKernels.h), as PyTorch's gelu backward does.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

#include "remat/Tosa/ActivationKernels.h"
#include "remat/Tosa/Builder.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;
using namespace remat;

namespace {

bool isSplat(Value v, double expected) {
  std::optional<double> value = splatValue(v);
  return value && std::abs(*value - expected) <= 1e-6 * std::abs(expected);
}

/// The two operands of the tosa.mul or tosa.add defining `v`, if one does.
template <typename OpTy>
std::optional<std::pair<Value, Value>> operandsOf(Value v) {
  auto op = v.getDefiningOp<OpTy>();
  if (!op)
    return std::nullopt;
  return std::make_pair(op->getOperand(0), op->getOperand(1));
}

/// `v` is (splat `c`) * y or y * (splat `c`): returns y.
Value scaled(Value v, double c) {
  auto ops = operandsOf<tosa::MulOp>(v);
  if (!ops)
    return nullptr;
  if (isSplat(ops->first, c))
    return ops->second;
  if (isSplat(ops->second, c))
    return ops->first;
  return nullptr;
}

/// `v` is x * (x * x), in any order of either product.
bool isCube(Value v, Value x) {
  auto outer = operandsOf<tosa::MulOp>(v);
  if (!outer)
    return false;
  for (auto [a, b] : {*outer, std::make_pair(outer->second, outer->first)}) {
    auto inner = operandsOf<tosa::MulOp>(b);
    if (a == x && inner && inner->first == x && inner->second == x)
      return true;
  }
  return false;
}

/// The x of tanh's operand sqrt(2/pi) (x + 0.044715 x^3), or null.
Value geluInput(tosa::TanhOp tanh) {
  Value sum = scaled(tanh.getInput(), kGeluTanhScale);
  auto terms = sum ? operandsOf<tosa::AddOp>(sum) : std::nullopt;
  if (!terms)
    return nullptr;
  for (auto [x, cubic] : {*terms, std::make_pair(terms->second, terms->first)})
    if (Value cube = scaled(cubic, kGeluTanhCubic); cube && isCube(cube, x))
      return x;
  return nullptr;
}

Operation *onlyUser(Value v) {
  return v.hasOneUse() ? *v.getUsers().begin() : nullptr;
}

/// The op computing 0.5 x (1 + tanh) from `tanh`, as (x (1 + t)) 0.5 or
/// (x 0.5) (1 + t) in any operand order, or null.
Operation *geluResult(tosa::TanhOp tanh, Value x) {
  auto onePlus = dyn_cast_or_null<tosa::AddOp>(onlyUser(tanh));
  if (!onePlus ||
      !isSplat(onePlus->getOperand(onePlus->getOperand(0) == tanh ? 1 : 0),
               1.0))
    return nullptr;
  auto product = dyn_cast_or_null<tosa::MulOp>(onlyUser(onePlus));
  if (!product)
    return nullptr;
  Value other = product->getOperand(product->getOperand(0) == onePlus ? 1 : 0);
  if (other == x) {
    auto half = dyn_cast_or_null<tosa::MulOp>(onlyUser(product));
    return half && scaled(half.getResult(), 0.5) == product.getResult()
               ? half.getOperation()
               : nullptr;
  }
  return scaled(other, 0.5) == x ? product.getOperation() : nullptr;
}

/// Erases `op` and, recursively, the producers of its operands that are
/// left without uses.
void eraseDeadChain(Operation *op) {
  SmallVector<Operation *> worklist = {op};
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    if (!dead->use_empty())
      continue;
    SmallVector<Value> operands(dead->getOperands());
    dead->erase();
    for (Value operand : operands)
      if (Operation *def = operand.getDefiningOp();
          def && def->use_empty() && isa<tosa::MulOp, tosa::AddOp,
                                         tosa::TanhOp>(def))
        worklist.push_back(def);
  }
}

} // namespace

void onnx_import::fuseTanhGelu(func::FuncOp func) {
  SmallVector<tosa::TanhOp> tanhs;
  func.walk([&](tosa::TanhOp tanh) { tanhs.push_back(tanh); });
  for (tosa::TanhOp tanh : tanhs) {
    Value x = geluInput(tanh);
    if (!x || x.getType() != tanh.getType() ||
        !cast<RankedTensorType>(x.getType()).getElementType().isF32())
      continue;
    Operation *result = geluResult(tanh, x);
    if (!result || result->getResult(0).getType() != x.getType())
      continue;
    OpBuilder b(result);
    Value gelu = buildTanhGelu(b, result->getLoc(), x);
    result->getResult(0).replaceAllUsesWith(gelu);
    eraseDeadChain(result);
  }
}
