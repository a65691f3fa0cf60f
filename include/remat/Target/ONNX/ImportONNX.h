//===- ImportONNX.h - ONNX models to TOSA -----------------------*- C++ -*-===//
//
// Imports an ONNX model (a serialized onnx.ModelProto) as one func.func of
// TOSA ops with static shapes. The model's data inputs are the first
// arguments; every float initializer and every float ConstantOfShape output
// (the weights of the "light" models) is a further argument, a parameter,
// in order of first use, named by an `onnx.name` argument attribute.
//
// Layout: ONNX is NCHW, TOSA's convolutions and pools are NHWC. The
// importer keeps 4-D activations in NHWC from the first convolution or pool
// on, and converts a value back to NCHW (one tosa.transpose) only where an
// operator needs the ONNX layout (Flatten, Reshape, Transpose, Softmax over
// channels, a model output, ...). Convolution weights stay OIHW arguments
// and are transposed to OHWI in the function. Elementwise operators and
// Concat follow the layout of their 4-D operands.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TARGET_ONNX_IMPORTONNX_H
#define REMAT_TARGET_ONNX_IMPORTONNX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace remat {

struct OnnxImportOptions {
  /// Batch size: replaces dim 0 of every data input (0: keep the model's).
  int64_t batch = 0;
  /// Replaces the dims after the batch of the data input (empty: keep).
  llvm::SmallVector<int64_t> inputShape;
  /// BatchNormalization normalizes with the batch's statistics (training
  /// form) instead of the running mean and variance.
  bool batchNormTraining = false;
  /// Adapt the classifier head to a smaller input than the model was made
  /// for: a pooling window larger than its input pools the whole input, a
  /// Reshape to [batch, features] follows the new feature count, and a Gemm
  /// weight parameter takes the inner size of its input.
  bool adapt = false;
  /// Name of the function (default: the graph's name).
  std::string functionName;
};

/// Parses `buffer` as an ONNX model and imports it into a new module.
/// Reports errors (with the node's name) through the context's diagnostic
/// engine and returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp>
importOnnxModel(const llvm::MemoryBuffer &buffer, mlir::MLIRContext *context,
                const OnnxImportOptions &options);

/// Registers the `--import-onnx` translation and its `--onnx-*` options.
void registerImportOnnxTranslation();

} // namespace remat

#endif // REMAT_TARGET_ONNX_IMPORTONNX_H
