//===- FreeAfterLastUse.cpp - Deallocations right after last uses ---------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace remat {
#define GEN_PASS_DEF_FREEAFTERLASTUSEPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-free-after-last-use"

using namespace mlir;

namespace {

struct FreeAfterLastUsePass final
    : remat::impl::FreeAfterLastUsePassBase<FreeAfterLastUsePass> {
  void runOnOperation() override {
    BufferViewFlowAnalysis aliases(getOperation());
    for (Block &block : getOperation().getBody())
      for (memref::DeallocOp dealloc :
           llvm::make_early_inc_range(block.getOps<memref::DeallocOp>()))
        if (Operation *last = lastUseInBlock(dealloc, aliases);
            last && last->getNextNode() != dealloc) {
          dealloc->moveAfter(last);
          ++numMoved;
        }
  }

  /// The last op of the dealloc's block that defines or uses the buffer or
  /// a view of it; nullptr when one of them is used in another block.
  static Operation *lastUseInBlock(memref::DeallocOp dealloc,
                                   const BufferViewFlowAnalysis &aliases) {
    Block *block = dealloc->getBlock();
    Operation *last = nullptr;
    auto extend = [&](Operation *op) {
      if (!last || last->isBeforeInBlock(op))
        last = op;
    };
    for (Value alias : aliases.resolve(dealloc.getMemref())) {
      if (Operation *def = alias.getDefiningOp();
          def && def->getBlock() == block)
        extend(def);
      for (Operation *user : alias.getUsers()) {
        if (user == dealloc)
          continue;
        Operation *inBlock = block->findAncestorOpInBlock(*user);
        if (!inBlock)
          return nullptr;
        extend(inBlock);
      }
    }
    if (!last || dealloc->isBeforeInBlock(last))
      return nullptr;
    // The ops lowered from one source op share its location: the memory
    // model keeps a source op's operands live until it has run completely.
    for (Operation *next = last->getNextNode(); next;
         next = next->getNextNode()) {
      if (next->hasTrait<OpTrait::IsTerminator>() ||
          next->getLoc() != last->getLoc())
        break;
      if (!isa<memref::DeallocOp>(next))
        last = next;
    }
    return last;
  }
};

} // namespace
