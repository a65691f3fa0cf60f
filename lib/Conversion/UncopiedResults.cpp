//===- UncopiedResults.cpp - Constants and arguments returned as they are -===//
//
// The deallocation pipeline clones every returned buffer the function does
// not own. For a constant's global or an argument (or a view of either)
// that clone is a buffer the memory model does not have: the model counts
// the result as the constant or the argument. This pass returns the buffer
// itself.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace remat {
#define GEN_PASS_DEF_UNCOPIEDRESULTSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-uncopied-results"

using namespace mlir;

namespace {

/// Whether `buffer` is a constant's global, an argument of `func`, or a view
/// of one of them: memory the function did not allocate.
bool isUnowned(Value buffer, func::FuncOp func) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  if (auto arg = dyn_cast<BlockArgument>(buffer))
    return arg.getOwner()->isEntryBlock() &&
           arg.getOwner()->getParentOp() == func;
  return buffer.getDefiningOp<memref::GetGlobalOp>() != nullptr;
}

struct UncopiedResultsPass final
    : remat::impl::UncopiedResultsPassBase<UncopiedResultsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    func.walk([&](func::ReturnOp ret) {
      for (OpOperand &operand : ret->getOpOperands()) {
        auto clone = operand.get().getDefiningOp<bufferization::CloneOp>();
        if (!clone || clone.getInput().getType() != operand.get().getType() ||
            !isUnowned(clone.getInput(), func))
          continue;
        operand.set(clone.getInput());
        if (clone->use_empty())
          clone->erase();
        ++numUncopied;
      }
    });
  }
};

} // namespace
