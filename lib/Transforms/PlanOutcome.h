//===- PlanOutcome.h - What remat-plan decided for one graph ----*- C++ -*-===//
//
// Shared by the plan pass and its outputs (remarks, JSON report, SVG
// timeline), so that each output reads the same facts.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_TRANSFORMS_PLANOUTCOME_H
#define REMAT_LIB_TRANSFORMS_PLANOUTCOME_H

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Planning/Driver.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Plan.h"
#include "remat/Planning/Solver.h"
#include "remat/Planning/StepArena.h"
#include "remat/Support/Budget.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace remat {

struct PlanOutcome {
  std::string graphName;
  GraphProgram graph;
  /// The budget as written, and in bytes (none: policies only; `min`: the
  /// smallest peak reached).
  std::optional<Budget> budget;
  std::optional<uint64_t> budgetBytes;
  std::string solver;
  double solveMs = 0;
  SolverResult result;
  /// The program after the plan (materialize(graph.program, result.plan)).
  Program planned;
  MaterializeMap plannedLayout;
  /// The profile before recomputation, in the order kept.
  MemoryProfile before;
  MemoryProfile after;
  uint64_t baseFlops = 0;
  /// The unplanned step's cost (OpInfo::cost summed).
  uint64_t baseCost = 0;
  /// Estimated seconds of `cost` cost units, when a time model priced the
  /// ops (Program::costPerSecond); std::nullopt under the FLOPs model.
  std::optional<double> secondsOf(uint64_t cost) const {
    double rate = graph.program.costPerSecond;
    if (rate <= 0)
      return std::nullopt;
    return double(cost) / rate;
  }
  /// Set with `schedule`.
  std::optional<OrderChoice> order;
  bool countInputs = false;

  /// What the budget bounds: the placed arena (budget-kind=arena) or the
  /// live bytes.
  bool arenaBudget = true;
  /// The step's buffers placed in one arena: in the given order before
  /// recomputation, and after the plan.
  StepArena arenaBefore;
  StepArena arenaAfter;
  /// The live budget the kept plan was solved against, and how many plans
  /// the arena budget took (1 when the first one fit, or with live budgets).
  std::optional<uint64_t> liveTargetBytes;
  /// The step's floor, where the budget is below it (StepPlan::belowFloor).
  std::optional<PeakFloor> belowFloor;
  unsigned plans = 1;

  /// The IR value and op behind an id of the planned program.
  mlir::Location plannedValueLoc(ValueId value) const;
  const std::string &plannedValueName(ValueId value) const;
  mlir::Operation *plannedOp(OpId op) const;
  /// Whether an op of the planned program is a recomputed copy.
  bool isRecomputedOp(OpId op) const { return plannedLayout.isCopy[op]; }
  /// Whether a value of the planned program is a recomputed copy.
  bool isRecomputedValue(ValueId value) const {
    OpId def = planned.values[value].def;
    return def != kNone && isRecomputedOp(def);
  }
  /// The peak of the graph as the pass found it: before recomputation and
  /// before any reordering. Fractional budgets are fractions of it.
  uint64_t givenPeakBytes() const {
    return order ? order->givenPeakBytes : before.peakBytes;
  }
};

/// The JSON report entry of one graph (docs/reports.md).
llvm::json::Object reportGraph(const PlanOutcome &outcome);

/// A few lines for people: peak before and after, the budget, extra FLOPs,
/// what is recomputed, and what is live at the final peak.
void printSummary(llvm::raw_ostream &os, const PlanOutcome &outcome);

/// An SVG picture of live bytes over program order, before and after, for
/// every graph: budget line, peaks, and the largest tensors at the peak.
std::string renderTimelineSvg(llvm::ArrayRef<const PlanOutcome *> outcomes);

} // namespace remat

#endif // REMAT_LIB_TRANSFORMS_PLANOUTCOME_H
