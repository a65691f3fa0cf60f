//===- Graphs.h - Visiting the training steps under an op -------*- C++ -*-===//

#ifndef REMAT_LIB_TRANSFORMS_GRAPHS_H
#define REMAT_LIB_TRANSFORMS_GRAPHS_H

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace remat {

/// Calls `fn` on every function-like op with a body nested in or equal to
/// `root` (each is one graph), stopping at the first failure.
inline llvm::LogicalResult forEachGraph(
    mlir::Operation *root,
    llvm::function_ref<llvm::LogicalResult(mlir::FunctionOpInterface)> fn) {
  mlir::WalkResult result = root->walk([&](mlir::FunctionOpInterface graph) {
    if (graph.isExternal() || succeeded(fn(graph)))
      return mlir::WalkResult::advance();
    return mlir::WalkResult::interrupt();
  });
  return llvm::failure(result.wasInterrupted());
}

} // namespace remat

#endif // REMAT_LIB_TRANSFORMS_GRAPHS_H
