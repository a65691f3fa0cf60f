//===- GreedyChains.cpp - The ops a recomputation re-executes -------------===//
//
// A snapshot is the plan applied to the program; a chain is what recomputing
// one of its buffers re-executes, back to buffers still live (or cheaper to
// keep); stage 1 recomputes what the checkpoint policies do not save.
//
//===----------------------------------------------------------------------===//

#include "GreedyPlanner.h"
#include "SolverSupport.h"

#include "remat/Planning/InPlaceWrites.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace remat;
using namespace remat::greedy;

Placement greedy::placementFor(const Snapshot &snapshot, OpId use) {
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
  Snapshot result;
  snapshot(plan, result);
  return result;
}

void GreedyPlanner::snapshot(const Plan &plan, Snapshot &into) const {
  materialize(base, plan, into.map, into.program);
  into.profile = computeMemoryProfile(into.program, options.countInputs);
  into.peakCount =
      llvm::count(into.profile.liveBytes, into.profile.peakBytes);
  into.copies.clear();
  for (unsigned k = 0; k < plan.recomputes.size(); ++k) {
    const Recompute &recompute = plan.recomputes[k];
    into.copies[recompute.value].push_back(
        {recompute.before, into.map.copies[k]});
  }
}

Chain GreedyPlanner::buildChain(ValueId value, Placement placement,
                                const Snapshot &snapshot, OpId peakOp,
                                uint64_t uselessAt) const {
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
      bool keepable =
          !(inBackward && version == operand && notSaveable[operand]);
      // An input; or an original the plan no longer makes (every reader
      // reads a copy), which a chain reading it would make again, kept
      // from the forward part: not for a value a policy forbids keeping.
      if (snapshot.program.values[root].def == kNone && keepable)
        continue;
      const LiveRange &range = snapshot.profile.ranges[root];
      bool live = range.end != kNone && range.end >= insertAt;
      if (live && keepable)
        continue;
      // A value written in place into a buffer that no chain can create
      // (its creator cannot be recomputed) cannot be made again: its buffer
      // is extended instead, as for an op that cannot be recomputed.
      const ValueInfo &info = base.values[operand];
      OpId creator = base.values[base.rootOf(operand)].def;
      bool remakeable =
          !info.writesInPlace || (creator != kNone && canRecompute(creator));
      if (canRecompute(def) && remakeable && chain.ops.size() < kMaxChainOps) {
        chain.ops.push_back(def);
        continue;
      }
      if (live)
        continue;
      // The operand's buffer must now live until `before`.
      if (peakOp != kNone && range.begin <= peakOp && range.end < peakOp &&
          extendedRoots.insert(root).second) {
        chain.extendedBytes += snapshot.program.values[root].bytes;
        if (chain.extendedBytes >= uselessAt)
          return chain;
      }
    }
  }
  llvm::sort(chain.ops);
  for (OpId op : chain.ops) {
    chain.cost = llvm::SaturatingAdd(chain.cost, base.ops[op].cost);
    for (ValueId result : base.ops[op].results)
      if (outsideBufferUse(base, result, overwritten, [&](ValueId v) {
            OpId def = base.values[v].def;
            return def != kNone && llvm::is_contained(chain.ops, def);
          }) != OutsideBufferUse::None)
        chain.overwrites = true;
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
      // Its chain reads a buffer that an in-place write in the backward
      // part overwrites before that use (a parameter the optimizer updates,
      // a buffer a destination-passing op reuses): the copy goes in front
      // of the latest such write it can be made before, down to the
      // boundary, rather than leaving the value kept against its policy.
      for (OpId earlier = before;
           chain.overwrites && earlier-- > base.backwardBegin;) {
        if (earlier != base.backwardBegin &&
            llvm::none_of(base.ops[earlier].results, [&](ValueId r) {
              return base.values[r].writesInPlace;
            }))
          continue;
        Chain placed = buildChain(result, {earlier}, *current, kNone);
        if (!placed.overwrites) {
          chain = std::move(placed);
          before = earlier;
        }
      }
      // The value stays live instead: nothing can recompute it there.
      if (chain.overwrites)
        continue;
      plan.recomputes.push_back({result, before, std::move(chain.ops)});
      recomputedSince.insert(result);
    }
  }
}
