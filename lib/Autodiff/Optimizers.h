//===- Optimizers.h - Parameter updates inside a training step --*- C++ -*-===//
//
// The optimizer step appended to a differentiated step: each parameter (and
// its optimizer state) is updated by one linalg.generic whose outputs are
// the parameter's and the state's own tensors, so that one-shot
// bufferization writes the update into the caller's (donated) buffers.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_AUTODIFF_OPTIMIZERS_H
#define REMAT_LIB_AUTODIFF_OPTIMIZERS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace remat {

enum class OptimizerKind { Sgd, Momentum, Adam };

struct OptimizerOptions {
  OptimizerKind kind = OptimizerKind::Sgd;
  double learningRate = 0.01;
  double momentum = 0.9;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
};

/// `sgd`, `momentum` or `adam`; std::nullopt for anything else.
std::optional<OptimizerKind> parseOptimizerKind(llvm::StringRef name);

/// Optimizer state tensors per parameter: 0 (sgd), 1 (momentum buffer),
/// 2 (Adam's first and second moments).
unsigned stateTensorsPerParameter(OptimizerKind kind);

/// Whether the optimizer keeps a step count (a tensor<f32>), Adam's.
inline bool hasStepCount(OptimizerKind kind) {
  return kind == OptimizerKind::Adam;
}

/// Emits `count + 1` written into `count`'s tensor.
mlir::Value emitStepCountIncrement(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Value count);

/// Emits the update of `param` from its gradient `grad`: one linalg.generic
/// whose outputs are `param` and `state` (in place), returning the updated
/// parameter followed by the updated state. `stepCount` is the incremented
/// step count (Adam only).
llvm::SmallVector<mlir::Value>
emitParameterUpdate(mlir::OpBuilder &b, mlir::Location loc,
                    const OptimizerOptions &options, mlir::Value param,
                    mlir::Value grad, mlir::ValueRange state,
                    mlir::Value stepCount);

} // namespace remat

#endif // REMAT_LIB_AUTODIFF_OPTIMIZERS_H
