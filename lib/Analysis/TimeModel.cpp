//===- TimeModel.cpp - Pricing a step's ops in seconds --------------------===//

#include "remat/Analysis/TimeModel.h"

#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;

KernelKind remat::kernelKindOf(Operation *op) {
  if (op->hasAttr(kWindowAttrName) ||
      isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
          tosa::TransposeConv2DOp>(op))
    return KernelKind::Convolution;
  if (isa<tosa::MaxPool2dOp, tosa::AvgPool2dOp>(op))
    return KernelKind::Window;
  if (isa<tosa::MatMulOp>(op))
    return KernelKind::MatrixProduct;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp>(op))
      return KernelKind::Window;
    if (linalg::isaConvolutionOpInterface(linalgOp))
      return KernelKind::Convolution;
    if (linalg::isaContractionOpInterface(linalgOp))
      return KernelKind::MatrixProduct;
  }
  return KernelKind::Streaming;
}

uint64_t remat::bytesMoved(Operation *op) {
  uint64_t total = 0;
  auto add = [&](Type type) {
    if (!isa<RankedTensorType>(type))
      return;
    if (std::optional<uint64_t> bytes = bytesOfType(type))
      total = llvm::SaturatingAdd(total, *bytes);
  };
  for (Type type : op->getOperandTypes())
    add(type);
  for (Type type : op->getResultTypes())
    add(type);
  return total;
}

void remat::applyTimeModel(GraphProgram &graph, const TargetTime &time) {
  Program &program = graph.program;
  program.costPerSecond = time.peakFlopsPerSecond;
  for (OpId id = 0; id < program.ops.size(); ++id) {
    OpInfo &info = program.ops[id];
    Operation *op = graph.ops[id];
    // An abstract op has no kernel to time: its stated FLOPs are its cost,
    // at the peak rate.
    if (info.flops == 0 || isa<AbstractOp>(op))
      continue;
    info.cost = time.cost(kernelKindOf(op), info.flops, bytesMoved(op));
  }
}
