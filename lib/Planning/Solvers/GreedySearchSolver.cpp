//===- GreedySearchSolver.cpp - solver=greedy: greedy, then local search --===//

#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <optional>

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
    // Where the local search runs, greedy plans from scratch: a solve costs
    // little there, and the search's path from another start is another
    // (on random 100-op steps, planning both orders from a re-plan's start
    // kept a costlier plan than the given order alone).
    SolverOptions fromScratch = options;
    if (program.ops.size() <= kMaxSearchOps)
      fromScratch.startFrom.reset();
    // Past kMaxSearchOps a plan that misses the budget is pruned only if
    // it is kept (below): the other starts, the least-peak one first, are
    // planned then, and usually come closer. At an equal peak, a start
    // (pruned) is then kept over greedy's unpruned plan: pruning that one
    // to compare would cost what deferring it saves (on a 100k-op layered
    // DAG at 0.5, where both reach the same peak, 0.9 s of each order's
    // 3 s).
    bool searched = program.ops.size() <= kMaxSearchOps;
    SolverResult greedy = createGreedySolver(/*pruneMissed=*/searched)
                              ->solve(program, fromScratch);
    // Checkpointing at the forward part's cuts is often the best start on
    // deep steps where greedy misses the budget, or under `min`, but the
    // local search can use all of the time on a loaded machine: it is
    // planned before the search, with a quarter of the time. Where greedy
    // meets the budget it is not planned at all: on a 1,009-op ResNet at
    // 0.7 it took 1.6 s of a 2.7 s plan that greedy makes in 20 ms.
    std::optional<SolverResult> segments;
    if (options.minimize || (options.budgetBytes && !greedy.feasible)) {
      SolverOptions quarter = options;
      quarter.timeLimitSeconds = std::min(
          options.timeLimitSeconds / 4,
          std::chrono::duration<double>(deadline - Clock::now()).count());
      segments = createSolver("segments")->solve(program, quarter);
    }
    // Past kMaxSearchOps there is no local search, but the other starts
    // still count: on a 96-block decoder (23,496 ops) greedy alone reaches
    // 77% of the unplanned peak under `min`, segments' checkpoints 5%.
    std::optional<Plan> unpruned;
    if (!searched && !greedy.feasible)
      unpruned = greedy.plan;
    SolverResult best = searched ? searchFromGreedy(program, options, deadline,
                                                    std::move(greedy))
                                 : std::move(greedy);
    if (options.minimize || (options.budgetBytes && !best.feasible))
      considerOtherStarts(program, options, deadline, std::move(segments),
                          best);
    if (unpruned && samePlan(best.plan, *unpruned) && Clock::now() < deadline) {
      SolverResult pruned = pruneEvaluated(program, best, options, deadline);
      pruned.note = std::move(best.note);
      pruned.leastPeak = std::move(best.leastPeak);
      best = std::move(pruned);
    }
    return best;
  }

private:
  /// The local search from greedy's plan: towards the budget (or, under
  /// `min`, below its peak), then ruin and recreate for fewer FLOPs.
  SolverResult searchFromGreedy(const Program &program,
                                const SolverOptions &options,
                                std::chrono::steady_clock::time_point deadline,
                                SolverResult greedy) {
    using Clock = std::chrono::steady_clock;
    uint64_t evaluationsLeft =
        std::max<uint64_t>(kMinEvaluations,
                           kSearchWork / std::max<size_t>(1, program.ops.size()));
    SolverOptions target = options;
    target.minimize = false;
    SolverResult best = greedy;
    bool improved = false;
    bool reach = !greedy.feasible || options.minimize;
    // Under `min` each round lowers the peak a little, and pruning every
    // round's plan took 80% of a 3,502-op MLP's 34 s: the plan kept is
    // pruned once, below.
    PruneEffort prune =
        options.minimize ? PruneEffort::None : PruneEffort::Free;
    while (reach && best.peakBytes > 0 && Clock::now() < deadline) {
      if (options.minimize)
        target.budgetBytes = best.peakBytes - 1;
      std::optional<Plan> found = searchForBudget(
          program, best.plan, target, deadline, evaluationsLeft, prune);
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
    if (improved && prune == PruneEffort::None)
      best = pruneEvaluated(program, std::move(best), options, deadline);
    // Ruin and recreate: drop one recomputation, costliest first, and let
    // the search meet the budget again; keep the plan when it is cheaper.
    bool cheaper = false;
    if (!options.minimize && best.feasible && options.budgetBytes) {
      for (unsigned attempt = 0; attempt < kMaxRuins && best.extraCost > 0 &&
                                 evaluationsLeft > 0 &&
                                 Clock::now() < deadline;
           ++attempt) {
        const auto &recomputes = best.plan.recomputes;
        if (attempt >= recomputes.size())
          break;
        std::vector<size_t> order(recomputes.size());
        for (size_t k = 0; k < order.size(); ++k)
          order[k] = k;
        auto chainCost = [&](size_t k) {
          uint64_t cost = 0;
          for (OpId op : recomputes[k].chain)
            cost = llvm::SaturatingAdd(cost, program.ops[op].cost);
          return cost;
        };
        llvm::sort(order, [&](size_t a, size_t b) {
          uint64_t fa = chainCost(a), fb = chainCost(b);
          return fa != fb ? fa > fb : a < b;
        });
        Plan ruined = best.plan;
        ruined.recomputes.erase(ruined.recomputes.begin() + order[attempt]);
        if (!verifyPlanShape(program, ruined).empty())
          continue;
        // Each restart prunes the whole plan again, up to kMaxRuins times
        // per improvement: those prunes spend the search's effort (on a
        // 4,007-op U-Net at 0.5 they were 70% of a 100 s plan). The reach
        // loop above prunes once per peak it lowers, which under `min` is
        // what lowers the next one: it prunes freely.
        std::optional<Plan> found =
            searchForBudget(program, std::move(ruined), options, deadline,
                            evaluationsLeft, PruneEffort::Spent);
        if (!found)
          break;
        SolverResult result =
            evaluatePlan(program, std::move(*found), options);
        if (result.feasible && result.extraCost < best.extraCost) {
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

  /// Greedy and the search are heuristics: a budget run can miss a peak the
  /// minimizing run reaches (its search starts from another plan), and the
  /// strategies that recompute every residual (checkpoint-all) or all but
  /// every sqrt(n)-th (sqrt-n), checkpointing at the forward part's cuts
  /// (segments), or XLA's rule (on small programs), can go lower than
  /// either. Where the budget is missed, or under `min`, their
  /// plans are candidates too, judged by the one rule (isBetterResult); one
  /// that meets a budget is pruned of the recomputations it does not need.
  void considerOtherStarts(const Program &program, const SolverOptions &options,
                           std::chrono::steady_clock::time_point deadline,
                           std::optional<SolverResult> segments,
                           SolverResult &best) {
    using Clock = std::chrono::steady_clock;
    std::vector<std::pair<std::string, SolverResult>> starts;
    std::shared_ptr<const SolverResult> leastPeak;
    if (segments)
      starts.push_back({"segments's plan", std::move(*segments)});
    // The time limit holds: nothing starts after it, and the minimizing run
    // gets what is left of it.
    if (Clock::now() < deadline)
      for (const char *name : {"checkpoint-all", "sqrt-n"})
        starts.push_back({std::string(name) + "'s plan",
                          createSolver(name)->solve(program, options)});
    // xla's rule evaluates the whole program per step, O(ops^2): only on
    // small programs (a thousand ops take tens of milliseconds).
    if (program.ops.size() <= kMaxXlaStartOps && Clock::now() < deadline) {
      SolverOptions xla = options;
      xla.timeLimitSeconds =
          std::chrono::duration<double>(deadline - Clock::now()).count();
      starts.push_back(
          {"xla's plan", createSolver("xla")->solve(program, xla)});
    }
    if (!options.minimize && Clock::now() < deadline) {
      SolverOptions minimize = options;
      minimize.minimize = true;
      minimize.budgetBytes.reset();
      minimize.timeLimitSeconds =
          std::chrono::duration<double>(deadline - Clock::now()).count();
      SolverResult least = solve(program, minimize);
      leastPeak = std::make_shared<const SolverResult>(least);
      starts.push_back({"its least peak", std::move(least)});
    }
    // Each start is its solver's evaluatePlan result for this program:
    // only whether it meets this budget is judged again (evaluating them
    // again was 7 evaluations, 0.9 s, of a 100k-op layered DAG's solve).
    for (auto &[from, start] : starts) {
      SolverResult result = std::move(start);
      result.feasible = meetsBudget(result.peakBytes, options);
      if (result.feasible && !options.minimize)
        result = pruneEvaluated(program, std::move(result), options, deadline);
      if (!isBetterResult(result, best, options))
        continue;
      result.note = options.minimize
                        ? "greedy's least peak is " + from
                        : "greedy missed the budget; " + from +
                              (result.feasible ? " met it" : " came closer");
      best = std::move(result);
    }
    best.leastPeak = std::move(leastPeak);
  }

  /// Each step of the search evaluates tens of moves exactly.
  static constexpr size_t kMaxSearchOps = 5000;
  /// Op-evaluations the search may spend (a few seconds), and the least
  /// number of evaluations on any program.
  static constexpr uint64_t kSearchWork = 4'000'000;
  static constexpr uint64_t kMinEvaluations = 400;
  /// Recomputations tried without (ruin and recreate) per improvement.
  static constexpr unsigned kMaxRuins = 16;
  /// The largest program xla's plan is a start for.
  static constexpr size_t kMaxXlaStartOps = 2000;
};

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfGreedySearchSolver() {
  return {{"greedy", makeSolver<GreedySearchSolver>}};
}
} // namespace remat
