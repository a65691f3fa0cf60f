//===- TimeModel.cpp - Pricing a step's ops in seconds --------------------===//

#include "remat/Analysis/TimeModel.h"

#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

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

/// vectorFill of a convolution.
static double convolutionFill(Operation *op) {
  // The channels of each NHWC activation and OHWI kernel: the last
  // dimension of every rank-4 tensor the op reads or writes, and a kernel
  // result's first (its output channels).
  int64_t channels = kVectorFillChannels;
  auto narrow = [&](Type type, bool firstToo) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getRank() != 4 || !tensor.hasStaticShape())
      return;
    channels = std::min(channels, tensor.getDimSize(3));
    if (firstToo)
      channels = std::min(channels, tensor.getDimSize(0));
  };
  for (Type type : op->getOperandTypes())
    narrow(type, /*firstToo=*/false);
  bool weightAdjoint = windowKindOf(op) == "weight_adjoint";
  for (Type type : op->getResultTypes())
    narrow(type, /*firstToo=*/weightAdjoint);
  return double(std::max<int64_t>(channels, 1)) / kVectorFillChannels;
}

double remat::vectorFill(Operation *op) {
  return kernelKindOf(op) == KernelKind::Convolution ? convolutionFill(op)
                                                     : 1;
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
    // A narrow convolution's FLOPs take as long as those of a full one
    // that fills its vectors.
    KernelKind kind = kernelKindOf(op);
    double fill = kind == KernelKind::Convolution ? convolutionFill(op) : 1;
    uint64_t flops = fill < 1 ? uint64_t(std::ceil(double(info.flops) / fill))
                              : info.flops;
    info.cost = time.cost(kind, flops, bytesMoved(op));
  }
}
