//===- IntervalTrees.h - Segment trees over program points ------*- C++ -*-===//
//
// Two segment trees over the ops of a program, for the greedy solver's bulk
// sweeps (GreedySolver.cpp), which must find the op with the most live bytes
// and the best buffer to free there in O(log n) rather than by a scan.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_INTERVALTREES_H
#define REMAT_LIB_PLANNING_INTERVALTREES_H

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace remat {

/// Values over positions 0..n-1 with "add to a range" and "largest value,
/// leftmost position" in O(log n).
class RangeAddMaxTree {
public:
  explicit RangeAddMaxTree(const std::vector<int64_t> &values)
      : size(values.size()), best(4 * std::max<size_t>(size, 1)),
        pending(best.size(), 0) {
    if (size)
      build(1, 0, size - 1, values);
  }

  /// Adds `delta` to positions first..last (inclusive).
  void add(size_t first, size_t last, int64_t delta) {
    if (size && first <= last)
      add(1, 0, size - 1, first, std::min(last, size - 1), delta);
  }

  /// The largest value and its leftmost position.
  std::pair<int64_t, size_t> max() const { return best[1]; }

  /// Every position's value, in O(n).
  std::vector<int64_t> values() const {
    std::vector<int64_t> result(size);
    if (size)
      collect(1, 0, size - 1, 0, result);
    return result;
  }

private:
  using Entry = std::pair<int64_t, size_t>;

  static Entry better(const Entry &a, const Entry &b) {
    if (a.first != b.first)
      return a.first > b.first ? a : b;
    return a.second < b.second ? a : b;
  }

  void build(size_t node, size_t lo, size_t hi,
             const std::vector<int64_t> &values) {
    if (lo == hi) {
      best[node] = {values[lo], lo};
      return;
    }
    size_t mid = (lo + hi) / 2;
    build(2 * node, lo, mid, values);
    build(2 * node + 1, mid + 1, hi, values);
    best[node] = better(best[2 * node], best[2 * node + 1]);
  }

  void add(size_t node, size_t lo, size_t hi, size_t first, size_t last,
           int64_t delta) {
    if (last < lo || hi < first)
      return;
    if (first <= lo && hi <= last) {
      // The whole subtree moves by delta: its argmax does not change.
      best[node].first += delta;
      pending[node] += delta;
      return;
    }
    size_t mid = (lo + hi) / 2;
    add(2 * node, lo, mid, first, last, delta);
    add(2 * node + 1, mid + 1, hi, first, last, delta);
    best[node] = better(best[2 * node], best[2 * node + 1]);
    best[node].first += pending[node];
  }

  /// `above`: the additions pending at the ancestors of `node`.
  void collect(size_t node, size_t lo, size_t hi, int64_t above,
               std::vector<int64_t> &result) const {
    if (lo == hi) {
      result[lo] = best[node].first + above;
      return;
    }
    size_t mid = (lo + hi) / 2;
    collect(2 * node, lo, mid, above + pending[node], result);
    collect(2 * node + 1, mid + 1, hi, above + pending[node], result);
  }

  size_t size;
  /// For each node: the best entry of its subtree, including the additions
  /// pending at the node itself (but not at its ancestors).
  std::vector<Entry> best;
  std::vector<int64_t> pending;
};

/// Intervals of positions, each with a priority; finds the interval with the
/// highest priority that contains a position in O(log^2 n) amortized.
/// Intervals are never removed here: a caller that retires one skips it
/// through `isStale` when it surfaces.
class IntervalStabbingHeap {
public:
  explicit IntervalStabbingHeap(size_t size)
      : leaves(std::max<size_t>(size, 1)), nodes(2 * leaves) {}

  /// Adds interval `id` over first..last with `priority`; an id may be added
  /// again with a new priority (the old entry must then turn stale).
  void insert(unsigned id, size_t first, size_t last, double priority) {
    forNodesOf(first, last, [&](std::vector<Entry> &heap) {
      push(heap, Entry{priority, id});
    });
  }

  /// insert(id, first, last, priority) for every id below `count`, with
  /// (first, last, priority) = intervalOf(id): each node's entries are
  /// appended, then made a heap once, in time linear in the entries where
  /// inserting them one by one sifts each (a sweep of a 100k-op random
  /// layered DAG inserts 2-4M gaps, and the sifts were 40% of its time).
  template <typename IntervalOf>
  void insertAll(unsigned count, IntervalOf intervalOf) {
    for (unsigned id = 0; id < count; ++id) {
      auto [first, last, priority] = intervalOf(id);
      forNodesOf(first, last, [&](std::vector<Entry> &heap) {
        heap.push_back(Entry{priority, id});
      });
    }
    for (std::vector<Entry> &heap : nodes)
      std::make_heap(heap.begin(), heap.end(), lower);
  }

  /// The best live interval containing `position` as (id, priority), or
  /// false when there is none. `isStale(id, priority)` says whether an
  /// entry is retired; stale entries found on the way are dropped.
  template <typename IsStale>
  bool best(size_t position, IsStale isStale, unsigned &id,
            double &priority) {
    bool found = false;
    for (size_t node = position + leaves; node >= 1; node /= 2) {
      std::vector<Entry> &heap = nodes[node];
      while (!heap.empty() && isStale(heap.front().id, heap.front().priority)) {
        std::pop_heap(heap.begin(), heap.end(), lower);
        heap.pop_back();
      }
      if (!heap.empty() &&
          (!found || lower(Entry{priority, id}, heap.front()))) {
        found = true;
        id = heap.front().id;
        priority = heap.front().priority;
      }
    }
    return found;
  }

private:
  struct Entry {
    double priority;
    unsigned id;
  };
  /// Heap order: higher priority on top, then the smaller id.
  static bool lower(const Entry &a, const Entry &b) {
    if (a.priority != b.priority)
      return a.priority < b.priority;
    return a.id > b.id;
  }
  /// Calls `visit` on the heap of each node that covers first..last and
  /// whose parent does not: O(log n) of them.
  template <typename Visit>
  void forNodesOf(size_t first, size_t last, Visit visit) {
    for (size_t lo = first + leaves, hi = last + leaves + 1; lo < hi;
         lo /= 2, hi /= 2) {
      if (lo & 1)
        visit(nodes[lo++]);
      if (hi & 1)
        visit(nodes[--hi]);
    }
  }
  static void push(std::vector<Entry> &heap, Entry entry) {
    heap.push_back(entry);
    std::push_heap(heap.begin(), heap.end(), lower);
  }

  size_t leaves;
  std::vector<std::vector<Entry>> nodes;
};

} // namespace remat

#endif // REMAT_LIB_PLANNING_INTERVALTREES_H
