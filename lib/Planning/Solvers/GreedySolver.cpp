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

#include "SolverSupport.h"

#include "IntervalTrees.h"

#include "remat/Planning/InPlaceWrites.h"
#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <tuple>

using namespace remat;

namespace {

/// Longest chain of ops one recomputation may re-execute. Longer chains cost
/// more flops than they usually save and make the search slow.
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
  uint64_t flops = 0;
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
Placement placementFor(const Snapshot &snapshot, OpId use) {
  const std::vector<bool> &isCopy = snapshot.map.isCopy;
  Placement placement;
  placement.ahead = isCopy[use];
  OpId host = use;
  while (isCopy[host])
    ++host;
  OpId first = host;
  while (first > 0 && isCopy[first - 1])
    --first;
  placement.before = snapshot.program.ops[host].origin;
  placement.groupOps = host - first;
  return placement;
}

struct Candidate {
  Recompute recompute;
  bool ahead = false;
  /// Bytes freed at the peak op.
  uint64_t bytes = 0;
  /// `bytes` minus the buffers the chain keeps alive through the peak.
  uint64_t benefit = 0;
  uint64_t flops = 0;
  /// GreedyPlanner::scoreOf(benefit, flops).
  double score = 0;
};

/// Better candidates first: score, then bytes, then program order, so that
/// the search is deterministic.
bool isBetter(const Candidate &a, const Candidate &b) {
  if (a.score != b.score)
    return a.score > b.score;
  if (a.bytes != b.bytes)
    return a.bytes > b.bytes;
  if (a.recompute.chain.back() != b.recompute.chain.back())
    return a.recompute.chain.back() < b.recompute.chain.back();
  if (a.recompute.value != b.recompute.value)
    return a.recompute.value < b.recompute.value;
  return a.recompute.before < b.recompute.before;
}

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

  Plan run() const;
  /// Whether the deadline cut the search short.
  bool stoppedAtDeadline() const { return stopped; }

private:
  friend class CandidateQueue;

  /// Bytes saved per flop, with bytes weighted by bytesExponent (> 1
  /// prefers large buffers at a higher price).
  double scoreOf(uint64_t benefit, uint64_t flops) const {
    return std::pow(static_cast<double>(benefit), bytesExponent) /
           (1.0 + flops);
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
  /// Stage 1.
  void recomputeNotSaveable(Plan &plan) const;
  /// Stage 2.
  void reducePeak(Plan &plan) const;
  /// Stage 2 in bulk: one pass over `snapshot` that picks recomputations for
  /// every op over the budget, judged on estimated live bytes. Returns false
  /// when it found nothing to add.
  /// `expected` is set to what the sweep expects of its evaluation.
  bool sweepOverBudget(Plan &plan, const Snapshot &snapshot, size_t maxPicks,
                       SweepEstimate &expected) const;
  CandidateQueue candidatesAtPeak(const Snapshot &snapshot) const;
  /// `option` as a candidate, or false when its chain would keep as many
  /// bytes alive through the peak as it frees.
  bool buildCandidate(const Option &option, const Snapshot &snapshot,
                      Candidate &candidate) const;
  /// The ops to re-execute to recompute `value` at `placement`. Extension
  /// costs count only through `peakOp` (kNone: none).
  Chain buildChain(ValueId value, Placement placement, const Snapshot &snapshot,
                   OpId peakOp) const;

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

GreedyPlanner::GreedyPlanner(const Program &program,
                             const SolverOptions &options, double bytesExponent,
                             Clock::time_point deadline)
    : base(program), options(options), bytesExponent(bytesExponent),
      deadline(deadline),
      maxGroupOps(std::max<size_t>(kMaxGroupOps,
                                   kGroupWork / std::max<size_t>(
                                                    program.ops.size(), 1))) {
  // Names matter to reports, not to the search, and every evaluation copies
  // them along with the program.
  for (OpId op = 0; op < base.ops.size(); ++op) {
    base.ops[op].origin = op;
    base.ops[op].name.clear();
  }
  for (ValueId v = 0; v < base.values.size(); ++v) {
    base.values[v].origin = v;
    base.values[v].name.clear();
  }

  overwritten = overwriteTimes(base);
  notSaveable = unsaveableByPolicy(base);
}

Snapshot GreedyPlanner::snapshot(const Plan &plan) const {
  Snapshot snapshot;
  snapshot.program = materialize(base, plan, snapshot.map);
  snapshot.profile =
      computeMemoryProfile(snapshot.program, options.countInputs);
  snapshot.peakCount =
      llvm::count(snapshot.profile.liveBytes, snapshot.profile.peakBytes);
  for (unsigned k = 0; k < plan.recomputes.size(); ++k) {
    const Recompute &recompute = plan.recomputes[k];
    snapshot.copies[recompute.value].push_back(
        {recompute.before, snapshot.map.copies[k]});
  }
  return snapshot;
}

Chain GreedyPlanner::buildChain(ValueId value, Placement placement,
                                const Snapshot &snapshot, OpId peakOp) const {
  OpId before = placement.before;
  // The groups already in front of `before` sit just after the previous
  // original op.
  OpId insertAt = snapshot.map.opIndex[before];
  if (placement.ahead)
    while (insertAt > 0 && snapshot.map.isCopy[insertAt - 1])
      --insertAt;
  // The version of `v` the chain reads, and the op its copy was placed in
  // front of (kNone for the original).
  auto currentVersion = [&](ValueId v) {
    ValueId version = v;
    OpId versionBefore = kNone;
    auto it = snapshot.copies.find(v);
    if (it == snapshot.copies.end())
      return std::make_pair(version, versionBefore);
    for (auto [copyBefore, copy] : it->second) {
      bool placed =
          placement.ahead ? copyBefore < before : copyBefore <= before;
      if (placed && (version == v || copyBefore >= versionBefore)) {
        version = copy;
        versionBefore = copyBefore;
      }
    }
    return std::make_pair(version, versionBefore);
  };
  bool inBackward = base.backwardBegin != kNone && before >= base.backwardBegin;

  Chain chain;
  chain.ops.push_back(base.values[value].def);
  llvm::SmallDenseSet<ValueId, 4> extendedRoots;
  // chain.ops grows while we walk it: a worklist in discovery order.
  for (size_t i = 0; i < chain.ops.size(); ++i) {
    for (ValueId operand : base.ops[chain.ops[i]].operands) {
      OpId def = base.values[operand].def;
      if (def != kNone && llvm::is_contained(chain.ops, def))
        continue;
      auto [version, versionBefore] = currentVersion(operand);
      // A version the in-place write at `written` overwrote (the original,
      // or a copy made before it: the write goes into whatever version is
      // current) must be recomputed too.
      OpId written = overwritten[operand];
      if (written != kNone && written < before &&
          (versionBefore == kNone || versionBefore <= written)) {
        if (def != kNone && canRecompute(def) &&
            chain.ops.size() < kMaxChainOps)
          chain.ops.push_back(def);
        else
          chain.overwrites = true;
        continue;
      }
      if (def == kNone)
        continue;
      ValueId root = snapshot.program.rootOf(version);
      if (snapshot.program.values[root].def == kNone)
        continue;
      const LiveRange &range = snapshot.profile.ranges[root];
      bool live = range.end != kNone && range.end >= insertAt;
      bool keepable =
          !(inBackward && version == operand && notSaveable[operand]);
      if (live && keepable)
        continue;
      if (canRecompute(def) && chain.ops.size() < kMaxChainOps) {
        chain.ops.push_back(def);
        continue;
      }
      if (live)
        continue;
      // The operand's buffer must now live until `before`.
      if (peakOp != kNone && range.begin <= peakOp && range.end < peakOp &&
          extendedRoots.insert(root).second)
        chain.extendedBytes += snapshot.program.values[root].bytes;
    }
  }
  llvm::sort(chain.ops);
  for (OpId op : chain.ops) {
    chain.flops = llvm::SaturatingAdd(chain.flops, base.ops[op].flops);
    for (ValueId result : base.ops[op].results) {
      // An in-place write, or a view, into a buffer from outside the chain
      // that something overwrites (Plan.cpp, checkOverwrites).
      const ValueInfo &info = base.values[result];
      if (info.aliasOf != kNone &&
          !llvm::is_contained(chain.ops, base.values[info.aliasOf].def) &&
          (info.writesInPlace || overwritten[info.aliasOf] != kNone))
        chain.overwrites = true;
    }
  }
  return chain;
}

void GreedyPlanner::recomputeNotSaveable(Plan &plan) const {
  if (base.backwardBegin == kNone)
    return;
  std::vector<OpId> firstBackwardUse = base.firstUsesFrom(base.backwardBegin);


  // In program order, so that a value's chain sees the copies already made
  // of its operands. A chain that reads none of the values recomputed since
  // the last snapshot is the same on that snapshot, so the program is only
  // materialized again when one does (once per value would be quadratic).
  std::optional<Snapshot> current;
  llvm::DenseSet<ValueId> recomputedSince;
  auto readsNewCopies = [&](const Chain &chain) {
    return llvm::any_of(chain.ops, [&](OpId op) {
      return llvm::any_of(base.ops[op].operands, [&](ValueId operand) {
        return recomputedSince.contains(operand);
      });
    });
  };
  for (OpId op = 0; op < base.backwardBegin && op < base.ops.size(); ++op) {
    for (ValueId result : base.ops[op].results) {
      OpId before = firstBackwardUse[result];
      if (!notSaveable[result] || before == kNone)
        continue;
      if (!current)
        current = snapshot(plan);
      Chain chain = buildChain(result, {before}, *current, kNone);
      if (readsNewCopies(chain)) {
        current = snapshot(plan);
        recomputedSince.clear();
        chain = buildChain(result, {before}, *current, kNone);
      }
      // The value stays live instead: nothing can recompute it there.
      if (chain.overwrites)
        continue;
      plan.recomputes.push_back({result, before, std::move(chain.ops)});
      recomputedSince.insert(result);
    }
  }
}

CandidateQueue
GreedyPlanner::candidatesAtPeak(const Snapshot &snapshot) const {
  const Program &program = snapshot.program;
  OpId peakOp = snapshot.profile.peakOp;
  if (peakOp == kNone)
    return CandidateQueue(*this, snapshot, {});

  // A buffer with views is also kept alive by them; recomputing it would not
  // free it.
  std::vector<bool> hasViews(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v)
    if (program.values[v].aliasOf != kNone)
      hasViews[program.rootOf(v)] = true;
  std::vector<OpId> nextUse(program.values.size(), kNone);
  for (OpId op = program.ops.size(); op-- > peakOp + 1;)
    for (ValueId operand : program.ops[op].operands)
      nextUse[operand] = op;

  const OpInfo &peak = program.ops[peakOp];
  std::vector<Option> found;
  // The queue orders the candidates: the buffers live across the peak need
  // no sorting (MemoryProfile::liveAt would sort them by size).
  for (ValueId live = 0; live < program.values.size(); ++live) {
    const ValueInfo &info = program.values[live];
    const LiveRange &range = snapshot.profile.ranges[live];
    if (info.aliasOf != kNone || info.bytes == 0 || range.end == kNone ||
        range.end < peakOp ||
        (range.begin != kNone && range.begin > peakOp))
      continue;
    if (info.def == kNone || info.def == peakOp || info.isOutput ||
        hasViews[live] || info.bytes < options.minRematBytes ||
        llvm::is_contained(peak.operands, live))
      continue;
    OpId def = base.values[info.origin].def;
    if (!canRecompute(def))
      continue;
    OpId use = nextUse[live];
    if (use == kNone)
      continue;
    Option option;
    option.live = live;
    option.placement = placementFor(snapshot, use);
    if (!fitsGroup(option.placement, 1))
      continue;
    option.bound = scoreOf(info.bytes, base.ops[def].flops);
    found.push_back(option);
  }
  return CandidateQueue(*this, snapshot, std::move(found));
}

bool GreedyPlanner::buildCandidate(const Option &option,
                                   const Snapshot &snapshot,
                                   Candidate &candidate) const {
  const ValueInfo &info = snapshot.program.values[option.live];
  Chain chain = buildChain(info.origin, option.placement, snapshot,
                           snapshot.profile.peakOp);
  if (chain.overwrites || chain.extendedBytes >= info.bytes ||
      !fitsGroup(option.placement, chain.ops.size()))
    return false;
  candidate.recompute = {info.origin, option.placement.before,
                         std::move(chain.ops)};
  candidate.ahead = option.placement.ahead;
  candidate.bytes = info.bytes;
  candidate.benefit = info.bytes - chain.extendedBytes;
  candidate.flops = chain.flops;
  candidate.score = scoreOf(candidate.benefit, candidate.flops);
  return true;
}

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
  double score = 0;
  bool built = false;
  Chain chain;
};

bool GreedyPlanner::sweepOverBudget(Plan &plan, const Snapshot &snapshot,
                                    size_t maxPicks,
                                    SweepEstimate &expected) const {
  const Program &program = snapshot.program;
  const MemoryProfile &profile = snapshot.profile;
  // With `minimize`, every op is over the target until one without a gap
  // is the highest.
  const int64_t target =
      options.minimize ? 0 : static_cast<int64_t>(*options.budgetBytes);
  const OpId numOps = program.ops.size();

  // The buffers the step-wise search could pick (candidatesAtPeak's rules),
  // and where each is read.
  std::vector<bool> eligible(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    const ValueInfo &info = program.values[v];
    if (info.aliasOf != kNone)
      continue;
    eligible[v] = info.bytes != 0 && info.def != kNone && !info.isOutput &&
                  info.bytes >= options.minRematBytes &&
                  canRecompute(base.values[info.origin].def) &&
                  profile.ranges[v].end != kNone;
  }
  // A buffer with views is also kept alive by them.
  for (ValueId v = 0; v < program.values.size(); ++v)
    if (program.values[v].aliasOf != kNone)
      eligible[program.rootOf(v)] = false;
  // Only gaps through an op over the target can matter: estimates only go
  // down during a sweep.
  std::vector<OpId> overBefore(numOps + 1, 0);
  for (OpId op = 0; op < numOps; ++op)
    overBefore[op + 1] =
        overBefore[op] +
        (static_cast<int64_t>(profile.liveBytes[op]) > target ? 1 : 0);
  std::vector<Gap> gaps;
  std::vector<OpId> lastRead(program.values.size(), kNone);
  for (OpId op = 0; op < numOps; ++op) {
    for (ValueId operand : program.ops[op].operands) {
      if (!eligible[operand] || lastRead[operand] == op)
        continue;
      const ValueInfo &info = program.values[operand];
      OpId from = lastRead[operand] == kNone ? info.def : lastRead[operand];
      lastRead[operand] = op;
      if (from + 1 >= op || overBefore[op] == overBefore[from + 1])
        continue;
      Gap gap;
      gap.live = operand;
      gap.origin = info.origin;
      gap.def = base.values[info.origin].def;
      gap.bytes = info.bytes;
      gap.begin = from + 1;
      gap.end = op - 1;
      gap.score = scoreOf(info.bytes, base.ops[gap.def].flops);
      gaps.push_back(std::move(gap));
    }
  }
  // Ids in the step-wise search's tie-break order (isBetter): larger
  // buffers, then earlier defining ops.
  llvm::sort(gaps, [](const Gap &a, const Gap &b) {
    return std::make_tuple(~a.bytes, a.def, a.origin, a.end) <
           std::make_tuple(~b.bytes, b.def, b.origin, b.end);
  });

  // The step-wise search at estimated cost: the op with the most estimated
  // live bytes (the snapshot's, minus what the recomputations picked so far
  // free over their gaps) gets the best gap through it, until no op is over
  // the budget or the ops left over it have no gap.
  RangeAddMaxTree estimate(std::vector<int64_t>(profile.liveBytes.begin(),
                                                profile.liveBytes.end()));
  IntervalStabbingHeap through(numOps);
  for (unsigned id = 0; id < gaps.size(); ++id)
    through.insert(id, gaps[id].begin, gaps[id].end, gaps[id].score);
  std::vector<bool> taken(base.values.size(), false);
  // Values that the chains picked so far read.
  std::vector<bool> readByPick(base.values.size(), false);
  auto isStale = [&](unsigned id, double score) {
    return taken[gaps[id].origin] || score != gaps[id].score;
  };
  // New recomputations, in decision order; those that go ahead of the
  // groups in front of an op are merged into the plan at the end.
  std::vector<Recompute> appended;
  llvm::DenseMap<OpId, std::vector<Recompute>> ahead;
  // Chain ops placed in front of each original op during this sweep.
  llvm::DenseMap<OpId, unsigned> addedOps;
  constexpr int64_t kUnfixable = std::numeric_limits<int64_t>::min() / 4;
  size_t picksLeft = maxPicks;
  for (auto [bytes, op] = estimate.max(); bytes > target && picksLeft > 0;
       std::tie(bytes, op) = estimate.max()) {
    unsigned id;
    double score;
    if (!through.best(op, isStale, id, score)) {
      // Nothing to free here: leave this op to the exact steps.
      if (options.minimize)
        break;
      estimate.add(op, op, kUnfixable);
      continue;
    }
    Gap &gap = gaps[id];
    const ValueInfo &info = program.values[gap.live];
    Placement placement = placementFor(snapshot, gap.end + 1);
    unsigned &added = addedOps[placement.before];
    if (!fitsGroup(placement, gap.built ? gap.chain.ops.size() : 1, added)) {
      // The group is full: retire the gap.
      gap.score = -1;
      continue;
    }
    if (!gap.built) {
      // The bound was optimistic: requeue at the exact score, so that a
      // better gap may go first.
      gap.chain = buildChain(info.origin, placement, snapshot, op);
      gap.built = true;
      gap.score = gap.chain.overwrites ||
                          gap.chain.extendedBytes >= info.bytes
                      ? -1
                      : scoreOf(info.bytes - gap.chain.extendedBytes,
                                gap.chain.flops);
      if (gap.score >= 0)
        through.insert(id, gap.begin, gap.end, gap.score);
      continue;
    }
    // Two picks of one sweep that touch the same buffer would each be judged
    // as if the other were not there: a chain that reads a buffer another
    // pick frees keeps it alive after all. The later one waits for the next
    // snapshot.
    auto chainReads = [&](auto predicate) {
      return llvm::any_of(gap.chain.ops, [&](OpId chainOp) {
        return llvm::any_of(base.ops[chainOp].operands, predicate);
      });
    };
    if (readByPick[info.origin] ||
        chainReads([&](ValueId operand) { return taken[operand]; })) {
      gap.score = -1;
      continue;
    }
    chainReads([&](ValueId operand) {
      readByPick[operand] = true;
      return false;
    });
    taken[info.origin] = true;
    --picksLeft;
    added += gap.chain.ops.size();
    Recompute recompute{info.origin, placement.before,
                        std::move(gap.chain.ops)};
    if (placement.ahead)
      ahead[placement.before].push_back(std::move(recompute));
    else
      appended.push_back(std::move(recompute));
    estimate.add(gap.begin, gap.end,
                 -static_cast<int64_t>(info.bytes - gap.chain.extendedBytes));
  }
  if (appended.empty() && ahead.empty())
    return false;
  // Ops marked unfixable stay over.
  expected.over = llvm::count_if(estimate.values(), [&](int64_t bytes) {
    return bytes > target || bytes < kUnfixable / 2;
  });
  expected.peak = std::max<int64_t>(0, estimate.max().first);

  std::vector<Recompute> merged;
  merged.reserve(plan.recomputes.size() + appended.size() + ahead.size());
  for (Recompute &recompute : plan.recomputes) {
    auto it = ahead.find(recompute.before);
    if (it != ahead.end()) {
      llvm::append_range(merged, std::move(it->second));
      ahead.erase(it);
    }
    merged.push_back(std::move(recompute));
  }
  // Ahead of nothing: no group in front of that op yet (not expected, since
  // a copy reads the value there, but harmless).
  std::vector<std::pair<OpId, std::vector<Recompute>>> rest(ahead.begin(),
                                                             ahead.end());
  llvm::sort(rest, llvm::less_first());
  for (auto &[before, group] : rest)
    llvm::append_range(merged, std::move(group));
  llvm::append_range(merged, std::move(appended));
  plan.recomputes = std::move(merged);
  return true;
}

bool boundsLess(const Option &a, const Option &b) { return a.bound < b.bound; }
bool isWorse(const Candidate &a, const Candidate &b) { return isBetter(b, a); }

CandidateQueue::CandidateQueue(const GreedyPlanner &planner,
                               const Snapshot &snapshot,
                               std::vector<Option> options)
    : planner(planner), snapshot(snapshot), options(std::move(options)) {
  std::make_heap(this->options.begin(), this->options.end(), boundsLess);
}

bool CandidateQueue::next(Candidate &candidate) {
  // An option whose bound ties the best score may still win on the
  // tie-breakers: build it too.
  while (!options.empty() &&
         (built.empty() || options.front().bound >= built.front().score)) {
    std::pop_heap(options.begin(), options.end(), boundsLess);
    Candidate fresh;
    if (planner.buildCandidate(options.back(), snapshot, fresh)) {
      built.push_back(std::move(fresh));
      std::push_heap(built.begin(), built.end(), isWorse);
    }
    options.pop_back();
  }
  if (built.empty())
    return false;
  std::pop_heap(built.begin(), built.end(), isWorse);
  candidate = std::move(built.back());
  built.pop_back();
  return true;
}

void GreedyPlanner::reducePeak(Plan &plan) const {
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
    Snapshot next = snapshot(trial);
    if (!sweepImproves(next, current)) {
      if (picks == firstPicks)
        break;
      picks = std::max(firstPicks, picks / 2);
      continue;
    }
    bool confirmed = options.minimize
                         ? next.profile.peakBytes <= expected.peak
                         : overBudget(next) <= expected.over;
    plan = std::move(trial);
    current = std::move(next);
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
      Snapshot next = snapshot(plan);
      if (improves(next, current)) {
        insertedAt.push_back(position - plan.recomputes.begin());
        if (next.profile.peakBytes < current.profile.peakBytes)
          bestSteps = insertedAt.size();
        current = std::move(next);
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
}

Plan GreedyPlanner::run() const {
  Plan plan;
  recomputeNotSaveable(plan);
  if (options.minimize || options.budgetBytes) {
    reducePeak(plan);
    // A later step can make an earlier one needless.
    plan = dropNeedlessRecomputes(base, std::move(plan), options, deadline);
    pastDeadline();
  }
  return plan;
}

class GreedySolver : public Solver {
public:
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
      SolverResult result = evaluatePlan(program, planner.run(), options);
      stopped |= planner.stoppedAtDeadline();
      return result;
    };
    SolverResult best = plan(1);
    if (program.ops.size() <= kMaxSmallOps &&
        (options.minimize || !options.budgetBytes || best.extraFlops > 0)) {
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
};

} // namespace

std::unique_ptr<Solver> remat::createGreedySolver() {
  return std::make_unique<GreedySolver>();
}
