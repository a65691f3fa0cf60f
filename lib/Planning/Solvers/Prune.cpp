//===- Prune.cpp - Dropping recomputations a plan does without ------------===//
//
// Solvers add recomputations one decision at a time, and a later decision
// can make an earlier one needless; the chain DP and the MIP can also move
// an op into the backward part where nothing is gained. Each recomputation
// is tried without, costliest first, and dropped when the plan still meets
// the budget at no more FLOPs. Under `min`, or a budget out of reach, the
// peak reached is the budget (and may still go down).
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>
#include <optional>

using namespace remat;

namespace {

/// One evaluation per recomputation: pruning runs only while
/// (recomputations x ops) stays under this.
constexpr size_t kMaxPruneWork = 16'000'000;

struct Evaluation {
  uint64_t peakBytes = 0;
  uint64_t cost = 0;
};

} // namespace

uint64_t remat::pruneWork(size_t recomputes, size_t ops) {
  uint64_t work = uint64_t(recomputes) * ops;
  return work > kMaxPruneWork ? 0 : work;
}

Plan remat::dropNeedlessRecomputes(
    const Program &program, Plan plan, const SolverOptions &options,
    std::chrono::steady_clock::time_point deadline, uint64_t *evaluationsLeft) {
  if (pruneWork(plan.recomputes.size(), program.ops.size()) == 0)
    return plan;
  // Spends one evaluation of the caller's effort; false when none is left.
  auto spend = [&] {
    if (!evaluationsLeft)
      return true;
    if (*evaluationsLeft == 0)
      return false;
    --*evaluationsLeft;
    return true;
  };
  if (!spend())
    return plan;
  std::vector<bool> notSaveable = notSaveableValues(program);
  bool anyPolicy = llvm::is_contained(notSaveable, true);
  // The peak and cost of `trial`, or nullopt when it keeps a not-saveable
  // value into the backward part. Every try materializes into the same
  // program, reusing its storage.
  MaterializeMap map;
  Program planned;
  auto evaluate = [&](const Plan &trial) -> std::optional<Evaluation> {
    materialize(program, trial, map, planned);
    MemoryProfile profile = computeMemoryProfile(planned, options.countInputs);
    if (anyPolicy && program.backwardBegin < program.ops.size()) {
      // Not map.opIndex[backwardBegin]: the first backward op may have been
      // moved (its only reader reads a copy), which left the check out.
      OpId boundary = planned.backwardBegin;
      for (ValueId v = 0; v < program.values.size(); ++v) {
        OpId end = profile.ranges[planned.rootOf(v)].end;
        if (notSaveable[v] && boundary != kNone && end != kNone &&
            end >= boundary)
          return std::nullopt;
      }
    }
    Evaluation evaluation{profile.peakBytes, 0};
    for (const OpInfo &op : planned.ops)
      evaluation.cost = llvm::SaturatingAdd(evaluation.cost, op.cost);
    return evaluation;
  };
  std::optional<Evaluation> current = evaluate(plan);
  if (!current)
    return plan;
  auto limitFor = [&](const Evaluation &e) {
    return options.minimize || !options.budgetBytes
               ? e.peakBytes
               : std::max(e.peakBytes, *options.budgetBytes);
  };
  uint64_t limit = limitFor(*current);

  std::vector<uint64_t> chainCost;
  for (const Recompute &recompute : plan.recomputes) {
    uint64_t cost = 0;
    for (OpId op : recompute.chain)
      cost = llvm::SaturatingAdd(cost, program.ops[op].cost);
    chainCost.push_back(cost);
  }
  std::vector<size_t> order(plan.recomputes.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](size_t a, size_t b) {
    return chainCost[a] != chainCost[b] ? chainCost[a] > chainCost[b]
                                          : a < b;
  });
  std::vector<bool> dropped(plan.recomputes.size(), false);
  auto without = [&](size_t skip) {
    Plan trial;
    for (size_t k = 0; k < plan.recomputes.size(); ++k)
      if (!dropped[k] && k != skip)
        trial.recomputes.push_back(plan.recomputes[k]);
    return trial;
  };
  for (size_t k : order) {
    // Every try is an evaluation: what is dropped so far stays dropped.
    if (std::chrono::steady_clock::now() >= deadline || !spend())
      break;
    // What a checkpoint policy asked for stays.
    OpId def = program.values[plan.recomputes[k].value].def;
    if (program.ops[def].mustRecompute)
      continue;
    Plan trial = without(k);
    if (!verifyPlanShape(program, trial).empty())
      continue;
    std::optional<Evaluation> next = evaluate(trial);
    if (next && next->peakBytes <= limit && next->cost <= current->cost) {
      dropped[k] = true;
      current = next;
      limit = std::min(limit, limitFor(*current));
    }
  }
  return without(kNone);
}

SolverResult
remat::pruneEvaluated(const Program &program, SolverResult evaluated,
                      const SolverOptions &options,
                      std::chrono::steady_clock::time_point deadline) {
  if (pruneWork(evaluated.plan.recomputes.size(), program.ops.size()) == 0)
    return evaluated;
  return evaluatePlan(program,
                      dropNeedlessRecomputes(program, std::move(evaluated.plan),
                                             options, deadline),
                      options);
}
