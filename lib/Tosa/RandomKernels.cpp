//===- RandomKernels.cpp - Philox dropout masks in linalg -----------------===//

#include "remat/Tosa/RandomKernels.h"

#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Support/Philox.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace remat;

namespace {

/// Emits Philox4x32-10 on i32 values, as philox::philox4x32 computes it.
struct PhiloxEmitter {
  OpBuilder &b;
  Location loc;

  Value constant(uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value xorOf(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }

  std::array<Value, 4> round(std::array<Value, 4> c, std::array<Value, 2> k) {
    auto p0 = arith::MulUIExtendedOp::create(
        b, loc, constant(philox::kMultiplier0), c[0]);
    auto p1 = arith::MulUIExtendedOp::create(
        b, loc, constant(philox::kMultiplier1), c[2]);
    return {xorOf(xorOf(p1.getHigh(), c[1]), k[0]), p1.getLow(),
            xorOf(xorOf(p0.getHigh(), c[3]), k[1]), p0.getLow()};
  }

  std::array<Value, 4> run(std::array<Value, 4> c, std::array<Value, 2> k) {
    for (int r = 0; r < philox::kRounds; ++r) {
      if (r > 0)
        k = {arith::AddIOp::create(b, loc, k[0], constant(philox::kWeyl0)),
             arith::AddIOp::create(b, loc, k[1], constant(philox::kWeyl1))};
      c = round(c, k);
    }
    return c;
  }
};

} // namespace

Value remat::buildDropoutMask(OpBuilder &b, Location loc, Value seed,
                              uint32_t nodeSeed, ArrayRef<int64_t> shape,
                              uint64_t offset, double ratio) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = shape.size();
  Value init = tensor::EmptyOp::create(b, loc, shape, b.getI1Type());
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, {}, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{seed}, ValueRange{init},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // The element's row-major position in the stream, as 64 bits.
        Type i64 = nb.getI64Type(), i32 = nb.getI32Type();
        Value index = arith::ConstantOp::create(
            nb, nloc, nb.getI64IntegerAttr(static_cast<int64_t>(offset)));
        int64_t stride = 1;
        for (int d = rank - 1; d >= 0; --d) {
          Value i = arith::IndexCastUIOp::create(
              nb, nloc, i64, linalg::IndexOp::create(nb, nloc, d));
          Value s = arith::ConstantOp::create(nb, nloc,
                                              nb.getI64IntegerAttr(stride));
          index = arith::AddIOp::create(
              nb, nloc, index, arith::MulIOp::create(nb, nloc, i, s));
          stride *= shape[d];
        }
        Value lo = arith::TruncIOp::create(nb, nloc, i32, index);
        Value hi = arith::TruncIOp::create(
            nb, nloc, i32,
            arith::ShRUIOp::create(
                nb, nloc, index,
                arith::ConstantOp::create(nb, nloc,
                                          nb.getI64IntegerAttr(32))));
        PhiloxEmitter philox{nb, nloc};
        Value zero = philox.constant(0);
        std::array<Value, 4> bits =
            philox.run({lo, hi, zero, zero},
                       {args[0], philox.constant(nodeSeed)});
        Value keep = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::uge, bits[0],
            philox.constant(philox::keepThreshold(ratio)));
        linalg::YieldOp::create(nb, nloc, keep);
      });
  // Per element: ten rounds of two wide multiplies and four xors, the key
  // bumps, the index arithmetic and the compare.
  constexpr int64_t kOpsPerElement = 10 * 6 + 9 * 2 + 4 * 8 + 1;
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  op->setAttr(kFlopsAttrName, b.getI64IntegerAttr(kOpsPerElement * elements));
  return op.getResult(0);
}
