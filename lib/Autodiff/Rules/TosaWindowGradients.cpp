//===- TosaWindowGradients.cpp - Derivatives of convolutions and pools ----===//
//
// conv2d (NHWC input x, OHWI weight w, stride s, dilation d, padding
// t/b/l/r): the input and weight adjoints are single contractions
// (WindowKernels.h) that read x and g in place, padding included, and
// the weight in the layout it is stored in; db = sum_{n,y,x} g.
//
// depthwise_conv2d: the same two kernels, with output channel c*M+m
// reading input channel c.
//
// Pools: the input adjoint is one kernel (WindowKernels.h) that gathers,
// for each input element, the adjoint of every window reading it: a max
// pool's goes to the elements equal to the window's maximum (every one of
// them on ties); an average pool's is divided by the window's count of
// non-padding elements, as TOSA averages.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"


using namespace mlir;
using namespace remat;

namespace {

Window2d windowOf(ArrayRef<int64_t> pad, ArrayRef<int64_t> stride,
                  ArrayRef<int64_t> dilation, int64_t kh, int64_t kw) {
  Window2d win;
  win.kernel = {kh, kw};
  win.pad = {pad[0], pad[1], pad[2], pad[3]};
  win.stride = {stride[0], stride[1]};
  win.dilation = {dilation[0], dilation[1]};
  return win;
}

LogicalResult conv2dRule(GradientRequest &r) {
  TosaBuilder &tb = r.tosa;
  auto conv = cast<tosa::Conv2DOp>(r.op);
  Value x = conv.getInput(), w = conv.getWeight(), g = r.grad();
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  Window2d fwd = windowOf(conv.getPad(), conv.getStride(), conv.getDilation(),
                          ws[1], ws[2]);

  // The weight adjoint first: it is the last reader of x in this rule, so
  // x (or its recomputed copy) need not stay live while the input adjoint,
  // an x-sized buffer, is written.
  if (r.needed[1])
    r.set(1, buildConvolutionWeightAdjoint(tb.builder(), tb.getLoc(), x, g,
                                           {ws[1], ws[2]}, fwd));
  if (r.needed[0])
    r.set(0, buildConvolutionInputAdjoint(tb.builder(), tb.getLoc(), g,
                                          StoredKernel::of(w), xs, fwd));
  if (r.needed[2]) {
    Value db = tb.reduceSum(tb.reduceSum(tb.reduceSum(g, 0), 1), 2);
    r.set(2, tb.reshape(db, shapeOf(conv.getBias())));
  }
  return success();
}

Window2d poolWindow(ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                    ArrayRef<int64_t> pad) {
  return windowOf(pad, stride, {1, 1}, kernel[0], kernel[1]);
}

LogicalResult maxPoolRule(GradientRequest &r) {
  TosaBuilder &tb = r.tosa;
  auto pool = cast<tosa::MaxPool2dOp>(r.op);
  Value x = pool.getInput();
  r.set(0, buildPoolInputAdjoint(
               tb.builder(), tb.getLoc(), r.grad(),
               MaxPoolOperands{x, pool.getResult()}, shapeOf(x),
               poolWindow(pool.getKernel(), pool.getStride(), pool.getPad())));
  return success();
}

LogicalResult avgPoolRule(GradientRequest &r) {
  TosaBuilder &tb = r.tosa;
  auto pool = cast<tosa::AvgPool2dOp>(r.op);
  Value x = pool.getInput(), g = r.grad();
  Window2d win = poolWindow(pool.getKernel(), pool.getStride(), pool.getPad());
  ArrayRef<int64_t> xs = shapeOf(x), ys = shapeOf(g);
  // 1 / (non-padding elements of each window), a compile-time constant.
  SmallVector<float> inverse;
  for (int64_t oy = 0; oy < ys[1]; ++oy)
    for (int64_t ox = 0; ox < ys[2]; ++ox) {
      auto count = [&](int d, int64_t o, int64_t size) {
        int64_t begin = o * win.stride[d] - win.pad[2 * d];
        return std::min(begin + win.kernel[d], size) -
               std::max<int64_t>(begin, 0);
      };
      inverse.push_back(
          1.0f / static_cast<float>(count(0, oy, xs[1]) * count(1, ox, xs[2])));
    }
  Value scale = tb.constant(DenseElementsAttr::get(
      tb.type({1, ys[1], ys[2], 1}), ArrayRef<float>(inverse)));
  r.set(0, buildPoolInputAdjoint(tb.builder(), tb.getLoc(), tb.mul(g, scale),
                                 std::nullopt, xs, win));
  return success();
}

/// depthwise_conv2d (NHWC input x, [KH,KW,C,M] weight w, output channel
/// c*M+m): both adjoints are in-place kernels (WindowKernels.h), the
/// weight adjoint first; db = sum_{n,y,x} g.
LogicalResult depthwiseConv2dRule(GradientRequest &r) {
  TosaBuilder &tb = r.tosa;
  auto conv = cast<tosa::DepthwiseConv2DOp>(r.op);
  Value x = conv.getInput(), w = conv.getWeight(), g = r.grad();
  ArrayRef<int64_t> ws = shapeOf(w);
  Window2d fwd = windowOf(conv.getPad(), conv.getStride(), conv.getDilation(),
                          ws[0], ws[1]);
  if (r.needed[1])
    r.set(1, buildDepthwiseWeightAdjoint(tb.builder(), tb.getLoc(), x, g,
                                         {ws[0], ws[1]}, ws[3], fwd));
  if (r.needed[0])
    r.set(0, buildDepthwiseInputAdjoint(tb.builder(), tb.getLoc(), g,
                                        StoredKernel::of(w), shapeOf(x), fwd));
  if (r.needed[2]) {
    Value db = tb.reduceSum(tb.reduceSum(tb.reduceSum(g, 0), 1), 2);
    r.set(2, tb.reshape(db, shapeOf(conv.getBias())));
  }
  return success();
}

} // namespace

REMAT_GRADIENT_RULES_FILE(addTosaWindowGradients) {
  rules.add(tosa::Conv2DOp::getOperationName(), conv2dRule);
  rules.add(tosa::DepthwiseConv2DOp::getOperationName(), depthwiseConv2dRule);
  rules.add(tosa::MaxPool2dOp::getOperationName(), maxPoolRule);
  rules.add(tosa::AvgPool2dOp::getOperationName(), avgPoolRule);
}
