//===- Solvers.h - Solver implementations and shared helpers ----*- C++ -*-===//
//
// Private to lib/Planning: the registry in SolverRegistry.cpp creates the
// solvers declared here.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_SOLVERS_H
#define REMAT_LIB_PLANNING_SOLVERS_H

#include "remat/Planning/Solver.h"

#include <chrono>
#include <optional>

namespace remat {

/// The cost-aware greedy solver (GreedySolver.cpp).
std::unique_ptr<Solver> createGreedySolver();
/// What `solver=greedy` runs: greedy, then the local search of
/// ReachSearch.cpp where greedy misses the budget or under `min`
/// (SolverRegistry.cpp).
std::unique_ptr<Solver> createDefaultSolver();
/// Baselines (Baselines.cpp): keep only inputs, Chen et al.'s sqrt(n)
/// checkpoints, XLA's memory-only single-op rule.
std::unique_ptr<Solver> createCheckpointAllSolver();
std::unique_ptr<Solver> createSqrtNSolver();
std::unique_ptr<Solver> createXlaSolver();
/// The exact MIP solver (IlpSolver.cpp, COIN-OR CBC).
std::unique_ptr<Solver> createIlpSolver();
/// The chain solver (ChainSolver.cpp; its dynamic program: ChainSchedule.cpp).
std::unique_ptr<Solver> createChainSolver();

/// Forward results of mustRecompute ops, and forward views of them, that a
/// plan may recompute: a policy forbids keeping them across the boundary.
/// Indexed by ValueId.
std::vector<bool> unsaveableByPolicy(const Program &program);
/// Of those, the ones the forward part reads and the backward part reads
/// too: they must not stay live across the boundary (see GreedySolver.cpp).
std::vector<bool> notSaveableValues(const Program &program);

/// Turns "recompute these values once, each by re-executing its defining op"
/// into a plan: a value is recomputed right before the first of its backward
/// uses (ops at or after backwardBegin) and of the recomputations that read
/// it; recomputations in front of the same op go in program order. Values
/// that nothing reads there are dropped.
Plan planFromRecomputeSet(const Program &program,
                          const std::vector<bool> &recompute);

/// Checkpointing: keeps the values marked in `keep` (which must include every
/// input, every value defined in the backward part, every output and every
/// value whose op cannot be recomputed), and recomputes the other residuals
/// and what they need back to kept values, with planFromRecomputeSet.
Plan checkpointPlan(const Program &program, const std::vector<bool> &keep,
                    const SolverOptions &options);

/// Drops the recomputations `plan` meets its budget without at no more
/// FLOPs (Prune.cpp); recomputations a checkpoint policy asked for stay.
/// Skipped on plans too large to try one by one; stops trying at `deadline`.
Plan dropNeedlessRecomputes(
    const Program &program, Plan plan, const SolverOptions &options,
    std::chrono::steady_clock::time_point deadline =
        std::chrono::steady_clock::time_point::max());

/// Local search from `start` towards options.budgetBytes, judged on exact
/// evaluations (ReachSearch.cpp): the pruned plan with the least excess over
/// the budget found before `deadline` or the last of `evaluationsLeft` (it
/// meets the budget when that excess is zero), or nullopt where the search
/// does not apply (`min`, checkpoint policies).
std::optional<Plan> searchForBudget(const Program &program, Plan start,
                                    const SolverOptions &options,
                                    std::chrono::steady_clock::time_point
                                        deadline,
                                    uint64_t &evaluationsLeft);

/// Splits recompute chains so that later readers of a chain's intermediate
/// read its copy instead of an older version (ShareCopies.cpp). Never raises
/// the peak or the FLOPs.
Plan shareRecomputedCopies(const Program &program, Plan plan);

/// Builds the result reported for `plan`, after dropUnreadRecomputes and
/// shareRecomputedCopies: the peak of the materialized program, the flops of
/// every chain op and whether the budget holds.
SolverResult evaluatePlan(const Program &program, Plan plan,
                          const SolverOptions &options);

} // namespace remat

#endif // REMAT_LIB_PLANNING_SOLVERS_H
