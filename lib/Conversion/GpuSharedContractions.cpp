//===- GpuSharedContractions.cpp - Contractions staged in shared memory ---===//
//
// As parallel loops, a contraction gives each GPU thread one output and a
// loop over the reduction that reads a row of the left operand and a
// column of the right one from global memory: every operand element is
// read once per output that uses it. Here a block of 16x16 threads
// computes a tile of up to 64x64 outputs, up to 4x4 per thread in
// registers (16 or 32 along a dimension that has no more outputs), and
// stages the operands it needs, 16 reduction steps at a time, in shared
// memory, which every thread of the block then reads: each element comes
// from global memory once per block. The shared reads of the inner loop
// are broadcasts or consecutive words (no bank conflicts).
//
// The loops of the contraction are grouped into batch, M, N and K, each
// group linearized with its last loop fastest, so that one kernel serves
// matrix products, transposed ones, and the per-tap contractions a
// convolution splits into (M: batch and output positions, N: filters, K:
// channels). The summation order is the loops': each thread starts from
// the output's value and adds the products in K order, so a kernel
// computes what the parallel loops over the contraction compute. (A
// convolution's input adjoint, split by tap, sums its taps tap-major, as
// on the CPU, not in the order of its own loops.)
//
//===----------------------------------------------------------------------===//

#include "ConvolutionTaps.h"
#include "remat/Conversion/Passes.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace remat {
#define GEN_PASS_DEF_GPUSHAREDCONTRACTIONSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

/// Threads of a block along x (columns) and y (rows).
constexpr int64_t kThreads = 16;
/// The most outputs per thread along each of x and y, in registers.
constexpr int64_t kMaxRegisterTile = 4;
/// Reduction steps staged in shared memory between two barriers: one per
/// thread along x, so that a row of the left operand's tile is one copy.
constexpr int64_t kStep = kThreads;
/// The largest grid extents along x, and along y and z.
constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxGridYZ = 65535;

/// Outputs per thread along one dimension of `size` outputs: 4 (a block
/// covers 64), or fewer where 16 or 32 cover the dimension, so that a
/// narrow product (10 columns, one row) does not leave most of a block's
/// outputs past the edge.
int64_t registerTileFor(int64_t size) {
  int64_t tile = 1;
  while (tile < kMaxRegisterTile && kThreads * tile < size)
    tile *= 2;
  return tile;
}

/// A contraction out[batch, M, N] += lhs[batch, M, K] * rhs[batch, K, N],
/// each letter a group of the op's loops.
struct Contraction {
  SmallVector<unsigned> batchLoops, rowLoops, colLoops, reductionLoops;
  SmallVector<int64_t> ranges;
  int64_t batch = 1, rows = 1, cols = 1, depth = 1;
  /// Outputs per thread along M and N; a block covers 16 times as many.
  int64_t rowTile = 1, colTile = 1;
  AffineMap lhsMap, rhsMap, outMap;
  Value lhs, rhs, out;
  Type element;
};

int64_t product(ArrayRef<unsigned> loops, ArrayRef<int64_t> ranges) {
  int64_t result = 1;
  for (unsigned loop : loops)
    result *= ranges[loop];
  return result;
}

/// Whether `op`'s body is exactly `acc + lhs * rhs`, the one computation
/// the kernel makes. isaContractionOpInterface also admits bodies with
/// unary ops around the multiply and the add (meant for casts): a negation
/// or an exponential there would be dropped.
bool isMultiplyAdd(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 || body->getOperations().size() != 3)
    return false;
  auto mul = dyn_cast<arith::MulFOp>(body->front());
  auto add = dyn_cast<arith::AddFOp>(*std::next(body->begin()));
  auto yield = dyn_cast<linalg::YieldOp>(body->back());
  if (!mul || !add || !yield || yield->getNumOperands() != 1 ||
      yield->getOperand(0) != add.getResult())
    return false;
  auto isPair = [](Value x, Value y, Value first, Value second) {
    return (x == first && y == second) || (x == second && y == first);
  };
  return isPair(mul.getLhs(), mul.getRhs(), body->getArgument(0),
                body->getArgument(1)) &&
         isPair(add.getLhs(), add.getRhs(), body->getArgument(2),
                mul.getResult());
}

/// `op` as a contraction this pass can make a kernel of.
std::optional<Contraction> contractionOf(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op) ||
      !isMultiplyAdd(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return std::nullopt;
  Contraction c;
  c.lhs = op.getDpsInputs()[0];
  c.rhs = op.getDpsInputs()[1];
  c.out = op.getDpsInits()[0];
  // One float type throughout: the body is a multiply and an add, no casts.
  c.element = getElementTypeOrSelf(c.out.getType());
  if (!isa<FloatType>(c.element) ||
      getElementTypeOrSelf(c.lhs.getType()) != c.element ||
      getElementTypeOrSelf(c.rhs.getType()) != c.element)
    return std::nullopt;
  c.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(c.ranges, ShapedType::isDynamic))
    return std::nullopt;
  c.lhsMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  c.rhsMap = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  c.outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!c.lhsMap.isProjectedPermutation() ||
      !c.rhsMap.isProjectedPermutation() ||
      !c.outMap.isProjectedPermutation())
    return std::nullopt;
  // Each group in loop order: the last loop varies fastest, as in the
  // loop nest, so that K runs in the loops' order.
  auto sorted = [](ArrayRef<unsigned> loops) {
    SmallVector<unsigned> result(loops);
    llvm::sort(result);
    return result;
  };
  c.batchLoops = sorted(dims->batch);
  c.rowLoops = sorted(dims->m);
  c.colLoops = sorted(dims->n);
  c.reductionLoops = sorted(dims->k);
  if (c.batchLoops.size() + c.rowLoops.size() + c.colLoops.size() +
          c.reductionLoops.size() !=
      c.ranges.size())
    return std::nullopt;
  c.batch = product(c.batchLoops, c.ranges);
  c.rows = product(c.rowLoops, c.ranges);
  c.cols = product(c.colLoops, c.ranges);
  c.depth = product(c.reductionLoops, c.ranges);
  c.rowTile = registerTileFor(c.rows);
  c.colTile = registerTileFor(c.cols);
  // Nothing to add (an empty reduction leaves the output as it is), or a
  // grid beyond the device's limits: the loops' business.
  if (c.batch == 0 || c.rows == 0 || c.cols == 0 || c.depth == 0 ||
      c.batch > kMaxGridYZ ||
      llvm::divideCeil(c.rows, kThreads * c.rowTile) > kMaxGridYZ ||
      llvm::divideCeil(c.cols, kThreads * c.colTile) > kMaxGridX)
    return std::nullopt;
  return c;
}

/// Builds the kernel of one contraction inside its gpu.launch.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &builder, Location loc, const Contraction &c)
      : b(builder), loc(loc), c(c) {}

  void build(gpu::LaunchOp launch) {
    gpu::KernelDim3 block = launch.getBlockIds();
    gpu::KernelDim3 thread = launch.getThreadIds();
    Value lhsTile = launch.getWorkgroupAttributions()[0];
    Value rhsTile = launch.getWorkgroupAttributions()[1];
    Value tx = thread.x, ty = thread.y;
    const int64_t blockRows = kThreads * c.rowTile;
    const int64_t blockCols = kThreads * c.colTile;
    Value rowBase = mul(block.y, blockRows);
    Value colBase = mul(block.x, blockCols);
    zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(c.element));

    // The loop values every access shares: the block's batch element.
    SmallVector<Value> batchLoops(c.ranges.size());
    delinearize(block.z, c.batchLoops, batchLoops);

    // The thread's outputs: rows ty + 16i, columns tx + 16j of the tile.
    // Rows ty + 16r are also the left operand's rows it copies.
    SmallVector<Position> rows, cols;
    for (int64_t i = 0; i < c.rowTile; ++i)
      rows.push_back(position(add(rowBase, add(ty, constant(i * kThreads))),
                              c.rows, c.rowLoops, batchLoops));
    for (int64_t j = 0; j < c.colTile; ++j)
      cols.push_back(position(add(colBase, add(tx, constant(j * kThreads))),
                              c.cols, c.colLoops, batchLoops));
    SmallVector<Value> initial;
    for (int64_t i = 0; i < c.rowTile; ++i)
      for (int64_t j = 0; j < c.colTile; ++j)
        initial.push_back(loadOrZero(c.out, c.outMap, rows[i], cols[j]));

    // Copy assignments: the thread's linear index t = 16ty + tx copies
    // elements t + 256r of each staged tile. Of the left operand's
    // (16 rowTile)x16 that is row ty + 16r, column tx (16 threads on 16
    // consecutive steps of K), r < rowTile; of the right one's
    // 16x(16 colTile), row t / (16 colTile) + (16 / colTile) r, column
    // t % (16 colTile) (threads on consecutive columns), r < colTile.
    Value linear = add(mul(ty, kThreads), tx);
    Value rhsRow = arith::DivUIOp::create(b, loc, linear, constant(blockCols));
    Value rhsColumn =
        arith::RemUIOp::create(b, loc, linear, constant(blockCols));
    Position rhsCol =
        position(add(colBase, rhsColumn), c.cols, c.colLoops, batchLoops);
    const int64_t rowsPerCopy = kThreads * kThreads / blockCols;

    auto steps = scf::ForOp::create(
        b, loc, constant(0), constant(c.depth), constant(kStep), initial,
        [&](OpBuilder &, Location, Value k0, ValueRange accumulators) {
          Position lhsStep = position(add(k0, tx), c.depth,
                                      c.reductionLoops, batchLoops);
          for (int64_t r = 0; r < c.rowTile; ++r) {
            Value value = loadOrZero(c.lhs, c.lhsMap, rows[r], lhsStep);
            memref::StoreOp::create(
                b, loc, value, lhsTile,
                ValueRange{add(ty, constant(r * kThreads)), tx});
          }
          for (int64_t r = 0; r < c.colTile; ++r) {
            Value row = add(rhsRow, constant(r * rowsPerCopy));
            Position rhsStep = position(add(k0, row), c.depth,
                                        c.reductionLoops, batchLoops);
            Value value = loadOrZero(c.rhs, c.rhsMap, rhsStep, rhsCol);
            memref::StoreOp::create(b, loc, value, rhsTile,
                                    ValueRange{row, rhsColumn});
          }
          gpu::BarrierOp::create(b, loc);
          // Only the products that exist: the last step may be short.
          Value remaining =
              arith::SubIOp::create(b, loc, constant(c.depth), k0);
          Value count =
              arith::MinUIOp::create(b, loc, remaining, constant(kStep));
          auto products = scf::ForOp::create(
              b, loc, constant(0), count, constant(1), accumulators,
              [&](OpBuilder &, Location, Value kk, ValueRange sums) {
                SmallVector<Value> lhsValues, rhsValues;
                for (int64_t i = 0; i < c.rowTile; ++i)
                  lhsValues.push_back(memref::LoadOp::create(
                      b, loc, lhsTile,
                      ValueRange{add(ty, constant(i * kThreads)), kk}));
                for (int64_t j = 0; j < c.colTile; ++j)
                  rhsValues.push_back(memref::LoadOp::create(
                      b, loc, rhsTile,
                      ValueRange{kk, add(tx, constant(j * kThreads))}));
                SmallVector<Value> next;
                for (int64_t i = 0; i < c.rowTile; ++i)
                  for (int64_t j = 0; j < c.colTile; ++j) {
                    Value product = arith::MulFOp::create(
                        b, loc, lhsValues[i], rhsValues[j]);
                    next.push_back(arith::AddFOp::create(
                        b, loc, sums[i * c.colTile + j], product));
                  }
                scf::YieldOp::create(b, loc, next);
              });
          // Nobody overwrites the tiles before everyone has read them.
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, products.getResults());
        });

    for (int64_t i = 0; i < c.rowTile; ++i)
      for (int64_t j = 0; j < c.colTile; ++j) {
        Value inside =
            arith::AndIOp::create(b, loc, rows[i].inside, cols[j].inside);
        auto store = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&store.getThenRegion().front());
        memref::StoreOp::create(
            b, loc, steps.getResult(i * c.colTile + j), c.out,
            indices(c.outMap, merge(rows[i], cols[j])));
      }
  }

private:
  /// A linear index into one group: whether it is inside the group's
  /// range, and the loop values of its clamped copy (so that no thread
  /// reads out of bounds and no branch splits a warp), the batch loops'
  /// values included.
  struct Position {
    Value inside;
    SmallVector<Value> loops;
  };

  Position position(Value linear, int64_t size, ArrayRef<unsigned> group,
                    ArrayRef<Value> batchLoops) {
    Position p{less(linear, size), SmallVector<Value>(batchLoops)};
    Value clamped =
        arith::MinUIOp::create(b, loc, linear, constant(size - 1));
    delinearize(clamped, group, p.loops);
    return p;
  }

  /// The loop values of `linear` within `group`, the group's last loop
  /// fastest.
  void delinearize(Value linear, ArrayRef<unsigned> group,
                   SmallVectorImpl<Value> &loops) {
    for (auto [index, loop] : llvm::enumerate(llvm::reverse(group))) {
      if (index + 1 == group.size()) {
        loops[loop] = linear;
        break;
      }
      Value range = constant(c.ranges[loop]);
      loops[loop] = arith::RemUIOp::create(b, loc, linear, range);
      linear = arith::DivUIOp::create(b, loc, linear, range);
    }
  }

  static Position merge(const Position &x, const Position &y) {
    Position merged{Value(), x.loops};
    for (auto [value, other] : llvm::zip(merged.loops, y.loops))
      if (!value)
        value = other;
    return merged;
  }

  SmallVector<Value> indices(AffineMap map, const Position &at) {
    SmallVector<Value> result;
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      Value loop = at.loops[map.getDimPosition(r)];
      assert(loop && "an operand indexed by a loop of another group");
      result.push_back(loop);
    }
    return result;
  }

  /// The element of `buffer` at the loops of `x` and `y`, or zero where
  /// either is past its group's end.
  Value loadOrZero(Value buffer, AffineMap map, const Position &x,
                   const Position &y) {
    Value value = memref::LoadOp::create(b, loc, buffer,
                                         indices(map, merge(x, y)));
    Value inside = arith::AndIOp::create(b, loc, x.inside, y.inside);
    return arith::SelectOp::create(b, loc, inside, value, zero);
  }

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

  OpBuilder &b;
  Location loc;
  const Contraction &c;
  Value zero;
};

/// A convolution the tap split serves on the GPU: the forward kernel and
/// the input adjoint become a contraction per span of taps. The weight
/// adjoint stays on the parallel loops, a thread per weight element: split
/// by output row it would be a launch per row and tap, and split by tap
/// each launch would have ceil(F/64) x ceil(C/64) blocks walking the
/// reduction over N x OH x OW in order (one block, one multiprocessor, for
/// a 64-filter, 64-channel layer whose reduction has 12,544 terms at batch
/// 4 and 56x56), where the loops run F x KH x KW x C threads.
bool isWeightAdjoint(linalg::LinalgOp op) {
  return remat::windowKindOf(op) == "weight_adjoint";
}

struct GpuSharedContractionsPass final
    : remat::impl::GpuSharedContractionsPassBase<GpuSharedContractionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> convolutions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isWeightAdjoint(op))
        convolutions.push_back(op);
    });
    for (linalg::LinalgOp op : convolutions)
      if (succeeded(
              remat::splitConvolution(rewriter, op, /*shareable=*/false)))
        ++numConvolutionsSplit;

    SmallVector<std::pair<linalg::LinalgOp, Contraction>, 0> contractions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<Contraction> c = contractionOf(op))
        contractions.emplace_back(op, std::move(*c));
    });
    MLIRContext *context = &getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    for (auto &[op, c] : contractions) {
      Location loc = op.getLoc();
      const int64_t blockRows = kThreads * c.rowTile;
      const int64_t blockCols = kThreads * c.colTile;
      auto lhsTile = MemRefType::get({blockRows, kStep}, c.element,
                                     MemRefLayoutAttrInterface(), workgroup);
      auto rhsTile = MemRefType::get({kStep, blockCols}, c.element,
                                     MemRefLayoutAttrInterface(), workgroup);
      rewriter.setInsertionPoint(op);
      auto index = [&](int64_t value) -> Value {
        return arith::ConstantIndexOp::create(rewriter, loc, value);
      };
      auto launch = gpu::LaunchOp::create(
          rewriter, loc, index(llvm::divideCeil(c.cols, blockCols)),
          index(llvm::divideCeil(c.rows, blockRows)), index(c.batch),
          index(kThreads), index(kThreads), index(1),
          /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
          /*asyncDependencies=*/{}, TypeRange{lhsTile, rhsTile});
      rewriter.setInsertionPointToEnd(&launch.getBody().front());
      auto terminator = gpu::TerminatorOp::create(rewriter, loc);
      rewriter.setInsertionPoint(terminator);
      KernelBuilder(rewriter, loc, c).build(launch);
      rewriter.eraseOp(op);
      ++numContractions;
    }
  }
};

} // namespace
