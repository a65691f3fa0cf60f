//===- GreedySearchSolver.cpp - solver=greedy: greedy, then local search --===//

#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>

using namespace remat;

namespace {

/// The default solver: greedy, then, when greedy misses the budget (or
/// under `min`, below greedy's least peak), the local search of
/// ReachSearch.cpp from greedy's plan. The search's effort is a number of
/// exact evaluations, each O(ops), so that the same input gets the same
/// plan on any machine; the time limit stays the hard stop.
class GreedySearchSolver : public Solver {
public:
  std::string name() const override { return "greedy"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    using Clock = std::chrono::steady_clock;
    auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(
                               options.timeLimitSeconds));
    SolverResult greedy = createGreedySolver()->solve(program, options);
    uint64_t evaluationsLeft =
        std::max<uint64_t>(kMinEvaluations,
                           kSearchWork / std::max<size_t>(1, program.ops.size()));
    if (program.ops.size() > kMaxSearchOps)
      return greedy;
    SolverOptions target = options;
    target.minimize = false;
    SolverResult best = greedy;
    bool improved = false;
    bool reach = !greedy.feasible || options.minimize;
    while (reach && best.peakBytes > 0 && Clock::now() < deadline) {
      if (options.minimize)
        target.budgetBytes = best.peakBytes - 1;
      std::optional<Plan> found =
          searchForBudget(program, best.plan, target, deadline,
                          evaluationsLeft);
      if (!found)
        break;
      SolverResult result = evaluatePlan(program, std::move(*found), options);
      bool better = options.minimize ? result.peakBytes < best.peakBytes
                                     : isBetterResult(result, best, options);
      if (!better)
        break;
      best = std::move(result);
      improved = true;
      if (!options.minimize)
        break;
    }
    // Ruin and recreate: drop one recomputation, costliest first, and let
    // the search meet the budget again; keep the plan when it is cheaper.
    bool cheaper = false;
    if (!options.minimize && best.feasible && options.budgetBytes) {
      for (unsigned attempt = 0; attempt < kMaxRuins && best.extraFlops > 0 &&
                                 evaluationsLeft > 0 &&
                                 Clock::now() < deadline;
           ++attempt) {
        const auto &recomputes = best.plan.recomputes;
        if (attempt >= recomputes.size())
          break;
        std::vector<size_t> order(recomputes.size());
        for (size_t k = 0; k < order.size(); ++k)
          order[k] = k;
        auto chainFlops = [&](size_t k) {
          uint64_t flops = 0;
          for (OpId op : recomputes[k].chain)
            flops = llvm::SaturatingAdd(flops, program.ops[op].flops);
          return flops;
        };
        llvm::sort(order, [&](size_t a, size_t b) {
          uint64_t fa = chainFlops(a), fb = chainFlops(b);
          return fa != fb ? fa > fb : a < b;
        });
        Plan ruined = best.plan;
        ruined.recomputes.erase(ruined.recomputes.begin() + order[attempt]);
        if (!verifyPlanShape(program, ruined).empty())
          continue;
        std::optional<Plan> found = searchForBudget(
            program, std::move(ruined), options, deadline, evaluationsLeft);
        if (!found)
          break;
        SolverResult result =
            evaluatePlan(program, std::move(*found), options);
        if (result.feasible && result.extraFlops < best.extraFlops) {
          best = std::move(result);
          cheaper = true;
          attempt = 0;
        }
      }
    }
    if (cheaper && !improved)
      best.note = "local search found a cheaper plan than greedy's";
    if (improved)
      best.note = options.minimize ? "local search lowered greedy's least peak"
                  : best.feasible  ? "greedy missed the budget; local search "
                                     "met it"
                                   : "greedy missed the budget; local search "
                                     "came closer";
    return best;
  }

private:
  /// Each step of the search evaluates tens of moves exactly.
  static constexpr size_t kMaxSearchOps = 5000;
  /// Op-evaluations the search may spend (a few seconds), and the least
  /// number of evaluations on any program.
  static constexpr uint64_t kSearchWork = 4'000'000;
  static constexpr uint64_t kMinEvaluations = 400;
  /// Recomputations tried without (ruin and recreate) per improvement.
  static constexpr unsigned kMaxRuins = 16;
};

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfGreedySearchSolver() {
  return {{"greedy", makeSolver<GreedySearchSolver>}};
}
} // namespace remat
