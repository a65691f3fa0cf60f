//===- Plan.cpp - Decide what to recompute under a budget -----------------===//

#include "Graphs.h"
#include "PlanAttr.h"
#include "PlanOutcome.h"
#include "Policy.h"
#include "Reorder.h"

#include "remat/Analysis/TimeModel.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Planning/Driver.h"
#include "remat/Planning/Plan.h"
#include "remat/Planning/TargetMemory.h"
#include "remat/Planning/TargetTime.h"
#include "remat/Support/Locations.h"
#include "remat/Support/ToolFiles.h"
#include "remat/Transforms/Passes.h"

#include "mlir/IR/Remarks.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace remat {
#define GEN_PASS_DEF_PLANPASS
#include "remat/Transforms/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-plan"

using namespace mlir;
using namespace remat;

namespace {

struct PlanPass final : remat::impl::PlanPassBase<PlanPass> {
  using Base::Base;

  /// The parsed options, checked once before any graph is touched.
  std::optional<Budget> budgetOption;
  std::optional<SavePolicy> graphPolicy;
  llvm::StringSet<> policyNames;
  /// The options every graph is planned with, but for its budget.
  PlanningOptions planning;
  /// The time model every op is priced with, or none (cost-model=flops).
  std::optional<TargetTime> timeModelUsed;

  /// Where an option error points: the first graph, since an implicit
  /// module has no location of its own in the source.
  static Location optionErrorLoc(ModuleOp module) {
    Location loc = module.getLoc();
    module.walk([&](FunctionOpInterface function) {
      if (function.isExternal())
        return WalkResult::advance();
      loc = function.getLoc();
      return WalkResult::interrupt();
    });
    return loc;
  }

  LogicalResult parseOptions(ModuleOp module) {
    if (!budget.empty()) {
      std::string error;
      budgetOption = parseBudget(budget, error);
      if (!budgetOption)
        return mlir::emitError(optionErrorLoc(module), "invalid budget option '")
               << budget << "': " << error;
    }
    if (!createSolver(solver))
      return mlir::emitError(module.getLoc(), "unknown solver '")
             << solver << "'; available: " << availableSolvers();
    if (!(timeLimit > 0))
      return mlir::emitError(module.getLoc(), "time-limit must be a positive "
                                              "number of seconds, not ")
             << timeLimit;
    if (!policy.empty()) {
      graphPolicy = symbolizeSavePolicy(policy);
      if (!graphPolicy)
        return mlir::emitError(module.getLoc(), "unknown policy '")
               << policy
               << "'; expected everything_saveable, nothing_saveable, "
                  "dots_saveable, dots_with_no_batch_dims_saveable, "
                  "save_only_these_names or save_any_names_but_these";
      if (isNamePolicy(*graphPolicy) && names.empty())
        return mlir::emitError(module.getLoc(), "policy '")
               << policy << "' needs names=... (remat.name tags)";
    }
    if (!names.empty() && !(graphPolicy && isNamePolicy(*graphPolicy)))
      return mlir::emitError(module.getLoc(),
          "names=... only applies with policy=save_only_these_names or "
          "policy=save_any_names_but_these");
    for (const std::string &name : names)
      policyNames.insert(name);
    if (budgetKind != "arena" && budgetKind != "live")
      return mlir::emitError(optionErrorLoc(module), "invalid budget-kind '")
             << budgetKind << "': expected 'arena' or 'live'";
    std::optional<TargetMemory> memory = lookupTargetMemory(target);
    if (!memory)
      return mlir::emitError(optionErrorLoc(module), "unknown target '")
             << target << "': expected 'cpu' or 'gpu'";
    planning.alignment =
        arenaAlignment ? arenaAlignment.getValue() : memory->alignment;
    if (std::string problem = checkArenaAlignment(planning.alignment);
        !problem.empty())
      return mlir::emitError(optionErrorLoc(module), "arena-alignment ")
             << problem;
    if (failed(parseCostModel(module)))
      return failure();
    planning.solver = solver;
    planning.countInputs = countInputs;
    planning.minRematBytes = minRematBytes;
    planning.arenaBudget = budgetKind == "arena";
    planning.timeLimitSeconds = timeLimit;
    planning.schedule = schedule;
    // --mlir-disable-threading keeps the planner on one thread too.
    planning.parallelOrders = module.getContext()->isMultithreadingEnabled();
    planning.isolateSearch = isolateSearch;
    planning.searchBelowFloor = bestEffort;
    return success();
  }

  /// Sets timeModelUsed from cost-model, time-model and the target.
  LogicalResult parseCostModel(ModuleOp module) {
    if (costModel != "" && costModel != "time" && costModel != "flops")
      return mlir::emitError(optionErrorLoc(module), "invalid cost-model '")
             << costModel << "': expected 'time' or 'flops'";
    if (costModel == "flops") {
      if (!timeModel.empty())
        return mlir::emitError(optionErrorLoc(module),
                               "time-model is not used with cost-model=flops");
      return success();
    }
    // FLOPs unless time is asked for, by name or with a model.
    if (costModel.empty() && timeModel.empty())
      return success();
    if (timeModel.empty()) {
      timeModelUsed = lookupTargetTime(target);
      if (!timeModelUsed)
        return mlir::emitError(optionErrorLoc(module), "target '")
               << target
               << "' has no built-in time model: measure one "
                  "(bench/calibrate-time.py) and give it as time-model=<file>, "
                  "or use cost-model=flops";
      return success();
    }
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> file =
        mlir::openInputFile(timeModel, &error);
    if (!file)
      return mlir::emitError(optionErrorLoc(module), "time-model: ") << error;
    llvm::Expected<TargetTime> parsed = parseTargetTime(file->getBuffer());
    if (!parsed)
      return mlir::emitError(optionErrorLoc(module), "time-model '")
             << timeModel << "': " << llvm::toString(parsed.takeError());
    timeModelUsed = std::move(*parsed);
    return success();
  }

  /// Builds `function`'s Program, priced with the time model if any.
  FailureOr<GraphProgram> buildPricedProgram(FunctionOpInterface function) {
    FailureOr<GraphProgram> graph = buildProgram(function);
    if (succeeded(graph) && timeModelUsed)
      applyTimeModel(*graph, *timeModelUsed);
    return graph;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(parseOptions(module)))
      return signalPassFailure();
    // The output paths, before any work: one file per output, in a
    // directory that exists (ToolFiles.h).
    OutputClaims claims;
    for (auto [path, what] : {std::pair(StringRef(report), "the report"),
                              std::pair(StringRef(timeline),
                                        "the timeline")})
      if (llvm::Error error = claims.claim(path, what)) {
        mlir::emitError(optionErrorLoc(module))
            << llvm::toString(std::move(error));
        return signalPassFailure();
      }

    // Steps only: a private helper a step calls is not planned or held to
    // the budget (Graphs.h).
    SmallVector<FunctionOpInterface> functions = collectSteps(module);
    // Every step's attributes, before planning any.
    bool invalid = false;
    for (FunctionOpInterface function : functions)
      invalid |= failed(verifyStepAttributes(function));
    if (invalid)
      return signalPassFailure();

    std::vector<std::unique_ptr<PlanOutcome>> outcomes;
    bool failedAny = false;
    for (FunctionOpInterface function : functions) {
      std::unique_ptr<PlanOutcome> outcome = planGraph(function);
      if (!outcome) {
        failedAny = true;
        continue;
      }
      outcomes.push_back(std::move(outcome));
    }
    if (failedAny)
      return signalPassFailure();

    if (failed(writeOutputs(module, outcomes)))
      return signalPassFailure();
  }

  /// Stages the report and the timeline, and writes them unless a tool
  /// holds the outputs until its whole run has succeeded (ToolFiles.h).
  LogicalResult
  writeOutputs(ModuleOp module,
               ArrayRef<std::unique_ptr<PlanOutcome>> outcomes) {
    OutputFiles &files = OutputFiles::get();
    auto failWith = [&](llvm::Error error) {
      if (!files.isHeld())
        files.discard();
      return mlir::emitError(module.getLoc())
             << llvm::toString(std::move(error));
    };
    if (!report.empty()) {
      llvm::json::Array graphs;
      for (const auto &outcome : outcomes)
        graphs.push_back(reportGraph(*outcome));
      llvm::json::Object json{{"graphs", std::move(graphs)}};
      std::string text =
          llvm::formatv("{0:2}", llvm::json::Value(std::move(json)));
      if (llvm::Error error = files.stage(report, text + "\n"))
        return failWith(std::move(error));
    }
    if (!timeline.empty()) {
      SmallVector<const PlanOutcome *> panels;
      for (const auto &outcome : outcomes)
        panels.push_back(outcome.get());
      if (llvm::Error error =
              files.stage(timeline, renderTimelineSvg(panels)))
        return failWith(std::move(error));
    }
    if (!files.isHeld())
      if (llvm::Error error = files.commit())
        return failWith(std::move(error));
    return success();
  }

  /// Plans one graph; returns nullptr after emitting an error.
  std::unique_ptr<PlanOutcome> planGraph(FunctionOpInterface function) {
    if (Operation *nested = findFirst<CheckpointOp>(function)) {
      nested->emitError("remat-plan needs checkpoints inlined first: run "
                        "remat-inline-checkpoints (remat-pipeline does)");
      return nullptr;
    }
    if (Operation *nested = findFirst<RecomputeOp>(function)) {
      nested->emitError("remat-plan expects a graph that is not "
                        "rematerialized yet");
      return nullptr;
    }
    if (failed(makeBufferCopiesExplicit(function)))
      return nullptr;
    FailureOr<GraphProgram> graph = buildPricedProgram(function);
    if (failed(graph))
      return nullptr;

    auto outcome = std::make_unique<PlanOutcome>();
    outcome->graphName = function.getName().str();
    outcome->graph = std::move(*graph);
    outcome->solver = solver;
    outcome->countInputs = countInputs;
    applyGraphPolicy(*outcome);
    for (const OpInfo &op : outcome->graph.program.ops) {
      outcome->baseFlops = llvm::SaturatingAdd(outcome->baseFlops, op.flops);
      outcome->baseCost = llvm::SaturatingAdd(outcome->baseCost, op.cost);
    }
    outcome->arenaBudget = planning.arenaBudget;
    // The budget: the option, else the graph's attribute (checked by
    // verifyStepAttributes), else none.
    PlanningOptions options = planning;
    options.budget = budgetOption;
    if (auto budgetAttr = function->getAttrOfType<BudgetAttr>(kBudgetAttrName);
        budgetAttr && !options.budget)
      options.budget = budgetAttr.getBudget();
    outcome->budget = options.budget;

    StepPlan step = planStep(outcome->graph.program, options);
    outcome->before = std::move(step.before);
    outcome->arenaBefore = std::move(step.arenaBefore);
    if (failed(checkArenaFits(function, outcome->arenaBefore)))
      return nullptr;
    if (step.belowFloor && !bestEffort) {
      reportBelowFloor(function, *outcome, *step.solverOptions.budgetBytes,
                       *step.belowFloor);
      return nullptr;
    }
    outcome->result = std::move(step.result);
    outcome->order = std::move(step.order);
    outcome->liveTargetBytes = step.liveTargetBytes;
    outcome->belowFloor = step.belowFloor;
    outcome->plans = step.plans;
    outcome->solveMs = step.solveMs;
    if (outcome->order && outcome->order->scheduled &&
        failed(commitSchedule(function, *outcome)))
      return nullptr;
    outcome->planned = materialize(outcome->graph.program, outcome->result.plan,
                                   outcome->plannedLayout);
    outcome->after = computeMemoryProfile(outcome->planned, countInputs);
    // A missed budget's arena is only the error's figure: best fit in start
    // order, not Best's search (seconds at 100k buffers). A plan that is
    // applied gets Best's.
    ArenaStrategy placement = outcome->result.feasible || bestEffort
                                  ? ArenaStrategy::Best
                                  : ArenaStrategy::Quick;
    outcome->arenaAfter = placeStepArena(
        outcome->planned, outcome->after, planning.alignment, placement,
        step.arenaAfter ? &*step.arenaAfter : nullptr);
    if (failed(checkArenaFits(function, outcome->arenaAfter)))
      return nullptr;
    if (step.solverOptions.minimize)
      outcome->budgetBytes = outcome->arenaBudget
                                 ? outcome->arenaAfter.layout.arenaBytes
                                 : outcome->result.peakBytes;
    else
      outcome->budgetBytes = step.solverOptions.budgetBytes;

    // A plan remat-apply would refuse is a planner defect: say so here, on
    // the step, instead of recording it for the next pass to reject.
    if (std::string problem =
            verifyPlan(outcome->graph.program, outcome->result.plan);
        !problem.empty()) {
      function->emitError("internal error: the planner made an invalid plan: ")
          << problem;
      return nullptr;
    }
    if (!outcome->result.feasible && failed(reportInfeasible(function,
                                                             *outcome)))
      return nullptr;
    if (!outcome->result.plan.recomputes.empty())
      function->setAttr(kPlanAttrName,
                        encodePlan(function.getContext(), *outcome));
    Builder builder(function.getContext());
    function->setAttr(kArenaAlignmentAttrName,
                      builder.getI64IntegerAttr(
                        static_cast<int64_t>(planning.alignment)));
    // The lowering allocates no input: an arena that counts them is not one
    // it can be checked against.
    if (!countInputs) {
      SmallVector<int64_t> sizes, offsets;
      for (const ArenaBuffer &buffer : outcome->arenaAfter.buffers)
        sizes.push_back(static_cast<int64_t>(buffer.bytes));
      for (uint64_t offset : outcome->arenaAfter.layout.offsets)
        offsets.push_back(static_cast<int64_t>(offset));
      function->setAttr(
          kPlannedArenaAttrName,
          builder.getDictionaryAttr(
              {builder.getNamedAttr(
                   "bytes", builder.getI64IntegerAttr(static_cast<int64_t>(
                                outcome->arenaAfter.layout.arenaBytes))),
               builder.getNamedAttr("buffers",
                                    builder.getDenseI64ArrayAttr(sizes)),
               builder.getNamedAttr("offsets",
                                    builder.getDenseI64ArrayAttr(offsets))}));
    }
    emitRemarks(function, *outcome);
    if (summary)
      printSummary(llvm::errs(), *outcome);

    ++numGraphs;
    numReordered += outcome->order && outcome->order->scheduled;
    numRecomputed += outcome->result.plan.recomputes.size();
    extraFlops = llvm::SaturatingAdd(uint64_t(extraFlops),
                                     outcome->result.extraFlops);
    if (outcome->after.peakBytes < outcome->givenPeakBytes())
      bytesSaved += outcome->givenPeakBytes() - outcome->after.peakBytes;
    return outcome;
  }

  /// Moves the graph's ops into the memory-aware order the planner kept,
  /// and expresses the plan in the ids of the Program built from it: op ids
  /// are positions, as in the scheduled program, but value ids follow block
  /// order.
  LogicalResult commitSchedule(FunctionOpInterface function,
                               PlanOutcome &outcome) {
    reorderBlock(function, outcome.graph, outcome.order->order);
    FailureOr<GraphProgram> reordered = buildPricedProgram(function);
    if (failed(reordered))
      return failure();
    for (Recompute &r : outcome.result.plan.recomputes)
      r.value = reordered->valueIds.lookup(outcome.graph.values[r.value]);
    outcome.graph = std::move(*reordered);
    applyGraphPolicy(outcome);
    outcome.before = computeMemoryProfile(outcome.graph.program, countInputs);
    // The IR in the new order must be the program the plan was made for;
    // where it is not, the plan's peak would be a claim about another step.
    std::string problem =
        verifyPlan(outcome.graph.program, outcome.result.plan);
    if (problem.empty() &&
        outcome.before.peakBytes != outcome.order->scheduledPeakBytes)
      problem = "its peak is " + std::to_string(outcome.before.peakBytes) +
                " bytes, the scheduled program's " +
                std::to_string(outcome.order->scheduledPeakBytes);
    if (!problem.empty())
      return function->emitError("internal error: the step reordered for "
                                 "memory is not the scheduled program: ")
             << problem;
    return success();
  }

  /// A step whose buffers cannot be placed in an arena of at most
  /// kMaxArenaBytes (ArenaLayout::overflow) cannot be planned or lowered.
  LogicalResult checkArenaFits(FunctionOpInterface function,
                               const StepArena &arena) {
    if (!arena.layout.overflow)
      return success();
    return function->emitError("the buffers of @")
           << function.getName() << " do not fit in one arena of at most "
           << kMaxArenaBytes << " bytes (aligned to " << planning.alignment
           << "): its size overflows";
  }

  template <typename OpTy>
  static Operation *findFirst(FunctionOpInterface function) {
    Operation *found = nullptr;
    function->walk([&](OpTy op) {
      found = op;
      return WalkResult::interrupt();
    });
    return found;
  }

  /// A graph-wide policy decides for every op no checkpoint decided for.
  void applyGraphPolicy(PlanOutcome &outcome) {
    if (!graphPolicy)
      return;
    for (auto [id, op] : llvm::enumerate(outcome.graph.ops)) {
      OpInfo &info = outcome.graph.program.ops[id];
      if (!op->hasAttr(kSaveAttrName) && info.recomputable)
        info.mustRecompute = !isSaveable(op, *graphPolicy, policyNames);
    }
  }

  /// A budget below the floor fails before any search, at the op that
  /// needs the floor (or the step, when its results are the floor).
  void reportBelowFloor(FunctionOpInterface function,
                        const PlanOutcome &outcome, uint64_t budgetBytes,
                        const PeakFloor &floor) {
    InFlightDiagnostic diag = mlir::emitError(function.getLoc())
                              << (outcome.arenaBudget ? "arena " : "")
                              << "budget of " << formatBytes(budgetBytes)
                              << " for @" << outcome.graphName
                              << " cannot be met: no plan goes below "
                              << formatBytes(floor.bytes);
    if (floor.op == kNone) {
      diag << ", the step's results"
           << (outcome.countInputs ? " and inputs" : "")
           << ", all live at its end";
      return;
    }
    Operation *op = outcome.graph.ops[floor.op];
    diag.attachNote(op->getLoc())
        << "this '" << op->getName()
        << "' needs it while it runs: its operands, results and scratch"
        << (outcome.countInputs ? ", with the inputs" : "");
  }

  LogicalResult reportInfeasible(FunctionOpInterface function,
                                 const PlanOutcome &outcome) {
    InFlightDiagnostic diag =
        bestEffort ? mlir::emitWarning(function.getLoc())
                   : mlir::emitError(function.getLoc());
    if (outcome.arenaBudget)
      diag << "arena budget of " << formatBytes(*outcome.budgetBytes)
           << " for @" << outcome.graphName
           << " cannot be met: the smallest arena solver '" << outcome.solver
           << "' reached is "
           << formatBytes(outcome.arenaAfter.layout.arenaBytes)
           << (outcome.arenaAfter.layout.startOrderOnly
                   ? " placed in start order"
                   : "")
           << " (live peak " << formatBytes(outcome.after.peakBytes)
           << "; before: arena "
           << formatBytes(outcome.arenaBefore.layout.arenaBytes) << ")";
    else
      diag << "budget of " << formatBytes(*outcome.budgetBytes) << " for @"
           << outcome.graphName << " cannot be met: the smallest peak solver '"
           << outcome.solver << "' reached is "
           << formatBytes(outcome.after.peakBytes) << " (before: "
           << formatBytes(outcome.before.peakBytes) << ")";
    if (outcome.after.peakOp != kNone) {
      Operation *peakOp = outcome.plannedOp(outcome.after.peakOp);
      diag.attachNote(peakOp->getLoc())
          << "the peak is at "
          << (outcome.isRecomputedOp(outcome.after.peakOp)
                  ? "a recomputed copy of "
                  : "")
          << "this '" << peakOp->getName() << "'";
      std::vector<ValueId> live =
          outcome.after.liveAt(outcome.planned, outcome.after.peakOp);
      for (size_t i = 0; i < std::min<size_t>(live.size(), 5); ++i)
        diag.attachNote(outcome.plannedValueLoc(live[i]))
            << "live there: " << outcome.plannedValueName(live[i]) << ", "
            << formatBytes(outcome.planned.values[live[i]].bytes);
    }
    if (outcome.belowFloor)
      diag << "; no plan goes below " << formatBytes(outcome.belowFloor->bytes)
           << ", the step's floor, and the least-peak plan is planned";
    if (bestEffort)
      diag << "; keeping the best plan found (best-effort)";
    return success(bestEffort);
  }

  void emitRemarks(FunctionOpInterface function, const PlanOutcome &outcome) {
    const Program &program = outcome.graph.program;
    std::string functionName = function.getName().str();
    auto opts = [&](StringRef name) {
      return remark::RemarkOpts::name(name).category("remat").function(
          functionName);
    };
    for (const Recompute &r : outcome.result.plan.recomputes) {
      uint64_t flops = 0;
      for (OpId op : r.chain)
        flops = llvm::SaturatingAdd(flops, program.ops[op].flops);
      Operation *user = outcome.graph.ops[r.before];
      remark::passed(outcome.graph.locOfValue(r.value), opts("Recompute"))
          << llvm::formatv("recompute {0} ({1} bytes) before '{2}' at {3}: "
                           "{4} op(s), {5} FLOPs",
                           program.values[r.value].name,
                           program.values[r.value].bytes,
                           user->getName().getStringRef(),
                           formatLoc(user->getLoc()), r.chain.size(), flops)
                 .str();
    }
    if (outcome.after.peakOp == kNone)
      return;
    std::string live;
    for (ValueId value :
         outcome.after.liveAt(outcome.planned, outcome.after.peakOp)) {
      if (!live.empty())
        live += ", ";
      live += outcome.plannedValueName(value) + " (" +
              std::to_string(outcome.planned.values[value].bytes) + " B)";
    }
    remark::analysis(outcome.plannedOp(outcome.after.peakOp)->getLoc(),
                     opts("Peak"))
        << llvm::formatv("peak {0} bytes (before: {1}), extra {2} FLOPs; "
                         "live: {3}",
                         outcome.after.peakBytes, outcome.before.peakBytes,
                         outcome.result.extraFlops, live)
               .str();
  }
};

} // namespace
