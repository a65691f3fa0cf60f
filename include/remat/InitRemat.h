//===- InitRemat.h - Registration for tools and embedders -------*- C++ -*-===//
//
// What a compiler embedding Remat calls: registerRematDialects and
// registerRematPasses are enough to run the Remat passes on its own IR. The
// upstream helpers register what remat-opt and the lowering pipelines use.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_INITREMAT_H
#define REMAT_INITREMAT_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace remat {

/// The remat dialect, and the cost model attached to upstream ops as external
/// interface models.
void registerRematDialects(mlir::DialectRegistry &registry);

/// Every Remat pass and pipeline, for textual pipelines and command lines.
void registerRematPasses();

/// Upstream dialects a training step and its lowering use (func, arith,
/// math, tensor, tosa, linalg, scf, bufferization, memref, gpu, nvvm, llvm,
/// ...) and their interface extensions.
void registerUpstreamDialects(mlir::DialectRegistry &registry);

/// Upstream passes the Remat pipelines are built from.
void registerUpstreamPasses();

} // namespace remat

#endif // REMAT_INITREMAT_H
