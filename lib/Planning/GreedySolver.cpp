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

#include "Solvers.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace remat;

namespace {

/// Longest chain of ops one recomputation may re-execute. Longer chains cost
/// more flops than they usually save and make the search slow.
constexpr unsigned kMaxChainOps = 16;

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
};

/// Where a new recomputation goes: in front of original op `before`, after
/// the groups already there (the copy serves `before` and later ops), or
/// ahead of them (the copy serves their chains too).
struct Placement {
  OpId before = kNone;
  bool ahead = false;
};

struct Candidate {
  Recompute recompute;
  bool ahead = false;
  /// Bytes freed at the peak op.
  uint64_t bytes = 0;
  /// `bytes` minus the buffers the chain keeps alive through the peak.
  uint64_t benefit = 0;
  uint64_t flops = 0;
};

/// Bytes saved per flop.
double scoreOf(uint64_t benefit, uint64_t flops) {
  return static_cast<double>(benefit) / (1.0 + flops);
}

/// Better candidates first: bytes saved per flop, then bytes, then program
/// order, so that the search is deterministic.
bool isBetter(const Candidate &a, const Candidate &b) {
  double scoreA = scoreOf(a.benefit, a.flops);
  double scoreB = scoreOf(b.benefit, b.flops);
  if (scoreA != scoreB)
    return scoreA > scoreB;
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
  GreedyPlanner(const Program &program, const SolverOptions &options);

  Plan run() const;

private:
  friend class CandidateQueue;

  bool canRecompute(OpId op) const {
    return base.ops[op].recomputable && !base.ops[op].mustKeep;
  }

  Snapshot snapshot(const Plan &plan) const;
  /// Stage 1.
  void recomputeNotSaveable(Plan &plan) const;
  /// Stage 2.
  void reducePeak(Plan &plan) const;
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
  /// Forward results of mustRecompute ops, and forward views of them, which
  /// must not stay live into the backward part.
  std::vector<bool> notSaveable;
};

GreedyPlanner::GreedyPlanner(const Program &program,
                             const SolverOptions &options)
    : base(program), options(options) {
  for (OpId op = 0; op < base.ops.size(); ++op)
    base.ops[op].origin = op;
  for (ValueId v = 0; v < base.values.size(); ++v)
    base.values[v].origin = v;

  notSaveable.assign(base.values.size(), false);
  if (base.backwardBegin == kNone)
    return;
  for (OpId op = 0; op < base.backwardBegin && op < base.ops.size(); ++op) {
    for (ValueId result : base.ops[op].results) {
      // A view would keep the buffer alive just the same: it is recomputed
      // too when it can be.
      ValueId root = base.rootOf(result);
      OpId owner = root == result ? op : base.values[root].def;
      notSaveable[result] = owner != kNone && owner < base.backwardBegin &&
                            base.ops[owner].mustRecompute &&
                            canRecompute(owner) && canRecompute(op);
    }
  }
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
  auto currentVersion = [&](ValueId v) {
    ValueId version = v;
    OpId versionBefore = 0;
    auto it = snapshot.copies.find(v);
    if (it == snapshot.copies.end())
      return version;
    for (auto [copyBefore, copy] : it->second) {
      bool placed =
          placement.ahead ? copyBefore < before : copyBefore <= before;
      if (placed && (version == v || copyBefore >= versionBefore)) {
        version = copy;
        versionBefore = copyBefore;
      }
    }
    return version;
  };
  bool inBackward = base.backwardBegin != kNone && before >= base.backwardBegin;

  Chain chain;
  chain.ops.push_back(base.values[value].def);
  llvm::SmallDenseSet<ValueId, 4> extendedRoots;
  // chain.ops grows while we walk it: a worklist in discovery order.
  for (size_t i = 0; i < chain.ops.size(); ++i) {
    for (ValueId operand : base.ops[chain.ops[i]].operands) {
      OpId def = base.values[operand].def;
      if (def == kNone || llvm::is_contained(chain.ops, def))
        continue;
      ValueId version = currentVersion(operand);
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
  for (OpId op : chain.ops)
    chain.flops += base.ops[op].flops;
  return chain;
}

void GreedyPlanner::recomputeNotSaveable(Plan &plan) const {
  if (base.backwardBegin == kNone)
    return;
  std::vector<OpId> firstBackwardUse = base.firstUsesFrom(base.backwardBegin);


  // In program order, so that a value's chain sees the copies already made
  // of its operands.
  for (OpId op = 0; op < base.backwardBegin && op < base.ops.size(); ++op) {
    for (ValueId result : base.ops[op].results) {
      OpId before = firstBackwardUse[result];
      if (!notSaveable[result] || before == kNone)
        continue;
      Chain chain = buildChain(result, {before}, snapshot(plan), kNone);
      plan.recomputes.push_back({result, before, std::move(chain.ops)});
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
    // A chain op reads `live` next: go ahead of the groups in front of the
    // original op that hosts that chain.
    Option option;
    option.live = live;
    option.placement.ahead = snapshot.map.isCopy[use];
    while (snapshot.map.isCopy[use])
      ++use;
    option.placement.before = program.ops[use].origin;
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
  if (chain.extendedBytes >= info.bytes)
    return false;
  candidate.recompute = {info.origin, option.placement.before,
                         std::move(chain.ops)};
  candidate.ahead = option.placement.ahead;
  candidate.bytes = info.bytes;
  candidate.benefit = info.bytes - chain.extendedBytes;
  candidate.flops = chain.flops;
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
         (built.empty() || options.front().bound >=
                               scoreOf(built.front().benefit,
                                       built.front().flops))) {
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
  // Where each accepted step inserted its recomputation, so that the steps
  // after the last one that lowered the peak (they only removed equal peaks)
  // can be undone at the end without copying the plan at every improvement.
  std::vector<size_t> insertedAt;
  size_t bestSteps = 0;
  // Every try materializes the program once; this bounds the total work.
  unsigned triesLeft = 4 * base.ops.size() + 64;
  while (wantsLower(current) && triesLeft > 0) {
    bool accepted = false;
    CandidateQueue candidates = candidatesAtPeak(current);
    Candidate candidate;
    while (triesLeft > 0 && candidates.next(candidate)) {
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
  if (options.minimize || options.budgetBytes)
    reducePeak(plan);
  return plan;
}

class GreedySolver : public Solver {
public:
  std::string name() const override { return "greedy"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    return evaluatePlan(program, GreedyPlanner(program, options).run(),
                        options);
  }
};

} // namespace

std::unique_ptr<Solver> remat::createGreedySolver() {
  return std::make_unique<GreedySolver>();
}
