//===- GpuMapLoops.cpp - Parallel loops over blocks of threads ------------===//
//
// Upstream gpu-map-parallel-loops maps a loop's first three dimensions to
// the grid and its nested loops to threads; linalg's parallel loops have no
// nested parallel loop, so every block ran one thread, the fourth
// dimension of a convolution ran sequentially in it, and a second or third
// dimension above 65,535 could not launch. Collapsing the dimensions into
// one and tiling it by the block size gives every loop whole blocks of
// threads, with the innermost dimension, the one contiguous in memory,
// varying fastest across a warp.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace remat {
#define GEN_PASS_DEF_GPUMAPLOOPSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

constexpr int64_t kWarpSize = 32;

/// The loop's iteration count, over all its dimensions, when its bounds and
/// steps are constants.
std::optional<int64_t> tripCount(scf::ParallelOp loop) {
  int64_t count = 1;
  for (auto [lowerBound, upperBound, stepSize] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> lower = getConstantIntValue(lowerBound);
    std::optional<int64_t> upper = getConstantIntValue(upperBound);
    std::optional<int64_t> step = getConstantIntValue(stepSize);
    if (!lower || !upper || !step || *step <= 0)
      return std::nullopt;
    count *= llvm::divideCeil(std::max<int64_t>(*upper - *lower, 0), *step);
  }
  return count;
}

gpu::ParallelLoopDimMappingAttr mapTo(MLIRContext *context,
                                      gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

struct GpuMapLoopsPass final
    : remat::impl::GpuMapLoopsPassBase<GpuMapLoopsPass> {
  using GpuMapLoopsPassBase::GpuMapLoopsPassBase;

  void runOnOperation() override {
    if (blockSize < kWarpSize || blockSize > 1024 ||
        blockSize % kWarpSize != 0) {
      getOperation().emitError()
          << "block-size must be a multiple of 32 between 32 and 1024, not "
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->hasAttr(gpu::getMappingAttrName()))
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost)
      if (failed(mapToBlocks(loop)))
        return signalPassFailure();
    // The collapsed bounds are products of constants: fold them, so that
    // kernel outlining sinks them into the kernels as constants (a divisor
    // passed as a kernel argument costs a 64-bit division per index).
    // Folding only: canonicalization would merge the block and thread loops.
    (void)applyPatternsGreedily(getOperation(), FrozenRewritePatternSet());
  }

  LogicalResult mapToBlocks(scf::ParallelOp loop) {
    if (loop.getNumResults() != 0)
      return loop.emitError("a parallel loop with reductions cannot be "
                            "spread over GPU threads");
    int64_t threads = blockSize;
    if (std::optional<int64_t> count = tripCount(loop))
      threads = std::clamp<int64_t>(llvm::alignTo(*count, kWarpSize),
                                    kWarpSize, blockSize);
    IRRewriter rewriter(&getContext());
    // collapseParallelLoops replaces the loop by a new one at its place,
    // created after whatever it computes the bounds with.
    Block *block = loop->getBlock();
    Operation *next = loop->getNextNode();
    Location loc = loop.getLoc();
    SmallVector<unsigned> dims(loop.getNumLoops());
    std::iota(dims.begin(), dims.end(), 0u);
    collapseParallelLoops(rewriter, loop,
                          {std::vector<unsigned>(dims.begin(), dims.end())});
    auto collapsed = dyn_cast_or_null<scf::ParallelOp>(
        next ? next->getPrevNode() : &block->back());
    if (!collapsed)
      return emitError(loc, "cannot find the parallel loop collapsed from "
                            "this one");
    auto [blocks, inBlock] =
        scf::tileParallelLoop(collapsed, {threads}, /*noMinMaxBounds=*/true);
    MLIRContext *context = &getContext();
    if (failed(gpu::setMappingAttr(
            blocks, {mapTo(context, gpu::Processor::BlockX)})) ||
        failed(gpu::setMappingAttr(
            inBlock, {mapTo(context, gpu::Processor::ThreadX)})))
      return blocks.emitError("cannot map the loop to blocks and threads");
    ++numLoops;
    return success();
  }
};

} // namespace
