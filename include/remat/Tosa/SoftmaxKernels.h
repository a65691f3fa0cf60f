//===- SoftmaxKernels.h - Softmax and its adjoint as linalg kernels -*- C++ -*-===//
//
// Softmax and log-softmax along one axis as linalg.generic kernels whose
// last op (the one producing the result) carries its axis in an attribute,
// so that the derivative rule can find it and differentiate the whole
// softmax from its result alone: the backward keeps neither the input nor
// exp(x - max), as PyTorch's softmax backward keeps only the output.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOSA_SOFTMAXKERNELS_H
#define REMAT_TOSA_SOFTMAXKERNELS_H

#include "mlir/IR/Builders.h"

namespace remat {

/// softmax(x) = exp(x - m) / s, or log-softmax(x) = x - m - log(s), along
/// `axis`, where m is the maximum along the axis and s the sum of
/// exp(x - m): three kernels (the maximum, the sum, the result); m and s
/// have the shape of x without the axis. The last kernel reads x as its
/// operand 0 and carries kSoftmaxAttrName or kLogSoftmaxAttrName.
mlir::Value buildSoftmax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                         int64_t axis, bool logOutput);

/// The adjoint of x given the softmax's result y and its adjoint g, reading
/// only y and g: y * (g - sum(g * y)) for softmax, g - exp(y) * sum(g) for
/// log-softmax (sums along the axis). Two kernels: the sum, the adjoint.
mlir::Value buildSoftmaxGradient(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value y, mlir::Value g, int64_t axis,
                                 bool logOutput);

} // namespace remat

#endif // REMAT_TOSA_SOFTMAXKERNELS_H
