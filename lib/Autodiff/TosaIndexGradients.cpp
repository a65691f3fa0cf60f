//===- TosaIndexGradients.cpp - Derivative of tosa.gather -----------------===//
//
// The adjoint of a gather (an embedding lookup) is a scatter-add of the
// result's adjoint into the table: every table row receives the sum of the
// adjoint rows of the positions that picked it. It reads the indices (i32)
// and the adjoint, never the table, and makes no one-hot tensor.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"
#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace remat;

namespace {

/// values [N,K,C], indices [N,W], g [N,W,C]:
///   dValues[n,k,c] = sum over w of (indices[n,w] == k ? g[n,w,c] : 0),
/// one linalg.generic with loops (n, k, c, w), w a reduction. Each table
/// row sums only the positions that picked it; the loop nest visits every
/// (row, position) pair, and is priced so (two FLOPs per point).
Value scatterAdd(OpBuilder &b, Location loc, Value indices, Value g,
                 ArrayRef<int64_t> valuesShape) {
  MLIRContext *ctx = b.getContext();
  Type element = cast<RankedTensorType>(g.getType()).getElementType();
  Value empty = tensor::EmptyOp::create(b, loc, valuesShape, element);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  AffineExpr n = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx),
             c = getAffineDimExpr(2, ctx), w = getAffineDimExpr(3, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {n, w}, ctx),
                                 AffineMap::get(4, 0, {n, w, c}, ctx),
                                 AffineMap::get(4, 0, {n, k, c}, ctx)};
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices, g},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value row = linalg::IndexOp::create(nb, nloc, 1);
        Value index = arith::IndexCastOp::create(nb, nloc, nb.getIndexType(),
                                                 args[0]);
        Value picked = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::eq, index, row);
        Value zeroElt =
            arith::ConstantOp::create(nb, nloc, nb.getZeroAttr(element));
        Value term =
            arith::SelectOp::create(nb, nloc, picked, args[1], zeroElt);
        linalg::YieldOp::create(
            nb, nloc, arith::AddFOp::create(nb, nloc, args[2], term).getResult());
      });
  ArrayRef<int64_t> gs = shapeOf(g);
  uint64_t points = 2;
  for (int64_t d : {valuesShape[0], valuesShape[1], valuesShape[2], gs[1]})
    points = llvm::SaturatingMultiply(points, static_cast<uint64_t>(d));
  op->setAttr(kFlopsAttrName,
              b.getI64IntegerAttr(
                  static_cast<int64_t>(std::min<uint64_t>(points, INT64_MAX))));
  return op.getResult(0);
}

LogicalResult gatherRule(GradientRequest &r) {
  if (r.needed[1])
    return r.op->emitError("cannot differentiate a gather by its indices");
  r.set(0, scatterAdd(r.builder(), r.tosa.getLoc(), r.operand(1), r.grad(),
                      shapeOf(r.operand(0))));
  return success();
}

} // namespace

void remat::addTosaIndexGradients(GradientRules &rules) {
  rules.add(tosa::GatherOp::getOperationName(), gatherRule);
}
