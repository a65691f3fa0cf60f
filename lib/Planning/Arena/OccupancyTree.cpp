//===- OccupancyTree.cpp - Bytes taken over ranges of steps ---------------===//

#include "OccupancyTree.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <functional>
#include <optional>

using namespace remat::arena;

namespace {

using Head = std::pair<uint64_t, uint32_t>;

/// Puts `head` in place of the least of the min-heap `heap` (or drops the
/// least when there is no head) with one sift down: a walk replaces the
/// least once per range it merges, and a pop followed by a push sifts twice.
void replaceLeast(std::vector<Head> &heap, std::optional<Head> head) {
  if (!head) {
    head = heap.back();
    heap.pop_back();
    if (heap.empty())
      return;
  }
  size_t size = heap.size(), hole = 0;
  while (true) {
    size_t child = 2 * hole + 1;
    if (child >= size)
      break;
    if (child + 1 < size && heap[child + 1] < heap[child])
      ++child;
    if (!(heap[child] < *head))
      break;
    heap[hole] = heap[child];
    hole = child;
  }
  heap[hole] = *head;
}

} // namespace

OccupancyTree::OccupancyTree(llvm::ArrayRef<int64_t> steps)
    : points(steps.begin(), steps.end()) {
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  own.assign(4 * std::max<size_t>(points.size(), 1), kNoSet);
  subtree.assign(own.size(), kNoSet);
}

size_t OccupancyTree::position(int64_t step) const {
  return llvm::lower_bound(points, step) - points.begin();
}

OccupancyTree::RangeSet &OccupancyTree::setAt(uint32_t &slot) {
  if (slot == kNoSet) {
    slot = sets.size();
    sets.emplace_back();
  }
  return sets[slot];
}

void OccupancyTree::add(RangeSet &set, uint64_t begin, uint64_t end) {
  // The ranges that overlap or touch [begin, end) are consecutive, from the
  // first that ends at or above begin; they merge into the first of them.
  auto first = llvm::partition_point(
      set, [&](const ByteRange &range) { return range.end < begin; });
  auto last = first;
  while (last != set.end() && last->begin <= end)
    ++last;
  if (first == last) {
    set.insert(first, {begin, end});
    return;
  }
  first->begin = std::min(first->begin, begin);
  first->end = std::max(std::prev(last)->end, end);
  set.erase(std::next(first), last);
}

void OccupancyTree::insert(int64_t first, int64_t last, uint64_t begin,
                           uint64_t end) {
  if (points.empty() || first > last || begin >= end)
    return;
  insert(1, 0, points.size() - 1, position(first), position(last), begin, end);
}

void OccupancyTree::insert(size_t node, size_t lo, size_t hi, size_t first,
                           size_t last, uint64_t begin, uint64_t end) {
  add(setAt(subtree[node]), begin, end);
  if (first <= lo && hi <= last) {
    add(setAt(own[node]), begin, end);
    return;
  }
  size_t mid = lo + (hi - lo) / 2;
  if (first <= mid)
    insert(2 * node, lo, mid, first, last, begin, end);
  if (last > mid)
    insert(2 * node + 1, mid + 1, hi, first, last, begin, end);
}

void OccupancyTree::collect(size_t node, size_t lo, size_t hi, size_t first,
                            size_t last,
                            std::vector<const RangeSet *> &found) const {
  // A range stored at a node meets first..last when the node lies inside
  // the query (take the whole subtree) or is an ancestor of such a node
  // (the ranges stored at the node itself).
  if (first <= lo && hi <= last) {
    if (subtree[node] != kNoSet)
      found.push_back(&sets[subtree[node]]);
    return;
  }
  if (subtree[node] == kNoSet)
    return;
  if (own[node] != kNoSet)
    found.push_back(&sets[own[node]]);
  size_t mid = lo + (hi - lo) / 2;
  if (first <= mid)
    collect(2 * node, lo, mid, first, last, found);
  if (last > mid)
    collect(2 * node + 1, mid + 1, hi, first, last, found);
}

uint64_t OccupancyTree::forEachGap(
    int64_t first, int64_t last,
    llvm::function_ref<bool(uint64_t, uint64_t)> visit, uint64_t &merged,
    uint64_t maxMerged) const {
  std::vector<const RangeSet *> &found = scratch.found;
  found.clear();
  if (!points.empty() && first <= last)
    collect(1, 0, points.size() - 1, position(first), position(last), found);
  // A merge of the sets' ranges by begin: the heap holds each set's next
  // range above the cursor. A set whose next range the cursor has already
  // passed jumps by binary search, not range by range.
  std::vector<Head> &heap = scratch.heap;
  std::vector<const ByteRange *> &next = scratch.next;
  heap.clear();
  next.resize(found.size());
  uint64_t top = 0;
  for (uint32_t s = 0; s < found.size(); ++s) {
    next[s] = found[s]->data();
    if (!found[s]->empty()) {
      heap.push_back({next[s]->begin, s});
      top = std::max(top, found[s]->back().end);
    }
  }
  std::make_heap(heap.begin(), heap.end(), std::greater<>());
  uint64_t cursor = 0;
  while (!heap.empty()) {
    if (merged >= maxMerged)
      return top;
    auto [begin, s] = heap.front();
    if (begin > cursor) {
      if (!visit(cursor, begin))
        return 0;
      cursor = begin;
    }
    ++merged;
    const ByteRange *it = next[s], *end = found[s]->data() + found[s]->size();
    cursor = std::max(cursor, it->end);
    if (++it != end && it->begin <= cursor) {
      it = std::partition_point(
          it, end, [&](const ByteRange &range) { return range.begin <= cursor; });
      cursor = std::max(cursor, std::prev(it)->end);
    }
    next[s] = it;
    replaceLeast(heap, it != end ? std::optional<Head>({it->begin, s})
                                 : std::nullopt);
  }
  return top;
}
