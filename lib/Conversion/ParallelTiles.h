//===- ParallelTiles.h - Tile loops run across the cores --------*- C++ -*-===//
//
// The register tiles of a kernel write disjoint parts of its output along
// each parallel dimension: the loop over them can run its iterations on
// several threads (scf.parallel, lowered to an OpenMP work-sharing loop)
// with the same result, element for element, as one thread, since every
// output element is computed by the same operations in the same order.
// Nothing is allocated per thread: the tiles live in vector registers.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_CONVERSION_PARALLELTILES_H
#define REMAT_LIB_CONVERSION_PARALLELTILES_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace remat {

/// The smallest iteration space (multiply-adds of a contraction, elements
/// of an elementwise op) worth a parallel region: 2^20, ten microseconds
/// or more of one core's work, against the microseconds of starting and
/// joining the threads. At 2^16 the bundled transformer's step (no op above
/// 2^20) took 2.6 ms on two threads against 1.9 ms on one.
constexpr int64_t kMinParallelIterations = int64_t(1) << 20;

/// Replaces `loop`, which has no loop-carried values, by an scf.parallel
/// over the same range with the same body.
mlir::scf::ParallelOp runInParallel(mlir::RewriterBase &rewriter,
                                    mlir::scf::ForOp loop);

} // namespace remat

#endif // REMAT_LIB_CONVERSION_PARALLELTILES_H
