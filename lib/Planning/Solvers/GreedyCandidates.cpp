//===- GreedyCandidates.cpp - What the exact steps may recompute ----------===//
//
// The buffers live across the peak that recomputing could free, ranked by
// bytes saved per FLOP; chains are built lazily, best bound first.
//
//===----------------------------------------------------------------------===//

#include "GreedyPlanner.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace remat;
using namespace remat::greedy;

bool greedy::isBetter(const Candidate &a, const Candidate &b) {
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

CandidateQueue
GreedyPlanner::candidatesAtPeak(const Snapshot &snapshot) const {
  const Program &program = snapshot.program;
  OpId peakOp = snapshot.profile.peakOp;
  if (peakOp == kNone)
    return CandidateQueue(*this, snapshot, {});

  std::vector<bool> hasViews = program.rootsWithViews();
  std::vector<OpId> nextUse = program.firstUsesFrom(peakOp + 1);

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
    option.bound = scoreOf(info.bytes, base.ops[def].cost);
    found.push_back(option);
  }
  return CandidateQueue(*this, snapshot, std::move(found));
}

bool GreedyPlanner::buildCandidate(const Option &option,
                                   const Snapshot &snapshot,
                                   Candidate &candidate) const {
  const ValueInfo &info = snapshot.program.values[option.live];
  Chain chain = buildChain(info.origin, option.placement, snapshot,
                           snapshot.profile.peakOp, info.bytes);
  if (chain.overwrites || chain.extendedBytes >= info.bytes ||
      !fitsGroup(option.placement, chain.ops.size()))
    return false;
  candidate.recompute = {info.origin, option.placement.before,
                         std::move(chain.ops)};
  candidate.ahead = option.placement.ahead;
  candidate.bytes = info.bytes;
  candidate.benefit = info.bytes - chain.extendedBytes;
  candidate.cost = chain.cost;
  candidate.score = scoreOf(candidate.benefit, candidate.cost);
  return true;
}

namespace {

bool boundsLess(const Option &a, const Option &b) { return a.bound < b.bound; }
bool isWorse(const Candidate &a, const Candidate &b) { return isBetter(b, a); }

} // namespace

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
