//===- IntervalTreesTest.cpp - Segment trees against brute force ----------===//

#include "IntervalTrees.h"

#include "gtest/gtest.h"

#include <random>
#include <tuple>

using namespace remat;

namespace {

TEST(RangeAddMaxTreeTest, MatchesBruteForce) {
  std::mt19937 random(3);
  for (size_t size : {1u, 2u, 7u, 64u, 100u}) {
    std::vector<int64_t> values(size);
    for (int64_t &v : values)
      v = random() % 50;
    RangeAddMaxTree tree(values);
    for (unsigned step = 0; step < 300; ++step) {
      size_t a = random() % size, b = random() % size;
      if (a > b)
        std::swap(a, b);
      int64_t delta = static_cast<int64_t>(random() % 21) - 10;
      tree.add(a, b, delta);
      for (size_t i = a; i <= b; ++i)
        values[i] += delta;
      // The largest value, and the leftmost position holding it.
      size_t best = 0;
      for (size_t i = 1; i < size; ++i)
        if (values[i] > values[best])
          best = i;
      ASSERT_EQ(tree.max(), std::make_pair(values[best], best))
          << "size " << size << " step " << step;
    }
    EXPECT_EQ(tree.values(), values) << "size " << size;
  }
}

/// Random intervals, inserted one by one or (`bulk`) with insertAll, then
/// stabbed, retired and re-inserted with lower priorities, against a scan.
void checkStabbingHeap(bool bulk) {
  std::mt19937 random(4);
  const size_t size = 37;
  struct Interval {
    size_t first, last;
    double priority;
    bool retired;
  };
  std::vector<Interval> intervals;
  IntervalStabbingHeap heap(size);
  for (unsigned id = 0; id < 200; ++id) {
    size_t a = random() % size, b = random() % size;
    if (a > b)
      std::swap(a, b);
    // Few distinct priorities, so that ties (smaller id wins) happen.
    double priority = random() % 8;
    intervals.push_back({a, b, priority, false});
    if (!bulk)
      heap.insert(id, a, b, priority);
  }
  if (bulk)
    heap.insertAll(intervals.size(), [&](unsigned id) {
      const Interval &in = intervals[id];
      return std::make_tuple(in.first, in.last, in.priority);
    });
  auto isStale = [&](unsigned id, double priority) {
    return intervals[id].retired || intervals[id].priority != priority;
  };
  for (unsigned step = 0; step < 400; ++step) {
    size_t position = random() % size;
    int expected = -1;
    for (unsigned id = 0; id < intervals.size(); ++id) {
      const Interval &in = intervals[id];
      if (in.retired || position < in.first || position > in.last)
        continue;
      if (expected < 0 || in.priority > intervals[expected].priority)
        expected = id;
    }
    unsigned id = 0;
    double priority = 0;
    bool found = heap.best(position, isStale, id, priority);
    ASSERT_EQ(found, expected >= 0) << "step " << step;
    if (!found)
      continue;
    ASSERT_EQ(id, static_cast<unsigned>(expected)) << "step " << step;
    ASSERT_EQ(priority, intervals[id].priority);
    // Retire it, or lower its priority and insert it again.
    if (step % 2) {
      intervals[id].retired = true;
    } else {
      intervals[id].priority -= 0.5;
      heap.insert(id, intervals[id].first, intervals[id].last,
                  intervals[id].priority);
    }
  }
}

TEST(IntervalStabbingHeapTest, MatchesBruteForce) { checkStabbingHeap(false); }

TEST(IntervalStabbingHeapTest, InsertAllMatchesBruteForce) {
  checkStabbingHeap(true);
}

} // namespace
