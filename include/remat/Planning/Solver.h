//===- Solver.h - One interface for every rematerialization solver -*- C++ -*-//

#ifndef REMAT_PLANNING_SOLVER_H
#define REMAT_PLANNING_SOLVER_H

#include "remat/Planning/Plan.h"

#include <memory>
#include <optional>
#include <string>

namespace remat {

struct SolverOptions {
  /// Peak-memory budget in bytes; std::nullopt means "apply the constraints
  /// (mustRecompute) only, no budget".
  std::optional<uint64_t> budgetBytes;
  /// Reach the smallest peak the solver can (the `min` budget).
  bool minimize = false;
  bool countInputs = false;
  /// Values smaller than this are never recomputed.
  uint64_t minRematBytes = 0;
  /// Wall-clock limit for solvers that search (ilp); they return the best
  /// plan found when it runs out.
  double timeLimitSeconds = 60;
  /// Run third-party search (ilp's CBC) in a forked child killed at the time
  /// limit (remat/Support/DeadlineProcess.h); false runs it in this process,
  /// for embedders that must not fork, where CBC's own limit applies.
  bool isolateSearch = true;
  /// A plan of the same program, made by a solver under a higher budget, to
  /// go on from: the greedy solvers keep its recomputations and lower the
  /// peak from there, where a search from scratch would first retrace most
  /// of it (the arena budget's re-plans, ArenaBudget.cpp: on a 100k-op
  /// U-Net, 16-24 sweeps over the whole program from scratch, 2-8 from the
  /// plan before). Up to 5000 ops, where `greedy` runs its local search,
  /// and in the other solvers, plans start from scratch.
  std::shared_ptr<const Plan> startFrom;
};

struct SolverResult {
  Plan plan;
  /// Peak of materialize(program, plan) under the memory model.
  uint64_t peakBytes = 0;
  /// What the planned step executes beyond the original (the chain ops,
  /// minus originals the plan moved rather than repeated), in the cost the
  /// solvers minimize (OpInfo::cost) and in FLOPs.
  uint64_t extraCost = 0;
  uint64_t extraFlops = 0;
  /// The budget holds (always true without a budget or with `minimize`).
  bool feasible = true;
  /// The solver proved that no plan meeting the budget has less extra cost
  /// (only ilp sets it). `note` says over which plans: all of them, or
  /// those that keep every op at its own place (the fixed order, as in
  /// Checkmate), where ilp's bound is tight.
  bool optimal = false;
  /// Relative optimality gap (extraCost - lower bound) / extraCost of an
  /// exact solver, 0 when proven optimal; negative when not known.
  double gap = -1;
  /// What the solver wants the user to know (a fallback, a limit), or empty.
  std::string note;
  /// The step's plan under `min` where the solver made one on its way to
  /// a missed budget (greedy does), so that whoever answers the missed
  /// budget with `min`'s plan need not plan it again.
  std::shared_ptr<const SolverResult> leastPeak;
};

class Solver {
public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  virtual SolverResult solve(const Program &program,
                             const SolverOptions &options) = 0;
};

/// Whether `a` beats `b` as an answer to `options`: meeting the budget
/// first; then (for `min`, or when neither meets it) the smaller peak; then
/// fewer extra FLOPs. The rule for choosing between plans within a solver;
/// the planning driver applies it to whole plans of a step, in arena or
/// live bytes (lib/Planning/PlanMerit.h).
bool isBetterResult(const SolverResult &a, const SolverResult &b,
                    const SolverOptions &options);

/// Returns the solver registered under `name`, or nullptr.
std::unique_ptr<Solver> createSolver(const std::string &name);
/// Names accepted by createSolver, comma-separated (for help and errors).
std::string availableSolvers();

} // namespace remat

#endif // REMAT_PLANNING_SOLVER_H
