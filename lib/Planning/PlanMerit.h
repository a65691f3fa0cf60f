//===- PlanMerit.h - The driver's rule for choosing a plan ------*- C++ -*-===//
//
// What the planning driver (Driver.cpp) compares whole plans of a step by,
// and the one rule it chooses between them with.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_PLANMERIT_H
#define REMAT_LIB_PLANNING_PLANMERIT_H

#include "remat/Planning/ArenaBudget.h"
#include "remat/Planning/Solver.h"

#include <cstdint>

namespace remat {

/// A plan of the whole step, as the driver compares plans.
struct PlanMerit {
  bool fits = true;
  /// What the budget bounds: the placed arena under an arena budget, else
  /// the live peak (also under `min`, which lowers the live peak).
  uint64_t bytes = 0;
  uint64_t extraCost = 0;
};

/// The driver's rule for choosing between whole plans of a step: between
/// the two orders, and between a missed budget's plan and `min`'s. It is
/// the solvers' rule (isBetterResult, Solver.h) over the bytes the budget
/// bounds, arena or live peak, with a last tie-break on those bytes:
/// fitting the budget first; then, when neither fits or under `min`, the
/// fewer bytes; then the fewer extra FLOPs; then the fewer bytes. Bytes
/// come before FLOPs wherever the budget is missed because the answer to a
/// missed budget is the plan closest to it, which is `min`'s question: this
/// way no budget's answer is a plan `min`'s plan beats, and FLOPs only
/// decide between plans equally close.
inline bool isBetterPlan(const PlanMerit &a, const PlanMerit &b,
                         bool minimize) {
  if (a.fits != b.fits)
    return a.fits;
  if ((minimize || !a.fits) && a.bytes != b.bytes)
    return a.bytes < b.bytes;
  if (a.extraCost != b.extraCost)
    return a.extraCost < b.extraCost;
  return a.bytes < b.bytes;
}

inline PlanMerit liveMerit(const SolverResult &result) {
  return {result.feasible, result.peakBytes, result.extraCost};
}

inline PlanMerit arenaMerit(const ArenaBudgetResult &fitted) {
  return {fitted.fits, fitted.arenaBytes(), fitted.result.extraCost};
}

} // namespace remat

#endif // REMAT_LIB_PLANNING_PLANMERIT_H
