//===- ActivationKernels.h - GELU and its adjoint as linalg kernels -*- C++ -*-===//
//
// The tanh approximation of GELU as one elementwise linalg.generic marked
// with kTanhGeluAttrName, so that its derivative rule reads only the input:
// the backward keeps x, as PyTorch's gelu backward does, instead of the
// square, the tanh and the sums of the decomposed formula.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOSA_ACTIVATIONKERNELS_H
#define REMAT_TOSA_ACTIVATIONKERNELS_H

#include "mlir/IR/Builders.h"

namespace remat {

/// sqrt(2 / pi) and the cubic coefficient of the tanh approximation.
constexpr double kGeluTanhScale = 0.7978845608028654;
constexpr double kGeluTanhCubic = 0.044715;

/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), elementwise on an f32
/// tensor: one kernel reading x as operand 0, carrying kTanhGeluAttrName.
mlir::Value buildTanhGelu(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value x);

/// The adjoint of x given x and the adjoint g of the GELU's result: one
/// kernel computing g * d/dx gelu(x).
mlir::Value buildTanhGeluGradient(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value x, mlir::Value g);

} // namespace remat

#endif // REMAT_TOSA_ACTIVATIONKERNELS_H
