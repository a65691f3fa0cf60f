//===- RematStructure.h - The remat dialect's structure, flattened -*- C++ -*-===//

#ifndef REMAT_ANALYSIS_REMATSTRUCTURE_H
#define REMAT_ANALYSIS_REMATSTRUCTURE_H

#include "mlir/IR/Operation.h"

namespace remat {

/// Flattens the remat ops under `root` into the upstream IR they stand for:
/// remat.recompute and remat.checkpoint bodies move in front of the op,
/// remat.name and remat.barrier become their operands, remat.backward goes.
/// remat-lower does this to the step it lowers; the memory model does it to
/// a copy of the step to ask bufferization what the lowered step does.
void flattenRematOps(mlir::Operation *root);

} // namespace remat

#endif // REMAT_ANALYSIS_REMATSTRUCTURE_H
