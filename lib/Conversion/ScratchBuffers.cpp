//===- ScratchBuffers.cpp - What remat-convert-to-linalg allocates --------===//
//
// One function per op: the buffers its lowering allocates beyond its result,
// in allocation order, as one-shot bufferization leaves them (each
// tensor.empty, tensor.pad or transposed operand the lowering writes becomes
// one memref.alloc, freed after the op). test/Conversion/scratch-buffers.mlir
// prints them; test/E2E/scratch-buffers.test runs them and compares the
// measured bytes with the model's.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/ScratchBuffers.h"

#include "remat/Interfaces/ScratchBuffersOpInterface.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace remat;

namespace {

using Buffers = SmallVector<RankedTensorType>;

RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) {
  return RankedTensorType::get(shape, element);
}

/// tensor.pad of `input` by `pad` ((before, after) per spatial dimension of
/// an N...C tensor); nothing when there is no padding.
void addPaddedCopy(Buffers &buffers, Value input, ArrayRef<int64_t> pad) {
  auto type = cast<RankedTensorType>(input.getType());
  if (llvm::all_of(pad, [](int64_t p) { return p == 0; }))
    return;
  SmallVector<int64_t> shape(type.getShape());
  for (size_t i = 0; i < pad.size() / 2; ++i)
    if (!ShapedType::isDynamic(shape[1 + i]))
      shape[1 + i] += pad[2 * i] + pad[2 * i + 1];
  buffers.push_back(tensorOf(shape, type.getElementType()));
}

/// A 2-D convolution read in place (Remat's window kernel) needs nothing;
/// upstream's lowering pads the input.
Buffers conv2dScratch(tosa::Conv2DOp conv) {
  Buffers buffers;
  if (!lowersWithoutPaddedCopy(conv))
    addPaddedCopy(buffers, conv.getInput(), conv.getPad());
  return buffers;
}

/// linalg.conv_3d_ndhwc_dhwcf wants the [OC,KD,KH,KW,IC] kernel transposed
/// to [KD,KH,KW,IC,OC].
Buffers conv3dScratch(tosa::Conv3DOp conv) {
  Buffers buffers;
  addPaddedCopy(buffers, conv.getInput(), conv.getPad());
  auto weight = cast<RankedTensorType>(conv.getWeight().getType());
  ArrayRef<int64_t> w = weight.getShape();
  buffers.push_back(
      tensorOf({w[1], w[2], w[3], w[4], w[0]}, weight.getElementType()));
  return buffers;
}

/// linalg.depthwise_conv_2d_nhwc_hwcm accumulates into [N,OH,OW,C,M] of
/// the accumulator type (cast to the result's element type when they
/// differ), then the bias is added into the [N,OH,OW,C*M] result.
Buffers depthwiseScratch(tosa::DepthwiseConv2DOp conv) {
  Buffers buffers;
  addPaddedCopy(buffers, conv.getInput(), conv.getPad());
  auto result = cast<RankedTensorType>(conv.getType());
  ArrayRef<int64_t> y = result.getShape();
  ArrayRef<int64_t> w =
      cast<RankedTensorType>(conv.getWeight().getType()).getShape();
  SmallVector<int64_t> shape = {y[0], y[1], y[2], w[2], w[3]};
  buffers.push_back(tensorOf(shape, conv.getAccType()));
  if (conv.getAccType() != result.getElementType())
    buffers.push_back(tensorOf(shape, result.getElementType()));
  return buffers;
}

/// The [KH,KW] window tensor linalg's pooling ops read their sizes from.
RankedTensorType windowOf(Value input, ArrayRef<int64_t> kernel) {
  return tensorOf(kernel, getElementTypeOrSelf(input.getType()));
}

Buffers maxPoolScratch(tosa::MaxPool2dOp pool) {
  Buffers buffers;
  addPaddedCopy(buffers, pool.getInput(), pool.getPad());
  buffers.push_back(windowOf(pool.getInput(), pool.getKernel()));
  return buffers;
}

/// A sum pooling into an accumulator of the result's shape, then the
/// division (by the number of real elements in each window) into the result.
Buffers avgPoolScratch(tosa::AvgPool2dOp pool) {
  Buffers buffers;
  addPaddedCopy(buffers, pool.getInput(), pool.getPad());
  buffers.push_back(tensorOf(cast<RankedTensorType>(pool.getType()).getShape(),
                             pool.getAccType()));
  buffers.push_back(windowOf(pool.getInput(), pool.getKernel()));
  return buffers;
}

/// The running maximum beside the running index.
Buffers argMaxScratch(tosa::ArgMaxOp argmax) {
  return {tensorOf(cast<RankedTensorType>(argmax.getType()).getShape(),
                   getElementTypeOrSelf(argmax.getInput().getType()))};
}

/// A resize that broadcasts a height or width of 1 to more is lowered as a
/// resize that keeps those dimensions at 1, then a broadcast into the
/// result: the first resize's result, [N, OH or 1, OW or 1, C], is a
/// buffer of its own, unless it has the input's shape with both dimensions
/// at 1 (that resize folds away).
Buffers resizeScratch(tosa::ResizeOp resize) {
  auto in = cast<RankedTensorType>(resize.getInput().getType());
  auto out = cast<RankedTensorType>(resize.getType());
  ArrayRef<int64_t> is = in.getShape(), os = out.getShape();
  bool broadcastH = is[1] == 1 && os[1] != 1;
  bool broadcastW = is[2] == 1 && os[2] != 1;
  if (!broadcastH && !broadcastW)
    return {};
  SmallVector<int64_t> shape = {os[0], is[1] == 1 ? 1 : os[1],
                                is[2] == 1 ? 1 : os[2], os[3]};
  if (shape[1] == 1 && shape[2] == 1 && ArrayRef<int64_t>(shape) == is)
    return {};
  return {tensorOf(shape, out.getElementType())};
}

template <typename OpTy, Buffers (*Fn)(OpTy)>
struct FunctionScratchModel
    : ScratchBuffersOpInterface::ExternalModel<FunctionScratchModel<OpTy, Fn>,
                                               OpTy> {
  Buffers getScratchBufferTypes(Operation *op) const {
    return Fn(cast<OpTy>(op));
  }
};

} // namespace

void remat::registerScratchBufferModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tosa::TosaDialect *) {
    tosa::Conv2DOp::attachInterface<
        FunctionScratchModel<tosa::Conv2DOp, conv2dScratch>>(*context);
    tosa::Conv3DOp::attachInterface<
        FunctionScratchModel<tosa::Conv3DOp, conv3dScratch>>(*context);
    tosa::DepthwiseConv2DOp::attachInterface<
        FunctionScratchModel<tosa::DepthwiseConv2DOp, depthwiseScratch>>(
        *context);
    tosa::MaxPool2dOp::attachInterface<
        FunctionScratchModel<tosa::MaxPool2dOp, maxPoolScratch>>(*context);
    tosa::AvgPool2dOp::attachInterface<
        FunctionScratchModel<tosa::AvgPool2dOp, avgPoolScratch>>(*context);
    tosa::ArgMaxOp::attachInterface<
        FunctionScratchModel<tosa::ArgMaxOp, argMaxScratch>>(*context);
    tosa::ResizeOp::attachInterface<
        FunctionScratchModel<tosa::ResizeOp, resizeScratch>>(*context);
  });
}
