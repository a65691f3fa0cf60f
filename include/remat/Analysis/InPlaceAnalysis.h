//===- InPlaceAnalysis.h - What bufferization writes in place ---*- C++ -*-===//
//
// Which destination-passing ops of a step the lowering writes in place is
// One-Shot Bufferize's decision, not the memory model's: a destination read
// again later gets a new buffer. The memory model asks the analysis itself,
// on a copy of the step lowered as the lowering lowers it up to
// bufferization, with the lowering's options.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_ANALYSIS_INPLACEANALYSIS_H
#define REMAT_ANALYSIS_INPLACEANALYSIS_H

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace remat {

/// How the lowering (remat-to-cpu and remat-to-gpu) runs One-Shot
/// Bufferize, and the memory model's analysis with it: across function
/// boundaries, identity layouts there, and unaligned buffers (the runtime
/// aligns, so an allocation is its tensor's size).
struct StepBufferization {
  static constexpr bool kFunctionBoundaries = true;
  static constexpr mlir::bufferization::LayoutMapOption kBoundaryLayout =
      mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  static constexpr unsigned kBufferAlignment = 0;
};

/// StepBufferization as analysis options.
mlir::bufferization::OneShotBufferizationOptions stepBufferizationOptions();

/// The destination operands of `function`'s own destination-passing ops
/// (its body and the recomputations in it) that the lowering does not write
/// in place: their op's result gets a buffer of its own. Empty when the step
/// has no such op. Fails, with a diagnostic, when the lowering itself would
/// fail before bufferization.
mlir::FailureOr<llvm::DenseSet<mlir::OpOperand *>>
outOfPlaceDestinations(mlir::FunctionOpInterface function);

/// The bufferization interface models the analysis needs (linalg, tensor,
/// arith, func); registerRematDialects registers them.
void registerInPlaceAnalysisExternalModels(mlir::DialectRegistry &registry);

} // namespace remat

#endif // REMAT_ANALYSIS_INPLACEANALYSIS_H
