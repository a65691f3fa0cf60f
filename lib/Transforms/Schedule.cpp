//===- Schedule.cpp - Memory-aware reordering of a training step ----------===//

#include "Graphs.h"
#include "Reorder.h"

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Schedule.h"
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
    if (failed(makeBufferCopiesExplicit(function)))
      return failure();
    FailureOr<GraphProgram> graph = buildProgram(function);
    if (failed(graph))
      return failure();
    if (graph->hasRecomputes)
      return mlir::emitError(function.getLoc(), "remat-schedule must run before remat-apply: "
                                "the graph already holds remat.recompute "
                                "regions");

    const Program &program = graph->program;
    std::vector<OpId> order = scheduleForMemory(program, countInputs);
    if (isIdentityOrder(order))
      return success();

    uint64_t before = computeMemoryProfile(program, countInputs).peakBytes;
    uint64_t after =
        computeMemoryProfile(reorder(program, order), countInputs).peakBytes;
    reorderBlock(function, *graph, order);
    ++numReordered;
    bytesSaved += before - after;
    return success();
  }
};

} // namespace
