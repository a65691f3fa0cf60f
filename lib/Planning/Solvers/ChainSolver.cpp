//===- ChainSolver.cpp - Checkpointing when the forward part is a chain ---===//
//
// When the forward part is a chain (every forward op reads the previous
// forward op's single result, plus graph inputs, and nothing is a view), the
// backward part reads the activations back in reverse order, and what is
// left to decide is when to recompute each one and from which stored copy.
//
// The main candidate is the multi-level stack schedule of ChainSchedule.cpp
// (revolve / Beaumont et al. 2019), solved at the budget and, under `min` or
// when no plan fits the budget, at the least peak the DP's model allows.
// Its plan is evaluated exactly like every candidate. It has the fewest
// extra cost among stack schedules only, so `optimal` stays false and the
// claim goes to `note`.
//
// Two fallbacks stay candidates, so the result is never worse than they
// are: the one-level checkpoint selection (a grid of caps and prices over
// checkpoint sets, each turned into a plan by checkpointPlan) and the
// greedy solver. The best exactly evaluated plan wins. On a graph whose
// forward part is not a chain, the solver is the greedy solver.
//
//===----------------------------------------------------------------------===//

#include "ChainSchedule.h"
#include "SolverSupport.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>

using namespace remat;

namespace {

constexpr unsigned kMaxPositions = 500;

/// The forward ops of a chain, in order; empty when it is not one.
std::vector<OpId> forwardChain(const Program &program) {
  OpId boundary = program.backwardBegin;
  if (boundary == kNone || boundary == 0 || boundary > program.ops.size())
    return {};
  std::vector<OpId> chain;
  for (OpId op = 0; op < boundary; ++op) {
    const OpInfo &info = program.ops[op];
    if (info.results.size() != 1 ||
        program.values[info.results[0]].aliasOf != kNone)
      return {};
    unsigned forwardOperands = 0;
    for (ValueId operand : info.operands) {
      OpId def = program.values[operand].def;
      if (def == kNone)
        continue;
      if (chain.empty() || def != chain.back())
        return {};
      ++forwardOperands;
    }
    if (!chain.empty() && forwardOperands == 0)
      return {};
    chain.push_back(op);
  }
  return chain;
}

//===----------------------------------------------------------------------===//
// The solver
//===----------------------------------------------------------------------===//

class ChainSolver : public Solver {
public:
  std::string name() const override { return "chain"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override;
};

/// Keeps the best exactly evaluated plan: within the budget first, then
/// (for `min`, or when nothing fits) the smaller peak, then fewer cost.
class Candidates {
public:
  Candidates(const Program &program, const SolverOptions &options)
      : program(program), options(options) {}

  /// Evaluates `plan` and considers it, with `note` as its note.
  void consider(Plan plan, const std::string &note = {}) {
    SolverResult result = evaluatePlan(program, std::move(plan), options);
    result.note = note;
    consider(std::move(result));
  }
  void consider(SolverResult result) {
    if (haveBest && !isBetterResult(result, best, options))
      return;
    best = std::move(result);
    haveBest = true;
  }
  const SolverResult &get() const { return best; }
  bool bestFits() const { return haveBest && best.feasible; }

private:

  const Program &program;
  const SolverOptions &options;
  SolverResult best;
  bool haveBest = false;
};

/// The one-level checkpoint selection: for a cap C on the bytes of a
/// recomputed segment and a price lambda per checkpoint byte, a DP over
/// positions finds the checkpoint set minimizing cost + lambda * bytes
/// whose segments fit in C; every set of the (C, lambda) grid is a
/// candidate, recomputed segment by segment with checkpointPlan.
void considerOneLevel(const Program &program, const std::vector<OpId> &chain,
                      const SolverOptions &options, Candidates &candidates,
                      std::chrono::steady_clock::time_point start) {
  size_t length = chain.size();
  std::vector<bool> notSaveable = notSaveableValues(program);
  std::vector<double> bytes(length), cost(length);
  std::vector<bool> forced(length), banned(length);
  for (size_t p = 0; p < length; ++p) {
    const OpInfo &op = program.ops[chain[p]];
    ValueId v = op.results[0];
    bytes[p] = double(program.values[v].bytes);
    cost[p] = double(op.cost);
    forced[p] = !op.canRecompute() || program.values[v].isOutput;
    banned[p] = notSaveable[v];
  }
  std::vector<bool> baseKeep(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    OpId def = program.values[v].def;
    baseKeep[v] = def == kNone || def >= program.backwardBegin;
  }
  // Many grid points pick the same set; each is evaluated once.
  std::set<std::vector<bool>> seen;
  auto consider = [&](const std::vector<bool> &keepPositions) {
    if (!seen.insert(keepPositions).second)
      return;
    std::vector<bool> keep = baseKeep;
    for (size_t p = 0; p < length; ++p)
      keep[program.ops[chain[p]].results[0]] = keepPositions[p];
    candidates.consider(checkpointPlan(program, keep, options));
  };

  // Keeping everything that may be kept: no recompute beyond the policy.
  std::vector<bool> all(length);
  for (size_t p = 0; p < length; ++p)
    all[p] = !banned[p];
  consider(all);
  if (!options.budgetBytes && !options.minimize)
    return;

  double totalBytes = 0, totalCost = 0, maxBytes = 0;
  for (size_t p = 0; p < length; ++p) {
    totalBytes += bytes[p];
    totalCost += cost[p];
    maxBytes = std::max(maxBytes, bytes[p]);
  }
  double ratio = totalCost / std::max(1.0, totalBytes);
  std::vector<double> caps;
  for (int c = 1; c <= 24; ++c)
    caps.push_back(maxBytes + (totalBytes - maxBytes) * std::pow(c / 24.0, 2));
  caps.push_back(0);
  std::vector<double> lambdas = {0};
  for (int e = -8; e <= 8; ++e)
    lambdas.push_back(ratio * std::pow(2.0, e));

  std::vector<double> prefixBytes(length + 1, 0), prefixCost(length + 1, 0);
  for (size_t p = 0; p < length; ++p) {
    prefixBytes[p + 1] = prefixBytes[p] + bytes[p];
    prefixCost[p + 1] = prefixCost[p] + cost[p];
  }
  for (double cap : caps) {
    for (double lambda : lambdas) {
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      if (seconds > options.timeLimitSeconds)
        return;
      // dp[k]: best cost with a checkpoint at position k-1 (k = 0: the
      // inputs); positions strictly between checkpoints are recomputed.
      std::vector<double> dp(length + 2, kInf);
      std::vector<size_t> from(length + 2, 0);
      dp[0] = 0;
      for (size_t k = 1; k <= length + 1; ++k) {
        size_t pos = k - 1;
        if (pos < length && banned[pos])
          continue;
        double own = pos < length ? lambda * bytes[pos] : 0;
        for (size_t j = k; j-- > 0;) {
          double segBytes = prefixBytes[pos] - prefixBytes[j];
          if (segBytes > cap && j + 1 < k)
            break;
          if (segBytes > cap)
            continue;
          if (dp[j] < kInf) {
            double cost = dp[j] + (prefixCost[pos] - prefixCost[j]) + own;
            if (cost < dp[k]) {
              dp[k] = cost;
              from[k] = j;
            }
          }
          // A forced checkpoint cannot be skipped over.
          if (j >= 1 && forced[j - 1])
            break;
        }
      }
      if (dp[length + 1] == kInf)
        continue;
      std::vector<bool> keep(length, false);
      for (size_t k = from[length + 1]; k > 0; k = from[k])
        keep[k - 1] = true;
      consider(keep);
    }
  }
}

/// Runs the stack-schedule DP at `budget` bytes and offers its plan.
/// Returns the DP's extra cost (kInf when it finds no schedule).
double considerStackSchedule(const Program &program, const ChainModel &model,
                             double budget, Candidates &candidates) {
  if (!(budget > 0))
    return kInf;
  // About two million table cells: a few tens of milliseconds.
  double positions = double(model.last + 1);
  unsigned slots =
      unsigned(std::clamp(2e6 / (positions * positions), 32.0, 1000.0));
  StackSchedule schedule(model, budget, slots);
  double cost = schedule.solve();
  if (cost == kInf)
    return kInf;
  candidates.consider(schedule.plan(),
                      "chain: multi-level stack schedule, least cost among "
                      "stack schedules in the DP's memory model (" +
                          std::to_string(schedule.slots()) + " slots)");
  return cost;
}

SolverResult ChainSolver::solve(const Program &program,
                                const SolverOptions &options) {
  std::vector<OpId> chain = forwardChain(program);
  if (chain.empty()) {
    SolverResult result = createSolver("greedy")->solve(program, options);
    result.note = "chain: the forward part is not a chain; used the greedy "
                  "solver";
    return result;
  }
  auto start = std::chrono::steady_clock::now();
  Candidates candidates(program, options);
  if (!options.budgetBytes && !options.minimize) {
    considerOneLevel(program, chain, options, candidates, start);
    return candidates.get();
  }
  std::optional<ChainModel> model = buildChainModel(program, chain, options);
  // Past about 500 positions even 32 slots make tables of hundreds of MB.
  bool useDP = model && model->last <= kMaxPositions;
  // The DP goes first: on a tie its plan, whose note states what the DP
  // proves, is kept.
  if (useDP && !options.minimize)
    considerStackSchedule(program, *model, double(*options.budgetBytes),
                          candidates);
  if (useDP && (options.minimize || !candidates.bestFits())) {
    // The least peak the model allows; slot rounding may need a little more.
    double peak = minimalStackPeak(*model);
    for (double slack : {0.0, 0.002, 0.01, 0.03})
      if (peak < kInf &&
          considerStackSchedule(program, *model, peak * (1 + slack),
                                candidates) < kInf)
        break;
  }
  considerOneLevel(program, chain, options, candidates, start);
  // Greedy gets what the DP and the one-level search left of the limit.
  auto deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(options.timeLimitSeconds));
  SolverOptions rest = options;
  rest.timeLimitSeconds = std::max(
      0.05, std::chrono::duration<double>(deadline -
                                          std::chrono::steady_clock::now())
                .count());
  candidates.consider(createSolver("greedy")->solve(program, rest));
  SolverResult best = candidates.get();
  std::string note = std::move(best.note);
  // Moves that gain nothing (an activation no backward op needs early)
  // are dropped; the FLOPs do not change.
  SolverResult result =
      pruneEvaluated(program, std::move(best), options, deadline);
  result.note = std::move(note);
  if (!useDP && result.note.empty())
    result.note = model ? "chain: too long for the multi-level DP; one-level "
                          "checkpoints and greedy only"
                        : "chain: the backward part does not read the chain "
                          "in reverse order; multi-level schedules not "
                          "searched";
  return result;
}

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfChainSolver() {
  return {{"chain", makeSolver<ChainSolver>}};
}
} // namespace remat
