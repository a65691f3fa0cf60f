//===- Step.h - The entry point of a module and its tensors -----*- C++ -*-===//
//
// Parse phase: which function remat-run calls and the tensors it takes and
// returns, checked against the options before any work.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_STEP_H
#define REMAT_TOOLS_REMATRUN_STEP_H

#include "RunOptions.h"
#include "Tensors.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace remat::run {

/// The function to run and its tensor signature.
struct Step {
  mlir::Operation *op;
  std::string entry;
  llvm::SmallVector<TensorSpec> arguments;
  llvm::SmallVector<TensorSpec> results;
};

/// The public function options.entry names, or the only one.
llvm::Expected<Step> selectStep(mlir::ModuleOp module,
                                const RunOptions &options);

/// Every output path before any work; the results are written at the end,
/// all of them or none (remat/Support/ToolFiles.h).
llvm::Error claimOutputs(const Step &step, const RunOptions &options);

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_STEP_H
