//===- GreedySweep.cpp - Recomputations for every op over the budget ------===//
//
// A bulk sweep: the step-wise search run on estimated live bytes, so that
// one evaluation of the program judges many picks (GreedyPlanner::reducePeak
// keeps a sweep only when the evaluation confirms it).
//
//===----------------------------------------------------------------------===//

#include "GreedyPlanner.h"

#include "IntervalTrees.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <tuple>

using namespace remat;
using namespace remat::greedy;

namespace {

/// Adds a sweep's picks to `plan`: those that go ahead of the groups in
/// front of an op go before the first of them, the others at the end, in
/// decision order.
void mergeSweep(Plan &plan, std::vector<Recompute> appended,
                llvm::DenseMap<OpId, std::vector<Recompute>> ahead) {
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
}

} // namespace

std::vector<Gap> GreedyPlanner::gapsOverTarget(const Snapshot &snapshot,
                                               int64_t target,
                                               size_t maxPicks) const {
  const Program &program = snapshot.program;
  const MemoryProfile &profile = snapshot.profile;
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
  // down during a sweep. Under `min` the sweep stops at the first op it
  // cannot lower, so the highest estimate falls only by what its picks
  // free, at most each picked buffer's bytes: it visits no op whose live
  // bytes are below the peak less the `maxPicks` largest buffers. Those
  // ops' gaps are left out (a 100k-op random layered DAG's first sweep
  // under `min`: 2.2M of 4.2M gaps).
  int64_t reachable = std::numeric_limits<int64_t>::min();
  if (options.minimize) {
    std::vector<uint64_t> sizes;
    for (ValueId v = 0; v < program.values.size(); ++v)
      if (eligible[v])
        sizes.push_back(program.values[v].bytes);
    size_t picks = std::min(maxPicks, sizes.size());
    std::nth_element(sizes.begin(), sizes.begin() + picks, sizes.end(),
                     std::greater<>());
    uint64_t freeable = 0;
    for (size_t k = 0; k < picks; ++k)
      freeable = llvm::SaturatingAdd(freeable, sizes[k]);
    if (freeable < profile.peakBytes)
      reachable = static_cast<int64_t>(profile.peakBytes - freeable);
  }
  std::vector<OpId> overBefore(numOps + 1, 0);
  for (OpId op = 0; op < numOps; ++op) {
    auto bytes = static_cast<int64_t>(profile.liveBytes[op]);
    overBefore[op + 1] =
        overBefore[op] + (bytes > target && bytes >= reachable ? 1 : 0);
  }
  // Found in program order, so each buffer's gaps come by increasing end;
  // counted per buffer for the ordering below.
  std::vector<Gap> found;
  std::vector<uint32_t> gapsOf(program.values.size(), 0);
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
      gap.score = scoreOf(info.bytes, base.ops[gap.def].cost);
      found.push_back(gap);
      ++gapsOf[operand];
    }
  }
  // Ids in the step-wise search's tie-break order (isBetter): larger
  // buffers, then earlier defining ops, then by original value and end.
  // The buffers are sorted, not the gaps, which are then distributed: a
  // sweep of a 100k-op step finds millions of them, and sorting those was
  // a tenth of its plan time.
  std::vector<ValueId> buffers;
  for (ValueId v = 0; v < program.values.size(); ++v)
    if (gapsOf[v])
      buffers.push_back(v);
  auto key = [&](ValueId v) {
    const ValueInfo &info = program.values[v];
    return std::make_tuple(~info.bytes, base.values[info.origin].def,
                           info.origin, v);
  };
  llvm::sort(buffers, [&](ValueId a, ValueId b) { return key(a) < key(b); });
  std::vector<uint32_t> next(program.values.size(), 0);
  uint32_t at = 0;
  for (ValueId v : buffers) {
    next[v] = at;
    at += gapsOf[v];
  }
  std::vector<Gap> gaps(found.size());
  for (const Gap &gap : found)
    gaps[next[gap.live]++] = gap;
  // Copies of one original value are buffers of their own: their gaps
  // interleave by end.
  for (size_t begin = 0; begin < gaps.size();) {
    size_t end = begin + 1;
    while (end < gaps.size() && gaps[end].origin == gaps[begin].origin)
      ++end;
    if (gaps[end - 1].live != gaps[begin].live)
      llvm::sort(gaps.begin() + begin, gaps.begin() + end,
                 [](const Gap &a, const Gap &b) {
                   return std::tie(a.end, a.live) < std::tie(b.end, b.live);
                 });
    begin = end;
  }
  return gaps;
}

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

  std::vector<Gap> gaps = gapsOverTarget(snapshot, target, maxPicks);

  // The step-wise search at estimated cost: the op with the most estimated
  // live bytes (the snapshot's, minus what the recomputations picked so far
  // free over their gaps) gets the best gap through it, until no op is over
  // the budget or the ops left over it have no gap.
  RangeAddMaxTree estimate(std::vector<int64_t>(profile.liveBytes.begin(),
                                                profile.liveBytes.end()));
  IntervalStabbingHeap through(numOps);
  through.insertAll(gaps.size(), [&](unsigned id) {
    return std::make_tuple(size_t(gaps[id].begin), size_t(gaps[id].end),
                           gaps[id].score);
  });
  // The chains built so far, by gap id.
  llvm::DenseMap<unsigned, Chain> chains;
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
  size_t uselessLeft = base.ops.size() >= kMinGrowingOps
                           ? kUselessChainsPerPick * maxPicks
                           : std::numeric_limits<size_t>::max();
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
    auto built = chains.find(id);
    if (!fitsGroup(placement,
                   built != chains.end() ? built->second.ops.size() : 1,
                   added)) {
      // The group is full: retire the gap.
      gap.score = -1;
      continue;
    }
    if (built == chains.end()) {
      // The bound was optimistic: requeue at the exact score, so that a
      // better gap may go first.
      const Chain &chain =
          chains
              .try_emplace(id, buildChain(info.origin, placement, snapshot,
                                          op, info.bytes))
              .first->second;
      gap.score = chain.overwrites || chain.extendedBytes >= info.bytes
                      ? -1
                      : scoreOf(info.bytes - chain.extendedBytes, chain.cost);
      if (gap.score < 0 && --uselessLeft == 0) {
        expected.exhausted = true;
        break;
      }
      if (gap.score >= 0)
        through.insert(id, gap.begin, gap.end, gap.score);
      continue;
    }
    // Two picks of one sweep that touch the same buffer would each be judged
    // as if the other were not there: a chain that reads a buffer another
    // pick frees keeps it alive after all. The later one waits for the next
    // snapshot.
    Chain &chain = built->second;
    auto chainReads = [&](auto predicate) {
      return llvm::any_of(chain.ops, [&](OpId chainOp) {
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
    added += chain.ops.size();
    uint64_t freed = info.bytes - chain.extendedBytes;
    Recompute recompute{info.origin, placement.before, std::move(chain.ops)};
    if (placement.ahead)
      ahead[placement.before].push_back(std::move(recompute));
    else
      appended.push_back(std::move(recompute));
    estimate.add(gap.begin, gap.end, -static_cast<int64_t>(freed));
  }
  if (appended.empty() && ahead.empty())
    return false;
  // Ops marked unfixable stay over.
  expected.over = llvm::count_if(estimate.values(), [&](int64_t bytes) {
    return bytes > target || bytes < kUnfixable / 2;
  });
  expected.peak = std::max<int64_t>(0, estimate.max().first);

  mergeSweep(plan, std::move(appended), std::move(ahead));
  return true;
}
