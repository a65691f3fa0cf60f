//===- VectorizeKernels.cpp - Register tiles and vectors, no buffers ------===//
//
// Runs after the arena is placed: tiling a bufferized op makes views
// (memref.subview), and vectorizing a tile reads it into registers, so the
// faster code allocates nothing the memory model has not counted.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "ConvolutionTaps.h"
#include "ParallelTiles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"

namespace remat {
#define GEN_PASS_DEF_VECTORIZEKERNELSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-vectorize-kernels"

using namespace mlir;

namespace {

/// The vector unit code is generated for.
struct VectorUnit {
  unsigned bits;
  unsigned registers;

  static VectorUnit ofBits(unsigned bits) {
    // AVX-512 has 32 vector registers; AVX, SSE and NEON's 128-bit view 16.
    return {bits, bits >= 512 ? 32u : 16u};
  }

  static VectorUnit host() {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    if (features.lookup("avx512f"))
      return ofBits(512);
    if (features.lookup("avx"))
      return ofBits(256);
    return ofBits(128);
  }

  /// Elements of `elementType` in one register (at least 1).
  int64_t lanes(Type elementType) const {
    unsigned elementBits = std::max(8u, elementType.getIntOrFloatBitWidth());
    return std::max<int64_t>(1, bits / elementBits);
  }
};

/// The largest divisor of `extent` that is at most `limit`: tiles that
/// divide their loop have one static shape, so no tile needs a mask.
int64_t largestDivisorAtMost(int64_t extent, int64_t limit) {
  for (int64_t size = std::min(extent, limit); size > 1; --size)
    if (extent % size == 0)
      return size;
  return 1;
}

/// The element type the op computes in: its first output's.
Type computeType(linalg::LinalgOp op) {
  return getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
}

/// Register tile of a contraction: m rows by two vectors of n by 8 steps
/// of k; batch loops and all but the innermost n and k loops 1. (16 steps
/// ran the bundled steps and ResNet-50's as fast, and made a third more
/// code to compile: ResNet-50's step 20 s from file to compiled against
/// 15; 4 steps cost the MLP 7%.) The rows
/// come from the innermost m loop, then from the next ones out while rows
/// are left: every row reuses the tile of the right operand read into
/// registers (a convolution's input adjoint has m loops n, oh and ow, each
/// a few long).
SmallVector<int64_t> contractionTile(linalg::LinalgOp op,
                                     const linalg::ContractionDimensions &dims,
                                     const VectorUnit &unit) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> tile(ranges.size(), 1);
  int64_t rows = unit.registers >= 32 ? 8 : 4;
  int64_t columns = 2 * unit.lanes(computeType(op));
  for (unsigned m : llvm::reverse(dims.m)) {
    tile[m] = largestDivisorAtMost(ranges[m], rows);
    rows /= tile[m];
  }
  tile[dims.n.back()] = largestDivisorAtMost(ranges[dims.n.back()], columns);
  tile[dims.k.back()] = largestDivisorAtMost(ranges[dims.k.back()], 8);
  return tile;
}

/// Any other op: the innermost loop in tiles of up to two vectors.
SmallVector<int64_t> innermostTile(linalg::LinalgOp op,
                                   const VectorUnit &unit) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> tile(ranges.size(), 1);
  if (!ranges.empty())
    tile.back() = largestDivisorAtMost(ranges.back(),
                                       2 * unit.lanes(computeType(op)));
  return tile;
}

/// Tile sizes as tileUsingSCF takes them: 0 leaves a loop whole.
SmallVector<OpFoldResult> asTileSizes(MLIRContext *context,
                                      ArrayRef<int64_t> ranges,
                                      ArrayRef<int64_t> tile) {
  SmallVector<OpFoldResult> sizes;
  for (auto [range, size] : llvm::zip(ranges, tile))
    sizes.push_back(getAsIndexOpFoldResult(context, size == range ? 0 : size));
  return sizes;
}

void addVectorCanonicalizations(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  for (RegisteredOperationName name : context->getRegisteredOperationsByDialect(
           vector::VectorDialect::getDialectNamespace()))
    name.getCanonicalizationPatterns(patterns, context);
}

/// An elementwise op of several results (arith.mului_extended, as in
/// dropout's random numbers) on vectors of rank 2 or more, on flat vectors
/// instead: the LLVM lowering takes such ops on 1-D vectors only (the
/// single-result ones it unrolls itself), and a tile of a 2-D op with a
/// unit dimension is such a vector.
struct FlattenMultiResultElementwise final : RewritePattern {
  explicit FlattenMultiResultElementwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() < 2 ||
        op->getNumRegions() != 0)
      return failure();
    auto shaped = [](Type type) {
      auto vector = dyn_cast<VectorType>(type);
      return vector && vector.getRank() > 1 && !vector.isScalable();
    };
    if (!llvm::all_of(op->getOperandTypes(), shaped) ||
        !llvm::all_of(op->getResultTypes(), shaped))
      return failure();
    auto flat = [](Type type) -> Type {
      auto vector = cast<VectorType>(type);
      return VectorType::get({vector.getNumElements()},
                             vector.getElementType());
    };
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(vector::ShapeCastOp::create(
          rewriter, op->getLoc(), flat(operand.getType()), operand));
    SmallVector<Type> resultTypes =
        llvm::map_to_vector(op->getResultTypes(), flat);
    Operation *flatOp =
        rewriter.create(op->getLoc(), op->getName().getIdentifier(), operands,
                        resultTypes, op->getAttrs());
    SmallVector<Value> results;
    for (auto [result, flatResult] :
         llvm::zip(op->getResults(), flatOp->getResults()))
      results.push_back(vector::ShapeCastOp::create(
          rewriter, op->getLoc(), result.getType(), flatResult));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The patterns that lower what linalg::vectorize makes come in stages,
/// each stage's output the next one's input: mixed, they would lower a
/// reduction to dot products before it becomes a contraction.
/// 1. Multiply-and-reduce becomes vector.contract, unit dims dropped.
RewritePatternSet contractionStage(MLIRContext *context) {
  RewritePatternSet patterns(context);
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  patterns.add<FlattenMultiResultElementwise>(context);
  addVectorCanonicalizations(patterns);
  return patterns;
}

/// 2. Contractions become outer products, then broadcasts and FMAs.
RewritePatternSet arithmeticStage(MLIRContext *context) {
  RewritePatternSet patterns(context);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::OuterProduct);
  vector::populateVectorOuterProductLoweringPatterns(patterns);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerReduction);
  return patterns;
}

/// 3. Transfers become rank-1 loads and stores.
RewritePatternSet memoryStage(MLIRContext *context) {
  RewritePatternSet patterns(context);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorTransferLoweringPatterns(patterns,
                                                 /*maxTransferRank=*/1);
  // One shuffle of the flattened tile, which LLVM lowers to permutes:
  // element by element (the default), a transposed weight tile made a
  // third of ResNet-50's LLVM IR and of its compile time.
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vector::VectorTransposeLowering::Shuffle1D);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  addVectorCanonicalizations(patterns);
  return patterns;
}

/// Points of the op's iteration space (saturating): its multiply-adds for
/// a contraction, its elements for an elementwise op.
int64_t iterations(linalg::LinalgOp op) {
  int64_t count = 1;
  for (int64_t range : op.getStaticLoopRanges())
    count = range > 0 && count > std::numeric_limits<int64_t>::max() / range
                ? std::numeric_limits<int64_t>::max()
                : count * range;
  return count;
}

/// Whether different iterations of loop `dim` write different elements of
/// every output: a parallel loop that indexes each output.
bool writesDisjointOutputs(linalg::LinalgOp op, unsigned dim) {
  if (op.getIteratorTypesArray()[dim] != utils::IteratorType::parallel)
    return false;
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    return op.getMatchingIndexingMap(&init).isFunctionOfDim(dim);
  });
}

struct VectorizeKernelsPass final
    : remat::impl::VectorizeKernelsPassBase<VectorizeKernelsPass> {
  using VectorizeKernelsPassBase::VectorizeKernelsPassBase;

  LogicalResult initialize(MLIRContext *context) override {
    unit = vectorBits ? VectorUnit::ofBits(vectorBits) : VectorUnit::host();
    loweringStages.emplace_back(contractionStage(context));
    loweringStages.emplace_back(arithmeticStage(context));
    loweringStages.emplace_back(memoryStage(context));
    return success();
  }

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    SmallVector<linalg::LinalgOp> kernels;
    function.walk([&](linalg::LinalgOp op) { kernels.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : kernels) {
      Location opLocation = op->getLoc();
      bool shareable =
          parallel && iterations(op) >= remat::kMinParallelIterations;
      FailureOr<remat::SplitConvolution> split =
          remat::splitConvolution(rewriter, op, shareable);
      if (failed(split)) {
        countKernel(vectorizeKernel(rewriter, op));
        continue;
      }
      ++numConvolutionsSplit;
      if (split->shareableLoop) {
        scf::ParallelOp shared =
            remat::runInParallel(rewriter, split->shareableLoop);
        ++numParallel;
        remark::passed(opLocation, remarkOptions(shared))
            << split->kind +
                   (split->sharesRows
                        ? " rows run in parallel"
                        : " in parallel chunks of its output channels");
      }
      for (linalg::LinalgOp contraction : split->contractions) {
        remark::passed(contraction->getLoc(), remarkOptions(contraction))
            << split->kind + " tap by tap: a contraction over views";
        countKernel(vectorizeKernel(rewriter, contraction));
      }
    }
    for (const FrozenRewritePatternSet &stage : loweringStages)
      if (failed(applyPatternsGreedily(function, stage)))
        return signalPassFailure();
  }

  void countKernel(LogicalResult vectorized) {
    if (succeeded(vectorized))
      ++numVectorized;
    else
      ++numKept;
  }

  /// Tiles and vectorizes one op, or leaves it as it is and says why.
  LogicalResult vectorizeKernel(RewriterBase &rewriter, linalg::LinalgOp op) {
    if (!op.hasPureBufferSemantics() || op.hasDynamicShape() ||
        op.getNumDpsInits() == 0)
      return keep(op, "not a statically shaped op on buffers");
    // A memref stores an i1 in a byte, and so do the vector loads and
    // stores of i1 after remat-byte-masks; other widths that are not whole
    // bytes have no such promise.
    if (llvm::any_of(op->getOperandTypes(), [](Type type) {
          Type element = getElementTypeOrSelf(type);
          return element.isIntOrFloat() && !element.isInteger(1) &&
                 element.getIntOrFloatBitWidth() % 8;
        }))
      return keep(op, "its buffers hold elements narrower than a byte");
    if (failed(linalg::vectorizeOpPrecondition(op))) {
      if (moveOutputRowInnermost(rewriter, op))
        return keep(op, "the vectorizer does not take its body; its loop "
                        "over the output's rows moved innermost");
      return keep(op, "the vectorizer does not take its body");
    }

    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    bool contraction = linalg::isaContractionOpInterface(op) &&
                       succeeded(dims) && !dims->m.empty() &&
                       !dims->n.empty() && !dims->k.empty();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<int64_t> tile = contraction
                                    ? contractionTile(op, *dims, unit)
                                    : innermostTile(op, unit);

    scf::SCFTilingOptions options;
    options.setTileSizes(asTileSizes(op->getContext(), ranges, tile));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled) || tiled->tiledOps.size() != 1)
      return keep(op, "it cannot be tiled");
    Operation *tileOp = tiled->tiledOps.front();
    // The outermost tile loop runs in parallel when its tiles write
    // disjoint outputs and the op is worth it. Only for an op outside any
    // loop: inside one (a convolution's taps), each iteration of the outer
    // loop would start a parallel region of its own.
    auto outermost = llvm::find_if(llvm::seq<unsigned>(ranges.size()),
                                   [&](unsigned d) { return tile[d] != ranges[d]; });
    bool runsInParallel =
        parallel && !tiled->loops.empty() &&
        !op->getParentOfType<LoopLikeOpInterface>() &&
        iterations(op) >= remat::kMinParallelIterations &&
        writesDisjointOutputs(op, *outermost);
    // On buffers the loops write through views: the op has no results to
    // replace.
    rewriter.eraseOp(op);
    if (runsInParallel) {
      remat::runInParallel(rewriter,
                           cast<scf::ForOp>(tiled->loops.front().getOperation()));
      ++numParallel;
    }

    if (failed(linalg::vectorize(rewriter, tileOp, /*inputVectorSizes=*/{},
                                 /*inputScalableVecDims=*/{},
                                 /*vectorizeNDExtract=*/false,
                                 /*flatten1DDepthwiseConv=*/false,
                                 /*assumeDynamicDimsMatchVecSizes=*/false,
                                 /*createNamedContraction=*/contraction)))
      return keep(tileOp, "its tile cannot be vectorized");
    remark::passed(tileOp->getLoc(), remarkOptions(tileOp))
        << ((contraction ? "contraction" : "kernel") + llvm::Twine(" tiled [") +
            llvm::join(llvm::map_range(tile,
                                       [](int64_t s) {
                                         return std::to_string(s);
                                       }),
                       ", ") +
            "] and vectorized" +
            (runsInParallel ? ", its outermost tile loop in parallel" : ""))
               .str();
    rewriter.eraseOp(tileOp);
    return success();
  }

  /// A generic left as a loop nest (a window kernel's gather, such as max
  /// pooling's input adjoint): its loop over the last dimension of its one
  /// output, which the output stores with unit stride, moved innermost
  /// behind the window's reduction loops, so that LLVM's loop vectorizer
  /// finds contiguous loads and stores in the innermost loop and the index
  /// arithmetic of the window outside it (in NHWC, over the channels). The
  /// loop is parallel and indexes the output, so every output element sums
  /// its terms in the same order: the results do not change. Returns
  /// whether it moved a loop.
  static bool moveOutputRowInnermost(RewriterBase &rewriter,
                                     linalg::LinalgOp op) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumDpsInits() != 1)
      return false;
    AffineMap output =
        generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
    if (output.getNumResults() == 0)
      return false;
    auto row = dyn_cast<AffineDimExpr>(output.getResults().back());
    unsigned loops = generic.getNumLoops();
    if (!row || row.getPosition() == loops - 1 ||
        !linalg::isParallelIterator(
            generic.getIteratorTypesArray()[row.getPosition()]))
      return false;
    SmallVector<unsigned> order;
    for (unsigned d = 0; d < loops; ++d)
      if (d != row.getPosition())
        order.push_back(d);
    order.push_back(row.getPosition());
    rewriter.setInsertionPoint(generic);
    return succeeded(linalg::interchangeGenericOp(rewriter, generic, order));
  }

  static remark::RemarkOpts remarkOptions(Operation *op) {
    return remark::RemarkOpts::name("Vectorize").category("remat").function(
        op->getParentOfType<func::FuncOp>().getName());
  }

  static LogicalResult keep(Operation *op, StringRef why) {
    remark::missed(op->getLoc(), remarkOptions(op))
        << (op->getName().getStringRef() + " stays a loop nest: " + why).str();
    return failure();
  }

  VectorUnit unit = VectorUnit::ofBits(128);
  SmallVector<FrozenRewritePatternSet> loweringStages;
};

} // namespace
