//===- RandomKernels.h - Dropout masks from a counter-based generator -*- C++ -*-===//
//
// A dropout mask as one linalg.generic that computes each element's bits
// with Philox4x32-10 (remat/Support/Philox.h) from the step's seed and the
// element's position in a stream: no state, so recomputing the mask (the
// planner may) gives the same bits.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOSA_RANDOMKERNELS_H
#define REMAT_TOSA_RANDOMKERNELS_H

#include "mlir/IR/Builders.h"

namespace remat {

/// The keep mask (i1) of a dropout with `ratio` over a tensor of `shape`:
/// element i (row-major) is kept when the Philox bits of counter
/// `offset + i` under key (`seed`, `nodeSeed`) are at least ratio * 2^32.
/// `seed` is a tensor<i32> (the step's); `nodeSeed` is fixed at compile time
/// (the ONNX node's `seed` attribute, 0 without one).
mlir::Value buildDropoutMask(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value seed, uint32_t nodeSeed,
                             llvm::ArrayRef<int64_t> shape, uint64_t offset,
                             double ratio);

} // namespace remat

#endif // REMAT_TOSA_RANDOMKERNELS_H
