//===- TosaWindowGradients.cpp - Derivatives of convolutions and pools ----===//
//
// conv2d (NHWC input x, OHWI weight w, stride s, dilation d, padding
// t/b/l/r): the input and weight adjoints are single contractions
// (WindowKernels.h) that read x and g in place, padding included, and
// the weight in the layout it is stored in; db = sum_{n,y,x} g.
//
// depthwise_conv2d's input adjoint is a stride-1 convolution of the
// stride-dilated adjoint with the flipped kernel (negative padding crops).
//
// Pools: the input adjoint is one kernel (WindowKernels.h) that gathers,
// for each input element, the adjoint of every window reading it: a max
// pool's goes to the elements equal to the window's maximum (every one of
// them on ties); an average pool's is divided by the window's count of
// non-padding elements, as TOSA averages.
//
// depthwise_conv2d's weight adjoint: with Q = OH + (K-1)d/s rows of s, the
// padded input seen as [N, Q, s, Q', s', C] holds the element window (y, x)
// reads at offset (kh, kw) in row (y + kh*d/s, kh*d%s) and column
// (x + kw*d/s, kw*d%s); a slice per offset gathers what the windows read.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <limits>

using namespace mlir;
using namespace remat;

namespace {

/// [N,H,W,C] -> [N,(H-1)s+1,(W-1)s'+1,C] with s-1 zeros between elements.
Value dilate(TosaBuilder &tb, Value g, std::array<int64_t, 2> s) {
  if (s[0] == 1 && s[1] == 1)
    return g;
  ArrayRef<int64_t> in = shapeOf(g);
  int64_t n = in[0], h = in[1], w = in[2], c = in[3];
  Value v = tb.reshape(g, {n, h, 1, w, 1, c});
  v = tb.pad(v, {0, 0, 0, 0, 0, 0}, {0, 0, s[0] - 1, 0, s[1] - 1, 0});
  v = tb.reshape(v, {n, h * s[0], w * s[1], c});
  return tb.slice(v, {0, 0, 0, 0},
                  {n, (h - 1) * s[0] + 1, (w - 1) * s[1] + 1, c});
}

/// The kernel `w` reversed along its spatial axes `kh` and `kw`. A kernel
/// transposed from the layout its parameter is held in is reversed there
/// and transposed once, so the backward does not keep the forward's
/// transposed copy.
Value flipKernel(TosaBuilder &tb, Value w, int32_t kh, int32_t kw) {
  auto stored = w.getDefiningOp<tosa::TransposeOp>();
  if (!stored)
    return tb.reverse(tb.reverse(w, kh), kw);
  ArrayRef<int32_t> perms = stored.getPerms();
  Value held = stored.getInput1();
  return tb.transpose(tb.reverse(tb.reverse(held, perms[kh]), perms[kw]),
                      perms);
}

Window2d windowOf(ArrayRef<int64_t> pad, ArrayRef<int64_t> stride,
                  ArrayRef<int64_t> dilation, int64_t kh, int64_t kw) {
  Window2d win;
  win.kernel = {kh, kw};
  win.pad = {pad[0], pad[1], pad[2], pad[3]};
  win.stride = {stride[0], stride[1]};
  win.dilation = {dilation[0], dilation[1]};
  return win;
}

/// The input adjoint of a convolution with window `fwd` is a stride-1
/// convolution of the stride-dilated output adjoint `g` with the flipped
/// kernel; returns that convolution's input and window (negative padding
/// crops the input instead).
std::pair<Value, Window2d> inputGradientWindow(TosaBuilder &tb, Value g,
                                               const Window2d &fwd) {
  Value z = dilate(tb, g, fwd.stride);
  ArrayRef<int64_t> zs = shapeOf(z);
  int64_t spanH = (fwd.kernel[0] - 1) * fwd.dilation[0];
  int64_t spanW = (fwd.kernel[1] - 1) * fwd.dilation[1];
  std::array<int64_t, 4> p = {spanH - fwd.pad[0], spanH - fwd.pad[1],
                              spanW - fwd.pad[2], spanW - fwd.pad[3]};
  std::array<int64_t, 4> crop;
  for (int i = 0; i < 4; ++i) {
    crop[i] = std::max<int64_t>(0, -p[i]);
    p[i] = std::max<int64_t>(0, p[i]);
  }
  z = tb.slice(z, {0, crop[0], crop[2], 0},
               {zs[0], zs[1] - crop[0] - crop[1], zs[2] - crop[2] - crop[3],
                zs[3]});
  Window2d bwd;
  bwd.pad = p;
  bwd.dilation = fwd.dilation;
  return {z, bwd};
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

/// The geometry of the depthwise weight rule.
struct WindowGrid {
  int64_t n, h, w, c, oh, ow, kh, kw, sh, sw, dh, dw, top, left, qh, qw;

  WindowGrid(Value x, Value y, ArrayRef<int64_t> kernel,
             ArrayRef<int64_t> stride, ArrayRef<int64_t> pad,
             ArrayRef<int64_t> dilation = {1, 1}) {
    ArrayRef<int64_t> xs = shapeOf(x), ys = shapeOf(y);
    n = xs[0], h = xs[1], w = xs[2], c = xs[3];
    oh = ys[1], ow = ys[2];
    kh = kernel[0], kw = kernel[1], sh = stride[0], sw = stride[1];
    dh = dilation[0], dw = dilation[1];
    top = pad[0], left = pad[2];
    qh = oh + (kh - 1) * dh / sh;
    qw = ow + (kw - 1) * dw / sw;
  }

  /// The offset's position in the [N, Q, s, Q', s', C] grid.
  SmallVector<int64_t> start(int64_t i, int64_t j) const {
    return {0, i * dh / sh, i * dh % sh, j * dw / sw, j * dw % sw, 0};
  }

  /// The input padded to the grid, as [N, Q, s, Q', s', C].
  Value gridOf(TosaBuilder &tb, Value x, double padValue) const {
    Value p = tb.pad(x, {0, top, left, 0},
                     {0, qh * sh - h - top, qw * sw - w - left, 0}, padValue);
    return tb.reshape(p, {n, qh, sh, qw, sw, c});
  }

  /// What the windows read at offset (i, j), as [N, OH, OW, C].
  Value gather(TosaBuilder &tb, Value grid, int64_t i, int64_t j) const {
    Value s = tb.slice(grid, start(i, j), {n, oh, 1, ow, 1, c});
    return tb.reshape(s, {n, oh, ow, c});
  }
};

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
/// c*M+m):
///   dx[..., c] = sum_m conv(dilate(g, s)[..., c*M+m], flip(w)[.., c, m]),
///     one depthwise conv with multiplier 1 and a sum over m;
///   dw[kh,kw,c,m] = sum_{n,y,x} g[n,y,x,c*M+m] xpad[n, y*s+kh*d,
///     x*s+kw*d, c], the windows' reads at each offset times g, summed;
///   db = sum_{n,y,x} g.
LogicalResult depthwiseConv2dRule(GradientRequest &r) {
  TosaBuilder &tb = r.tosa;
  auto conv = cast<tosa::DepthwiseConv2DOp>(r.op);
  Value x = conv.getInput(), w = conv.getWeight(), g = r.grad();
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w), gs = shapeOf(g);
  int64_t kh = ws[0], kw = ws[1], c = ws[2], m = ws[3];
  Window2d fwd = windowOf(conv.getPad(), conv.getStride(), conv.getDilation(),
                          kh, kw);

  if (r.needed[0]) {
    auto [z, bwd] = inputGradientWindow(tb, g, fwd);
    Value flipped = tb.reshape(flipKernel(tb, w, 0, 1), {kh, kw, c * m, 1});
    Value dx = tb.depthwiseConv2d(z, flipped, tb.splat({c * m}, 0.0), bwd);
    ArrayRef<int64_t> ds = shapeOf(dx);
    if (m > 1)
      dx = tb.reshape(
          tb.reduceSum(tb.reshape(dx, {ds[0], ds[1], ds[2], c, m}), 4),
          {ds[0], ds[1], ds[2], c});
    if (shapeOf(dx) != xs)
      return r.op->emitError(
          "depthwise_conv2d input gradient has shape mismatch");
    r.set(0, dx);
  }
  if (r.needed[1]) {
    WindowGrid grid(x, conv.getResult(), {kh, kw}, conv.getStride(),
                    conv.getPad(), conv.getDilation());
    Value cells = grid.gridOf(tb, x, 0.0);
    Value g5 = tb.reshape(g, {gs[0], gs[1], gs[2], c, m});
    SmallVector<Value> rows;
    for (int64_t i = 0; i < kh; ++i) {
      SmallVector<Value> row;
      for (int64_t j = 0; j < kw; ++j) {
        Value read = grid.gather(tb, cells, i, j);
        Value prod = tb.mul(tb.reshape(read, {gs[0], gs[1], gs[2], c, 1}), g5);
        Value sum = tb.reduceSum(tb.reduceSum(tb.reduceSum(prod, 0), 1), 2);
        row.push_back(tb.reshape(sum, {1, 1, c, m}));
      }
      rows.push_back(tb.concat(row, 1));
    }
    r.set(1, tb.concat(rows, 0));
  }
  if (r.needed[2]) {
    Value db = tb.reduceSum(tb.reduceSum(tb.reduceSum(g, 0), 1), 2);
    r.set(2, tb.reshape(db, shapeOf(conv.getBias())));
  }
  return success();
}

} // namespace

void remat::addTosaWindowGradients(GradientRules &rules) {
  rules.add(tosa::Conv2DOp::getOperationName(), conv2dRule);
  rules.add(tosa::DepthwiseConv2DOp::getOperationName(), depthwiseConv2dRule);
  rules.add(tosa::MaxPool2dOp::getOperationName(), maxPoolRule);
  rules.add(tosa::AvgPool2dOp::getOperationName(), avgPoolRule);
}
