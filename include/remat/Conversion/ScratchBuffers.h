//===- ScratchBuffers.h - What remat-convert-to-linalg allocates -*- C++ -*-===//
//
// The scratch buffers (ScratchBuffersOpInterface) of the ops whose lowering
// allocates more than their results, described next to the conversion that
// lowers them.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_CONVERSION_SCRATCHBUFFERS_H
#define REMAT_CONVERSION_SCRATCHBUFFERS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace remat {

/// Attaches ScratchBuffersOpInterface to the TOSA ops whose lowering
/// (remat-convert-to-linalg: upstream's tosa-to-linalg-named and Remat's
/// window kernels) allocates temporary buffers.
void registerScratchBufferModels(mlir::DialectRegistry &registry);

} // namespace remat

#endif // REMAT_CONVERSION_SCRATCHBUFFERS_H
