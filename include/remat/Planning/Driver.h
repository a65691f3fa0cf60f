//===- Driver.h - Planning a training step, as remat-plan does ---*- C++ -*-===//
//
// The decisions between a step's program and its plan that are not a
// solver's: resolving the budget against the step's own peak or arena,
// choosing between the given and the memory-aware order, splitting the time
// limit among the solves, re-planning until the placed arena fits, and
// keeping the answers at different budgets from contradicting each other
// (a missed budget never gets a plan `min`'s plan beats). The
// remat-plan pass and remat-bench both call planStep, so that a benchmark
// measures what a user gets.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_DRIVER_H
#define REMAT_PLANNING_DRIVER_H

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/PeakFloor.h"
#include "remat/Planning/Solver.h"
#include "remat/Planning/StepArena.h"
#include "remat/Support/Budget.h"

#include <optional>
#include <string>
#include <vector>

namespace remat {

/// How one step is planned: the planning options of remat-plan and
/// remat-pipeline (RematPipelineOptions projects onto it).
struct PlanningOptions {
  /// The budget as written; none: the policies (mustRecompute) only. A
  /// fraction is of the arena (or live peak) in the given order.
  std::optional<Budget> budget;
  /// A name createSolver knows.
  std::string solver = "greedy";
  bool countInputs = false;
  /// Values smaller than this are never recomputed.
  uint64_t minRematBytes = 0;
  /// The budget bounds the placed arena (true) or the live bytes (false).
  bool arenaBudget = true;
  /// The alignment of every buffer in the arena.
  uint64_t alignment = 64;
  /// Seconds the planning of the step may take, all of it: both orders and
  /// every arena re-plan share them.
  double timeLimitSeconds = 60;
  /// Also plan remat-schedule's memory-aware order and keep the order that
  /// plans better.
  bool schedule = true;
  /// With `schedule`, plan the two orders on two threads at once, each
  /// with the whole time limit; otherwise one after the other, the
  /// memory-aware order with half of it. The plans are the same unless
  /// the time limit cuts a solve short.
  bool parallelOrders = true;
  /// SolverOptions::isolateSearch.
  bool isolateSearch = true;
  /// Under a budget below the step's floor (PeakFloor.h), plan the least
  /// peak (as `min`), the closest plan there is; otherwise such a budget
  /// fails at once.
  bool searchBelowFloor = false;
};

/// Which order was kept with `schedule`, and what the other planned.
struct OrderChoice {
  /// The memory-aware order was kept; else the given one.
  bool scheduled = false;
  /// The memory-aware order, as op ids of the given program (scheduled
  /// only).
  std::vector<OpId> order;
  /// Peaks before recomputation in the given and the memory-aware order.
  uint64_t givenPeakBytes = 0;
  uint64_t scheduledPeakBytes = 0;
  /// The plan of the order not kept (none when reordering does not lower
  /// the peak: then only the given order is planned).
  std::optional<SolverResult> other;
};

struct StepPlan {
  /// The given program before recomputation.
  MemoryProfile before;
  StepArena arenaBefore;
  /// What the solvers were asked: the budget in bytes (none without a
  /// budget or for `min`, then `minimize` says which).
  SolverOptions solverOptions;
  /// The plan kept. Its ids are those of reorder(program, order->order)
  /// when order->scheduled, else those of the given program.
  SolverResult result;
  /// Set with `schedule`.
  std::optional<OrderChoice> order;
  /// The live budget the kept plan was solved against under an arena
  /// budget (none when a missed budget kept `min`'s plan), and how many
  /// plans that took (1 when the first one fit, or with live budgets; a
  /// missed budget adds those of its `min` planning).
  std::optional<uint64_t> liveTargetBytes;
  unsigned plans = 1;
  /// The kept plan's step placed, when planning placed it (under an arena
  /// budget): placeStepArena takes its layout rather than placing again,
  /// unless it is start order's alone (ArenaLayout::startOrderOnly: the
  /// plan's live bytes exceed the budget) and Best is asked for.
  std::optional<StepArena> arenaAfter;
  double solveMs = 0;
  /// Set when the budget is below the step's floor. `result` is then the
  /// given step, infeasible, and nothing was searched; or, with
  /// PlanningOptions::searchBelowFloor, the plan `min` makes (the closest
  /// any plan comes), infeasible.
  std::optional<PeakFloor> belowFloor;

  /// Whether planning ran: not when the given step's buffers overflow any
  /// arena (arenaBefore.layout.overflow).
  bool planned() const { return !arenaBefore.layout.overflow; }
};

/// The program `plan`'s ids refer to: `given`, or its memory-aware order
/// when planning kept that order.
Program keptProgram(const Program &given, const StepPlan &plan);

/// Plans `program` as remat-plan does. `options.solver` must name a solver.
StepPlan planStep(const Program &program, const PlanningOptions &options);

} // namespace remat

#endif // REMAT_PLANNING_DRIVER_H
