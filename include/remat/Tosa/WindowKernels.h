//===- WindowKernels.h - Convolutions without padded copies -*- C++ -*-===//
//
// A 2-D convolution's three contractions (the forward, the input adjoint and
// the weight adjoint) as single linalg.generic ops on NHWC tensors that read
// the padded operand through bounds checks instead of a padded copy, and the
// kernel in whatever layout it is stored in. TOSA's own convolution lowers to
// a tensor.pad of the whole input followed by a named convolution, and its
// adjoints, written in TOSA, need activation-sized transposes (the weight
// adjoint contracts over the batch, which TOSA convolutions only do over
// channels); at batch 16 on VGG-19 those copies are 200 MiB each.
//
// Each kernel carries a `remat.flops` attribute: two per multiply-add of its
// iteration domain, as the cost model prices tosa.conv2d (one per add for a
// pool's adjoint).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOSA_WINDOWKERNELS_H
#define REMAT_TOSA_WINDOWKERNELS_H

#include "remat/Tosa/Builder.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace remat {

/// Marks a convolution kernel that reads its padded operand through bounds
/// checks (remat/Tosa/WindowKernels.h) with the window it slides, so that
/// the CPU lowering can run it tap by tap over views:
/// `{remat.window = {kind = "convolution", stride = array<i64: 1, 1>,
/// dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}}`, `kind`
/// one of "convolution", "input_adjoint", "weight_adjoint".
constexpr llvm::StringLiteral kWindowAttrName = "remat.window";

/// The `kind` of `op`'s kWindowAttrName record, if it has one.
std::optional<llvm::StringRef> windowKindOf(mlir::Operation *op);

/// A convolution kernel as held in memory: `tensor` is the OHWI kernel with
/// its dimension `j` stored as dimension `perms[j]` of `tensor` (identity
/// when the kernel is used as stored; a tosa.transpose's perms when the
/// OHWI kernel is a transpose of `tensor`).
struct StoredKernel {
  mlir::Value tensor;
  std::array<int64_t, 4> perms = {0, 1, 2, 3};

  /// `kernel` itself, or the tensor it transposes.
  static StoredKernel of(mlir::Value kernel);
  /// Size of OHWI dimension `j`.
  int64_t size(int j) const;
};

/// Whether `remat-convert-to-linalg` lowers `conv` with buildConvolution
/// (and so without a padded copy of its input): a padded convolution whose
/// input, kernel, accumulator and result share one float type, with a bias
/// element per output channel. The convolution's scratch buffers
/// (ScratchBuffersOpInterface) ask the same question.
bool lowersWithoutPaddedCopy(mlir::tosa::Conv2DOp conv);

/// y[n,oh,ow,f] = bias[f] + sum_{kh,kw,c} x[n, oh*s+kh*d-t, ow*s'+kw*d'-l, c]
///                                       * w[f,kh,kw,c]
/// with x read as zero outside its bounds.
mlir::Value buildConvolution(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value x, const StoredKernel &w,
                             mlir::Value bias, const Window2d &window);

/// dx[n,ih,iw,c] = sum_{f,kh,kw} g[n,oh,ow,f] w[f,kh,kw,c] over the (oh, ow)
/// with oh*s+kh*d-t = ih and ow*s'+kw*d'-l = iw; `inputShape` is x's.
mlir::Value buildConvolutionInputAdjoint(mlir::OpBuilder &b,
                                         mlir::Location loc, mlir::Value g,
                                         const StoredKernel &w,
                                         llvm::ArrayRef<int64_t> inputShape,
                                         const Window2d &window);

/// dw[f,kh,kw,c] = sum_{n,oh,ow} g[n,oh,ow,f] x[n, oh*s+kh*d-t, ow*s'+kw*d'-l, c]
/// for an OHWI kernel of spatial size `kernel`.
mlir::Value buildConvolutionWeightAdjoint(mlir::OpBuilder &b,
                                          mlir::Location loc, mlir::Value x,
                                          mlir::Value g,
                                          std::array<int64_t, 2> kernel,
                                          const Window2d &window);

/// The adjoints of a grouped convolution in linalg.conv_2d_nhwgc_gfhwc's
/// layouts (x [N,H,W,G,C], w [G,F,KH,KW,C], y [N,OH,OW,G,F]): for each
/// group, the convolution's input and weight adjoints above.
mlir::Value buildGroupedConvolutionInputAdjoint(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value g, mlir::Value w,
    llvm::ArrayRef<int64_t> inputShape, const Window2d &window);
mlir::Value buildGroupedConvolutionWeightAdjoint(mlir::OpBuilder &b,
                                                 mlir::Location loc,
                                                 mlir::Value x, mlir::Value g,
                                                 std::array<int64_t, 2> kernel,
                                                 const Window2d &window);

/// The adjoints of a depthwise convolution (x [N,H,W,C], w [KH,KW,C,M] as
/// stored through StoredKernel's perms, y [N,OH,OW,C*M], output channel
/// c*M+m reading input channel c).
mlir::Value buildDepthwiseInputAdjoint(mlir::OpBuilder &b, mlir::Location loc,
                                       mlir::Value g, const StoredKernel &w,
                                       llvm::ArrayRef<int64_t> inputShape,
                                       const Window2d &window);
mlir::Value buildDepthwiseWeightAdjoint(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::Value x, mlir::Value g,
                                        std::array<int64_t, 2> kernel,
                                        int64_t multiplier,
                                        const Window2d &window);

/// A pool's input adjoint: dx[n,ih,iw,c] = sum over the windows (oh, ow)
/// that read (ih, iw) of share[n,oh,ow,c], taken only where x[n,ih,iw,c]
/// equals y[n,oh,ow,c] when `maxOf` is given (x, y: a max pool's input and
/// result; every element equal to the maximum gets the adjoint).
struct MaxPoolOperands {
  mlir::Value x, y;
};
mlir::Value buildPoolInputAdjoint(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value share,
                                  std::optional<MaxPoolOperands> maxOf,
                                  llvm::ArrayRef<int64_t> inputShape,
                                  const Window2d &window);

} // namespace remat

#endif // REMAT_TOSA_WINDOWKERNELS_H
