//===- TosaWindowGradients.cpp - Derivatives of convolutions and pools ----===//
//
// conv2d (NHWC input x, OHWI weight w, stride s, dilation d, padding
// t/b/l/r; TOSA guarantees that (H-1+t+b-(KH-1)d) divides by s):
//
//   dw[o,kh,kw,c] = sum_{n,y,x} g[n,y,x,o] xpad[n, y*s+kh*d, x*s+kw*d, c]
//     = conv2d(x^T, g^T) with stride d and dilation s, transposed back,
//       where x^T = transpose(x, [3,1,2,0]) (batch c, channels n) and
//       g^T = transpose(g, [3,1,2,0]) (an O x OH x OW x N kernel);
//   dx = conv2d(dilate(g, s), w') with dilation d and padding
//       ((KH-1)d - t, (KH-1)d - b, ...), w' = transpose(reverse(w, 1, 2),
//       [3,1,2,0]); negative padding crops dilate(g, s) instead;
//   db = sum_{n,y,x} g.
//
// Pools: with Q = OH + (K-1)d/s rows of s, the padded input seen as
// [N, Q, s, Q', s', C] holds the element window (y, x) reads at offset
// (kh, kw) in row (y + kh*d/s, kh*d%s) and column (x + kw*d/s, kw*d%s)
// (d: dilation, 1 for pools). A slice per
// offset gathers what the windows read; a pad per offset scatters their
// adjoint back. max_pool2d passes the adjoint to the elements equal to the
// window's maximum (every one of them on ties); avg_pool2d divides it by
// the window's count of non-padding elements, as TOSA averages.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"

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
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w), gs = shapeOf(g);
  Window2d fwd = windowOf(conv.getPad(), conv.getStride(), conv.getDilation(),
                          ws[1], ws[2]);

  if (r.needed[0]) {
    auto [z, bwd] = inputGradientWindow(tb, g, fwd);
    Value flipped = tb.transpose(flipKernel(tb, w, 1, 2), {3, 1, 2, 0});
    Value dx = tb.conv2d(z, flipped, tb.splat({xs[3]}, 0.0), bwd);
    if (shapeOf(dx) != xs)
      return r.op->emitError("conv2d input gradient has shape mismatch");
    r.set(0, dx);
  }
  if (r.needed[1]) {
    Value xt = tb.transpose(x, {3, 1, 2, 0});
    Value gt = tb.transpose(g, {3, 1, 2, 0});
    Window2d bwd;
    bwd.pad = fwd.pad;
    bwd.stride = fwd.dilation;
    bwd.dilation = fwd.stride;
    Value dwt = tb.conv2d(xt, gt, tb.splat({gs[3]}, 0.0), bwd);
    Value dw = tb.transpose(dwt, {3, 1, 2, 0});
    if (shapeOf(dw) != ws)
      return r.op->emitError("conv2d weight gradient has shape mismatch");
    r.set(1, dw);
  }
  if (r.needed[2]) {
    Value db = tb.reduceSum(tb.reduceSum(tb.reduceSum(g, 0), 1), 2);
    r.set(2, tb.reshape(db, shapeOf(conv.getBias())));
  }
  return success();
}

/// The geometry shared by the pool rules and the depthwise weight rule.
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

  /// Scatters [N, OH, OW, C] to offset (i, j) of the grid and adds it to
  /// `acc`.
  Value scatterAdd(TosaBuilder &tb, Value acc, Value v, int64_t i,
                   int64_t j) const {
    SmallVector<int64_t> lo = start(i, j);
    SmallVector<int64_t> hi = {0, qh - oh - lo[1], sh - 1 - lo[2],
                               qw - ow - lo[3], sw - 1 - lo[4], 0};
    Value placed = tb.pad(tb.reshape(v, {n, oh, 1, ow, 1, c}), lo, hi);
    return acc ? tb.add(acc, placed) : placed;
  }

  /// The grid back to the unpadded input.
  Value ungrid(TosaBuilder &tb, Value acc) const {
    Value v = tb.reshape(acc, {n, qh * sh, qw * sw, c});
    return tb.slice(v, {0, top, left, 0}, {n, h, w, c});
  }
};

LogicalResult maxPoolRule(GradientRequest &r) {
  TosaBuilder &tb = r.tosa;
  auto pool = cast<tosa::MaxPool2dOp>(r.op);
  Value x = pool.getInput(), y = pool.getResult(), g = r.grad();
  WindowGrid grid(x, y, pool.getKernel(), pool.getStride(), pool.getPad());
  Value cells = grid.gridOf(tb, x, -std::numeric_limits<float>::infinity());
  Value zero = tb.scalarLike(g, 0.0);
  Value acc;
  for (int64_t i = 0; i < grid.kh; ++i)
    for (int64_t j = 0; j < grid.kw; ++j) {
      Value isMax = tb.equal(grid.gather(tb, cells, i, j), y);
      acc = grid.scatterAdd(tb, acc, tb.select(isMax, g, zero), i, j);
    }
  r.set(0, grid.ungrid(tb, acc));
  return success();
}

LogicalResult avgPoolRule(GradientRequest &r) {
  TosaBuilder &tb = r.tosa;
  auto pool = cast<tosa::AvgPool2dOp>(r.op);
  Value x = pool.getInput(), g = r.grad();
  WindowGrid grid(x, pool.getResult(), pool.getKernel(), pool.getStride(),
                pool.getPad());
  // 1 / (non-padding elements of each window), a compile-time constant.
  SmallVector<float> inverse;
  for (int64_t oy = 0; oy < grid.oh; ++oy)
    for (int64_t ox = 0; ox < grid.ow; ++ox) {
      auto count = [](int64_t o, int64_t s, int64_t pad, int64_t k,
                      int64_t size) {
        int64_t begin = o * s - pad;
        return std::min(begin + k, size) - std::max<int64_t>(begin, 0);
      };
      int64_t cy = count(oy, grid.sh, grid.top, grid.kh, grid.h);
      int64_t cx = count(ox, grid.sw, grid.left, grid.kw, grid.w);
      inverse.push_back(1.0f / static_cast<float>(cy * cx));
    }
  Value scale = tb.constant(DenseElementsAttr::get(
      tb.type({1, grid.oh, grid.ow, 1}), ArrayRef<float>(inverse)));
  Value share = tb.mul(g, scale);
  Value acc;
  for (int64_t i = 0; i < grid.kh; ++i)
    for (int64_t j = 0; j < grid.kw; ++j)
      acc = grid.scatterAdd(tb, acc, share, i, j);
  r.set(0, grid.ungrid(tb, acc));
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
