//===- ScatterKernels.cpp - The adjoint of a gather as a scatter-add ------===//

#include "remat/Tosa/ScatterKernels.h"

#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Tosa/Builder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;

namespace {

/// clamp(index, 0, rows - 1) as an index, from an integer index.
Value clampedRow(OpBuilder &b, Location loc, Value index, int64_t rows) {
  Value row = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value first = arith::ConstantIndexOp::create(b, loc, 0);
  Value last = arith::ConstantIndexOp::create(b, loc, rows - 1);
  row = arith::MaxSIOp::create(b, loc, row, first);
  return arith::MinSIOp::create(b, loc, row, last);
}

/// A loop from 0 to `count` carrying one tensor.
scf::ForOp loopOver(OpBuilder &b, Location loc, int64_t count, Value carried,
                    function_ref<Value(OpBuilder &, Value, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value end = arith::ConstantIndexOp::create(b, loc, count);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  return scf::ForOp::create(
      b, loc, zero, end, one, ValueRange{carried},
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange iterArgs) {
        scf::YieldOp::create(nb, nloc, body(nb, iv, iterArgs[0]));
      });
}

/// t[n,row,:] += g[n,w,:], element by element.
Value addRow(OpBuilder &b, Location loc, Value g, Value t, Value n, Value w,
             Value row) {
  return loopOver(b, loc, shapeOf(g)[2], t,
                  [&](OpBuilder &b, Value c, Value t) -> Value {
                    Value add = tensor::ExtractOp::create(b, loc, g,
                                                          ValueRange{n, w, c});
                    Value old = tensor::ExtractOp::create(
                        b, loc, t, ValueRange{n, row, c});
                    Value sum = arith::AddFOp::create(b, loc, old, add);
                    return tensor::InsertOp::create(b, loc, sum, t,
                                                    ValueRange{n, row, c});
                  })
      .getResult(0);
}

/// Whether the kernel reads static indices [N,W] of integers and g [N,W,C]
/// and writes a table [N,K,C] (K > 0) of g's element type, as
/// buildScatterAdd makes it: a mark on anything else is left unconverted,
/// which the conversion reports, rather than lowered out of bounds.
bool hasScatterAddOperands(linalg::GenericOp kernel) {
  if (kernel.getNumDpsInputs() != 2 || kernel.getNumDpsInits() != 1 ||
      !kernel.hasPureTensorSemantics())
    return false;
  auto indices =
      dyn_cast<RankedTensorType>(kernel.getDpsInputOperand(0)->get().getType());
  auto g =
      dyn_cast<RankedTensorType>(kernel.getDpsInputOperand(1)->get().getType());
  auto table =
      dyn_cast<RankedTensorType>(kernel.getDpsInitOperand(0)->get().getType());
  if (!indices || !g || !table || !indices.hasStaticShape() ||
      !g.hasStaticShape() || !table.hasStaticShape() ||
      indices.getRank() != 2 || g.getRank() != 3 || table.getRank() != 3)
    return false;
  ArrayRef<int64_t> i = indices.getShape(), x = g.getShape(),
                    t = table.getShape();
  return isa<IntegerType>(indices.getElementType()) &&
         isa<FloatType>(g.getElementType()) &&
         g.getElementType() == table.getElementType() && i[0] == x[0] &&
         i[1] == x[1] && t[0] == x[0] && t[2] == x[2] && t[1] > 0;
}

/// for n, for w: row = clamp(indices[n,w]); t[n,row,:] += g[n,w,:].
struct ScatterAddAsLoops final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp kernel,
                                PatternRewriter &rewriter) const override {
    if (!isScatterAddKernel(kernel))
      return rewriter.notifyMatchFailure(kernel, "not a scatter-add kernel");
    if (!hasScatterAddOperands(kernel))
      return rewriter.notifyMatchFailure(kernel,
                                         "not the operands of buildScatterAdd");
    Location loc = kernel.getLoc();
    Value indices = kernel.getDpsInputOperand(0)->get();
    Value g = kernel.getDpsInputOperand(1)->get();
    Value table = kernel.getDpsInitOperand(0)->get();
    int64_t rows = shapeOf(table)[1];
    auto positions = [&](OpBuilder &b, Value n, Value t) -> Value {
      return loopOver(b, loc, shapeOf(g)[1], t,
                      [&](OpBuilder &b, Value w, Value t) -> Value {
                        Value index = tensor::ExtractOp::create(
                            b, loc, indices, ValueRange{n, w});
                        Value row = clampedRow(b, loc, index, rows);
                        return addRow(b, loc, g, t, n, w, row);
                      })
          .getResult(0);
    };
    scf::ForOp loops = loopOver(rewriter, loc, shapeOf(g)[0], table, positions);
    rewriter.replaceOp(kernel, loops.getResults());
    return success();
  }
};

} // namespace

Value remat::buildScatterAdd(OpBuilder &b, Location loc, Value indices, Value g,
                             ArrayRef<int64_t> valuesShape) {
  MLIRContext *ctx = b.getContext();
  Type element = cast<RankedTensorType>(g.getType()).getElementType();
  Value empty = tensor::EmptyOp::create(b, loc, valuesShape, element);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  // The dense statement over (n, k, c, w), w a reduction; only the
  // lowering's loops run.
  AffineExpr n = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx),
             c = getAffineDimExpr(2, ctx), w = getAffineDimExpr(3, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {n, w}, ctx),
                                 AffineMap::get(4, 0, {n, w, c}, ctx),
                                 AffineMap::get(4, 0, {n, k, c}, ctx)};
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  int64_t rows = valuesShape[1];
  auto kernel = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices, g},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value row = clampedRow(nb, nloc, args[0], rows);
        Value picked =
            arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq, row,
                                  linalg::IndexOp::create(nb, nloc, 1));
        Value none =
            arith::ConstantOp::create(nb, nloc, nb.getZeroAttr(element));
        Value term = arith::SelectOp::create(nb, nloc, picked, args[1], none);
        linalg::YieldOp::create(
            nb, nloc,
            arith::AddFOp::create(nb, nloc, args[2], term).getResult());
      });
  kernel->setAttr(kScatterAddAttrName, b.getUnitAttr());
  uint64_t flops = 2;
  for (int64_t d : shapeOf(g))
    flops = llvm::SaturatingMultiply(flops, static_cast<uint64_t>(d));
  kernel->setAttr(kFlopsAttrName, b.getI64IntegerAttr(static_cast<int64_t>(
                                      std::min<uint64_t>(flops, INT64_MAX))));
  return kernel.getResult(0);
}

bool remat::isScatterAddKernel(Operation *op) {
  return isa<linalg::GenericOp>(op) && op->hasAttr(kScatterAddAttrName);
}

void remat::populateScatterAddLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ScatterAddAsLoops>(patterns.getContext());
}
