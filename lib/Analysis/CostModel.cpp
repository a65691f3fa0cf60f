//===- CostModel.cpp - FLOPs and recomputability of ops -------------------===//

#include "remat/Analysis/CostModel.h"

#include "ExternalCostModel.h"

#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Interfaces/CostOpInterface.h"
#include "remat/Support/Budget.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;

std::optional<uint64_t> remat::staticNumElements(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped)
    return std::nullopt;
  return staticElementCount(shaped.getShape());
}

std::optional<uint64_t> remat::resultElements(Operation *op) {
  uint64_t total = 0;
  for (Type type : op->getResultTypes()) {
    if (!isa<TensorType>(type))
      continue;
    std::optional<uint64_t> n = staticNumElements(type);
    if (!n)
      return std::nullopt;
    total = llvm::SaturatingAdd(total, *n);
  }
  return total;
}

std::optional<uint64_t> remat::getFlops(Operation *op) {
  if (Attribute attr = op->getAttr(kFlopsAttrName))
    return flopsAttrValue(attr);
  if (auto cost = dyn_cast<CostOpInterface>(op))
    return cost.estimateFlops();
  return resultElements(op);
}

bool remat::isRecomputable(Operation *op) {
  if (op->getNumResults() == 0 || op->hasAttr(kNeverAttrName))
    return false;
  if (isa<CallOpInterface>(op) || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (isa<BackwardOp, BarrierOp, RecomputeOp, CheckpointOp>(op))
    return false;
  // A constant of no buffer (a tosa.const_shape) costs nothing to keep, and
  // its readers need it from the constant op itself, not from a region.
  if (op->hasTrait<OpTrait::ConstantLike>() &&
      llvm::none_of(op->getResultTypes(), llvm::IsaPred<ShapedType>))
    return false;
  return isMemoryEffectFree(op);
}

void remat::registerCostModelExternalModels(DialectRegistry &registry) {
  registerTosaCostModels(registry);
  registerLinalgCostModels(registry);
  registerArithMathCostModels(registry);
  registerTensorCostModels(registry);
}
