//===- InlineCheckpoints.cpp - remat.checkpoint into the graph ------------===//

#include "Policy.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace remat {
#define GEN_PASS_DEF_INLINECHECKPOINTSPASS
#include "remat/Transforms/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-inline-checkpoints"

using namespace mlir;
using namespace remat;

namespace {

struct InlineCheckpointsPass final
    : remat::impl::InlineCheckpointsPassBase<InlineCheckpointsPass> {
  void runOnOperation() override {
    SmallVector<CheckpointOp> checkpoints;
    // Post-order: inner checkpoints are inlined (and decide) first.
    getOperation()->walk(
        [&](CheckpointOp checkpoint) { checkpoints.push_back(checkpoint); });
    for (CheckpointOp checkpoint : checkpoints)
      inlineCheckpoint(checkpoint);
  }

  void inlineCheckpoint(CheckpointOp checkpoint) {
    SavePolicy policy = checkpoint.getEffectivePolicy();
    llvm::StringSet<> names;
    if (ArrayAttr list = checkpoint.getNamesAttr())
      for (Attribute name : list)
        names.insert(cast<StringAttr>(name).getValue());

    Block &body = checkpoint.getBody().front();
    Builder builder(checkpoint.getContext());
    for (Operation &op : body.without_terminator()) {
      if (op.hasAttr(kSaveAttrName))
        continue;
      bool saveable = isSaveable(&op, policy, names);
      op.setAttr(kSaveAttrName, builder.getBoolAttr(saveable));
      if (!saveable)
        ++numNotSaveable;
    }

    Operation *yield = body.getTerminator();
    checkpoint->replaceAllUsesWith(yield->getOperands());
    yield->erase();
    checkpoint->getBlock()->getOperations().splice(
        checkpoint->getIterator(), body.getOperations());
    checkpoint->erase();
    ++numCheckpoints;
  }
};

} // namespace
