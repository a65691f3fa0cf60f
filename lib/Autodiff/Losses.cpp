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

} // namespace

CrossEntropy remat::emitCrossEntropy(TosaBuilder &tb, Value logits,
                                     Value labels) {
  OpBuilder &b = tb.builder();
  Location loc = tb.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> shape(shapeOf(logits));
  unsigned rank = shape.size();
  int32_t classAxis = rank - 1;
  Value max = tb.reduceMax(logits, classAxis);
  Value shifted = tb.sub(logits, max);
  Value logNormalizer =
      tb.add(max, tb.log(tb.reduceSum(tb.exp(shifted), classAxis)));
  // The label's logit per position: sum over classes of (c == label) * x.
  SmallVector<int64_t> perPosition(shape);
  perPosition.back() = 1;
  Type f32 = b.getF32Type();
  Value empty = tensor::EmptyOp::create(b, loc, perPosition, f32);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<utils::IteratorType> iterators(rank - 1,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Value picked =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{logits, labels},
          ValueRange{init},
          {identityMap(ctx, rank), positionMap(ctx, rank, false),
           positionMap(ctx, rank, true)},
          iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value zeroElt =
                arith::ConstantOp::create(nb, nloc, nb.getZeroAttr(f32));
            Value term = arith::SelectOp::create(
                nb, nloc, isLabel(nb, nloc, args[1], rank - 1), args[0],
                zeroElt);
            linalg::YieldOp::create(
                nb, nloc,
                arith::AddFOp::create(nb, nloc, args[2], term).getResult());
          })
          .getResult(0);
  double positions = static_cast<double>(numElements(perPosition));
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
