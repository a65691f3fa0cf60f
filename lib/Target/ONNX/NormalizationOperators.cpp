//===- NormalizationOperators.cpp - Normalizations and dropout ------------===//
//
// Softmax and LogSoftmax, BatchNormalization, LayerNormalization, LRN, and
// Dropout in training mode.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

#include "AttributeRules.h"

#include "remat/Tosa/RandomKernels.h"
#include "remat/Tosa/SoftmaxKernels.h"

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

using onnx::NodeProto;

namespace {

//===----------------------------------------------------------------------===//
// Normalizations: Softmax, LogSoftmax, BatchNormalization, LRN
//===----------------------------------------------------------------------===//

OpImporter softmax(bool logOutput) {
  return [logOutput](Importer &im, const NodeProto &node) -> LogicalResult {
    TosaBuilder &tb = im.tosa();
    FailureOr<Value> x = im.logical(node.input(0));
    if (failed(x))
      return failure();
    SmallVector<int64_t> shape(shapeOf(*x));
    int64_t rank = shape.size();
    bool legacy = im.opset() < 13;
    int64_t axis = normalizeAxis(intAttr(node, "axis", legacy ? 1 : -1), rank);
    if (failed(checkAxes(im, axis, rank)))
      return failure();
    Value v = *x;
    if (legacy) {
      // Before opset 13: the input is coerced to 2-D at `axis`.
      int64_t outer = numElements(ArrayRef<int64_t>(shape).take_front(axis));
      v = tb.reshape(v, {outer, numElements(shape) / outer});
      axis = 1;
    }
    Value y = buildSoftmax(tb.builder(), tb.getLoc(), v, axis, logOutput);
    im.define(node.output(0), tb.reshape(y, shape));
    return success();
  };
}

LogicalResult importBatchNorm(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  FailureOr<Entry> x = im.lookup(node.input(0));
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(x->value).size();
  if (rank < 2)
    return im.error() << "input must have a channel dim";
  // The per-channel parameters broadcast along the channel dim.
  SmallVector<int64_t> paramShape(rank, 1);
  int32_t channelAxis = x->nhwc ? 3 : 1;
  int64_t channels = shapeOf(x->value)[channelAxis];
  paramShape[channelAxis] = channels;
  auto param = [&](int i) -> FailureOr<Value> {
    FailureOr<Value> v = im.logical(node.input(i));
    if (failed(v))
      return failure();
    if (numElements(shapeOf(*v)) != channels)
      return im.error() << "input " << i << " must have " << channels
                        << " elements";
    return tb.reshape(*v, paramShape);
  };
  double eps = floatAttr(node, "epsilon", 1e-5f);
  bool training =
      im.options().batchNormTraining || intAttr(node, "training_mode", 0);
  FailureOr<Value> scale = param(1);
  FailureOr<Value> bias = failed(scale) ? scale : param(2);
  if (failed(bias))
    return failure();
  Value y;
  if (training) {
    double count =
        static_cast<double>(numElements(shapeOf(x->value)) / channels);
    auto mean = [&](Value v) {
      for (int32_t d = 0; d < rank; ++d)
        if (d != channelAxis)
          v = tb.reduceSum(v, d);
      return tb.scale(v, 1.0 / count);
    };
    Value centered = tb.sub(x->value, mean(x->value));
    Value var = mean(tb.mul(centered, centered));
    Value inv = tb.rsqrt(tb.add(var, tb.scalarLike(var, eps)));
    y = tb.add(tb.mul(centered, tb.mul(inv, *scale)), *bias);
  } else {
    FailureOr<Value> mean = param(3);
    FailureOr<Value> var = failed(mean) ? mean : param(4);
    if (failed(var))
      return failure();
    Value a = tb.mul(*scale, tb.rsqrt(tb.add(*var, tb.scalarLike(*var, eps))));
    Value b = tb.sub(*bias, tb.mul(*mean, a));
    y = tb.add(tb.mul(x->value, a), b);
  }
  im.define(node.output(0), y, x->nhwc);
  return success();
}

/// LayerNormalization (opset 17): normalizes over the axes from `axis` to
/// the last, then scales and shifts; the same ops as the decomposition that
/// earlier exports write (ReduceMean, Sub, Pow, Sqrt, Div), so the same
/// gradient rules apply.
LogicalResult importLayerNorm(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  for (int i : {1, 2})
    if (node.output_size() > i && !node.output(i).empty())
      return im.error() << "the Mean and InvStdDev outputs are not supported";
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  SmallVector<int64_t> dims(shapeOf(*x));
  int64_t rank = dims.size();
  FailureOr<int64_t> axisOr = axisAttr(im, node, "axis", -1, rank);
  if (failed(axisOr))
    return failure();
  int64_t axis = *axisOr;
  SmallVector<int64_t> normalized(ArrayRef<int64_t>(dims).drop_front(axis));
  auto param = [&](int i) -> FailureOr<Value> {
    FailureOr<Value> v = im.logical(node.input(i));
    if (failed(v))
      return failure();
    if (numElements(shapeOf(*v)) != numElements(normalized))
      return im.error() << "input " << i << " must have "
                        << numElements(normalized) << " elements";
    return tb.expandRank(tb.reshape(*v, normalized), rank);
  };
  FailureOr<Value> scale = param(1);
  if (failed(scale))
    return failure();
  double count = static_cast<double>(numElements(normalized));
  auto mean = [&](Value v) {
    for (int32_t d = axis; d < rank; ++d)
      v = tb.reduceSum(v, d);
    return tb.scale(v, 1.0 / count);
  };
  Value centered = tb.sub(*x, mean(*x));
  Value var = mean(tb.mul(centered, centered));
  double eps = floatAttr(node, "epsilon", 1e-5f);
  Value inv = tb.rsqrt(tb.add(var, tb.scalarLike(var, eps)));
  Value y = tb.mul(tb.mul(centered, inv), *scale);
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> bias = param(2);
    if (failed(bias))
      return failure();
    y = tb.add(y, *bias);
  }
  im.define(node.output(0), y);
  return success();
}

/// Dropout in training mode keeps each element with probability 1 - ratio
/// and scales it by 1 / (1 - ratio). The keep mask (i1) comes from a
/// counter-based generator (Philox) keyed by the step's seed argument and
/// the node's `seed` attribute, each dropout reading its own positions of
/// the stream, so recomputing the mask gives the same bits. Outside
/// training, or with a ratio of 0, the input passes on.
LogicalResult importDropout(Importer &im, const NodeProto &node) {
  double ratio = 0.5;
  bool training = false;
  if (im.opset() < 12) {
    ratio = floatAttr(node, "ratio", 0.5f);
  } else {
    if (Importer::hasInput(node, 1)) {
      std::optional<double> r = im.constantFloat(node.input(1));
      if (!r)
        return im.error() << "the ratio must be a compile-time constant";
      ratio = *r;
    }
    if (Importer::hasInput(node, 2)) {
      std::optional<SmallVector<int64_t>> t =
          im.constantInts(node.input(2));
      if (!t || t->size() != 1)
        return im.error() << "training_mode must be a compile-time constant";
      training = t->front() != 0;
    }
  }
  if (!(ratio >= 0.0 && ratio < 1.0))
    return im.error() << "the ratio must be in [0, 1), got " << ratio;
  TosaBuilder &tb = im.tosa();
  bool drops = training && ratio > 0.0;
  bool wantsMask = node.output_size() > 1 && !node.output(1).empty();
  if (!drops && !wantsMask)
    return identity()(im, node);
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape(shapeOf(*x));
  if (!drops) {
    // The mask of a dropout that drops nothing: all true, made a splat at
    // once (element by element, a GPT-2-sized decoder's attention masks
    // took most of its import time).
    RankedTensorType maskType = tb.type(shape, tb.builder().getI1Type());
    im.define(node.output(1),
              tb.constant(DenseElementsAttr::get(maskType, true)));
    return identity()(im, node);
  }
  uint64_t offset = im.reserveRandomStream(numElements(shape));
  // The attribute is the key's second word: a fixed seed makes the node's
  // stream its own, and the step's seed still varies it from step to step.
  auto nodeSeed = static_cast<uint32_t>(intAttr(node, "seed", 0));
  Value keep = buildDropoutMask(tb.builder(), tb.getLoc(), im.dropoutSeed(),
                                nodeSeed, shape, offset, ratio);
  Value scaled = tb.scale(*x, 1.0 / (1.0 - ratio));
  im.define(node.output(0), tb.select(keep, scaled, tb.scalarLike(*x, 0.0)));
  if (wantsMask)
    im.define(node.output(1), keep);
  return success();
}

LogicalResult importLrn(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  FailureOr<Value> x = im.nhwc(node.input(0));
  if (failed(x))
    return failure();
  int64_t size = intAttr(node, "size", 0);
  if (size < 1)
    return im.error() << "size must be positive";
  double alpha = floatAttr(node, "alpha", 1e-4f), beta = floatAttr(node, "beta", 0.75f),
         bias = floatAttr(node, "bias", 1.0f);
  ArrayRef<int64_t> s = shapeOf(*x);
  // A window reaches at most C - 1 channels either side: a larger size
  // sums no more, however large the model says it is.
  int64_t lo = std::min((size - 1) / 2, s[3] - 1);
  int64_t hi = std::min(size - 1 - (size - 1) / 2, s[3] - 1);
  Value sq = tb.pad(tb.mul(*x, *x), {0, 0, 0, lo}, {0, 0, 0, hi});
  Value sum;
  for (int64_t i = 0, e = lo + hi + 1; i < e; ++i) {
    Value part = tb.slice(sq, {0, 0, 0, i}, {s[0], s[1], s[2], s[3]});
    sum = sum ? tb.add(sum, part) : part;
  }
  Value base = tb.add(tb.scale(sum, alpha / size), tb.scalarLike(sum, bias));
  Value y = tb.mul(*x, tb.pow(base, tb.scalarLike(base, -beta)));
  im.define(node.output(0), y, true);
  return success();
}

} // namespace

void onnx_import::addNormalizationOperators(llvm::StringMap<OpImporter> &t) {
  t["Softmax"] = softmax(false);
  t["LogSoftmax"] = softmax(true);
  t["BatchNormalization"] = importBatchNorm;
  t["LayerNormalization"] = importLayerNorm;
  t["LRN"] = importLrn;
  t["Dropout"] = importDropout;
}
