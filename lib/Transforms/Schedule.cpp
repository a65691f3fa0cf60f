//===- Schedule.cpp - Memory-aware reordering of a training step ----------===//

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Schedule.h"
#include "Graphs.h"
#include "remat/Transforms/Passes.h"

namespace remat {
#define GEN_PASS_DEF_SCHEDULEPASS
#include "remat/Transforms/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-schedule"

using namespace mlir;
using namespace remat;

namespace {

struct SchedulePass final : remat::impl::SchedulePassBase<SchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(forEachGraph(getOperation(), [&](FunctionOpInterface graph) {
          return scheduleGraph(graph);
        })))
      signalPassFailure();
  }

  LogicalResult scheduleGraph(FunctionOpInterface function) {
    FailureOr<GraphProgram> graph = buildProgram(function);
    if (failed(graph))
      return failure();
    if (graph->hasRecomputes)
      return mlir::emitError(function.getLoc(), "remat-schedule must run before remat-apply: "
                                "the graph already holds remat.recompute "
                                "regions");

    const Program &program = graph->program;
    std::vector<OpId> order = scheduleForMemory(program, countInputs);
    bool identity = true;
    for (auto [position, op] : llvm::enumerate(order))
      identity &= position == op;
    if (identity)
      return success();

    uint64_t before = computeMemoryProfile(program, countInputs).peakBytes;
    uint64_t after =
        computeMemoryProfile(reorder(program, order), countInputs).peakBytes;
    Block &block = function.getFunctionBody().front();
    SmallVector<NameOp> tags(block.getOps<NameOp>());
    for (OpId op : order)
      graph->ops[op]->moveBefore(block.getTerminator());
    // Tags are not ops of the program: each follows the value it names.
    for (NameOp tag : tags) {
      if (Operation *def = tag.getInput().getDefiningOp())
        tag->moveAfter(def);
      else
        tag->moveBefore(&block.front());
    }
    ++numReordered;
    bytesSaved += before - after;
    return success();
  }
};

} // namespace
