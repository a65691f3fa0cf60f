//===- RematStructure.h - The remat dialect's structure, flattened -*- C++ -*-===//

#ifndef REMAT_ANALYSIS_REMATSTRUCTURE_H
#define REMAT_ANALYSIS_REMATSTRUCTURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"

namespace remat {

/// Flattens the remat ops under `root` into the upstream IR they stand for:
/// remat.recompute and remat.checkpoint bodies move in front of the op,
/// remat.name and remat.barrier become their operands, remat.backward goes.
/// remat-lower does this to the step it lowers; the memory model does it to
/// a copy of the step to ask bufferization what the lowered step does.
void flattenRematOps(mlir::Operation *root);

/// Replaces each remat.return in `func`'s body with a func.return of the
/// same operands: the terminator a remat.graph's body has once it is a
/// func.func.
void replaceRematReturns(mlir::func::FuncOp func);

/// Inlines the calls in `func`'s body to functions defined in the module,
/// as the memory model counts them (`inlinedCallee`): every op of the
/// callee takes the call's location, so remat-free-after-last-use keeps
/// the callee's buffers until the call's last op has run.
void inlineCalls(mlir::func::FuncOp func);

} // namespace remat

#endif // REMAT_ANALYSIS_REMATSTRUCTURE_H
