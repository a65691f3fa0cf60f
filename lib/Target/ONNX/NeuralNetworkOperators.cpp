//===- NeuralNetworkOperators.cpp - Layers --------------------------------===//
//
// The operators of neural-network layers that carry weights or windows:
// convolutions and pools (in NHWC), contractions. Normalizations and
// dropout are in NormalizationOperators.cpp.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

#include "AttributeRules.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

using onnx::NodeProto;

namespace {

//===----------------------------------------------------------------------===//
// Windows: Conv, MaxPool, AveragePool
//===----------------------------------------------------------------------===//

/// Reads kernel, strides, dilations and pads (ONNX order t, l, b, r) into a
/// TOSA window, resolving auto_pad for an input of `inH` x `inW`.
FailureOr<Window2d> readWindow(Importer &im, const NodeProto &node,
                               int64_t inH, int64_t inW,
                               std::array<int64_t, 2> kernel) {
  Window2d win;
  win.kernel = kernel;
  SmallVector<int64_t> strides = intsAttr(node, "strides");
  SmallVector<int64_t> dilations = intsAttr(node, "dilations");
  SmallVector<int64_t> pads = intsAttr(node, "pads");
  if ((!strides.empty() && strides.size() != 2) ||
      (!dilations.empty() && dilations.size() != 2) ||
      (!pads.empty() && pads.size() != 4))
    return im.error() << "only 2-D windows are supported";
  if (!strides.empty())
    win.stride = {strides[0], strides[1]};
  if (!dilations.empty())
    win.dilation = {dilations[0], dilations[1]};
  if (!pads.empty())
    win.pad = {pads[0], pads[2], pads[1], pads[3]};
  std::string autoPad = stringAttr(node, "auto_pad", "NOTSET");
  if (autoPad == "VALID") {
    win.pad = {0, 0, 0, 0};
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    int64_t in[2] = {inH, inW};
    for (int d = 0; d < 2; ++d) {
      int64_t out = (in[d] + win.stride[d] - 1) / win.stride[d];
      int64_t total = std::max<int64_t>(
          0, (out - 1) * win.stride[d] + (win.kernel[d] - 1) * win.dilation[d] +
                 1 - in[d]);
      int64_t small = total / 2, large = total - small;
      bool upper = autoPad == "SAME_UPPER";
      win.pad[2 * d] = upper ? small : large;
      win.pad[2 * d + 1] = upper ? large : small;
    }
  } else if (autoPad != "NOTSET") {
    return im.error() << "unsupported auto_pad " << autoPad;
  }
  if (intAttr(node, "ceil_mode", 0)) {
    int64_t in[2] = {inH, inW};
    for (int d = 0; d < 2; ++d) {
      int64_t span = in[d] + win.pad[2 * d] + win.pad[2 * d + 1] -
                     (win.kernel[d] - 1) * win.dilation[d] - 1;
      if (span >= 0 && span % win.stride[d]) {
        int64_t extra = win.stride[d] - span % win.stride[d];
        // ONNX drops a last window that would start in the end padding.
        if ((span / win.stride[d] + 1) * win.stride[d] < in[d] + win.pad[2 * d])
          win.pad[2 * d + 1] += extra;
      }
    }
  }
  return win;
}

/// Cuts rows/columns no window reads so that TOSA's exact-division rule
/// holds; returns the input to apply `win` to.
Value fitInput(TosaBuilder &tb, Value x, Window2d &win) {
  ArrayRef<int64_t> s = shapeOf(x);
  int64_t cutH = win.fitToStride(0, s[1]);
  int64_t cutW = win.fitToStride(1, s[2]);
  if (!cutH && !cutW)
    return x;
  return tb.slice(x, {0, 0, 0, 0}, {s[0], s[1] - cutH, s[2] - cutW, s[3]});
}

/// A convolution with G groups of several channels each, as one
/// linalg.conv_2d_nhwgc_gfhwc: the NHWC input seen as [N,H,W,G,C/G] and
/// padded, the [G*F,C/G,KH,KW] weight as [G,F,KH,KW,C/G], the bias tiled
/// into the accumulator, the [N,OH,OW,G,F] result seen as NHWC.
Value groupedConvolution(TosaBuilder &tb, Value x, Value w, Value bias,
                         int64_t groups, const Window2d &win) {
  ArrayRef<int64_t> in = shapeOf(x), ws = shapeOf(w);
  int64_t groupC = ws[1], groupO = ws[0] / groups;
  int64_t oh = win.outputSize(0, in[1]), ow = win.outputSize(1, in[2]);
  Value x5 = tb.reshape(x, {in[0], in[1], in[2], groups, groupC});
  if (llvm::any_of(win.pad, [](int64_t p) { return p != 0; }))
    x5 = tb.pad(x5, {0, win.pad[0], win.pad[2], 0, 0},
                {0, win.pad[1], win.pad[3], 0, 0});
  Value w5 = tb.transpose(
      tb.reshape(w, {groups, groupO, groupC, ws[2], ws[3]}), {0, 1, 3, 4, 2});
  Value init = tb.tile(tb.reshape(bias, {1, 1, 1, groups, groupO}),
                       {in[0], oh, ow, 1, 1});
  OpBuilder &b = tb.builder();
  Value y5 = linalg::Conv2DNhwgcGfhwcOp::create(
                 b, tb.getLoc(), TypeRange{init.getType()}, ValueRange{x5, w5},
                 ValueRange{init}, b.getI64TensorAttr(win.stride),
                 b.getI64TensorAttr(win.dilation))
                 .getResult(0);
  return tb.reshape(y5, {in[0], oh, ow, groups * groupO});
}

LogicalResult importConv(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  FailureOr<Value> x = im.nhwc(node.input(0));
  if (failed(x))
    return failure();
  FailureOr<Value> w = im.logical(node.input(1));
  if (failed(w))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(*x), ws = shapeOf(*w);
  if (ws.size() != 4)
    return im.error() << "only 2-D convolutions are supported";
  int64_t groups = intAttr(node, "group", 1);
  int64_t outC = ws[0], groupC = ws[1];
  if (xs[3] % groups || xs[3] / groups != groupC || outC % groups)
    return im.error() << "weight shape does not match " << xs[3]
                      << " input channels in " << groups << " groups";
  SmallVector<int64_t> kernelShape = intsAttr(node, "kernel_shape");
  if (!kernelShape.empty() && kernelShape != ArrayRef<int64_t>{ws[2], ws[3]})
    return im.error() << "attribute 'kernel_shape' must match the " << ws[2]
                      << "x" << ws[3] << " kernel of weight '" << node.input(1)
                      << "'";
  if (ws[2] > kMaxWindowValue || ws[3] > kMaxWindowValue)
    return im.error() << "kernel sizes above " << kMaxWindowValue
                      << " are not supported";
  FailureOr<Window2d> win = readWindow(im, node, xs[1], xs[2], {ws[2], ws[3]});
  if (failed(win))
    return failure();
  if (win->outputSize(0, xs[1]) < 1 || win->outputSize(1, xs[2]) < 1)
    return im.error() << "the kernel is larger than the padded input";
  Value bias;
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> b = im.logical(node.input(2));
    if (failed(b))
      return failure();
    if (shapeOf(*b) != ArrayRef<int64_t>{outC})
      return im.error() << "bias '" << node.input(2) << "' must be a 1-D "
                        << "tensor of " << outC
                        << " values, one per output channel, got "
                        << b->getType();
    bias = *b;
  } else {
    bias = tb.splat({outC}, 0.0);
  }
  Value input = fitInput(tb, *x, *win);
  if (groups > 1 && groupC == 1) {
    // Depthwise (M outputs per input channel): one op, the weight
    // [C*M,1,KH,KW] seen as [C,M,KH,KW] and moved to [KH,KW,C,M].
    Value kernel = tb.transpose(
        tb.reshape(*w, {groups, outC / groups, ws[2], ws[3]}), {2, 3, 0, 1});
    im.define(node.output(0), tb.depthwiseConv2d(input, kernel, bias, *win),
              true);
    return success();
  }
  Value kernel = tb.transpose(*w, {0, 2, 3, 1});
  if (groups == 1) {
    im.define(node.output(0), tb.conv2d(input, kernel, bias, *win), true);
    return success();
  }
  im.define(node.output(0), groupedConvolution(tb, input, *w, bias, groups, *win),
            true);
  return success();
}

/// Pool over the whole spatial extent: a reduction, not a window.
Value globalPool(TosaBuilder &tb, Value x, bool max) {
  ArrayRef<int64_t> s = shapeOf(x);
  if (max)
    return tb.reduceMax(tb.reduceMax(x, 1), 2);
  return tb.scale(tb.reduceSum(tb.reduceSum(x, 1), 2),
                  1.0 / static_cast<double>(s[1] * s[2]));
}

OpImporter pool(bool max) {
  return [max](Importer &im, const NodeProto &node) -> LogicalResult {
    TosaBuilder &tb = im.tosa();
    if (node.output_size() > 1 && !node.output(1).empty())
      return im.error() << "the Indices output is not supported";
    FailureOr<Value> x = im.nhwc(node.input(0));
    if (failed(x))
      return failure();
    ArrayRef<int64_t> xs = shapeOf(*x);
    SmallVector<int64_t> kernel = intsAttr(node, "kernel_shape");
    if (kernel.size() != 2)
      return im.error() << "only 2-D pooling is supported";
    FailureOr<Window2d> win =
        readWindow(im, node, xs[1], xs[2], {kernel[0], kernel[1]});
    if (failed(win))
      return failure();
    if (win->dilation != std::array<int64_t, 2>{1, 1})
      return im.error() << "dilated pooling is not supported";
    bool tooLarge = kernel[0] > xs[1] + win->pad[0] + win->pad[1] ||
                    kernel[1] > xs[2] + win->pad[2] + win->pad[3];
    if (tooLarge && !im.options().adapt)
      return im.error() << "the " << kernel[0] << "x" << kernel[1]
                        << " window is larger than its " << xs[1] << "x"
                        << xs[2]
                        << " input (the model was made for a larger input; "
                           "--onnx-adapt pools the whole input instead)";
    bool global = tooLarge || (kernel[0] == xs[1] && kernel[1] == xs[2] &&
                               win->pad == std::array<int64_t, 4>{0, 0, 0, 0});
    if (global) {
      im.define(node.output(0), globalPool(tb, *x, max), true);
      return success();
    }
    Value padded = *x;
    if (!max && intAttr(node, "count_include_pad", 0) &&
        win->pad != std::array<int64_t, 4>{0, 0, 0, 0}) {
      // ceil_mode's last window may reach past the padding: whether those
      // positions count is not pinned down, so such pools are refused.
      if (intAttr(node, "ceil_mode", 0))
        return im.error()
               << "count_include_pad=1 with ceil_mode=1 is not supported";
      // Zeros padded in as data count in every window's average.
      padded = tb.pad(*x, {0, win->pad[0], win->pad[2], 0},
                      {0, win->pad[1], win->pad[3], 0});
      win->pad = {0, 0, 0, 0};
    }
    Value input = fitInput(tb, padded, *win);
    im.define(node.output(0),
              max ? tb.maxPool2d(input, *win) : tb.avgPool2d(input, *win),
              true);
    return success();
  };
}

OpImporter globalPoolOp(bool max) {
  return [max](Importer &im, const NodeProto &node) -> LogicalResult {
    FailureOr<Value> x = im.nhwc(node.input(0));
    if (failed(x))
      return failure();
    im.define(node.output(0), globalPool(im.tosa(), *x, max), true);
    return success();
  };
}

//===----------------------------------------------------------------------===//
// Contractions: Gemm, MatMul
//===----------------------------------------------------------------------===//

LogicalResult importGemm(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  bool transA = intAttr(node, "transA", 0), transB = intAttr(node, "transB", 0);
  FailureOr<Value> a = im.logical(node.input(0));
  if (failed(a))
    return failure();
  if (shapeOf(*a).size() != 2)
    return im.error() << "input A must be 2-D";
  int64_t k = shapeOf(*a)[transA ? 0 : 1];
  const std::string &bName = node.input(1);
  if (im.options().adapt && im.isPendingParameter(bName)) {
    SmallVector<int64_t> shape(im.pendingShape(bName));
    if (shape.size() == 2 && shape[transB ? 1 : 0] != k) {
      shape[transB ? 1 : 0] = k;
      im.reshapePending(bName, shape);
    }
  }
  FailureOr<Value> bv = im.logical(bName);
  if (failed(bv))
    return failure();
  ArrayRef<int64_t> as = shapeOf(*a), bs = shapeOf(*bv);
  if (bs.size() != 2 || bs[transB ? 1 : 0] != k)
    return im.error() << "inner sizes differ: A gives " << k << ", B gives "
                      << (bs.size() != 2 ? 0 : bs[transB ? 1 : 0])
                      << (im.options().adapt
                              ? ""
                              : " (--onnx-adapt resizes a weight parameter)");
  int64_t m = as[transA ? 1 : 0], n = bs[transB ? 0 : 1];
  // Matrices as [1, rows, cols]; a transpose swaps the last two dims.
  const SmallVector<int32_t> swap = {0, 2, 1};
  Value a3 = tb.reshape(*a, {1, as[0], as[1]});
  Value b3 = tb.reshape(*bv, {1, bs[0], bs[1]});
  Value y3;
  // B^T (a weight, N x K) is held as stored when Y^T = B op(A)^T copies
  // fewer elements (op(A)^T and Y^T, batch-sized) than B^T would.
  if (transB && (transA ? 0 : m * k) + m * n < n * k)
    y3 = tb.transpose(tb.matmul(b3, transA ? a3 : tb.transpose(a3, swap)),
                      swap);
  else
    y3 = tb.matmul(transA ? tb.transpose(a3, swap) : a3,
                   transB ? tb.transpose(b3, swap) : b3);
  Value y = tb.reshape(y3, {m, n});
  float alpha = floatAttr(node, "alpha", 1.0f), beta = floatAttr(node, "beta", 1.0f);
  if (alpha != 1.0f)
    y = tb.scale(y, alpha);
  if (Importer::hasInput(node, 2) && beta != 0.0f) {
    FailureOr<Value> c = im.logical(node.input(2));
    if (failed(c))
      return failure();
    // C broadcasts to Y (unidirectionally): rank at most 2, each dim that
    // of Y or 1.
    auto cType = cast<RankedTensorType>(c->getType());
    if (cType.getRank() > 2)
      return im.error() << "input C must have rank at most 2";
    Value cv = tb.expandRank(*c, 2);
    ArrayRef<int64_t> cs = cast<RankedTensorType>(cv.getType()).getShape();
    if ((cs[0] != m && cs[0] != 1) || (cs[1] != n && cs[1] != 1))
      return im.error() << "input C does not broadcast to the " << m << "x"
                        << n << " result";
    if (beta != 1.0f)
      cv = tb.scale(cv, beta);
    y = tb.add(y, cv);
  }
  im.define(node.output(0), y);
  return success();
}

LogicalResult importMatMul(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  FailureOr<Value> a = im.logical(node.input(0));
  FailureOr<Value> b = failed(a) ? a : im.logical(node.input(1));
  if (failed(b))
    return failure();
  SmallVector<int64_t> as(shapeOf(*a)), bs(shapeOf(*b));
  bool vecA = as.size() == 1, vecB = bs.size() == 1;
  Value lhs = vecA ? tb.reshape(*a, {1, as[0]}) : *a;
  Value rhs = vecB ? tb.reshape(*b, {bs[0], 1}) : *b;
  as.assign(shapeOf(lhs).begin(), shapeOf(lhs).end());
  bs.assign(shapeOf(rhs).begin(), shapeOf(rhs).end());
  int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    return im.error() << "inner sizes differ: " << k << " and "
                      << bs[bs.size() - 2];
  SmallVector<int64_t> batchA(as.begin(), as.end() - 2),
      batchB(bs.begin(), bs.end() - 2);
  size_t rank = std::max(batchA.size(), batchB.size());
  batchA.insert(batchA.begin(), rank - batchA.size(), 1);
  batchB.insert(batchB.begin(), rank - batchB.size(), 1);
  SmallVector<int64_t> batch;
  for (auto [x, y] : llvm::zip(batchA, batchB)) {
    if (x != y && x != 1 && y != 1)
      return im.error() << "batch dims do not broadcast";
    batch.push_back(std::max(x, y));
  }
  int64_t nb = numElements(batch);
  Value y;
  if (numElements(batchB) == 1) {
    // One right-hand matrix: fold the batch into the rows.
    y = tb.matmul(tb.reshape(lhs, {1, numElements(batchA) * m, k}),
                  tb.reshape(rhs, {1, k, n}));
  } else {
    SmallVector<int64_t> fullA(batch), fullB(batch);
    fullA.append({m, k});
    fullB.append({k, n});
    y = tb.matmul(tb.reshape(tb.broadcastTo(lhs, fullA), {nb, m, k}),
                  tb.reshape(tb.broadcastTo(rhs, fullB), {nb, k, n}));
  }
  SmallVector<int64_t> shape(batch);
  if (!vecA)
    shape.push_back(m);
  if (!vecB)
    shape.push_back(n);
  im.define(node.output(0), tb.reshape(y, shape));
  return success();
}

} // namespace

void onnx_import::addNeuralNetworkOperators(llvm::StringMap<OpImporter> &t) {
  t["Conv"] = importConv;
  t["MaxPool"] = pool(true);
  t["AveragePool"] = pool(false);
  t["GlobalAveragePool"] = globalPoolOp(false);
  t["GlobalMaxPool"] = globalPoolOp(true);
  t["Gemm"] = importGemm;
  t["MatMul"] = importMatMul;
}
