//===- ChainSolver.cpp - Checkpoint selection on chains by dynamic program ===//
//
// When the forward part is a chain (every forward op reads the previous
// forward op's single result, plus graph inputs, and nothing is a view), the
// problem reduces to choosing which activations to keep as checkpoints; every
// other activation the backward part reads is recomputed once, segment by
// segment, right before the backward part needs it (checkpointPlan).
//
// The dynamic program (heterogeneous costs and sizes, in the spirit of
// Beaumont et al. 2019, restricted to one level of checkpoints) models the
// peak as (bytes of the checkpoints) + (bytes of the largest recomputed
// segment) and the cost as the flops of the ops between checkpoints. For a
// cap C on segment bytes and a price lambda per checkpoint byte it finds, in
// O(L * window), the checkpoint set minimizing flops + lambda * bytes among
// those whose segments fit in C. A grid of (C, lambda) pairs gives candidate
// checkpoint sets; each is turned into a plan and evaluated exactly with the
// memory model, and the cheapest plan meeting the budget wins (with `min`,
// the smallest peak, then the fewest flops). The result is optimal only
// within this family under the DP's model; `optimal` stays false.
//
// On a graph whose forward part is not a chain, the solver falls back to the
// greedy solver and says so in SolverResult::note.
//
//===----------------------------------------------------------------------===//

#include "Solvers.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"

#include <chrono>
#include <cmath>
#include <limits>

using namespace remat;

namespace {

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

class ChainSolver : public Solver {
public:
  std::string name() const override { return "chain"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override;
};

SolverResult ChainSolver::solve(const Program &program,
                                const SolverOptions &options) {
  std::vector<OpId> chain = forwardChain(program);
  if (chain.empty()) {
    SolverResult result = createGreedySolver()->solve(program, options);
    result.note = "chain: the forward part is not a chain; used the greedy "
                  "solver";
    return result;
  }
  auto start = std::chrono::steady_clock::now();
  size_t length = chain.size();
  std::vector<bool> notSaveable = notSaveableValues(program);

  // Per position: bytes, flops, whether it must be / cannot be kept.
  std::vector<double> bytes(length), flops(length);
  std::vector<bool> forced(length), banned(length);
  for (size_t p = 0; p < length; ++p) {
    const OpInfo &op = program.ops[chain[p]];
    ValueId v = op.results[0];
    bytes[p] = double(program.values[v].bytes);
    flops[p] = double(op.flops);
    forced[p] = !op.recomputable || op.mustKeep || program.values[v].isOutput;
    banned[p] = notSaveable[v];
  }

  std::vector<bool> baseKeep(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    OpId def = program.values[v].def;
    baseKeep[v] = def == kNone || def >= program.backwardBegin;
  }

  SolverResult best;
  bool haveBest = false;
  auto better = [&](const SolverResult &a, const SolverResult &b) {
    bool fitsA = options.budgetBytes && !options.minimize
                     ? a.peakBytes <= *options.budgetBytes
                     : true;
    bool fitsB = options.budgetBytes && !options.minimize
                     ? b.peakBytes <= *options.budgetBytes
                     : true;
    if (fitsA != fitsB)
      return fitsA;
    if (options.minimize || !fitsA) {
      if (a.peakBytes != b.peakBytes)
        return a.peakBytes < b.peakBytes;
    }
    return a.extraFlops < b.extraFlops;
  };
  auto consider = [&](const std::vector<bool> &keepPositions) {
    std::vector<bool> keep = baseKeep;
    for (size_t p = 0; p < length; ++p)
      keep[program.ops[chain[p]].results[0]] = keepPositions[p];
    SolverResult result =
        evaluatePlan(program, checkpointPlan(program, keep, options), options);
    if (!haveBest || better(result, best)) {
      best = std::move(result);
      haveBest = true;
    }
  };

  // Keeping everything that may be kept is a candidate too (no recompute
  // beyond the policy).
  {
    std::vector<bool> all(length);
    for (size_t p = 0; p < length; ++p)
      all[p] = !banned[p];
    consider(all);
  }
  if (!options.budgetBytes && !options.minimize)
    return best;

  double totalBytes = 0, totalFlops = 0, maxBytes = 0;
  for (size_t p = 0; p < length; ++p) {
    totalBytes += bytes[p];
    totalFlops += flops[p];
    maxBytes = std::max(maxBytes, bytes[p]);
  }
  double ratio = totalFlops / std::max(1.0, totalBytes);

  std::vector<double> caps;
  for (int c = 1; c <= 24; ++c)
    caps.push_back(maxBytes + (totalBytes - maxBytes) * std::pow(c / 24.0, 2));
  caps.push_back(0);
  std::vector<double> lambdas = {0};
  for (int e = -8; e <= 8; ++e)
    lambdas.push_back(ratio * std::pow(2.0, e));

  // Prefix sums for segment bytes and flops between checkpoints.
  std::vector<double> prefixBytes(length + 1, 0), prefixFlops(length + 1, 0);
  for (size_t p = 0; p < length; ++p) {
    prefixBytes[p + 1] = prefixBytes[p] + bytes[p];
    prefixFlops[p + 1] = prefixFlops[p] + flops[p];
  }
  const double inf = std::numeric_limits<double>::infinity();
  for (double cap : caps) {
    for (double lambda : lambdas) {
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      if (seconds > options.timeLimitSeconds)
        break;
      // dp[k]: best cost with a checkpoint at position k-1 (k = 0: the
      // inputs); positions strictly between checkpoints are recomputed.
      std::vector<double> dp(length + 2, inf);
      std::vector<size_t> from(length + 2, 0);
      dp[0] = 0;
      for (size_t k = 1; k <= length + 1; ++k) {
        size_t pos = k - 1; // position of the checkpoint, length = the end
        if (pos < length && banned[pos])
          continue;
        double own = pos < length ? lambda * bytes[pos] : 0;
        // Walk back over the segment (pos', pos).
        for (size_t j = k; j-- > 0;) {
          // Segment: positions j .. pos-1 (checkpoint at j-1).
          double segBytes = prefixBytes[pos] - prefixBytes[j];
          if (segBytes > cap && j + 1 < k)
            break;
          if (segBytes > cap)
            continue;
          if (dp[j] < inf) {
            double cost = dp[j] + (prefixFlops[pos] - prefixFlops[j]) + own;
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
      if (dp[length + 1] == inf)
        continue;
      std::vector<bool> keep(length, false);
      for (size_t k = from[length + 1]; k > 0; k = from[k])
        keep[k - 1] = true;
      consider(keep);
    }
  }
  return best;
}

} // namespace

std::unique_ptr<Solver> remat::createChainSolver() {
  return std::make_unique<ChainSolver>();
}
