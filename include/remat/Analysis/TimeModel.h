//===- TimeModel.h - Pricing a step's ops in seconds ------------*- C++ -*-===//
//
// Connects the IR to the target's roofline (remat/Planning/TargetTime.h):
// which kind of kernel the lowering emits for an op, and how many bytes it
// reads and writes. remat-plan prices every op of a step with it before
// planning, so that the solvers minimize estimated time.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_ANALYSIS_TIMEMODEL_H
#define REMAT_ANALYSIS_TIMEMODEL_H

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Planning/TargetTime.h"

#include "mlir/IR/Operation.h"

namespace remat {

/// The kind of kernel the CPU lowering emits for `op`: a matrix product for
/// linalg contractions (named or generic) and tosa.matmul; a convolution
/// for linalg convolutions, TOSA's convolutions and the window kernels of
/// WindowKernels.h; a window for TOSA's and linalg's pools; streaming for
/// everything else (a pool's adjoint kernel included).
KernelKind kernelKindOf(mlir::Operation *op);

/// Bytes `op` reads and writes: the sum of its statically shaped tensor
/// operands and results (saturating).
uint64_t bytesMoved(mlir::Operation *op);

/// Channels a convolution needs on each side to fill the lowering's vector
/// tiles: it runs tap by tap, each tap a contraction over one side's
/// channels vectorized over the other's, in tiles of 16 lanes (AVX-512's
/// f32 vector) by up to 16 reduction steps.
constexpr int64_t kVectorFillChannels = 16;

/// The share of its vector tiles a convolution fills: its fewest channels
/// on either side over kVectorFillChannels, at most 1 (1 for any other
/// op). SqueezeNet's first convolution, from 3 input channels, fills 3/16:
/// its calibrated efficiency would make it five times too cheap.
double vectorFill(mlir::Operation *op);

/// Prices every op of `graph` with `time`: OpInfo::cost becomes the op's
/// estimated time in cost units, and Program::costPerSecond the peak rate.
/// A convolution's FLOPs count divided by its vectorFill. An op of no
/// FLOPs (a view, a constant, `remat.flops = 0`) stays free;
/// a `remat.abstract` op, which has no kernel, costs its stated FLOPs.
void applyTimeModel(GraphProgram &graph, const TargetTime &time);

} // namespace remat

#endif // REMAT_ANALYSIS_TIMEMODEL_H
