//===- GpuSharedMatmul.cpp - Matrix products staged in shared memory ------===//
//
// As parallel loops, a matrix product gives each GPU thread one output and
// a loop over the reduction that reads a row of the left operand and a
// column of the right one from global memory: every operand element is
// read once per output that uses it. Here a block of 16x16 threads
// computes a 64x64 tile of outputs, 4x4 per thread in registers, and
// stages the operands it needs, 16 reduction steps at a time, in shared
// memory, which every thread of the block then reads: each element comes
// from global memory once per block. The loads of the copy are coalesced
// (consecutive threads, consecutive addresses), and the shared reads of
// the inner loop are broadcasts or consecutive words (no bank conflicts).
//
// The summation order is the loop's: each thread starts from the output's
// value and adds the products in reduction order, so a kernel computes
// what the parallel loops compute.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace remat {
#define GEN_PASS_DEF_GPUSHAREDMATMULPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

/// Threads of a block along x (columns) and y (rows).
constexpr int64_t kThreads = 16;
/// Outputs per thread along each of x and y, in registers.
constexpr int64_t kRegisterTile = 4;
/// Outputs of a block along each of x and y.
constexpr int64_t kBlockTile = kThreads * kRegisterTile;
/// Reduction steps staged in shared memory between two barriers.
constexpr int64_t kStep = 16;
/// The largest grid extent along y and z.
constexpr int64_t kMaxGridYZ = 65535;

static_assert(kBlockTile * kStep == kThreads * kThreads * kRegisterTile,
              "each thread copies kRegisterTile elements of each operand");

/// A product C[b] += A[b] * B[b] of M x K by K x N matrices.
struct MatmulShape {
  bool batched;
  int64_t batch, m, n, k;
};

/// The shape of `op` when this pass can make a kernel of it.
std::optional<MatmulShape> shapeOf(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return std::nullopt;
  // Transposed operands (user-defined indexing maps) are not this kernel's.
  bool batched;
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
    if (matmul.hasUserDefinedMaps())
      return std::nullopt;
    batched = false;
  } else if (auto batch = dyn_cast<linalg::BatchMatmulOp>(op.getOperation())) {
    if (batch.hasUserDefinedMaps())
      return std::nullopt;
    batched = true;
  } else {
    return std::nullopt;
  }
  auto a = dyn_cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto b = dyn_cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto c = dyn_cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!a || !b || !c || !a.hasStaticShape() || !b.hasStaticShape() ||
      !c.hasStaticShape())
    return std::nullopt;
  // One float type throughout: the body is a multiply and an add, no casts.
  Type element = c.getElementType();
  if (!isa<FloatType>(element) || a.getElementType() != element ||
      b.getElementType() != element)
    return std::nullopt;
  ArrayRef<int64_t> as = a.getShape(), cs = c.getShape();
  MatmulShape shape{batched, batched ? cs[0] : 1, cs[cs.size() - 2],
                    cs[cs.size() - 1], as[as.size() - 1]};
  if (shape.batch == 0 || shape.m == 0 || shape.n == 0 ||
      shape.batch > kMaxGridYZ ||
      llvm::divideCeil(shape.m, kBlockTile) > kMaxGridYZ)
    return std::nullopt;
  return shape;
}

/// Builds the kernel of one product inside a gpu.launch.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &builder, Location loc, linalg::LinalgOp op,
                const MatmulShape &shape)
      : b(builder), loc(loc), shape(shape), lhs(op.getDpsInputs()[0]),
        rhs(op.getDpsInputs()[1]), out(op.getDpsInits()[0]),
        element(cast<MemRefType>(out.getType()).getElementType()) {}

  void build(gpu::LaunchOp launch) {
    gpu::KernelDim3 block = launch.getBlockIds();
    gpu::KernelDim3 thread = launch.getThreadIds();
    Value lhsTile = launch.getWorkgroupAttributions()[0];
    Value rhsTile = launch.getWorkgroupAttributions()[1];
    batchIndex = block.z;
    Value tx = thread.x, ty = thread.y;
    Value rowBase = mul(block.y, kBlockTile);
    Value colBase = mul(block.x, kBlockTile);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));

    // The thread's outputs: rows ty + 16i, columns tx + 16j of the tile.
    SmallVector<Value> rows, cols, rowInside, colInside;
    for (int64_t i = 0; i < kRegisterTile; ++i) {
      rows.push_back(add(rowBase, add(ty, constant(i * kThreads))));
      rowInside.push_back(less(rows.back(), shape.m));
      cols.push_back(add(colBase, add(tx, constant(i * kThreads))));
      colInside.push_back(less(cols.back(), shape.n));
    }
    SmallVector<Value> initial;
    for (int64_t i = 0; i < kRegisterTile; ++i)
      for (int64_t j = 0; j < kRegisterTile; ++j)
        initial.push_back(loadOrZero(out, rows[i], shape.m, rowInside[i],
                                     cols[j], shape.n, colInside[j], zero));

    // Copy assignments: the thread's linear index t = 16ty + tx copies
    // elements t + 256r of each staged tile. Of the left operand's 64x16
    // that is row ty + 16r, column tx (16 threads on 16 consecutive
    // elements of a row); of the right one's 16x64, row t / 64 + 4r,
    // column t % 64 (64 threads on a row).
    Value linear = add(mul(ty, kThreads), tx);
    Value rhsRow = arith::DivUIOp::create(b, loc, linear, constant(kBlockTile));
    Value rhsCol = arith::RemUIOp::create(b, loc, linear, constant(kBlockTile));
    constexpr int64_t kCopies = kRegisterTile;
    constexpr int64_t kRowsPerCopy = kThreads * kThreads / kBlockTile;

    auto steps = scf::ForOp::create(
        b, loc, constant(0), constant(shape.k), constant(kStep), initial,
        [&](OpBuilder &, Location, Value k0, ValueRange accumulators) {
          for (int64_t r = 0; r < kCopies; ++r) {
            Value row = add(ty, constant(r * kThreads));
            Value k = add(k0, tx);
            Value value = loadOrZero(lhs, add(rowBase, row), shape.m,
                                     less(add(rowBase, row), shape.m), k,
                                     shape.k, less(k, shape.k), zero);
            memref::StoreOp::create(b, loc, value, lhsTile, {row, tx});
          }
          for (int64_t r = 0; r < kCopies; ++r) {
            Value row = add(rhsRow, constant(r * kRowsPerCopy));
            Value k = add(k0, row);
            Value col = add(colBase, rhsCol);
            Value value =
                loadOrZero(rhs, k, shape.k, less(k, shape.k), col, shape.n,
                           less(col, shape.n), zero);
            memref::StoreOp::create(b, loc, value, rhsTile, {row, rhsCol});
          }
          gpu::BarrierOp::create(b, loc);
          // Only the products that exist: the last step may be short.
          Value remaining = arith::SubIOp::create(b, loc, constant(shape.k), k0);
          Value count =
              arith::MinUIOp::create(b, loc, remaining, constant(kStep));
          auto products = scf::ForOp::create(
              b, loc, constant(0), count, constant(1), accumulators,
              [&](OpBuilder &, Location, Value kk, ValueRange sums) {
                SmallVector<Value> lhsValues, rhsValues;
                for (int64_t i = 0; i < kRegisterTile; ++i) {
                  lhsValues.push_back(memref::LoadOp::create(
                      b, loc, lhsTile,
                      ValueRange{add(ty, constant(i * kThreads)), kk}));
                  rhsValues.push_back(memref::LoadOp::create(
                      b, loc, rhsTile,
                      ValueRange{kk, add(tx, constant(i * kThreads))}));
                }
                SmallVector<Value> next;
                for (int64_t i = 0; i < kRegisterTile; ++i)
                  for (int64_t j = 0; j < kRegisterTile; ++j) {
                    Value product = arith::MulFOp::create(
                        b, loc, lhsValues[i], rhsValues[j]);
                    next.push_back(arith::AddFOp::create(
                        b, loc, sums[i * kRegisterTile + j], product));
                  }
                scf::YieldOp::create(b, loc, next);
              });
          // Nobody overwrites the tiles before everyone has read them.
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, products.getResults());
        });

    for (int64_t i = 0; i < kRegisterTile; ++i)
      for (int64_t j = 0; j < kRegisterTile; ++j) {
        Value inside =
            arith::AndIOp::create(b, loc, rowInside[i], colInside[j]);
        auto store = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&store.getThenRegion().front());
        memref::StoreOp::create(b, loc,
                                steps.getResult(i * kRegisterTile + j), out,
                                indices(rows[i], cols[j]));
      }
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, constant(y));
  }
  Value less(Value x, int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                 constant(bound));
  }
  SmallVector<Value> indices(Value row, Value col) {
    if (shape.batched)
      return {batchIndex, row, col};
    return {row, col};
  }
  /// matrix[row][col] where both are inside, else zero; the load itself
  /// reads a clamped element, so that no thread reads out of bounds and
  /// no branch splits a warp.
  Value loadOrZero(Value matrix, Value row, int64_t rows, Value rowInside,
                   Value col, int64_t cols, Value colInside, Value zero) {
    Value r = arith::MinUIOp::create(b, loc, row, constant(rows - 1));
    Value c = arith::MinUIOp::create(b, loc, col, constant(cols - 1));
    Value value = memref::LoadOp::create(b, loc, matrix, indices(r, c));
    Value inside = arith::AndIOp::create(b, loc, rowInside, colInside);
    return arith::SelectOp::create(b, loc, inside, value, zero);
  }

  OpBuilder &b;
  Location loc;
  MatmulShape shape;
  Value lhs, rhs, out;
  Type element;
  Value batchIndex;
};

struct GpuSharedMatmulPass final
    : remat::impl::GpuSharedMatmulPassBase<GpuSharedMatmulPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, MatmulShape>> products;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<MatmulShape> shape = shapeOf(op))
        products.emplace_back(op, *shape);
    });
    MLIRContext *context = &getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    OpBuilder builder(context);
    for (auto [op, shape] : products) {
      Location loc = op.getLoc();
      Type element =
          cast<MemRefType>(op.getDpsInits()[0].getType()).getElementType();
      auto lhsTile = MemRefType::get({kBlockTile, kStep}, element,
                                     MemRefLayoutAttrInterface(), workgroup);
      auto rhsTile = MemRefType::get({kStep, kBlockTile}, element,
                                     MemRefLayoutAttrInterface(), workgroup);
      builder.setInsertionPoint(op);
      auto index = [&](int64_t value) -> Value {
        return arith::ConstantIndexOp::create(builder, loc, value);
      };
      auto launch = gpu::LaunchOp::create(
          builder, loc, index(llvm::divideCeil(shape.n, kBlockTile)),
          index(llvm::divideCeil(shape.m, kBlockTile)), index(shape.batch),
          index(kThreads), index(kThreads), index(1),
          /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
          /*asyncDependencies=*/{}, TypeRange{lhsTile, rhsTile});
      builder.setInsertionPointToEnd(&launch.getBody().front());
      auto terminator = gpu::TerminatorOp::create(builder, loc);
      builder.setInsertionPoint(terminator);
      KernelBuilder(builder, loc, op, shape).build(launch);
      op->erase();
      ++numMatmuls;
    }
  }
};

} // namespace
