//===- ArenaOrders.cpp - Orders the greedy arena placer tries -------------===//
//
// The orders in which placeArena hands buffers to the greedy placer: by
// size, by the bytes live across each buffer's interval, two skyline orders
// (ArenaSkyline.cpp), by the bytes and the number of the buffers it shares
// steps with, and by allocation order.
//
//===----------------------------------------------------------------------===//

#include "ArenaPlacementInternal.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <tuple>

using namespace remat;
using namespace remat::arena;

namespace {

/// Most bytes live at any step of each buffer's interval: buffers that sit
/// across the peak constrain the arena most.
std::vector<uint64_t> contention(const Instance &instance) {
  const auto &buffers = instance.buffers;
  // The load only rises where a buffer starts, so the distinct start steps
  // are the points to look at.
  std::vector<int64_t> points;
  for (uint32_t i : instance.occupying)
    points.push_back(buffers[i].first);
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  size_t numPoints = points.size();
  auto pointIndex = [&](int64_t step) {
    return static_cast<size_t>(llvm::lower_bound(points, step) -
                               points.begin());
  };
  // Difference array over points: a buffer covers the points in
  // [index(first), index(last + 1)).
  std::vector<int64_t> delta(numPoints + 1, 0);
  std::vector<std::pair<size_t, size_t>> span(buffers.size());
  for (uint32_t i : instance.occupying) {
    size_t begin = pointIndex(buffers[i].first);
    size_t end = static_cast<size_t>(
        llvm::upper_bound(points, buffers[i].last) - points.begin());
    span[i] = {begin, end};
    delta[begin] += static_cast<int64_t>(instance.sizes[i]);
    delta[end] -= static_cast<int64_t>(instance.sizes[i]);
  }
  // Sparse table of range maxima over the loads at the points.
  std::vector<std::vector<uint64_t>> table(1, std::vector<uint64_t>(numPoints));
  int64_t running = 0;
  for (size_t p = 0; p < numPoints; ++p) {
    running += delta[p];
    table[0][p] = static_cast<uint64_t>(running);
  }
  for (size_t width = 2; width <= numPoints; width *= 2) {
    const std::vector<uint64_t> &prev = table.back();
    std::vector<uint64_t> next(numPoints - width + 1);
    for (size_t p = 0; p + width <= numPoints; ++p)
      next[p] = std::max(prev[p], prev[p + width / 2]);
    table.push_back(std::move(next));
  }
  std::vector<uint64_t> result(buffers.size(), 0);
  for (uint32_t i : instance.occupying) {
    auto [begin, end] = span[i];
    unsigned level = llvm::Log2_64(end - begin);
    result[i] = std::max(table[level][begin],
                         table[level][end - (size_t(1) << level)]);
  }
  return result;
}

/// Per buffer, how many occupying buffers its interval meets (itself
/// included) and their aligned bytes: all that started by its last step,
/// less those that ended before its first. O(n log n) by binary search.
std::pair<std::vector<uint64_t>, std::vector<uint64_t>>
neighbourhoods(const Instance &instance) {
  const auto &buffers = instance.buffers;
  std::vector<int64_t> firsts, lasts;
  std::vector<std::pair<int64_t, uint64_t>> byFirst, byLast;
  for (uint32_t i : instance.occupying) {
    byFirst.push_back({buffers[i].first, instance.sizes[i]});
    byLast.push_back({buffers[i].last, instance.sizes[i]});
  }
  llvm::sort(byFirst);
  llvm::sort(byLast);
  // Prefix sums of bytes in each order.
  std::vector<uint64_t> firstBytes(1, 0), lastBytes(1, 0);
  for (auto [step, bytes] : byFirst) {
    firsts.push_back(step);
    firstBytes.push_back(firstBytes.back() + bytes);
  }
  for (auto [step, bytes] : byLast) {
    lasts.push_back(step);
    lastBytes.push_back(lastBytes.back() + bytes);
  }
  std::vector<uint64_t> count(buffers.size(), 0), bytes(buffers.size(), 0);
  for (uint32_t i : instance.occupying) {
    size_t started = llvm::upper_bound(firsts, buffers[i].last) - firsts.begin();
    size_t ended = llvm::lower_bound(lasts, buffers[i].first) - lasts.begin();
    count[i] = started - ended;
    bytes[i] = firstBytes[started] - lastBytes[ended];
  }
  return {std::move(count), std::move(bytes)};
}

} // namespace

std::vector<CandidateOrder>
arena::candidateOrders(const Instance &instance, bool all, bool skylines) {
  const auto &sizes = instance.sizes;
  std::vector<CandidateOrder> orders;
  orders.push_back({orderBy(instance, [&](uint32_t i) { return sizes[i]; })});
  std::vector<uint64_t> load = contention(instance);
  orders.push_back({orderBy(instance, [&](uint32_t i) {
    return std::make_pair(load[i], sizes[i]);
  })});
  // Bottom up, the buffers that take the most bytes x steps first (ties:
  // the latest to end), and the latest to end first (ties: the largest).
  // On the shared models' training steps these win where the two orders
  // above leave long-lived small buffers to the top (ArenaSkyline.cpp).
  const auto &buffers = instance.buffers;
  // Steps crossed, not counted: a timeline stretched evenly (the same
  // step with more ops between) keeps the order.
  auto steps = [&](uint32_t i) {
    return static_cast<uint64_t>(buffers[i].last - buffers[i].first);
  };
  auto byArea = [&](uint32_t i) {
    return SkylinePriority(llvm::SaturatingMultiply(steps(i), sizes[i]),
                           static_cast<uint64_t>(buffers[i].last));
  };
  auto byEnd = [&](uint32_t i) {
    return SkylinePriority(static_cast<uint64_t>(buffers[i].last), sizes[i]);
  };
  for (auto priority : {llvm::function_ref<SkylinePriority(uint32_t)>(byArea),
                        llvm::function_ref<SkylinePriority(uint32_t)>(byEnd)}) {
    if (!skylines)
      break;
    if (std::optional<std::vector<uint32_t>> order =
            skylineOrder(instance, priority))
      orders.push_back({std::move(*order), /*skyline=*/true});
  }
  if (!all)
    return orders;
  // The bytes a buffer shares steps with: a stand-in for size x lifetime.
  std::vector<uint64_t> degree, weight;
  std::tie(degree, weight) = neighbourhoods(instance);
  orders.push_back({orderBy(instance, [&](uint32_t i) {
    return std::make_pair(weight[i], sizes[i]);
  })});
  orders.push_back({orderBy(instance, [&](uint32_t i) {
    return std::make_pair(degree[i], sizes[i]);
  })});
  // Allocation order (the index): what a bump allocator sees.
  orders.push_back({instance.occupying});
  return orders;
}
