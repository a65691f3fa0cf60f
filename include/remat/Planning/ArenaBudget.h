//===- ArenaBudget.h - Plans whose placed arena meets a budget ---*- C++ -*-===//
//
// Solvers budget live bytes; the step occupies its placed arena, which can
// be larger (fragmentation, alignment padding). This loop re-plans against
// lower live targets until the arena of the plan fits the budget, then
// narrows the interval between the highest target that fit and the lowest
// that did not (false position, safeguarded), to recompute no more than
// needed. Each plan is judged by its Quick placement: on large steps Best's
// arena jumps between similar plans (a 100k-op U-Net's re-plans at 0.5:
// from 1.002 to 1.043 of the live peak), which sends the narrowing back
// and forth, and costs more than the plan's solve.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_ARENABUDGET_H
#define REMAT_PLANNING_ARENABUDGET_H

#include "remat/Planning/Solver.h"
#include "remat/Planning/StepArena.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <chrono>
#include <memory>
#include <optional>

namespace remat {

struct ArenaBudgetOptions {
  uint64_t arenaBudget = 0;
  /// The alignment of every buffer in the arena.
  uint64_t alignment = 64;
  bool countInputs = false;
  /// Plans at most, the first one included.
  unsigned maxPlans = 10;
  /// No re-plan starts after this time: the caller's time limit bounds the
  /// whole fitting, not each plan.
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct ArenaBudgetResult {
  /// The plan kept: among those whose arena fits, the fewest extra FLOPs
  /// (then the smaller arena); when none fits, the smallest arena.
  SolverResult result;
  /// The kept plan's step, placed as the loop judged it (Quick: on large
  /// steps, ArenaLayout::startOrderOnly says Best may still come closer).
  StepArena arena;
  /// The live budget the kept plan was solved against.
  uint64_t liveTarget = 0;
  /// Plans made, the first one included.
  unsigned plans = 0;
  bool fits = false;

  uint64_t arenaBytes() const { return arena.layout.arenaBytes; }
};

/// The arena of `program` after `plan`.
StepArena plannedStepArena(const Program &program, const Plan &plan,
                           uint64_t alignment, bool countInputs,
                           ArenaStrategy strategy = ArenaStrategy::Best);

/// `first` is the plan solved against the live target options.arenaBudget;
/// `solveAt(target, startFrom)` plans against another live target, going
/// on from `startFrom` (SolverOptions::startFrom): the plan at the lowest
/// target that missed the budget, which is above `target`.
ArenaBudgetResult
fitArenaBudget(const Program &program, const ArenaBudgetOptions &options,
               SolverResult first,
               llvm::function_ref<SolverResult(
                   uint64_t, std::shared_ptr<const Plan>)> solveAt);

} // namespace remat

#endif // REMAT_PLANNING_ARENABUDGET_H
