//===- ArenaPlacement.cpp - Offsets of a step's buffers in one arena ------===//
//
// Greedy placement: take the buffers in some order and put each in a gap
// among the already placed buffers it conflicts with (the smallest gap that
// fits, or the lowest), else above them all. The baseline is the order by
// size (TFLite's arena planner and XNNPACK, Pisarchyk & Lee,
// arXiv:2001.03288). `Best` tries several orders (ArenaOrders.cpp, among
// them the skyline orders of ArenaSkyline.cpp; on large steps first best
// fit in start order, ArenaStartOrder.cpp) and both fits, improves the
// best skyline order and the best other one by a bounded local search
// (ArenaLocalSearch.cpp), keeps the smallest arena, and on small instances
// searches for the optimum (ArenaSearch.cpp).
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/ArenaPlacement.h"

#include "ArenaPlacementInternal.h"
#include "OccupancyTree.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <variant>

using namespace remat;
using namespace remat::arena;

uint64_t remat::alignedBytes(const ArenaBuffer &buffer) {
  uint64_t alignment = alignmentOf(buffer);
  uint64_t padding = (alignment - buffer.bytes % alignment) % alignment;
  return llvm::SaturatingAdd(buffer.bytes, padding);
}

/// Whether every offset and sum placement computes stays at most
/// kMaxArenaBytes: each buffer's aligned bytes plus the padding its offset
/// may need, summed, plus the final rounding of the arena, bound any
/// placement's top (a greedy one puts a buffer at worst above all others).
static bool fitsArenaBounds(llvm::ArrayRef<ArenaBuffer> buffers) {
  uint64_t bound = 0, maxAlignment = 1;
  bool overflow = false;
  for (const ArenaBuffer &buffer : buffers) {
    if (!occupies(buffer))
      continue;
    uint64_t alignment = alignmentOf(buffer);
    maxAlignment = std::max(maxAlignment, alignment);
    bound = llvm::SaturatingAdd(bound, alignedBytes(buffer), &overflow);
    bound = llvm::SaturatingAdd(bound, alignment, &overflow);
  }
  bound = llvm::SaturatingAdd(bound, maxAlignment, &overflow);
  return !overflow && bound <= kMaxArenaBytes;
}

uint64_t remat::arenaLiveBytes(llvm::ArrayRef<ArenaBuffer> buffers) {
  std::vector<uint32_t> starts, ends;
  for (uint32_t i = 0; i < buffers.size(); ++i)
    if (occupies(buffers[i])) {
      starts.push_back(i);
      ends.push_back(i);
    }
  llvm::sort(starts, [&](uint32_t a, uint32_t b) {
    return buffers[a].first < buffers[b].first;
  });
  llvm::sort(ends, [&](uint32_t a, uint32_t b) {
    return buffers[a].last < buffers[b].last;
  });
  // Before a buffer starts, every buffer that ended strictly earlier leaves.
  uint64_t live = 0, peak = 0;
  size_t nextEnd = 0;
  for (uint32_t i : starts) {
    while (buffers[ends[nextEnd]].last < buffers[i].first)
      live -= alignedBytes(buffers[ends[nextEnd++]]);
    live += alignedBytes(buffers[i]);
    peak = std::max(peak, live);
  }
  return peak;
}

Instance::Instance(llvm::ArrayRef<ArenaBuffer> buffers) : buffers(buffers) {
  size_t n = buffers.size();
  sizes.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    sizes[i] = alignedBytes(buffers[i]);
    maxAlignment = std::max(maxAlignment, alignmentOf(buffers[i]));
    if (occupies(buffers[i]))
      occupying.push_back(i);
  }
  liveBytes = arenaLiveBytes(buffers);
}

uint64_t Instance::arenaOf(llvm::ArrayRef<uint64_t> offsets) const {
  uint64_t top = 0;
  for (uint32_t i : occupying)
    top = std::max(top, offsets[i] + sizes[i]);
  return llvm::alignTo(top, maxAlignment);
}

namespace {

/// Steps with more buffers than kLargeInstance get four orders only, and
/// greedy passes that find gaps in an OccupancyTree, merging at most
/// kRangesPerBuffer taken ranges per buffer; the pass that follows when all
/// of them ran out merges at most kFallbackRangesPerBuffer.
constexpr uint64_t kRangesPerBuffer = 32;
constexpr uint64_t kFallbackRangesPerBuffer = 1024;
/// Steps with at most this many buffers get the second, settling local
/// search (improveOrder).
constexpr size_t kSettledSearchBuffers = 1024;

/// The placed buffers by offset, for small steps: one pass over
/// them, skipping those whose steps do not meet a buffer's, visits its gaps
/// bottom up. That is quadratic, but on a few thousand buffers it costs less
/// than building the tree.
class PlacedList {
public:
  explicit PlacedList(size_t buffers) { byOffset.reserve(buffers); }

  /// Among buffers at one offset the order does not matter: each moves
  /// the cursor past all of them.
  void insert(int64_t first, int64_t last, uint64_t begin, uint64_t end) {
    auto position = llvm::upper_bound(
        byOffset, begin,
        [](uint64_t offset, const Placed &p) { return offset < p.offset; });
    byOffset.insert(position, {begin, end, first, last});
  }

  /// As OccupancyTree::forEachGap; `merged` counts the buffers met.
  uint64_t forEachGap(int64_t first, int64_t last,
                      llvm::function_ref<bool(uint64_t, uint64_t)> visit,
                      uint64_t &merged, uint64_t maxMerged) const {
    uint64_t cursor = 0;
    for (const Placed &placed : byOffset) {
      if (placed.first > last || first > placed.last)
        continue;
      if (merged++ < maxMerged && cursor < placed.offset &&
          !visit(cursor, placed.offset))
        return 0;
      cursor = std::max(cursor, placed.end);
    }
    return cursor;
  }

private:
  /// Copied in, so that the pass reads memory in order.
  struct Placed {
    uint64_t offset, end;
    int64_t first, last;
  };
  std::vector<Placed> byOffset;
};

} // namespace

/// The placed bytes a pass finds gaps in: a PlacedList on small steps, an
/// OccupancyTree on large ones (placeGreedy).
using TakenBytes = std::variant<PlacedList, OccupancyTree>;

struct GreedyPass::Taken {
  TakenBytes bytes;
};

static TakenBytes takenFor(const Instance &instance,
                                  llvm::ArrayRef<uint32_t> order) {
  if (instance.occupying.size() <= kLargeInstance)
    return PlacedList(order.size());
  // A buffer's gaps are those of the bytes that the placed buffers meeting
  // its steps take; the tree yields them bottom up without visiting the
  // placed buffers one by one (a training step's activations meet almost
  // every other buffer, so a scan is quadratic).
  std::vector<int64_t> steps;
  steps.reserve(2 * order.size());
  for (uint32_t i : order) {
    steps.push_back(instance.buffers[i].first);
    steps.push_back(instance.buffers[i].last);
  }
  return OccupancyTree(steps);
}

GreedyPass::GreedyPass(const Instance &instance,
                       llvm::ArrayRef<uint32_t> order, Fit fit)
    : offsets(instance.buffers.size(), 0), instance(instance), order(order),
      fit(fit), taken(std::make_unique<Taken>(Taken{takenFor(instance, order)})) {}

GreedyPass::GreedyPass(GreedyPass &&) = default;
GreedyPass::~GreedyPass() = default;

std::optional<uint64_t> GreedyPass::place(uint64_t maxRanges,
                                          uint64_t rangesPerBuffer) {
  walksUnbounded &= rangesPerBuffer == UINT64_MAX;
  return std::visit(
      [&](auto &bytes) { return placeFrom(bytes, maxRanges, rangesPerBuffer); },
      taken->bytes);
}

bool GreedyPass::canFinish(uint64_t rangesPerBuffer) const {
  return dropped && walksUnbounded && rangesPerBuffer >= leastRangesPerBuffer;
}

uint64_t GreedyPass::finish(uint64_t rangesPerBuffer) {
  assert(canFinish(rangesPerBuffer) && "finish needs a pass it can go on");
  walksUnbounded = false;
  return *std::visit(
      [&](auto &bytes) {
        return placeFrom(bytes, UINT64_MAX, rangesPerBuffer);
      },
      taken->bytes);
}

template <typename Bytes>
std::optional<uint64_t> GreedyPass::placeFrom(Bytes &taken, uint64_t maxRanges,
                                              uint64_t rangesPerBuffer) {
  // The walk stops one range past maxRanges, so that the pass is dropped
  // below, or at what the buffers so far may merge: the bound banks
  // rangesPerBuffer for every buffer of the order up to the one placed.
  uint64_t dropAt = llvm::SaturatingAdd(maxRanges, uint64_t(1));
  uint64_t credit = llvm::SaturatingMultiply(rangesPerBuffer, uint64_t(next));
  dropped = false;
  for (; next < order.size(); ++next) {
    uint32_t i = order[next];
    credit = llvm::SaturatingAdd(credit, rangesPerBuffer);
    const ArenaBuffer &buffer = instance.buffers[i];
    uint64_t size = instance.sizes[i];
    uint64_t alignment = alignmentOf(buffer);
    uint64_t bestOffset = 0, bestGap = 0;
    bool found = false;
    uint64_t mergedBefore = merged;
    uint64_t top = taken.forEachGap(
        buffer.first, buffer.last,
        [&](uint64_t begin, uint64_t end) {
          uint64_t candidate = llvm::alignTo(begin, alignment);
          if (candidate + size > end)
            return true;
          if (!found || end - begin < bestGap) {
            bestOffset = candidate;
            bestGap = end - begin;
            found = true;
          }
          return fit != Fit::Lowest;
        },
        merged, std::min(dropAt, credit));
    if (merged > maxRanges) {
      // The buffer is placed again when the pass goes on.
      merged = mergedBefore;
      dropped = true;
      return std::nullopt;
    }
    // A banked bound of r per buffer cuts no walk short while the ranges
    // merged up to each buffer stay below r times its position (counting
    // from 1); forEachGap checks the bound before each merge.
    leastRangesPerBuffer =
        std::max(leastRangesPerBuffer, merged / (next + 1) + 1);
    uint64_t offset = found ? bestOffset : llvm::alignTo(top, alignment);
    offsets[i] = offset;
    taken.insert(buffer.first, buffer.last, offset, offset + size);
  }
  return instance.arenaOf(offsets);
}

std::optional<uint64_t> arena::placeGreedy(const Instance &instance,
                                           llvm::ArrayRef<uint32_t> order,
                                           Fit fit,
                                           std::vector<uint64_t> &offsets,
                                           uint64_t maxRanges,
                                           uint64_t rangesPerBuffer) {
  GreedyPass pass(instance, order, fit);
  std::optional<uint64_t> arena = pass.place(maxRanges, rangesPerBuffer);
  offsets = std::move(pass.offsets);
  return arena;
}


uint64_t arena::maxRanges(const Instance &instance) {
  size_t n = instance.occupying.size();
  return n > kLargeInstance ? kRangesPerBuffer * n : UINT64_MAX;
}

ArenaLayout remat::placeArena(llvm::ArrayRef<ArenaBuffer> buffers,
                              ArenaStrategy strategy) {
  ArenaLayout layout;
  if (!fitsArenaBounds(buffers)) {
    layout.overflow = true;
    layout.arenaBytes = layout.liveBytes = UINT64_MAX;
    return layout;
  }
  Instance instance(buffers);
  layout.liveBytes = instance.liveBytes;
  uint64_t bound = llvm::alignTo(instance.liveBytes, instance.maxAlignment);
  layout.lowerBound = bound;
  if (strategy == ArenaStrategy::SizeBestFit) {
    std::vector<uint32_t> order = orderBy(
        instance, [&](uint32_t i) { return instance.sizes[i]; });
    layout.arenaBytes =
        *placeGreedy(instance, order, Fit::Smallest, layout.offsets);
    return layout;
  }

  // The best pass of each family of orders. The local search starts from
  // both: the lower arena is not always the better start (ResNet-50's step
  // at 0.5 from ONNX: a skyline order places it at 1.104 of its live peak
  // and stalls there, the order by contention starts at 1.210 and reaches
  // 1.086).
  struct Start {
    std::vector<uint32_t> order;
    Fit fit;
    ArenaLayout layout;
  };
  std::optional<Start> bestOf[2];
  // The fallback below is this pass under a per-buffer bound; when it was
  // dropped with no walk that bound would have cut, it goes on from there.
  std::optional<GreedyPass> fallbackStart;
  // On large steps, best fit in start order first, plain and avoiding
  // slivers: it costs O(n log n) whatever the fragmentation
  // (ArenaStartOrder.cpp), where the orders below cost a second or more at
  // 100k buffers (the skylines that give up, the bounded passes dropped on
  // a fragmented step, the fallback pass). Quick stops there.
  // Within 1/512 of the bound it is kept (but by NearMiss): closer than
  // the arena budget's re-plans resolve (ArenaBudget.cpp stops within 1/256
  // of the budget, and places a plan that misses it by less than 1/512
  // again, NearMiss). Otherwise it competes with the other orders' passes.
  std::optional<Start> started;
  if (instance.occupying.size() > kLargeInstance) {
    Start start{startOrder(instance), Fit::Smallest, layout};
    start.layout.arenaBytes =
        placeInStartOrder(instance, start.order, start.layout.offsets);
    if (start.layout.arenaBytes > bound) {
      std::vector<uint64_t> offsets;
      uint64_t arena = placeInStartOrder(instance, start.order, offsets,
                                         sliverBytes(instance));
      if (arena < start.layout.arenaBytes) {
        start.layout.arenaBytes = arena;
        start.layout.offsets = std::move(offsets);
      }
    }
    if (start.layout.arenaBytes <= bound)
      return start.layout;
    bool near = start.layout.arenaBytes <= bound + bound / 512;
    if (strategy == ArenaStrategy::Quick) {
      start.layout.startOrderKept = near;
      start.layout.startOrderOnly = true;
      return start.layout;
    }
    if (strategy != ArenaStrategy::NearMiss && near) {
      start.layout.startOrderKept = true;
      return start.layout;
    }
    started = std::move(start);
  }
  // On large steps the orders by size, by contention and the skylines win
  // most often; the others would add passes for little.
  bool nearMiss = started && strategy == ArenaStrategy::NearMiss;
  std::vector<CandidateOrder> orders =
      candidateOrders(instance, instance.occupying.size() <= kLargeInstance,
                      /*skylines=*/!nearMiss);
  for (const CandidateOrder &order : orders) {
    for (Fit fit : {Fit::Smallest, Fit::Lowest}) {
      // A near miss takes the lowest fit only: on large steps the smallest
      // fit walks every gap up to the top, and most often runs out of
      // ranges to merge.
      if (nearMiss && fit == Fit::Smallest)
        continue;
      GreedyPass pass(instance, order.buffers, fit);
      std::optional<uint64_t> arena = pass.place(maxRanges(instance));
      if (!arena) {
        if (&order == &orders.front() && fit == Fit::Lowest &&
            pass.canFinish(kFallbackRangesPerBuffer))
          fallbackStart.emplace(std::move(pass));
        continue;
      }
      std::optional<Start> &best = bestOf[order.skyline];
      if (!best || *arena < best->layout.arenaBytes) {
        ArenaLayout placed = layout;
        placed.arenaBytes = *arena;
        placed.offsets = std::move(pass.offsets);
        best = Start{order.buffers, fit, std::move(placed)};
      }
      if (*arena <= bound)
        return best->layout;
    }
  }
  // On a large step start order has placed it already, and the fallback's
  // merges cost 0.7-4.6 s at 100k buffers: it runs only where start order
  // is more than 1/64 above the bound. Closer, it won by 0.06% at most on
  // the generators' 100k-op steps (a random layered DAG's at `min`); the
  // U-Net's at 0.5, 2.4% above, it places 0.4% lower.
  bool fallback = !nearMiss && (!started || started->layout.arenaBytes >
                                                bound + bound / 64);
  if (!bestOf[0] && !bestOf[1] && fallback) {
    // Every pass ran out of ranges to merge: the lowest fit in size order
    // stops at a buffer's first fitting gap, the cheapest pass to finish.
    // Its search is bounded too, or a fragmented step makes it quadratic:
    // each buffer may merge kFallbackRangesPerBuffer ranges and what the
    // buffers before it left; one that runs out goes on top of the buffers
    // it meets.
    Start start{orders.front().buffers, Fit::Lowest, layout};
    if (fallbackStart) {
      start.layout.arenaBytes =
          fallbackStart->finish(kFallbackRangesPerBuffer);
      start.layout.offsets = std::move(fallbackStart->offsets);
    } else {
      start.layout.arenaBytes =
          *placeGreedy(instance, start.order, start.fit, start.layout.offsets,
                       UINT64_MAX, kFallbackRangesPerBuffer);
    }
    bestOf[0] = std::move(start);
  }
  if (started && (!bestOf[0] || started->layout.arenaBytes <
                                     bestOf[0]->layout.arenaBytes))
    bestOf[0] = std::move(started);
  const Start &lowest =
      !bestOf[1] || (bestOf[0] && bestOf[0]->layout.arenaBytes <=
                                      bestOf[1]->layout.arenaBytes)
          ? *bestOf[0]
          : *bestOf[1];
  // On small steps a second search settles from the lowest start, and the
  // lowest arena of all is kept: each finds layouts the other misses (on
  // the bundled transformer step at `min`, settling reached 1.013 of the
  // live peak where drifting stalled at 1.021). Larger steps do not pay for
  // a second search on every placement.
  ArenaLayout settled = lowest.layout;
  bool searched = false;
  for (const std::optional<Start> &start : bestOf) {
    if (!start)
      continue;
    ArenaLayout drifted = start->layout;
    improveOrder(instance, start->order, start->fit, Plateau::Drift, drifted);
    if (!searched || drifted.arenaBytes < layout.arenaBytes)
      layout = std::move(drifted);
    searched = true;
  }
  if (layout.arenaBytes > bound &&
      instance.occupying.size() <= kSettledSearchBuffers) {
    improveOrder(instance, lowest.order, lowest.fit, Plateau::Settle, settled);
    if (settled.arenaBytes < layout.arenaBytes)
      layout = std::move(settled);
  }
  if (layout.arenaBytes <= bound)
    return layout;
  // Exact on small instances; on larger ones the node budget makes it a
  // bounded improvement step that rarely pays, so it is skipped.
  constexpr size_t kExactBuffers = 24;
  constexpr uint64_t kNodeBudget = 5000, kExactNodeBudget = 1'000'000;
  bool optimal = false;
  if (strategy == ArenaStrategy::Exact)
    optimal = searchExact(instance, layout, kExactNodeBudget);
  else if (instance.occupying.size() <= kExactBuffers)
    optimal = searchExact(instance, layout, kNodeBudget);
  if (optimal)
    layout.lowerBound = layout.arenaBytes;
  return layout;
}
