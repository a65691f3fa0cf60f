//===- Graphs.h - Visiting the training steps under an op -------*- C++ -*-===//

#ifndef REMAT_LIB_TRANSFORMS_GRAPHS_H
#define REMAT_LIB_TRANSFORMS_GRAPHS_H

#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace remat {

/// Whether the passes plan `function` as a training step: a function-like op
/// with a body that is a `remat.graph`, holds a `remat.backward` marker, or
/// is public (an entry point, also a forward-only one). A private or nested
/// function without a marker is a helper that steps call: its ops are not a
/// step's program, so it is neither planned nor held to a budget.
inline bool isStep(mlir::FunctionOpInterface function) {
  if (function.isExternal())
    return false;
  if (mlir::isa<GraphOp>(function) || function.isPublic())
    return true;
  return function
      ->walk([](BackwardOp) { return mlir::WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The steps (isStep) nested in or equal to `root`, in walk order.
inline llvm::SmallVector<mlir::FunctionOpInterface>
collectSteps(mlir::Operation *root) {
  llvm::SmallVector<mlir::FunctionOpInterface> steps;
  root->walk([&](mlir::FunctionOpInterface function) {
    if (isStep(function))
      steps.push_back(function);
  });
  return steps;
}

/// Calls `fn` on every step (isStep) nested in or equal to `root`, stopping
/// at the first failure.
inline llvm::LogicalResult forEachGraph(
    mlir::Operation *root,
    llvm::function_ref<llvm::LogicalResult(mlir::FunctionOpInterface)> fn) {
  for (mlir::FunctionOpInterface step : collectSteps(root))
    if (failed(fn(step)))
      return llvm::failure();
  return llvm::success();
}

} // namespace remat

#endif // REMAT_LIB_TRANSFORMS_GRAPHS_H
