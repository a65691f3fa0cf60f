//===- ParallelTiles.cpp - Tile loops run across the cores ----------------===//

#include "ParallelTiles.h"

using namespace mlir;

scf::ParallelOp remat::runInParallel(RewriterBase &rewriter,
                                     scf::ForOp loop) {
  assert(loop.getInitArgs().empty() && "a loop-carried value is not parallel");
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  auto parallel = scf::ParallelOp::create(
      rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
  // The for loop's body, less its yield, before the parallel loop's
  // terminator, the induction variable replaced.
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, parallel.getBody()->getTerminator(),
                             parallel.getInductionVars());
  rewriter.eraseOp(loop);
  return parallel;
}
