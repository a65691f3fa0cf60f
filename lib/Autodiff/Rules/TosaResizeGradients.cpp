//===- TosaResizeGradients.cpp - Derivative of a nearest upsampling -------===//
//
// A tosa.resize in NEAREST_NEIGHBOR mode by whole factors k (rows) and l
// (columns), where output row o reads input row o / k and column p reads
// column p / l (nearest upsampling as PyTorch's `interpolate` and ONNX's
// asymmetric, floor-rounded Resize compute it), copies each input element
// into a k x l block. Its adjoint sums each block of the result's adjoint
// g. That is one linalg.generic kernel, built here, which reads g through a
// view as [N, H, k, W, l, C] and reduces both block dimensions into a zero
// fill: no [N, H, W, l, C] tensor between two reductions, as two
// tosa.reduce_sum would make. It needs nothing beyond the memory model's
// usual description: the linalg cost model prices it (one FLOP per element
// of g it reads), it allocates no scratch buffer, and the fill is its
// destination, written in place.
//
// Other resizes (bilinear; a scale that is not a whole factor; an offset or
// border that moves the blocks) are refused at the op.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <optional>

using namespace mlir;
using namespace remat;

namespace {

/// The input index output index `out` of a nearest resize reads along one
/// axis, as TOSA defines it: y = out * d + offset, i = floor(y / n),
/// rounded up when 2 * (y - i * n) >= n, clamped to the input.
int64_t nearestSource(int64_t out, int64_t n, int64_t d, int64_t offset,
                      int64_t inSize) {
  int64_t y = out * d + offset;
  int64_t i = y >= 0 ? y / n : -((-y + n - 1) / n);
  if (2 * (y - i * n) >= n)
    ++i;
  return std::clamp<int64_t>(i, 0, inSize - 1);
}

/// The whole factor k by which a nearest resize repeats every input index
/// along one axis (output index o reads o / k), or none.
std::optional<int64_t> blockFactor(int64_t inSize, int64_t outSize, int64_t n,
                                   int64_t d, int64_t offset) {
  if (inSize <= 0 || n <= 0 || d <= 0 || outSize % inSize != 0)
    return std::nullopt;
  int64_t k = outSize / inSize;
  for (int64_t o = 0; o < outSize; ++o)
    if (nearestSource(o, n, d, offset, inSize) != o / k)
      return std::nullopt;
  return k;
}

/// dx[n,h,w,c] = sum over i < k, j < l of g[n, h*k + i, w*l + j, c]: one
/// kernel over a [N, H, k, W, l, C] view of g into a zero fill.
Value buildBlockSum(TosaBuilder &tb, Value g, ArrayRef<int64_t> inputShape,
                    int64_t k, int64_t l) {
  OpBuilder &b = tb.builder();
  Location loc = tb.getLoc();
  MLIRContext *context = b.getContext();
  auto gType = cast<RankedTensorType>(g.getType());
  Type element = gType.getElementType();
  int64_t n = inputShape[0], h = inputShape[1], w = inputShape[2],
          c = inputShape[3];
  Value blocks = tb.reshape(g, {n, h, k, w, l, c});
  Value empty = tensor::EmptyOp::create(b, loc, inputShape, element);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  // Loops: n, h, w, c | i, j.
  auto dims = [&](ArrayRef<unsigned> loops) {
    SmallVector<AffineExpr> results;
    for (unsigned loop : loops)
      results.push_back(getAffineDimExpr(loop, context));
    return AffineMap::get(6, 0, results, context);
  };
  SmallVector<AffineMap> maps = {dims({0, 1, 4, 2, 5, 3}), dims({0, 1, 2, 3})};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  auto sum = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{blocks}, ValueRange{init},
      maps, iterators, [](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(
            nb, nloc,
            arith::AddFOp::create(nb, nloc, args[1], args[0]).getResult());
      });
  return sum.getResult(0);
}

LogicalResult resizeRule(GradientRequest &r) {
  auto resize = cast<tosa::ResizeOp>(r.op);
  auto refuse = [&](StringRef why) {
    return resize.emitError("cannot differentiate a tosa.resize ") << why;
  };
  if (resize.getMode() != tosa::ResizeMode::NEAREST_NEIGHBOR)
    return refuse("that is not NEAREST_NEIGHBOR");
  auto inType = cast<RankedTensorType>(resize.getInput().getType());
  auto outType = cast<RankedTensorType>(resize.getOutput().getType());
  if (!inType.hasStaticShape() || !outType.hasStaticShape() ||
      !isa<FloatType>(inType.getElementType()))
    return refuse("without static shapes and a float element type");
  SmallVector<int64_t> scale, offset;
  if (!tosa::getConstShapeValues(resize.getScale().getDefiningOp(), scale) ||
      !tosa::getConstShapeValues(resize.getOffset().getDefiningOp(), offset))
    return refuse("whose scale and offset are not constant");
  ArrayRef<int64_t> in = inType.getShape(), out = outType.getShape();
  std::optional<int64_t> k =
      blockFactor(in[1], out[1], scale[0], scale[1], offset[0]);
  std::optional<int64_t> l =
      blockFactor(in[2], out[2], scale[2], scale[3], offset[1]);
  if (!k || !l)
    return refuse("that does not repeat each input element into a block "
                  "(upsampling by whole factors, output index o reading o / "
                  "factor)");
  r.set(0, buildBlockSum(r.tosa, r.grad(), in, *k, *l));
  return success();
}

} // namespace

REMAT_GRADIENT_RULES_FILE(addTosaResizeGradients) {
  rules.add(tosa::ResizeOp::getOperationName(), resizeRule);
}
