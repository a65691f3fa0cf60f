//===- CostModel.h - FLOPs and recomputability of ops -----------*- C++ -*-===//

#ifndef REMAT_ANALYSIS_COSTMODEL_H
#define REMAT_ANALYSIS_COSTMODEL_H

#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace remat {

/// The cost of executing `op` once: the `remat.flops` attribute if present,
/// else the op's CostOpInterface, else one operation per element of its
/// tensor results (so that an op without a model is never free to redo).
/// Estimates saturate at 2^64-1 rather than wrap. std::nullopt when the
/// shapes are not static or the attribute is not a valid count
/// (verifyFlopsAttr says why).
std::optional<uint64_t> getFlops(mlir::Operation *op);

/// Whether the planner may execute `op` a second time: it has results, no
/// memory effects (MemoryEffectOpInterface, recursively), is not a call, is
/// not marked `remat.never`, is not one of the structural remat ops, and is
/// not a constant without a tensor or memref result (a tosa.const_shape).
bool isRecomputable(mlir::Operation *op);

/// Attaches CostOpInterface external models to the tosa, linalg, arith, math
/// and tensor ops.
void registerCostModelExternalModels(mlir::DialectRegistry &registry);

/// Number of elements of a statically shaped tensor value, or std::nullopt.
std::optional<uint64_t> staticNumElements(mlir::Type type);

/// Sum of staticNumElements over the op's tensor results (0 for ops without
/// tensor results), saturating at 2^64-1; std::nullopt if one of them is
/// dynamic.
std::optional<uint64_t> resultElements(mlir::Operation *op);

} // namespace remat

#endif // REMAT_ANALYSIS_COSTMODEL_H
