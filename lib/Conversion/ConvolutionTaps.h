//===- ConvolutionTaps.h - Convolutions as contractions over views -*- C++
//-*-===//
//
// A 2-D convolution on buffers (the forward, input-adjoint and weight-adjoint
// kernels of remat/Tosa/WindowKernels.h, or an unpadded
// linalg.conv_2d_nhwc_fhwc) run as loops over kernel taps around one
// contraction over every output the taps reach (the forward and the input
// adjoint), or over output rows and kernel taps around one contraction over
// channels per run of output columns that read through the same taps (the
// weight adjoint). Every operand of a contraction is a memref.subview of a
// buffer the op already had: nothing is allocated, and padding costs no
// work, since a tap's loops cover only the outputs it reaches inside the
// input.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_CONVERSION_CONVOLUTIONTAPS_H
#define REMAT_LIB_CONVERSION_CONVOLUTIONTAPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace remat {

/// Outputs [begin, end) along one spatial dimension that read the input
/// through the same kernel taps [tapBegin, tapEnd), all inside the input.
struct TapRun {
  int64_t begin, end, tapBegin, tapEnd;

  bool operator==(const TapRun &other) const {
    return begin == other.begin && end == other.end &&
           tapBegin == other.tapBegin && tapEnd == other.tapEnd;
  }
};

/// The runs of `outputs` positions of a window with `kernel` taps, stride,
/// dilation and leading padding `pad` over an input of size `inputs`, in
/// order; positions that no tap reaches inside the input are in no run.
llvm::SmallVector<TapRun> tapRuns(int64_t outputs, int64_t inputs,
                                  int64_t kernel, int64_t stride,
                                  int64_t dilation, int64_t pad);

/// The same pairs grouped the other way: per kernel tap, the outputs that
/// read through it inside the input, consecutive taps with the same
/// outputs in one run, in order of taps.
llvm::SmallVector<TapRun> tapSpans(int64_t outputs, int64_t inputs,
                                   int64_t kernel, int64_t stride,
                                   int64_t dilation, int64_t pad);

/// What splitConvolution made.
struct SplitConvolution {
  /// The contractions on views: one per pair of spans of kernel rows and
  /// columns (forward, input adjoint), per run of output columns (weight
  /// adjoint).
  llvm::SmallVector<mlir::linalg::LinalgOp> contractions;
  /// What the op computed ("convolution", "input_adjoint",
  /// "weight_adjoint").
  std::string kind;
  /// With `shareable`: a loop whose iterations write disjoint parts of the
  /// op's output, each element by the same operations in the same order as
  /// without it, for the caller to run in parallel: the loop over chunks of
  /// the output's channels (the filters of the convolution and its weight
  /// adjoint, the input channels of the input adjoint), around the whole
  /// nest, whose taps and rows add into outputs that other taps and rows
  /// add into too; a convolution whose filters do not split into chunks of
  /// a vector or more shares its loop over output rows instead (each
  /// writes a row of its own), an adjoint nothing (null).
  mlir::scf::ForOp shareableLoop;
  /// Whether shareableLoop runs over output rows.
  bool sharesRows = false;
};

/// Replaces `op` by loops over views and contractions when it is a
/// convolution this file knows on statically shaped float buffers; fails,
/// leaving `op` as it is, otherwise. With `shareable`, the loops include
/// SplitConvolution::shareableLoop where the op has one.
mlir::FailureOr<SplitConvolution> splitConvolution(mlir::RewriterBase &rewriter,
                                                   mlir::linalg::LinalgOp op,
                                                   bool shareable);

} // namespace remat

#endif // REMAT_LIB_CONVERSION_CONVOLUTIONTAPS_H
