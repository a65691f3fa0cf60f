//===- ArithMathCostModel.cpp - FLOPs of arith and math ops ---------------===//
//
// Elementwise: one operation per result element on tensors, one on scalars;
// constants are free (they become read-only globals).
//
//===----------------------------------------------------------------------===//

#include "ExternalCostModel.h"
#include "remat/Analysis/CostModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace remat;

namespace {

std::optional<uint64_t> elementwiseFlops(Operation *op) {
  if (isa<arith::ConstantOp>(op))
    return 0;
  std::optional<uint64_t> elements = resultElements(op);
  if (!elements)
    return std::nullopt;
  return std::max<uint64_t>(*elements, 1);
}

} // namespace

void remat::registerArithMathCostModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    detail::attachCostModel<elementwiseFlops,
#define GET_OP_LIST
#include "mlir/Dialect/Arith/IR/ArithOps.cpp.inc"
                            >(context);
  });
  registry.addExtension(+[](MLIRContext *context, math::MathDialect *) {
    detail::attachCostModel<elementwiseFlops,
#define GET_OP_LIST
#include "mlir/Dialect/Math/IR/MathOps.cpp.inc"
                            >(context);
  });
}
