//===- ArenaStartOrder.cpp - Best fit in the order buffers start ----------===//
//
// Placed in the order their first steps come, a buffer meets exactly the
// placed buffers still live at its first step: the gaps it may take are
// those of a free list at that moment, as an allocator replaying the step
// would see them. So the greedy pass in that order needs no search over
// earlier buffers: the live buffers' byte ranges and the gaps between them
// are kept up to date as buffers start and end, and each buffer takes the
// smallest gap that fits from a set ordered by size. O(n log n) whatever the
// fragmentation, where a pass in another order walks more gaps the more
// fragmented the arena is (OccupancyTree::forEachGap).
//
//===----------------------------------------------------------------------===//

#include "ArenaPlacementInternal.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>

using namespace remat;
using namespace remat::arena;

namespace {

/// The byte ranges of the live buffers and the gaps between them, below
/// the highest live byte (the top; above it nothing is a gap).
class LiveRanges {
public:
  /// Takes [begin, end), which lies in a gap or at or above the top.
  void take(uint64_t begin, uint64_t end) {
    auto above = ranges.lower_bound(begin);
    uint64_t below = belowEnd(above);
    if (above != ranges.end()) {
      // In the gap [below, above->first): what is left of it either side.
      gaps.erase({above->first - below, below});
      addGap(below, begin);
      addGap(end, above->first);
    } else {
      addGap(below, begin);
    }
    ranges.emplace(begin, end);
  }

  /// Frees the range that starts at `begin`.
  void release(uint64_t begin) {
    auto range = ranges.find(begin);
    assert(range != ranges.end() && "release of a range not taken");
    uint64_t below = belowEnd(range);
    auto above = std::next(range);
    gaps.erase({range->first - below, below});
    if (above != ranges.end()) {
      gaps.erase({above->first - range->second, range->second});
      addGap(below, above->first);
    }
    ranges.erase(range);
  }

  /// The lowest offset of the smallest gap that fits `size` bytes at
  /// `alignment` (ties: the lowest gap), or the top aligned.
  uint64_t bestFit(uint64_t size, uint64_t alignment) const {
    return smallestGapFrom(size, size, alignment).value_or(top(alignment));
  }

  /// As bestFit, but a gap that it would leave a sliver of fewer than
  /// `sliver` bytes (and more than none) is a last resort: the smallest gap
  /// that leaves no sliver is taken first, then the top while it stays
  /// under `highWater`, then whichever of the sliver and the top's rise
  /// above `highWater` is the fewer bytes.
  uint64_t fitWithoutSliver(uint64_t size, uint64_t alignment,
                            uint64_t sliver, uint64_t highWater) const {
    std::optional<uint64_t> best = smallestGapFrom(size, size, alignment);
    uint64_t left = best ? leftAbove(*best, size) : 0;
    if (!best || left == 0 || left >= sliver)
      return best.value_or(top(alignment));
    if (std::optional<uint64_t> roomy =
            smallestGapFrom(size + sliver, size, alignment, sliver))
      return *roomy;
    uint64_t onTop = top(alignment);
    uint64_t rise = onTop + size > highWater ? onTop + size - highWater : 0;
    return rise < left ? onTop : *best;
  }

private:
  /// The lowest offset of the smallest gap of at least `length` bytes that
  /// fits `size` bytes at `alignment` with at least `left` bytes above them.
  std::optional<uint64_t> smallestGapFrom(uint64_t length, uint64_t size,
                                          uint64_t alignment,
                                          uint64_t left = 0) const {
    for (auto gap = gaps.lower_bound({length, 0}); gap != gaps.end(); ++gap) {
      auto [gapLength, begin] = *gap;
      uint64_t offset = llvm::alignTo(begin, alignment);
      if (offset + size + left <= begin + gapLength)
        return offset;
    }
    return std::nullopt;
  }

  /// The free bytes above `size` bytes placed at `offset` in a gap.
  uint64_t leftAbove(uint64_t offset, uint64_t size) const {
    return ranges.upper_bound(offset)->first - (offset + size);
  }

  /// The highest live byte, aligned.
  uint64_t top(uint64_t alignment) const {
    return llvm::alignTo(ranges.empty() ? 0 : ranges.rbegin()->second,
                         alignment);
  }

  /// The end of the range below `above` (0 when none is).
  uint64_t belowEnd(std::map<uint64_t, uint64_t>::const_iterator above) const {
    return above == ranges.begin() ? 0 : std::prev(above)->second;
  }

  void addGap(uint64_t begin, uint64_t end) {
    if (begin < end)
      gaps.insert({end - begin, begin});
  }

  /// Live ranges, begin -> end; they neither overlap nor need to touch.
  std::map<uint64_t, uint64_t> ranges;
  /// (length, begin) of each gap between consecutive ranges and below the
  /// first one.
  std::set<std::pair<uint64_t, uint64_t>> gaps;
};

} // namespace

std::vector<uint32_t> arena::startOrder(const Instance &instance) {
  // orderBy puts the largest key first: the earliest first step.
  return orderBy(instance,
                 [&](uint32_t i) { return -instance.buffers[i].first; });
}

uint64_t arena::sliverBytes(const Instance &instance) {
  if (instance.occupying.empty())
    return 0;
  std::vector<uint64_t> sizes;
  sizes.reserve(instance.occupying.size());
  for (uint32_t i : instance.occupying)
    sizes.push_back(instance.sizes[i]);
  auto percentile = sizes.begin() + sizes.size() / 100;
  std::nth_element(sizes.begin(), percentile, sizes.end());
  return *percentile;
}

uint64_t arena::placeInStartOrder(const Instance &instance,
                                  llvm::ArrayRef<uint32_t> order,
                                  std::vector<uint64_t> &offsets,
                                  uint64_t sliver) {
  offsets.assign(instance.buffers.size(), 0);
  LiveRanges live;
  // Live buffers by last step, the earliest on top: a buffer stays live
  // through its last step, so it leaves before one that starts after it.
  using Ending = std::pair<int64_t, uint32_t>;
  std::priority_queue<Ending, std::vector<Ending>, std::greater<>> ending;
  uint64_t highWater = 0;
  for (uint32_t i : order) {
    const ArenaBuffer &buffer = instance.buffers[i];
    while (!ending.empty() && ending.top().first < buffer.first) {
      live.release(offsets[ending.top().second]);
      ending.pop();
    }
    uint64_t size = instance.sizes[i], alignment = alignmentOf(buffer);
    uint64_t offset =
        sliver ? live.fitWithoutSliver(size, alignment, sliver, highWater)
               : live.bestFit(size, alignment);
    highWater = std::max(highWater, offset + size);
    offsets[i] = offset;
    live.take(offset, offset + instance.sizes[i]);
    ending.push({buffer.last, i});
  }
  return instance.arenaOf(offsets);
}
