//===- GreedyPlanner.h - The greedy solver's search, by stage ---*- C++ -*-===//
//
// The greedy solver (GreedySolver.cpp) in parts: the chains a recomputation
// re-executes (GreedyChains.cpp), the candidates at the peak for the exact
// steps (GreedyCandidates.cpp), and the bulk sweeps (GreedySweep.cpp). The
// stages that drive them and the solver itself are in GreedySolver.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_SOLVERS_GREEDYPLANNER_H
#define REMAT_LIB_PLANNING_SOLVERS_GREEDYPLANNER_H

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Plan.h"
#include "remat/Planning/Solver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <chrono>
#include <cmath>
#include <vector>

namespace remat::greedy {

/// Longest chain of ops one recomputation may re-execute. Longer chains cost
/// more cost than they usually save and make the search slow.
constexpr unsigned kMaxChainOps = 16;
/// Most chain ops in front of one original op that new recomputations may
/// join by going ahead of them: kGroupWork / ops, and at least this. A copy
/// made ahead of a group only feeds that group's chains, so a group grown
/// this way is one long chain split into pieces: without a bound the search
/// recomputes a residual stream from its first block in front of every
/// backward block (cheap adds, each step a small win), and the plan grows
/// quadratically with the depth. Smaller programs need such cascades for
/// their least peaks (a 55-block ResNet's was 12% higher at this bound),
/// and afford them.
constexpr unsigned kMaxGroupOps = 2 * kMaxChainOps;
constexpr size_t kGroupWork = size_t(1) << 18;
/// The first bulk sweep picks up to one recomputation per this many ops (and
/// at least one) before the program is evaluated again. One per sweep is
/// exactly the step-wise search; more per sweep is faster but judges later
/// picks on stale estimates (bench/results/solvers.md has the effect).
constexpr size_t kOpsPerSweepPick = 128;
/// Sweeps grow up to one pick per this many ops (GreedyPlanner::reducePeak).
/// Larger sweeps judge too many picks on stale estimates: without this bound
/// a deep transformer paid a fifth more extra FLOPs.
constexpr size_t kOpsPerLargestSweepPick = 16;
/// Exact steps tried after the sweeps (GreedyPlanner::reducePeak), each an
/// evaluation of the program: kExactWork / ops, and at least this.
constexpr unsigned kMaxLargeTries = 16;
constexpr size_t kExactWork = size_t(1) << 20;
/// Programs from this size on grow their sweeps (GreedyPlanner::reducePeak):
/// below it, sweeps cost little and growing them cost FLOPs.
constexpr size_t kMinGrowingOps = 4096;
/// A sweep of a program from kMinGrowingOps ops on stops once it has built
/// this many chains per pick it may make that free nothing (Chain: they
/// keep as many bytes alive through the peak as they free), and the sweeps
/// end there (GreedyPlanner::reducePeak). Where nearly every chain is so,
/// the budget is beyond what recomputation reaches: a 100k-op random
/// layered DAG's sweeps at 0.5 built 517k chains for 781 picks, 99.8% of
/// them useless, 2 s each. The other generator families' sweeps (50k ops,
/// at 0.5, 0.3 and `min`) built at most 8 per pick.
constexpr size_t kUselessChainsPerPick = 16;
/// Largest program planned three times, with different weights on bytes
/// (see GreedySolver::solve). Larger ones get one run, so that plan time
/// stays near-linear.
constexpr size_t kMaxSmallOps = 512;

/// A plan applied to the program the solver works on.
struct Snapshot {
  Program program;
  MaterializeMap map;
  MemoryProfile profile;
  /// Number of ops at which the peak is reached.
  unsigned peakCount = 0;
  /// For each original value that the plan recomputes, its copies as
  /// (`before` op, copy) pairs in plan order.
  llvm::DenseMap<ValueId, llvm::SmallVector<std::pair<OpId, ValueId>, 2>>
      copies;
};

struct Chain {
  std::vector<OpId> ops;
  uint64_t cost = 0;
  /// Bytes of operands that must now stay live through the peak op to feed
  /// the chain.
  uint64_t extendedBytes = 0;
  /// The chain would read a value after an in-place write overwrote it, or
  /// write in place into a buffer it does not create (InPlaceWrites.h): it
  /// cannot be used.
  bool overwrites = false;
};

/// Where a new recomputation goes: in front of original op `before`, after
/// the groups already there (the copy serves `before` and later ops), or
/// ahead of them (the copy serves their chains too).
struct Placement {
  OpId before = kNone;
  bool ahead = false;
  /// Chain ops of the groups already in front of `before`.
  unsigned groupOps = 0;
};

/// Where to recompute a buffer of `snapshot` that op `use` reads next: in
/// front of `use`, or, when `use` is a chain op, ahead of the groups in
/// front of the original op that hosts that chain.
Placement placementFor(const Snapshot &snapshot, OpId use);

struct Candidate {
  Recompute recompute;
  bool ahead = false;
  /// Bytes freed at the peak op.
  uint64_t bytes = 0;
  /// `bytes` minus the buffers the chain keeps alive through the peak.
  uint64_t benefit = 0;
  uint64_t cost = 0;
  /// GreedyPlanner::scoreOf(benefit, cost).
  double score = 0;
};

/// Better candidates first: score, then bytes, then program order, so that
/// the search is deterministic.
bool isBetter(const Candidate &a, const Candidate &b);

/// A buffer live across the peak that could be recomputed, before its chain
/// is built.
struct Option {
  ValueId live = kNone;
  Placement placement;
  /// What the candidate's score can at most be: its benefit is at most the
  /// buffer's bytes, and its chain re-executes at least the defining op.
  double bound = 0;
};

class GreedyPlanner;

using Clock = std::chrono::steady_clock;

/// What a bulk sweep expects of the program with its picks.
struct SweepEstimate {
  uint64_t peak = 0;
  /// Ops over the budget.
  size_t over = 0;
  /// The sweep stopped at its allowance of useless chains
  /// (kUselessChainsPerPick): the sweeps that would follow cost more than
  /// they find.
  bool exhausted = false;
};

/// A stretch of ops over which a buffer of the snapshot is live but not
/// read: recomputing it in front of its next reader frees it there.
struct Gap {
  ValueId live = kNone;
  /// The original value, its defining op and its bytes (for sorting).
  ValueId origin = kNone;
  OpId def = kNone;
  uint64_t bytes = 0;
  /// First and last op of the stretch; `end + 1` reads the buffer.
  OpId begin = kNone;
  OpId end = kNone;
  /// Bytes saved per flop: a bound until the chain is built, then exact.
  /// (The few chains a sweep builds are kept beside the gaps: a sweep of a
  /// 100k-op step sorts millions of gaps, which then move as plain data.)
  double score = 0;
};

/// The candidates at the peak, best first (isBetter). Usually the first one
/// is accepted, and building a chain costs far more than bounding its score,
/// so chains are built only while an unbuilt option could still beat the
/// best built candidate.
class CandidateQueue {
public:
  CandidateQueue(const GreedyPlanner &planner, const Snapshot &snapshot,
                 std::vector<Option> options);
  /// Returns false when no candidate is left.
  bool next(Candidate &candidate);

private:
  const GreedyPlanner &planner;
  const Snapshot &snapshot;
  /// Max-heap on `bound`.
  std::vector<Option> options;
  /// Heap with the best candidate on top.
  std::vector<Candidate> built;
};

class GreedyPlanner {
public:
  /// Candidates are ranked by benefit^bytesExponent per flop. The search
  /// stops at `deadline` with the best plan it has.
  GreedyPlanner(const Program &program, const SolverOptions &options,
                double bytesExponent, Clock::time_point deadline);

  /// The plan, pruned (dropNeedlessRecomputes) where it meets the budget,
  /// under `min`, or with `pruneMissed`; `pruned` says whether it was.
  Plan run(bool pruneMissed, bool &pruned) const;
  /// Whether the deadline cut the search short.
  bool stoppedAtDeadline() const { return stopped; }

private:
  friend class CandidateQueue;

  /// Bytes saved per flop, with bytes weighted by bytesExponent (> 1
  /// prefers large buffers at a higher price).
  double scoreOf(uint64_t benefit, uint64_t cost) const {
    return std::pow(static_cast<double>(benefit), bytesExponent) /
           (1.0 + cost);
  }

  /// Whether a chain of `chainOps` ops may go to `placement` (kMaxGroupOps),
  /// with `addedOps` chain ops already placed there since the snapshot.
  bool fitsGroup(const Placement &placement, size_t chainOps,
                 unsigned addedOps = 0) const {
    return !placement.ahead ||
           placement.groupOps + addedOps + chainOps <= maxGroupOps;
  }

  bool canRecompute(OpId op) const { return base.ops[op].canRecompute(); }

  bool pastDeadline() const {
    if (!stopped && Clock::now() >= deadline)
      stopped = true;
    return stopped;
  }

  Snapshot snapshot(const Plan &plan) const;
  /// The same into `into`, reusing its storage (a try per candidate makes
  /// one snapshot of the whole program each).
  void snapshot(const Plan &plan, Snapshot &into) const;
  /// Stage 1.
  void recomputeNotSaveable(Plan &plan) const;
  /// Stage 2. Returns whether the plan meets the budget (always under
  /// `min`).
  bool reducePeak(Plan &plan) const;
  /// Stage 2 in bulk: one pass over `snapshot` that picks recomputations for
  /// every op over the budget, judged on estimated live bytes. Returns false
  /// when it found nothing to add.
  /// `expected` is set to what the sweep expects of its evaluation.
  bool sweepOverBudget(Plan &plan, const Snapshot &snapshot, size_t maxPicks,
                       SweepEstimate &expected) const;
  /// The stretches a sweep of at most `maxPicks` picks may free: where a
  /// buffer the step-wise search could pick waits, through an op over
  /// `target` that the sweep can reach, in its tie-break order.
  std::vector<Gap> gapsOverTarget(const Snapshot &snapshot, int64_t target,
                                  size_t maxPicks) const;
  CandidateQueue candidatesAtPeak(const Snapshot &snapshot) const;
  /// `option` as a candidate, or false when its chain would keep as many
  /// bytes alive through the peak as it frees.
  bool buildCandidate(const Option &option, const Snapshot &snapshot,
                      Candidate &candidate) const;
  /// The ops to re-execute to recompute `value` at `placement`. Extension
  /// costs count only through `peakOp` (kNone: none). Once they reach
  /// `uselessAt` (the bytes the chain would free) the walk stops: the
  /// chain keeps as much alive as it frees, and callers drop it. On random
  /// layered DAGs most chains end so, after 16 ops.
  Chain buildChain(ValueId value, Placement placement, const Snapshot &snapshot,
                   OpId peakOp, uint64_t uselessAt = UINT64_MAX) const;

  /// The program with every op and value its own origin, so that origins in
  /// materialized programs are ids of `base`.
  Program base;
  const SolverOptions &options;
  double bytesExponent;
  Clock::time_point deadline;
  mutable bool stopped = false;
  size_t maxGroupOps;
  /// Forward results of mustRecompute ops, and forward views of them, which
  /// must not stay live into the backward part.
  std::vector<bool> notSaveable;
  /// For each value of `base`, the op whose in-place write ends it.
  std::vector<OpId> overwritten;
};

} // namespace remat::greedy

#endif // REMAT_LIB_PLANNING_SOLVERS_GREEDYPLANNER_H
