//===- ExternalCostModel.h - Attaching cost functions to op lists -*- C++ -*-//
//
// Each dialect's cost rules live in one function; this template attaches that
// function as the CostOpInterface of every op of a list (usually the
// dialect's GET_OP_LIST).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_ANALYSIS_EXTERNALCOSTMODEL_H
#define REMAT_LIB_ANALYSIS_EXTERNALCOSTMODEL_H

#include "remat/Interfaces/CostOpInterface.h"

#include "mlir/IR/MLIRContext.h"

namespace remat::detail {

using FlopsFunction = std::optional<uint64_t> (*)(mlir::Operation *);

template <FlopsFunction Fn, typename OpTy>
struct FunctionCostModel
    : CostOpInterface::ExternalModel<FunctionCostModel<Fn, OpTy>, OpTy> {
  std::optional<uint64_t> estimateFlops(mlir::Operation *op) const {
    return Fn(op);
  }
};

template <FlopsFunction Fn, typename... OpTys>
void attachCostModel(mlir::MLIRContext *context) {
  (OpTys::template attachInterface<FunctionCostModel<Fn, OpTys>>(*context),
   ...);
}

} // namespace remat::detail

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace remat {
void registerTosaCostModels(mlir::DialectRegistry &registry);
void registerLinalgCostModels(mlir::DialectRegistry &registry);
void registerArithMathCostModels(mlir::DialectRegistry &registry);
void registerTensorCostModels(mlir::DialectRegistry &registry);
} // namespace remat

#endif // REMAT_LIB_ANALYSIS_EXTERNALCOSTMODEL_H
