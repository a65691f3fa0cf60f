//===- ArenaSkyline.cpp - Bottom-up orders for the greedy placer ----------===//
//
// The skyline placement builds a canonical placement (ArenaSearch.cpp's, as
// in minimalloc) greedily, bottom up: of the buffers not yet placed, the
// one that can go lowest (on the highest end among the placed buffers its
// steps meet) goes next, ties broken by a priority. It is the exact
// search's first dive, without backtracking. Where the orders by size or
// contention leave small buffers that live long to be placed last, above
// the fragments of the large ones (a training step's saved statistics and
// weight gradients), the skyline places them as soon as the floor under
// them is free: on ResNet-50's step at `min` the arena falls from 1.138 to
// 1.088 of the live peak, on Inception's from 1.072 to 1.000.
//
// The result serves as an order: the greedy placer, given the buffers by
// their skyline offset, puts each no higher than the skyline did.
//
//===----------------------------------------------------------------------===//

#include "ArenaPlacementInternal.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <tuple>

using namespace remat;
using namespace remat::arena;

namespace {

/// Over the distinct steps at which buffers start or end: raise every step
/// of a range to at least a value, and read the highest value of a range.
/// A node's `highest` is the largest value raised on any step under it,
/// `covering` the largest raised on all of them; max is idempotent, so
/// nothing is pushed down.
class StepMaxima {
public:
  explicit StepMaxima(size_t steps)
      : size(std::max<size_t>(steps, 1)), highest(4 * size, 0),
        covering(4 * size, 0) {}

  void raise(size_t lo, size_t hi, uint64_t value) {
    raise(1, 0, size - 1, lo, hi, value);
  }
  uint64_t highestIn(size_t lo, size_t hi) const {
    return highestIn(1, 0, size - 1, lo, hi);
  }

private:
  void raise(size_t node, size_t begin, size_t end, size_t lo, size_t hi,
             uint64_t value) {
    if (hi < begin || end < lo)
      return;
    highest[node] = std::max(highest[node], value);
    if (lo <= begin && end <= hi) {
      covering[node] = std::max(covering[node], value);
      return;
    }
    size_t middle = begin + (end - begin) / 2;
    raise(2 * node, begin, middle, lo, hi, value);
    raise(2 * node + 1, middle + 1, end, lo, hi, value);
  }

  uint64_t highestIn(size_t node, size_t begin, size_t end, size_t lo,
                     size_t hi) const {
    if (hi < begin || end < lo)
      return 0;
    if (lo <= begin && end <= hi)
      return highest[node];
    size_t middle = begin + (end - begin) / 2;
    return std::max({covering[node],
                     highestIn(2 * node, begin, middle, lo, hi),
                     highestIn(2 * node + 1, middle + 1, end, lo, hi)});
  }

  size_t size;
  std::vector<uint64_t> highest, covering;
};

} // namespace

std::optional<std::vector<uint32_t>>
arena::skylineOrder(const Instance &instance,
                    llvm::function_ref<SkylinePriority(uint32_t)> priority) {
  const auto &buffers = instance.buffers;
  std::vector<int64_t> steps;
  for (uint32_t i : instance.occupying) {
    steps.push_back(buffers[i].first);
    steps.push_back(buffers[i].last);
  }
  llvm::sort(steps);
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  auto stepIndex = [&](int64_t step) {
    return static_cast<size_t>(llvm::lower_bound(steps, step) - steps.begin());
  };
  StepMaxima ends(steps.size());

  // Lowest offset first, then highest priority, then lowest index. A
  // buffer's floor only rises, so an entry whose offset is stale is pushed
  // again with the current one when it comes up; the first that is current
  // is the lowest.
  using Entry = std::tuple<uint64_t, SkylinePriority, uint32_t>;
  auto later = [](const Entry &a, const Entry &b) {
    if (std::get<0>(a) != std::get<0>(b))
      return std::get<0>(a) > std::get<0>(b);
    if (std::get<1>(a) != std::get<1>(b))
      return std::get<1>(a) < std::get<1>(b);
    return std::get<2>(a) > std::get<2>(b);
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> queue(later);
  for (uint32_t i : instance.occupying)
    queue.push({0, priority(i), i});
  std::vector<std::pair<uint64_t, uint32_t>> placed;
  placed.reserve(instance.occupying.size());
  // Stale entries cost a query each. Training steps from real models
  // revisit up to about 30 per buffer; a deep random DAG whose buffers
  // all live across its backward pass, 400 (1.1 s on 10,000 buffers),
  // and there the skyline is given up for the other orders. On a large
  // step the allowance is banked, 16 per buffer placed so far: the
  // generated families' large steps have a crowd of long-lived buffers
  // that each placement under them lifts again, and gave up after a few
  // hundred placements, having spent an allowance of 16 per buffer of the
  // whole step (half of a 25k-op U-Net's plan time at budget 0.5).
  const size_t n = instance.occupying.size();
  const bool banked = n > kLargeInstance;
  const uint64_t staleAllowance = (1u << 17) + (banked ? 0 : 16 * uint64_t(n));
  uint64_t stale = 0;
  while (!queue.empty()) {
    auto [offset, rank, i] = queue.top();
    queue.pop();
    size_t first = stepIndex(buffers[i].first);
    size_t last = stepIndex(buffers[i].last);
    uint64_t floor =
        llvm::alignTo(ends.highestIn(first, last), alignmentOf(buffers[i]));
    if (floor > offset) {
      uint64_t allowed =
          staleAllowance + (banked ? 16 * uint64_t(placed.size()) : 0);
      if (stale++ >= allowed)
        return std::nullopt;
      queue.push({floor, rank, i});
      continue;
    }
    placed.push_back({offset, i});
    ends.raise(first, last, offset + instance.sizes[i]);
  }
  // Stable by offset, so that buffers at one offset keep the skyline's
  // order (the greedy placer then puts each where the skyline did or lower).
  llvm::stable_sort(placed, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  std::vector<uint32_t> order;
  order.reserve(placed.size());
  for (auto [offset, i] : placed)
    order.push_back(i);
  return order;
}
