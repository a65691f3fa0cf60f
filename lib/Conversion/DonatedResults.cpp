//===- DonatedResults.cpp - Results written into donated arguments --------===//
//
// A step argument with `remat.aliasing_output = r` is donated: its updated
// value, result r, must live in the caller's buffer. One-shot bufferization
// writes the update in place and returns the argument; the deallocation
// pipeline then clones it, since a caller owns what a function returns.
// This pass proves the first part (result r is the argument's buffer, not a
// new one) and undoes the clone, so the step allocates nothing for it, as
// the memory model counts.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"
#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace remat {
#define GEN_PASS_DEF_DONATEDRESULTSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-donated-results"

using namespace mlir;
using namespace remat;

namespace {

/// The buffer `returned` stands for: the source of the deallocation
/// pipeline's clone, or `returned` itself.
Value throughClone(Value returned) {
  if (auto clone = returned.getDefiningOp<bufferization::CloneOp>())
    return clone.getInput();
  return returned;
}

struct DonatedResultsPass final
    : remat::impl::DonatedResultsPassBase<DonatedResultsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    bool failedAny = false;
    for (unsigned arg = 0, e = func.getNumArguments(); arg < e; ++arg) {
      auto index =
          func.getArgAttrOfType<IntegerAttr>(arg, kAliasingOutputAttrName);
      if (!index)
        continue;
      func.removeArgAttr(arg, kAliasingOutputAttrName);
      unsigned result = index.getInt();
      BlockArgument buffer = func.getArgument(arg);
      for (Block &block : func.getBody()) {
        auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
        if (!ret)
          continue;
        OpOperand &operand = ret->getOpOperand(result);
        if (throughClone(operand.get()) != buffer) {
          ret.emitError("result #")
              << result << " is not written into the buffer of argument #"
              << arg << ", which is donated to it: bufferization could not "
              << "update the argument in place (is it read after its "
              << "update?)";
          failedAny = true;
          continue;
        }
        auto clone = operand.get().getDefiningOp<bufferization::CloneOp>();
        operand.set(buffer);
        if (clone && clone->use_empty())
          clone->erase();
        ++numDonated;
      }
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
