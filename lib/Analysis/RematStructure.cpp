//===- RematStructure.cpp - The remat dialect's structure, flattened ------===//

#include "remat/Analysis/RematStructure.h"

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace remat;

/// Moves the ops of `region`'s single block in front of `op`, with the block
/// arguments replaced by `arguments` and `op`'s results by the terminator's
/// operands; then erases `op`.
static void inlineRegionInPlace(Operation *op, Region &region,
                                ValueRange arguments) {
  Block &body = region.front();
  for (auto [argument, value] : llvm::zip(body.getArguments(), arguments))
    argument.replaceAllUsesWith(value);
  Operation *terminator = body.getTerminator();
  op->replaceAllUsesWith(terminator->getOperands());
  terminator->erase();
  op->getBlock()->getOperations().splice(op->getIterator(),
                                         body.getOperations());
  op->erase();
}

void remat::flattenRematOps(Operation *root) {
  // Post-order: nested regions are flattened before their parents move.
  SmallVector<Operation *> rematOps;
  root->walk([&](Operation *op) {
    if (isa<RecomputeOp, CheckpointOp, NameOp, BarrierOp, BackwardOp>(op))
      rematOps.push_back(op);
  });
  for (Operation *op : rematOps) {
    if (auto recompute = dyn_cast<RecomputeOp>(op)) {
      inlineRegionInPlace(op, recompute.getBody(), recompute.getInputs());
    } else if (auto checkpoint = dyn_cast<CheckpointOp>(op)) {
      inlineRegionInPlace(op, checkpoint.getBody(), {});
    } else if (isa<NameOp, BarrierOp>(op)) {
      op->replaceAllUsesWith(op->getOperands());
      op->erase();
    } else {
      op->erase();
    }
  }
}

void remat::replaceRematReturns(func::FuncOp func) {
  OpBuilder builder(func.getContext());
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    builder.setInsertionPoint(ret);
    func::ReturnOp::create(builder, ret.getLoc(), ret.getOperands());
    ret.erase();
  }
}

void remat::inlineCalls(func::FuncOp func) {
  SmallVector<func::CallOp> calls;
  for (Block &block : func.getBody())
    llvm::append_range(calls, block.getOps<func::CallOp>());
  while (!calls.empty()) {
    func::CallOp call = calls.pop_back_val();
    func::FuncOp callee = inlinedCallee(call);
    if (!callee)
      continue;
    Block &body = callee.getBody().front();
    IRMapping mapping;
    mapping.map(body.getArguments(), call.getOperands());
    OpBuilder builder(call);
    for (Operation &op : body.without_terminator()) {
      Operation *clone = builder.clone(op, mapping);
      clone->setLoc(call.getLoc());
      if (auto inner = dyn_cast<func::CallOp>(clone))
        calls.push_back(inner);
    }
    for (auto [result, returned] :
         llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
      result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
    call.erase();
  }
}
