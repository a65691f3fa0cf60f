//===- Operators.h - Operator importers by family ---------------*- C++ -*-===//
//
// The operator importers live in one file per family; each adds its
// importers to the table (operatorTable, Importer.h). The helpers here are
// the ones several families use.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_TARGET_ONNX_OPERATORS_H
#define REMAT_LIB_TARGET_ONNX_OPERATORS_H

#include "Importer.h"

#include <limits>

namespace remat::onnx_import {

/// Elementwise math, activations and reductions (MathOperators.cpp).
void addMathOperators(llvm::StringMap<OpImporter> &table);
/// Convolutions, pools, contractions (NeuralNetworkOperators.cpp).
void addNeuralNetworkOperators(llvm::StringMap<OpImporter> &table);
/// Softmax, LogSoftmax, BatchNormalization, LayerNormalization, LRN,
/// Dropout (NormalizationOperators.cpp).
void addNormalizationOperators(llvm::StringMap<OpImporter> &table);
/// Reshapes, layout moves, constants and shapes (TensorOperators.cpp).
void addTensorOperators(llvm::StringMap<OpImporter> &table);
/// Gather, Slice, Split, Expand, Trilu (IndexingOperators.cpp).
void addIndexingOperators(llvm::StringMap<OpImporter> &table);
/// Equal, Not, Where, Cast (LogicOperators.cpp).
void addLogicOperators(llvm::StringMap<OpImporter> &table);

/// Replaces torch.onnx's nine-node tanh GELU with one kernel whose
/// derivative reads only its input (GeluFusion.cpp); run once the nodes
/// are imported.
void fuseTanhGelu(mlir::func::FuncOp func);

inline constexpr float kFloatMax = std::numeric_limits<float>::max();

/// Physical (NHWC) position of ONNX axis `axis` of a 4-D NCHW tensor.
int32_t nhwcAxis(int64_t axis);

int64_t normalizeAxis(int64_t axis, int64_t rank);

/// Fails unless the normalized `axes` are distinct and in [0, rank).
mlir::LogicalResult checkAxes(Importer &im, llvm::ArrayRef<int64_t> axes,
                              int64_t rank);

/// The axis attribute `name` (default `fallback`) of a node whose input has
/// `rank` dims, normalized; fails unless it is in range.
mlir::FailureOr<int64_t> axisAttr(Importer &im, const onnx::NodeProto &node,
                                  llvm::StringRef name, int64_t fallback,
                                  int64_t rank);

/// Defines the output as the input, in the layout it is held in.
OpImporter identity();

/// Folds an elementwise operator whose operands are all compile-time
/// integer tensors (shape arithmetic), with numpy broadcasting; nullopt when
/// one is not, or when the dims do not broadcast.
std::optional<IntConstant>
foldInts(Importer &im, const onnx::NodeProto &node,
         llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> fn);

/// The axes of a Squeeze/Unsqueeze/Reduce node, normalized against `rank`
/// and sorted: an input from `inputSinceOpset` on, an attribute before.
mlir::FailureOr<llvm::SmallVector<int64_t>>
axesOf(Importer &im, const onnx::NodeProto &node, int64_t inputSinceOpset,
       int64_t rank);

} // namespace remat::onnx_import

#endif // REMAT_LIB_TARGET_ONNX_OPERATORS_H
