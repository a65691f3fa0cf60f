//===- Pipeline.cpp - The remat pipeline ----------------------------------===//

#include "remat/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace remat;

void remat::buildRematPipeline(OpPassManager &pm,
                               const RematPipelineOptions &options) {
  pm.addPass(createInlineCheckpointsPass());
  // Reordering is the plan pass's choice, not a step before it: reordering
  // first can make the plan worse.
  PlanPassOptions plan;
  plan.budget = options.budget;
  plan.solver = options.solver;
  plan.policy = options.policy;
  plan.names.assign(options.names.begin(), options.names.end());
  plan.countInputs = options.countInputs;
  plan.minRematBytes = options.minRematBytes;
  plan.bestEffort = options.bestEffort;
  plan.budgetKind = options.budgetKind;
  plan.target = options.target;
  plan.arenaAlignment = options.arenaAlignment;
  plan.timeLimit = options.timeLimit;
  plan.reorder = options.schedule;
  plan.reportPath = options.report;
  plan.timelinePath = options.timeline;
  plan.summary = options.summary;
  pm.addPass(createPlanPass(plan));
  pm.addPass(createApplyPass());
}

namespace {

struct RematPipelineCLOptions
    : PassPipelineOptions<RematPipelineCLOptions> {
  Option<std::string> budget{
      *this, "budget",
      llvm::cl::desc("Peak-memory budget: bytes, a size (64MiB), a fraction "
                     "of the unrematerialized peak (0.5), or 'min'")};
  Option<std::string> solver{*this, "solver",
                             llvm::cl::desc("Solver deciding what to "
                                            "recompute"),
                             llvm::cl::init("greedy")};
  Option<std::string> policy{
      *this, "policy", llvm::cl::desc("Checkpoint policy for whole graphs")};
  ListOption<std::string> names{
      *this, "names",
      llvm::cl::desc("remat.name tags for the name-based policies")};
  Option<bool> countInputs{*this, "count-inputs",
                           llvm::cl::desc("Count inputs as live memory"),
                           llvm::cl::init(false)};
  Option<uint64_t> minRematBytes{
      *this, "min-remat-bytes",
      llvm::cl::desc("Never recompute values smaller than this"),
      llvm::cl::init(0)};
  Option<bool> bestEffort{
      *this, "best-effort",
      llvm::cl::desc("Warn instead of failing on an infeasible budget"),
      llvm::cl::init(false)};
  Option<std::string> budgetKind{
      *this, "budget-kind",
      llvm::cl::desc("What the budget bounds: 'arena' (placed buffers, "
                     "padding and fragmentation included) or 'live'"),
      llvm::cl::init("arena")};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Target whose memory description gives the arena's "
                     "alignment: cpu (64 B) or gpu (256 B)"),
      llvm::cl::init("cpu")};
  Option<uint64_t> arenaAlignment{
      *this, "arena-alignment",
      llvm::cl::desc("Overrides the target's arena alignment (a power of "
                     "two, at most 4096; 0: the target's)"),
      llvm::cl::init(0)};
  Option<double> timeLimit{
      *this, "time-limit",
      llvm::cl::desc("Seconds the planning of each graph may take in all "
                     "(both orders, every arena re-plan)"),
      llvm::cl::init(60)};
  Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("Also plan remat-schedule's memory-aware order and "
                     "keep the order that plans better"),
      llvm::cl::init(true)};
  Option<std::string> report{*this, "report",
                             llvm::cl::desc("JSON report path")};
  Option<std::string> timeline{*this, "timeline",
                               llvm::cl::desc("SVG memory timeline path")};
  Option<bool> summary{
      *this, "summary",
      llvm::cl::desc("Print a summary of each graph's plan to stderr"),
      llvm::cl::init(false)};

  RematPipelineOptions toOptions() const {
    RematPipelineOptions options;
    options.budget = budget;
    options.solver = solver;
    options.policy = policy;
    options.names.assign(names.begin(), names.end());
    options.countInputs = countInputs;
    options.minRematBytes = minRematBytes;
    options.bestEffort = bestEffort;
    options.budgetKind = budgetKind;
    options.target = target;
    options.arenaAlignment = arenaAlignment;
    options.timeLimit = timeLimit;
    options.schedule = schedule;
    options.report = report;
    options.timeline = timeline;
    options.summary = summary;
    return options;
  }
};

} // namespace

void remat::registerRematPipeline() {
  PassPipelineRegistration<RematPipelineCLOptions>(
      "remat-pipeline",
      "Rematerialize training steps under a memory budget: inline "
      "checkpoints, plan (in the given or a memory-aware order, whichever "
      "plans better), apply",
      [](OpPassManager &pm, const RematPipelineCLOptions &options) {
        buildRematPipeline(pm, options.toOptions());
      });
}
