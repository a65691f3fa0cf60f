//===- Losses.cpp - Cross-entropy on integer labels -----------------------===//

#include "Losses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace remat;

namespace {

/// The maps of a generic over the logits' dims: the logits themselves, and
/// one per-position operand (labels [...], or [..., 1]) that ignores the
/// class dim.
AffineMap identityMap(MLIRContext *ctx, unsigned rank) {
  return AffineMap::getMultiDimIdentityMap(rank, ctx);
}

AffineMap positionMap(MLIRContext *ctx, unsigned rank, bool keepClassDim) {
  SmallVector<AffineExpr> results;
  for (unsigned d = 0; d + 1 < rank; ++d)
    results.push_back(getAffineDimExpr(d, ctx));
  if (keepClassDim)
    results.push_back(getAffineConstantExpr(0, ctx));
  return AffineMap::get(rank, 0, results, ctx);
}

/// Whether the class index of the current point is the position's label.
Value isLabel(OpBuilder &b, Location loc, Value label, unsigned classDim) {
  Value c = linalg::IndexOp::create(b, loc, classDim);
  Value l = arith::IndexCastOp::create(b, loc, b.getIndexType(), label);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c, l);
}

/// A sum over the class axis of the logits [..., C] into a zero-filled
/// [..., 1] tensor: `term(builder, loc, logit, positionValue)` is added per
/// class, where `positionValue` is the position's element of `perPosition`
/// (labels [...] or a [..., 1] tensor). One pass over the logits and no
/// [..., C] intermediate: the loss is at the end of the forward pass, where
/// the logits are often the largest tensor of the step, and each full-size
/// temporary would add its size to the peak.
Value sumOverClasses(
    TosaBuilder &tb, Value logits, Value perPosition, bool keepsClassDim,
    function_ref<Value(OpBuilder &, Location, Value, Value)> term) {
  OpBuilder &b = tb.builder();
  Location loc = tb.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> shape(shapeOf(logits));
  unsigned rank = shape.size();
  shape.back() = 1;
  Type f32 = b.getF32Type();
  Value empty = tensor::EmptyOp::create(b, loc, shape, f32);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<utils::IteratorType> iterators(rank - 1,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()},
             ValueRange{logits, perPosition}, ValueRange{init},
             {identityMap(ctx, rank), positionMap(ctx, rank, keepsClassDim),
              positionMap(ctx, rank, true)},
             iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value t = term(nb, nloc, args[0], args[1]);
               linalg::YieldOp::create(
                   nb, nloc,
                   arith::AddFOp::create(nb, nloc, args[2], t).getResult());
             })
      .getResult(0);
}

} // namespace

CrossEntropy remat::emitCrossEntropy(TosaBuilder &tb, Value logits,
                                     Value labels) {
  unsigned rank = shapeOf(logits).size();
  Type f32 = tb.builder().getF32Type();
  Value max = tb.reduceMax(logits, rank - 1);
  // sum_c exp(x_c - max), the shift read per class: no shifted or
  // exponentiated copy of the logits.
  Value sumOfExp = sumOverClasses(
      tb, logits, max, /*keepsClassDim=*/true,
      [](OpBuilder &nb, Location nloc, Value logit, Value rowMax) -> Value {
        return math::ExpOp::create(
            nb, nloc, arith::SubFOp::create(nb, nloc, logit, rowMax));
      });
  Value logNormalizer = tb.add(max, tb.log(sumOfExp));
  // The label's logit per position: sum over classes of (c == label) * x.
  Value picked = sumOverClasses(
      tb, logits, labels, /*keepsClassDim=*/false,
      [&](OpBuilder &nb, Location nloc, Value logit, Value label) -> Value {
        Value zeroElt =
            arith::ConstantOp::create(nb, nloc, nb.getZeroAttr(f32));
        return arith::SelectOp::create(
            nb, nloc, isLabel(nb, nloc, label, rank - 1), logit, zeroElt);
      });
  double positions = static_cast<double>(numElements(shapeOf(picked)));
  Value total = tb.reduceAll(tb.sub(logNormalizer, picked));
  return {tb.reshape(tb.scale(total, 1.0 / positions), {1}), logNormalizer};
}

Value remat::emitCrossEntropyGradient(TosaBuilder &tb, Value logits,
                                      Value labels, Value logNormalizer) {
  OpBuilder &b = tb.builder();
  Location loc = tb.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> shape(shapeOf(logits));
  unsigned rank = shape.size();
  Type f32 = b.getF32Type();
  double scale = static_cast<double>(shape.back()) /
                 static_cast<double>(numElements(shape));
  Value init = tensor::EmptyOp::create(b, loc, shape, f32);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()},
             ValueRange{logits, labels, logNormalizer}, ValueRange{init},
             {identityMap(ctx, rank), positionMap(ctx, rank, false),
              positionMap(ctx, rank, true), identityMap(ctx, rank)},
             iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value p = math::ExpOp::create(
                   nb, nloc,
                   arith::SubFOp::create(nb, nloc, args[0], args[2]));
               Value one = arith::ConstantOp::create(
                   nb, nloc, nb.getFloatAttr(f32, 1.0));
               Value zero =
                   arith::ConstantOp::create(nb, nloc, nb.getZeroAttr(f32));
               Value hot = arith::SelectOp::create(
                   nb, nloc, isLabel(nb, nloc, args[1], rank - 1), one, zero);
               Value diff = arith::SubFOp::create(nb, nloc, p, hot);
               Value factor = arith::ConstantOp::create(
                   nb, nloc, nb.getFloatAttr(f32, scale));
               linalg::YieldOp::create(
                   nb, nloc,
                   arith::MulFOp::create(nb, nloc, diff, factor).getResult());
             })
      .getResult(0);
}
