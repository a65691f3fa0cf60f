//===- ParallelDimsOutermost.cpp - Parallel loops outside reductions -----===//
//
// A linalg op's loops become, through convert-linalg-to-parallel-loops, one
// scf.parallel of its leading parallel dimensions and scf.for loops for the
// rest, in iterator order. A parallel dimension behind a reduction is then
// nested in the reduction's sequential loop, out of the GPU mapping's reach.
// Interchanging the op so that its parallel dimensions lead changes which
// loop carries the work, not the order in which an output element is
// accumulated: the reductions keep their relative order, so each element
// sees the same additions in the same sequence.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace remat {
#define GEN_PASS_DEF_PARALLELDIMSOUTERMOSTPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

/// The loop order that puts `op`'s parallel dimensions first, each group in
/// its own order; empty when they lead already.
SmallVector<unsigned> parallelFirstOrder(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      order.push_back(dim);
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator != utils::IteratorType::parallel)
      order.push_back(dim);
  for (auto [position, dim] : llvm::enumerate(order))
    if (position != dim)
      return order;
  return {};
}

struct ParallelDimsOutermostPass final
    : remat::impl::ParallelDimsOutermostPassBase<ParallelDimsOutermostPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> reordered;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() && !parallelFirstOrder(op).empty())
        reordered.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : reordered) {
      SmallVector<unsigned> order = parallelFirstOrder(op);
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> general =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(general)) {
          op->emitError("cannot be generalized to put its parallel loops "
                        "outside its reductions");
          return signalPassFailure();
        }
        generic = *general;
      }
      if (failed(linalg::interchangeGenericOp(rewriter, generic, order))) {
        generic->emitError("cannot interchange its loops to put its "
                           "parallel dimensions first");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
