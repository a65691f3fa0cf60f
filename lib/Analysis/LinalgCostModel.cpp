//===- LinalgCostModel.cpp - FLOPs of linalg structured ops ---------------===//
//
// One rule for named ops and linalg.generic alike: the size of the iteration
// domain times the number of operations in the body (at least one, so that
// a copy or a fill counts one write per element). linalg.matmul's body is a
// multiply and an add: 2*M*N*K.
//
//===----------------------------------------------------------------------===//

#include "ExternalCostModel.h"
#include "remat/Analysis/CostModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;

namespace {

std::optional<uint64_t> linalgFlops(Operation *op) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  uint64_t domain = 1;
  for (int64_t range : linalgOp.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    domain = llvm::SaturatingMultiply(domain, static_cast<uint64_t>(range));
  }
  uint64_t bodyOps = 0;
  if (Block *body = linalgOp.getBlock())
    bodyOps = body->getOperations().size() - 1; // Not the linalg.yield.
  return llvm::SaturatingMultiply(domain, std::max<uint64_t>(bodyOps, 1));
}

} // namespace

void remat::registerLinalgCostModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    detail::attachCostModel<linalgFlops,
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
                            >(context);
  });
}
