//===- OccupancyTree.cpp - Bytes taken over ranges of steps ---------------===//

#include "OccupancyTree.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <functional>

using namespace remat::arena;

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
  // Absorb every range that overlaps or touches [begin, end) into the first
  // of them, reusing its node: placement inserts millions of ranges, and a
  // node per merge made allocation the larger cost.
  auto it = set.upper_bound(begin);
  if (it != set.begin() && std::prev(it)->second >= begin)
    --it;
  if (it == set.end() || it->first > end) {
    set.emplace_hint(it, begin, end);
    return;
  }
  auto kept = it;
  end = std::max(end, kept->second);
  for (++it; it != set.end() && it->first <= end; it = set.erase(it))
    end = std::max(end, it->second);
  kept->second = end;
  if (begin < kept->first) {
    auto node = set.extract(kept);
    node.key() = begin;
    set.insert(it, std::move(node));
  }
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
  std::vector<std::pair<uint64_t, uint32_t>> &heap = scratch.heap;
  std::vector<RangeSet::const_iterator> &next = scratch.next;
  heap.clear();
  next.resize(found.size());
  uint64_t top = 0;
  for (uint32_t s = 0; s < found.size(); ++s) {
    next[s] = found[s]->begin();
    if (next[s] != found[s]->end()) {
      heap.push_back({next[s]->first, s});
      top = std::max(top, found[s]->rbegin()->second);
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
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    heap.pop_back();
    ++merged;
    const RangeSet &set = *found[s];
    auto it = next[s];
    cursor = std::max(cursor, it->second);
    if (++it != set.end() && it->first <= cursor) {
      it = set.upper_bound(cursor);
      cursor = std::max(cursor, std::prev(it)->second);
    }
    if (it != set.end()) {
      next[s] = it;
      heap.push_back({it->first, s});
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
  }
  return top;
}
