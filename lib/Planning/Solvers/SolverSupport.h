//===- SolverSupport.h - What every solver builds on -------------*- C++ -*-===//
//
// Private to lib/Planning. A solver is one file listed in
// REMAT_SOLVER_SOURCES (lib/Planning/CMakeLists.txt) that defines
// `solversOf<FileStem>()`: the registry (SolverRegistry.cpp) lists the
// solvers of those files in that order. Solvers that build on another ask
// createSolver for it by name. Shared here: the not-saveable derivation and
// plan evaluation (SolverSupport.cpp), and the engines several solvers use.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_SOLVERSUPPORT_H
#define REMAT_LIB_PLANNING_SOLVERSUPPORT_H

#include "remat/Planning/Solver.h"

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace remat {

/// A solver's entry in the registry: its name (the `solver` option) and
/// how to make one.
struct SolverRegistration {
  const char *name;
  std::unique_ptr<Solver> (*create)();
};

template <typename SolverT>
std::unique_ptr<Solver> makeSolver() {
  return std::make_unique<SolverT>();
}

/// The cost-aware greedy solver alone (GreedySolver.cpp); `solver=greedy`
/// runs it followed by the local search (GreedySearchSolver.cpp). Its plan
/// is pruned (dropNeedlessRecomputes) where it meets the budget and under
/// `min`; where it misses the budget, only with `pruneMissed`: a caller
/// that then plans other starts prunes the one it keeps (pruning a 100k-op
/// plan tries it without each recomputation, an evaluation each).
std::unique_ptr<Solver> createGreedySolver(bool pruneMissed = true);

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

/// The forward part's cuts, in program order (SegmentsSolver.cpp): the
/// buffers that are, somewhere in the forward part, the only recomputable
/// buffer live from before that point to a forward read after it.
std::vector<ValueId> forwardCuts(const Program &program);

/// The strides of kept cuts that segments tries (0: none kept; k: every
/// k-th cut, the last one kept) when it may try `perThreshold` per
/// dear-value threshold: every stride when all fit, else 0 and a geometric
/// ladder from 1 (every cut kept) to `cuts` (the last one only), at most
/// max(`perThreshold`, 3) in all, in increasing order.
std::vector<size_t> segmentStrides(size_t cuts, size_t perThreshold);

/// Drops the recomputations `plan` meets its budget without at no more
/// FLOPs (Prune.cpp); recomputations a checkpoint policy asked for stay.
/// Skipped on plans too large to try one by one; stops trying at `deadline`
/// and, where `evaluationsLeft` is given, once those run out (each try
/// spends one, as a local search's move does).
Plan dropNeedlessRecomputes(
    const Program &program, Plan plan, const SolverOptions &options,
    std::chrono::steady_clock::time_point deadline =
        std::chrono::steady_clock::time_point::max(),
    uint64_t *evaluationsLeft = nullptr);

/// Op-evaluations dropNeedlessRecomputes spends at most on a plan of
/// `recomputes` recomputations of a program of `ops` ops: one evaluation
/// per recomputation, or none where the plan is too large to try.
uint64_t pruneWork(size_t recomputes, size_t ops);

/// `evaluated` (an evaluatePlan result) after dropNeedlessRecomputes, as
/// evaluatePlan judges it; `evaluated` itself where its plan is too large
/// to prune, rather than a second evaluation of the same plan (one
/// evaluation is several materializations of the whole program).
SolverResult pruneEvaluated(const Program &program, SolverResult evaluated,
                            const SolverOptions &options,
                            std::chrono::steady_clock::time_point deadline);

/// Local search from `start` towards options.budgetBytes, judged on exact
/// evaluations (ReachSearch.cpp): the pruned plan with the least excess over
/// the budget found before `deadline` or the last of `evaluationsLeft` (it
/// meets the budget when that excess is zero), or nullopt where the search
/// does not apply (`min`, checkpoint policies); pruned as `prune` says.
enum class PruneEffort {
  /// Every recomputation is tried, beside the search's effort.
  Free,
  /// Each try spends one of the search's evaluations.
  Spent,
  /// Not pruned: the caller prunes what it keeps.
  None,
};
std::optional<Plan> searchForBudget(const Program &program, Plan start,
                                    const SolverOptions &options,
                                    std::chrono::steady_clock::time_point
                                        deadline,
                                    uint64_t &evaluationsLeft,
                                    PruneEffort prune = PruneEffort::Free);

/// Splits recompute chains so that later readers of a chain's intermediate
/// read its copy instead of an older version (ShareCopies.cpp). Never raises
/// the peak or the FLOPs.
Plan shareRecomputedCopies(const Program &program, Plan plan);

/// Moves the recomputations in front of each op above the ops just before
/// it that only open buffers it reads later (its destination's
/// `tensor.empty` and fill), so the chains do not run with those buffers
/// live (HoistRecomputes.cpp). Never raises the peak or the FLOPs.
Plan hoistAboveReaderBuffers(const Program &program, Plan plan);

/// When a solver stops searching: options.timeLimitSeconds from now (now,
/// for a negative limit).
std::chrono::steady_clock::time_point
solveDeadline(const SolverOptions &options);

/// Builds the result reported for `plan`, after dropOverwrittenReads,
/// dropUnreadRecomputes, hoistAboveReaderBuffers and shareRecomputedCopies (kept only where it does
/// not raise the peak or the FLOPs): the peak of the materialized program,
/// the cost of every chain op and whether the budget holds.
SolverResult evaluatePlan(const Program &program, Plan plan,
                          const SolverOptions &options);

/// Whether a plan whose materialized step peaks at `peakBytes` meets the
/// budget of `options` (always under `min` and without one): the
/// `feasible` of evaluatePlan, for a result evaluated under other options.
bool meetsBudget(uint64_t peakBytes, const SolverOptions &options);

} // namespace remat

#endif // REMAT_LIB_PLANNING_SOLVERSUPPORT_H
