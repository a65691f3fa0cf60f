//===- InPlaceAnalysis.h - What bufferization writes in place ---*- C++ -*-===//
//
// Which results share an operand's buffer in the lowered step is One-Shot
// Bufferize's decision, not the memory model's: a destination read again
// later gets a new buffer, and so does a view of a buffer that is
// overwritten before the view is read. The memory model asks the analysis
// itself, on a copy of the step lowered as the lowering lowers it up to
// bufferization, with the lowering's options.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_ANALYSIS_INPLACEANALYSIS_H
#define REMAT_ANALYSIS_INPLACEANALYSIS_H

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

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

/// Which operand buffer result `index` of `op` reuses in the memory model:
/// a view's source, a destination-passing op's destination.
using AliasOf =
    llvm::function_ref<std::optional<mlir::Value>(mlir::Operation *, unsigned)>;

/// The results of `function`'s ops (its body and the recomputations in it)
/// that `aliasOf` says reuse an operand's buffer but that the lowering gives
/// a buffer of their own: a destination read again later, a view of a
/// buffer overwritten before the view is read. Empty when the step has no
/// destination-passing op, the only ops that write into an existing buffer.
/// Fails, with a diagnostic, when the lowering itself would fail before
/// bufferization.
mlir::FailureOr<llvm::DenseSet<mlir::Value>>
copiedAliases(mlir::FunctionOpInterface function, AliasOf aliasOf);

/// Gives each destination-passing op of `function` whose destination the
/// lowering would copy (copiedAliases) that copy explicitly: a
/// tensor.empty, filled by a linalg.copy of the destination where the op
/// reads it, becomes the op's destination. The copy is then an op like any
/// other, which the model counts and a plan may move or recompute; and the
/// in-place writes left are ones no later read conflicts with, so a plan
/// that reads no value after its buffer is overwritten (InPlaceWrites.h)
/// keeps bufferization's decisions what they were. remat-schedule and
/// remat-plan run it before they build the program.
mlir::LogicalResult makeCopiesExplicit(mlir::FunctionOpInterface function,
                                       AliasOf aliasOf);

/// The bufferization interface models the analysis needs (linalg, tensor,
/// arith, func); registerRematDialects registers them.
void registerInPlaceAnalysisExternalModels(mlir::DialectRegistry &registry);

} // namespace remat

#endif // REMAT_ANALYSIS_INPLACEANALYSIS_H
