//===- Solvers.h - Solver implementations and shared helpers ----*- C++ -*-===//
//
// Private to lib/Planning: the registry in SolverRegistry.cpp creates the
// solvers declared here.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_SOLVERS_H
#define REMAT_LIB_PLANNING_SOLVERS_H

#include "remat/Planning/Solver.h"

namespace remat {

/// The cost-aware greedy solver (GreedySolver.cpp).
std::unique_ptr<Solver> createGreedySolver();

/// Builds the result reported for `plan`: the peak of the materialized
/// program, the flops of every chain op and whether the budget holds.
SolverResult evaluatePlan(const Program &program, Plan plan,
                          const SolverOptions &options);

} // namespace remat

#endif // REMAT_LIB_PLANNING_SOLVERS_H
