//===- Losses.h - The losses a training step ends with ----------*- C++ -*-===//
//
// Each loss is emitted in two parts: its value at the end of the forward
// pass, and the adjoint of the outputs it reads (the seed of the backward
// pass), emitted after the remat.backward marker from forward values the
// forward part chose to keep.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_AUTODIFF_LOSSES_H
#define REMAT_LIB_AUTODIFF_LOSSES_H

#include "remat/Tosa/Builder.h"

namespace remat {

/// The forward part of a softmax cross-entropy over the last axis of
/// `logits` [..., C] against i32 class ids `labels` [...], averaged over
/// the positions.
struct CrossEntropy {
  /// The loss, a tensor<1xf32>.
  mlir::Value loss;
  /// Per position, max + log-sum-exp of (logits - max): [..., 1]. The
  /// backward reads only this, the logits and the labels.
  mlir::Value logNormalizer;
};

/// Emits the loss with the log-sum-exp shifted by the maximum (no overflow
/// for large logits). The sum of exponentials and the label's logit are
/// each one reduction over the class axis that reads the logits directly,
/// so the loss allocates nothing the size of the logits (no shifted or
/// exponentiated copy, no one-hot tensor).
CrossEntropy emitCrossEntropy(TosaBuilder &tb, mlir::Value logits,
                              mlir::Value labels);

/// The adjoint of the logits: (softmax(logits) - onehot(labels)) / P for P
/// positions, one elementwise linalg.generic that computes the one-hot
/// term from the class index (no one-hot tensor).
mlir::Value emitCrossEntropyGradient(TosaBuilder &tb, mlir::Value logits,
                                     mlir::Value labels,
                                     mlir::Value logNormalizer);

} // namespace remat

#endif // REMAT_LIB_AUTODIFF_LOSSES_H
