//===- Pipeline.cpp - The remat pipeline ----------------------------------===//

#include "remat/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace remat;

PlanPassOptions RematPipelineOptions::planOptions() const {
  PlanPassOptions plan;
  plan.budget = budget;
  plan.solver = solver;
  plan.policy = policy;
  plan.names.assign(names.begin(), names.end());
  plan.countInputs = countInputs;
  plan.minRematBytes = minRematBytes;
  plan.bestEffort = bestEffort;
  plan.budgetKind = budgetKind;
  plan.target = target;
  plan.arenaAlignment = arenaAlignment;
  plan.costModel = costModel;
  plan.timeModel = timeModel;
  plan.timeLimit = timeLimit;
  plan.schedule = schedule;
  plan.isolateSearch = isolateSearch;
  plan.report = report;
  plan.timeline = timeline;
  plan.summary = summary;
  return plan;
}

void remat::buildRematPipeline(OpPassManager &pm,
                               const RematPipelineOptions &options) {
  pm.addPass(createInlineCheckpointsPass());
  // Reordering is the plan pass's choice, not a step before it: reordering
  // first can make the plan worse.
  pm.addPass(createPlanPass(options.planOptions()));
  pm.addPass(createApplyPass());
}

void remat::registerRematPipeline() {
  PassPipelineRegistration<RematPipelineOptions>(
      "remat-pipeline",
      "Rematerialize training steps under a memory budget: inline "
      "checkpoints, plan (in the given or a memory-aware order, whichever "
      "plans better), apply",
      buildRematPipeline);
}
