//===- Plan.cpp - Decide what to recompute under a budget -----------------===//

#include "Graphs.h"
#include "PlanAttr.h"
#include "PlanOutcome.h"
#include "Policy.h"
#include "Reorder.h"

#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Planning/ArenaBudget.h"
#include "remat/Planning/Plan.h"
#include "remat/Planning/Schedule.h"
#include "remat/Planning/TargetMemory.h"
#include "remat/Support/Locations.h"
#include "remat/Support/ToolFiles.h"
#include "remat/Transforms/Passes.h"

#include "mlir/IR/Remarks.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>

namespace remat {
#define GEN_PASS_DEF_PLANPASS
#include "remat/Transforms/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-plan"

using namespace mlir;
using namespace remat;

namespace {

using Clock = std::chrono::steady_clock;

/// Seconds from now until `deadline`; 0 once it has passed.
double secondsUntil(Clock::time_point deadline) {
  return std::max(
      0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
}

/// Half of the time from now until `deadline`: a solve that arena re-plans
/// may follow leaves them the other half.
Clock::time_point halfway(Clock::time_point deadline) {
  Clock::time_point now = Clock::now();
  return now + (std::max(deadline, now) - now) / 2;
}

struct PlanPass final : remat::impl::PlanPassBase<PlanPass> {
  using Base::Base;

  /// The parsed options, checked once before any graph is touched.
  std::optional<Budget> budgetOption;
  std::optional<SavePolicy> graphPolicy;
  llvm::StringSet<> policyNames;
  /// The arena alignment planned with: the target's or arena-alignment.
  uint64_t alignment = 0;

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
    alignment = arenaAlignment ? arenaAlignment.getValue() : memory->alignment;
    if (std::string problem = checkArenaAlignment(alignment); !problem.empty())
      return mlir::emitError(optionErrorLoc(module), "arena-alignment ")
             << problem;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(parseOptions(module)))
      return signalPassFailure();
    // The output paths, before any work: one file per output, in a
    // directory that exists (ToolFiles.h).
    OutputClaims claims;
    for (auto [path, what] : {std::pair(StringRef(reportPath), "the report"),
                              std::pair(StringRef(timelinePath),
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
    if (!reportPath.empty()) {
      llvm::json::Array graphs;
      for (const auto &outcome : outcomes)
        graphs.push_back(reportGraph(*outcome));
      llvm::json::Object report{{"graphs", std::move(graphs)}};
      std::string text =
          llvm::formatv("{0:2}", llvm::json::Value(std::move(report)));
      if (llvm::Error error = files.stage(reportPath, text + "\n"))
        return failWith(std::move(error));
    }
    if (!timelinePath.empty()) {
      SmallVector<const PlanOutcome *> panels;
      for (const auto &outcome : outcomes)
        panels.push_back(outcome.get());
      if (llvm::Error error =
              files.stage(timelinePath, renderTimelineSvg(panels)))
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
    FailureOr<GraphProgram> graph = buildProgram(function);
    if (failed(graph))
      return nullptr;

    auto outcome = std::make_unique<PlanOutcome>();
    outcome->graphName = function.getName().str();
    outcome->graph = std::move(*graph);
    outcome->solver = solver;
    outcome->countInputs = countInputs;
    applyGraphPolicy(*outcome);
    for (const OpInfo &op : outcome->graph.program.ops)
      outcome->baseFlops =
          llvm::SaturatingAdd(outcome->baseFlops, op.flops);
    outcome->before = computeMemoryProfile(outcome->graph.program, countInputs);
    outcome->arenaBudget = budgetKind == "arena";
    outcome->arenaBefore = placeStepArena(outcome->graph.program,
                                          outcome->before, alignment);
    if (failed(checkArenaFits(function, outcome->arenaBefore)))
      return nullptr;

    // The budget: the option, else the graph's attribute (checked by
    // verifyStepAttributes), else none.
    outcome->budget = budgetOption;
    if (auto budgetAttr = function->getAttrOfType<BudgetAttr>(kBudgetAttrName);
        budgetAttr && !outcome->budget)
      outcome->budget = budgetAttr.getBudget();

    SolverOptions options;
    options.countInputs = countInputs;
    options.minRematBytes = minRematBytes;
    // A fraction is of the peak (or arena) in the given order, also with
    // `reorder`: both orders are planned under the same bytes.
    if (outcome->budget) {
      options.budgetBytes = outcome->budget->resolve(
          outcome->arenaBudget ? outcome->arenaBefore.layout.arenaBytes
                               : outcome->before.peakBytes);
      options.minimize = !options.budgetBytes.has_value();
    }

    // `time-limit` bounds the planning of the step as a whole: every solve
    // (both orders, every arena re-plan) gets what is left of it.
    Clock::time_point start = Clock::now();
    Clock::time_point deadline =
        start + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(double(timeLimit)));
    if (reorder) {
      if (failed(solveInBetterOrder(function, *outcome, options, deadline)))
        return nullptr;
    } else if (outcome->arenaBudget && options.budgetBytes) {
      const Program &program = outcome->graph.program;
      SolverResult first = solveBy(program, options, halfway(deadline));
      keepArenaFit(*outcome,
                   fitToArena(program, std::move(first), options, deadline));
    } else {
      outcome->result = solveBy(outcome->graph.program, options, deadline);
    }
    outcome->solveMs =
        std::chrono::duration<double, std::milli>(Clock::now() - start)
            .count();
    outcome->planned = materialize(outcome->graph.program, outcome->result.plan,
                                   outcome->plannedLayout);
    outcome->after = computeMemoryProfile(outcome->planned, countInputs);
    outcome->arenaAfter =
        placeStepArena(outcome->planned, outcome->after, alignment);
    if (failed(checkArenaFits(function, outcome->arenaAfter)))
      return nullptr;
    if (options.minimize)
      outcome->budgetBytes = outcome->arenaBudget
                                 ? outcome->arenaAfter.layout.arenaBytes
                                 : outcome->result.peakBytes;
    else
      outcome->budgetBytes = options.budgetBytes;

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
                      builder.getI64IntegerAttr(static_cast<int64_t>(alignment)));
    // The lowering allocates no input: an arena that counts them is not one
    // it can be checked against.
    if (!countInputs) {
      SmallVector<int64_t> sizes;
      for (const ArenaBuffer &buffer : outcome->arenaAfter.buffers)
        sizes.push_back(static_cast<int64_t>(buffer.bytes));
      function->setAttr(
          kPlannedArenaAttrName,
          builder.getDictionaryAttr(
              {builder.getNamedAttr(
                   "bytes", builder.getI64IntegerAttr(static_cast<int64_t>(
                                outcome->arenaAfter.layout.arenaBytes))),
               builder.getNamedAttr("buffers",
                                    builder.getDenseI64ArrayAttr(sizes))}));
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

  /// Plans `program` with what is left until `deadline`. A solve always
  /// gets a moment (1% of the limit), so that a step whose other solves
  /// overran still gets a plan.
  SolverResult solveBy(const Program &program, SolverOptions options,
                       Clock::time_point deadline) {
    options.timeLimitSeconds =
        std::max(secondsUntil(deadline), double(timeLimit) / 100);
    return createSolver(solver)->solve(program, options);
  }

  /// Plans the graph in the memory-aware order of remat-schedule (until
  /// half of the time left) and in its given order (until `deadline`),
  /// keeps the better plan by the solvers' rule, a tie going to the
  /// memory-aware order, and moves the graph's ops only when that order is
  /// kept. Without this choice, reordering first can make the plan worse: a
  /// budget the given order meets can be missed after reordering.
  LogicalResult solveInBetterOrder(FunctionOpInterface function,
                                   PlanOutcome &outcome,
                                   const SolverOptions &options,
                                   Clock::time_point deadline) {
    const Program &given = outcome.graph.program;
    OrderChoice &choice = outcome.order.emplace();
    choice.givenPeakBytes = choice.scheduledPeakBytes =
        outcome.before.peakBytes;
    std::vector<OpId> order = scheduleForMemory(given, countInputs);
    bool arena = outcome.arenaBudget && options.budgetBytes;
    if (isIdentityOrder(order)) {
      outcome.result =
          solveBy(given, options, arena ? halfway(deadline) : deadline);
      if (arena)
        keepArenaFit(outcome, fitToArena(given, std::move(outcome.result),
                                         options, deadline));
      return success();
    }
    Program scheduled = remat::reorder(given, order);
    choice.scheduledPeakBytes =
        computeMemoryProfile(scheduled, countInputs).peakBytes;

    // Under an arena budget each order is fitted to the arena within its
    // share of the time: the choice is between the plans the step would get.
    Clock::time_point half = halfway(deadline);
    SolverResult inSchedule =
        solveBy(scheduled, options, arena ? halfway(half) : half);
    std::optional<ArenaBudgetResult> givenFit, scheduledFit;
    if (arena) {
      scheduledFit =
          fitToArena(scheduled, std::move(inSchedule), options, half);
      inSchedule = scheduledFit->result;
    }
    SolverResult asGiven =
        solveBy(given, options, arena ? halfway(deadline) : deadline);
    if (arena) {
      givenFit = fitToArena(given, std::move(asGiven), options, deadline);
      asGiven = givenFit->result;
    }
    bool keepGiven = arena ? betterArenaFit(*givenFit, *scheduledFit)
                           : isBetterResult(asGiven, inSchedule, options);
    if (keepGiven) {
      if (givenFit)
        keepArenaFit(outcome, std::move(*givenFit));
      else
        outcome.result = std::move(asGiven);
      choice.other = std::move(inSchedule);
      return success();
    }

    // Commit the order to the IR, and express the plan in the ids of the
    // Program built from it: op ids are positions, as in `scheduled`, but
    // value ids follow block order.
    reorderBlock(function, outcome.graph, order);
    FailureOr<GraphProgram> reordered = buildProgram(function);
    if (failed(reordered))
      return failure();
    for (Recompute &r : inSchedule.plan.recomputes)
      r.value = reordered->valueIds.lookup(outcome.graph.values[r.value]);
    outcome.graph = std::move(*reordered);
    applyGraphPolicy(outcome);
    outcome.before = computeMemoryProfile(outcome.graph.program, countInputs);
    assert(verifyPlan(outcome.graph.program, inSchedule.plan).empty() &&
           outcome.before.peakBytes == choice.scheduledPeakBytes &&
           "the reordered IR must be the scheduled program");
    choice.scheduled = true;
    choice.other = std::move(asGiven);
    if (scheduledFit) {
      scheduledFit->result.plan = std::move(inSchedule.plan);
      keepArenaFit(outcome, std::move(*scheduledFit));
    } else {
      outcome.result = std::move(inSchedule);
    }
    return success();
  }

  /// The budget bounds the placed arena: re-plans `program` against lower
  /// live targets until the plan's arena fits (ArenaBudget.h). Each re-plan
  /// gets half of the time left until `deadline`, leaving the rest to the
  /// next ones; none starts after it.
  ArenaBudgetResult fitToArena(const Program &program, SolverResult first,
                               const SolverOptions &options,
                               Clock::time_point deadline) {
    ArenaBudgetOptions arena;
    arena.arenaBudget = *options.budgetBytes;
    arena.alignment = alignment;
    arena.countInputs = countInputs;
    arena.deadline = deadline;
    return fitArenaBudget(
        program, arena, std::move(first), [&](uint64_t liveTarget) {
          SolverOptions lower = options;
          lower.budgetBytes = liveTarget;
          return solveBy(program, lower, halfway(deadline));
        });
  }

  static void keepArenaFit(PlanOutcome &outcome, ArenaBudgetResult fitted) {
    outcome.result = std::move(fitted.result);
    outcome.liveTargetBytes = fitted.liveTarget;
    outcome.plans = fitted.plans;
  }

  /// The solvers' rule in arena bytes: fitting first, then the fewest extra
  /// FLOPs; without a fit, the smaller arena.
  static bool betterArenaFit(const ArenaBudgetResult &a,
                             const ArenaBudgetResult &b) {
    if (a.fits != b.fits)
      return a.fits;
    if (!a.fits && a.arenaBytes != b.arenaBytes)
      return a.arenaBytes < b.arenaBytes;
    if (a.result.extraFlops != b.result.extraFlops)
      return a.result.extraFlops < b.result.extraFlops;
    return a.arenaBytes < b.arenaBytes;
  }

  /// A step whose buffers cannot be placed in an arena of at most
  /// kMaxArenaBytes (ArenaLayout::overflow) cannot be planned or lowered.
  LogicalResult checkArenaFits(FunctionOpInterface function,
                               const StepArena &arena) {
    if (!arena.layout.overflow)
      return success();
    return function->emitError("the buffers of @")
           << function.getName() << " do not fit in one arena of at most "
           << kMaxArenaBytes << " bytes (aligned to " << alignment
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
