//===- LinalgLowering.h - TOSA and elementwise ops to linalg ----*- C++ -*-===//

#ifndef REMAT_TOSA_LINALGLOWERING_H
#define REMAT_TOSA_LINALGLOWERING_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace remat {

/// Converts every TOSA op under `root` to linalg, tensor and arith, and
/// elementwise arith/math ops on tensors to linalg.generic, each writing
/// into a new tensor.empty; padded float convolutions read their input in
/// place (WindowKernels.h), and scatter-add kernels become loops over the
/// positions (ScatterKernels.h). Nothing is folded: the memory model counts every
/// op as written. What remat-convert-to-linalg runs, and what the memory
/// model runs on a copy of a step to ask bufferization about it.
mlir::LogicalResult convertToLinalg(mlir::Operation *root);

} // namespace remat

#endif // REMAT_TOSA_LINALGLOWERING_H
