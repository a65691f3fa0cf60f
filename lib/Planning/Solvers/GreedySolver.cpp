//===- GreedySolver.cpp - Cost-aware greedy rematerialization -------------===//
//
// The greedy solver works in two stages:
//
//  1. Checkpoint policies: forward results of `mustRecompute` ops (and views
//     of them) that the backward part reads are recomputed in front of their
//     first backward use.
//  2. Budget: while the peak is too high, look at the op where it occurs and
//     recompute one of the buffers that is only waiting there for a later use.
//     Each step recomputes the buffer with the best bytes saved per flop,
//     right before its next use, and is kept only if the peak (or the number
//     of ops at the peak) went down. When that next use is itself a chain op
//     of an earlier recomputation, the new one is placed ahead of that
//     recomputation's group, so that the chain reads the new copy.
//
// Every decision is judged on the materialized program, so what the solver
// reports is exactly what computeMemoryProfile(materialize(...)) says.
//
//===----------------------------------------------------------------------===//

#include "GreedyPlanner.h"
#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <sstream>

using namespace remat;
using namespace remat::greedy;

bool GreedyPlanner::reducePeak(Plan &plan) const {
  auto wantsLower = [&](const Snapshot &snapshot) {
    return options.minimize ||
           snapshot.profile.peakBytes > *options.budgetBytes;
  };
  // Lexicographic on (peak, ops at the peak): steps that only remove one of
  // several equal peaks are progress too, and the order guarantees that the
  // search terminates.
  auto improves = [](const Snapshot &next, const Snapshot &current) {
    if (next.profile.peakBytes != current.profile.peakBytes)
      return next.profile.peakBytes < current.profile.peakBytes;
    return next.peakCount < current.peakCount;
  };

  Snapshot current = snapshot(plan);
  // Each try's snapshot; an accepted one swaps with `current`, so that the
  // next try reuses the storage of the one it replaced.
  Snapshot next;
  // Bulk sweeps first: each picks recomputations for the highest ops with
  // one evaluation of the program instead of one per pick, which keeps the
  // plan time near-linear on large programs (on small ones a sweep picks one,
  // like a step below). A sweep is kept only if it lowers the peak, or, under
  // a budget, the number of ops over it; the exact steps finish the job.
  auto overBudget = [&](const Snapshot &snapshot) -> size_t {
    return llvm::count_if(snapshot.profile.liveBytes, [&](uint64_t bytes) {
      return bytes > *options.budgetBytes;
    });
  };
  auto sweepImproves = [&](const Snapshot &next, const Snapshot &current) {
    if (next.profile.peakBytes != current.profile.peakBytes)
      return next.profile.peakBytes < current.profile.peakBytes;
    return !options.minimize && overBudget(next) < overBudget(current);
  };
  // A sweep that its evaluation confirms (no more ops over the budget than
  // estimated; under `min`, no higher peak) may be twice as large next time,
  // up to one pick per
  // kOpsPerLargestSweepPick ops: every sweep is an evaluation of the whole
  // program, and a deep transformer needs about one pick per three ops. A
  // rejected sweep is retried at half the size, down to the first one.
  // Programs under kMinGrowingOps do not grow their sweeps.
  const size_t numOps = base.ops.size();
  const size_t firstPicks = std::max<size_t>(1, numOps / kOpsPerSweepPick);
  const size_t mostPicks =
      numOps >= kMinGrowingOps
          ? std::max(firstPicks, numOps / kOpsPerLargestSweepPick)
          : firstPicks;
  size_t picks = firstPicks;
  while (wantsLower(current) && !pastDeadline()) {
    Plan trial = plan;
    SweepEstimate expected;
    if (!sweepOverBudget(trial, current, picks, expected))
      break;
    snapshot(trial, next);
    if (!sweepImproves(next, current)) {
      if (picks == firstPicks || expected.exhausted)
        break;
      picks = std::max(firstPicks, picks / 2);
      continue;
    }
    bool confirmed = options.minimize
                         ? next.profile.peakBytes <= expected.peak
                         : overBudget(next) <= expected.over;
    plan = std::move(trial);
    std::swap(current, next);
    if (expected.exhausted)
      break;
    if (confirmed)
      picks = std::min(picks * 2, mostPicks);
  }
  // Where each accepted step inserted its recomputation, so that the steps
  // after the last one that lowered the peak (they only removed equal peaks)
  // can be undone at the end without copying the plan at every improvement.
  std::vector<size_t> insertedAt;
  size_t bestSteps = 0;
  // Every try materializes the program once; this bounds the total work.
  // Past kMaxSmallOps, a number of tries that grew with the program would
  // make the plan time quadratic; the sweeps have done the bulk by then.
  unsigned triesLeft =
      numOps > kMaxSmallOps
          ? std::max<size_t>(kMaxLargeTries, kExactWork / numOps)
          : 4 * numOps + 64;
  while (wantsLower(current) && triesLeft > 0 && !pastDeadline()) {
    bool accepted = false;
    CandidateQueue candidates = candidatesAtPeak(current);
    Candidate candidate;
    while (triesLeft > 0 && !pastDeadline() && candidates.next(candidate)) {
      --triesLeft;
      // Plan order is emission order in front of the same op.
      auto position = plan.recomputes.end();
      if (candidate.ahead)
        position = llvm::find_if(plan.recomputes, [&](const Recompute &r) {
          return r.before == candidate.recompute.before;
        });
      position = plan.recomputes.insert(position, candidate.recompute);
      snapshot(plan, next);
      if (improves(next, current)) {
        insertedAt.push_back(position - plan.recomputes.begin());
        if (next.profile.peakBytes < current.profile.peakBytes)
          bestSteps = insertedAt.size();
        std::swap(current, next);
        accepted = true;
        break;
      }
      plan.recomputes.erase(position);
    }
    if (!accepted)
      break;
  }
  while (insertedAt.size() > bestSteps) {
    plan.recomputes.erase(plan.recomputes.begin() + insertedAt.back());
    insertedAt.pop_back();
  }
  // Undoing the steps that only removed equal peaks leaves the peak.
  return !wantsLower(current) || options.minimize;
}

Plan GreedyPlanner::run(bool pruneMissed, bool &pruned) const {
  Plan plan;
  pruned = false;
  // A plan to go on from already recomputes what cannot be saved.
  if (options.startFrom)
    plan = *options.startFrom;
  else
    recomputeNotSaveable(plan);
  if (options.minimize || options.budgetBytes) {
    bool met = reducePeak(plan);
    // A later step can make an earlier one needless.
    if (met || pruneMissed) {
      plan = dropNeedlessRecomputes(base, std::move(plan), options, deadline);
      pruned = true;
    }
    pastDeadline();
  }
  return plan;
}

namespace {

class GreedySolver : public Solver {
public:
  explicit GreedySolver(bool pruneMissed) : pruneMissed(pruneMissed) {}
  std::string name() const override { return "greedy"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    Clock::time_point deadline = solveDeadline(options);
    // Bytes per flop is the rule. Weighting bytes less (cheap first) or more
    // (large first) finds better plans on some graphs; on small graphs all
    // three runs cost little and the best plan wins.
    bool stopped = false;
    auto plan = [&](double bytesExponent) {
      GreedyPlanner planner(program, options, bytesExponent, deadline);
      bool pruned;
      SolverResult result =
          evaluatePlan(program, planner.run(pruneMissed, pruned), options);
      // Hoisting and sharing copies (evaluatePlan) can meet a budget the
      // planner's own evaluations missed.
      if (!pruned && options.budgetBytes && result.feasible &&
          Clock::now() < deadline)
        result = pruneEvaluated(program, std::move(result), options, deadline);
      stopped |= planner.stoppedAtDeadline();
      return result;
    };
    SolverResult best = plan(1);
    if (program.ops.size() <= kMaxSmallOps &&
        (options.minimize || !options.budgetBytes || best.extraCost > 0)) {
      for (double bytesExponent : {0.5, 2.0}) {
        if (Clock::now() >= deadline) {
          stopped = true;
          break;
        }
        SolverResult other = plan(bytesExponent);
        if (isBetterResult(other, best, options))
          best = std::move(other);
      }
    }
    if (stopped) {
      std::ostringstream note;
      note << "greedy: stopped by the time limit (" << options.timeLimitSeconds
           << " s); the plan is the best found by then";
      best.note = note.str();
    }
    return best;
  }

private:
  bool pruneMissed;
};

} // namespace

std::unique_ptr<Solver> remat::createGreedySolver(bool pruneMissed) {
  return std::make_unique<GreedySolver>(pruneMissed);
}
