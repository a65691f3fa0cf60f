//===- OccupancyTreeTest.cpp - Gaps over step ranges against brute force --===//

#include "OccupancyTree.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace remat::arena;

namespace {

struct Taken {
  int64_t first, last;
  uint64_t begin, end;
};

using Gaps = std::vector<std::pair<uint64_t, uint64_t>>;

/// The gaps below the top of the union of the ranges meeting first..last,
/// from a byte-by-byte map.
std::pair<Gaps, uint64_t> bruteGaps(const std::vector<Taken> &taken,
                                    int64_t first, int64_t last) {
  std::vector<bool> used;
  uint64_t top = 0;
  for (const Taken &t : taken) {
    if (t.first > last || first > t.last)
      continue;
    top = std::max(top, t.end);
    used.resize(std::max<size_t>(used.size(), t.end), false);
    for (uint64_t b = t.begin; b < t.end; ++b)
      used[b] = true;
  }
  Gaps gaps;
  for (uint64_t b = 0; b < top;) {
    if (used[b]) {
      ++b;
      continue;
    }
    uint64_t e = b;
    while (e < top && !used[e])
      ++e;
    gaps.push_back({b, e});
    b = e;
  }
  return {gaps, top};
}

TEST(OccupancyTreeTest, EmptyTreeHasNoGapsAndTopZero) {
  OccupancyTree tree({0, 5});
  bool visited = false;
  uint64_t merged = 0;
  EXPECT_EQ(tree.forEachGap(
                0, 5,
                [&](uint64_t, uint64_t) {
                  visited = true;
                  return true;
                },
                merged),
            0u);
  EXPECT_FALSE(visited);
  EXPECT_EQ(merged, 0u);
}

TEST(OccupancyTreeTest, RangesOfDisjointStepsDoNotMeet) {
  OccupancyTree tree({0, 1, 2, 3});
  tree.insert(0, 1, 0, 10);
  tree.insert(2, 3, 20, 30);
  Gaps gaps;
  auto collect = [&](uint64_t b, uint64_t e) {
    gaps.push_back({b, e});
    return true;
  };
  uint64_t merged = 0;
  EXPECT_EQ(tree.forEachGap(0, 1, collect, merged), 10u);
  EXPECT_TRUE(gaps.empty());
  EXPECT_EQ(tree.forEachGap(1, 2, collect, merged), 30u);
  EXPECT_EQ(gaps, (Gaps{{10, 20}}));
}

TEST(OccupancyTreeTest, StopsWhenTheVisitorSaysSo) {
  OccupancyTree tree({0});
  tree.insert(0, 0, 5, 10);
  tree.insert(0, 0, 15, 20);
  unsigned visits = 0;
  uint64_t merged = 0;
  EXPECT_EQ(tree.forEachGap(
                0, 0,
                [&](uint64_t, uint64_t) {
                  ++visits;
                  return false;
                },
                merged),
            0u);
  EXPECT_EQ(visits, 1u);
}

TEST(OccupancyTreeTest, BoundedWalkVisitsTheLowestGapsAndReturnsTheTop) {
  // Ranges at separate steps, so that each lies in its own node: the walk
  // merges one range per gap.
  OccupancyTree tree({0, 1, 2, 3});
  tree.insert(0, 0, 10, 20);
  tree.insert(1, 1, 30, 40);
  tree.insert(2, 2, 50, 60);
  tree.insert(3, 3, 70, 80);
  Gaps gaps;
  auto collect = [&](uint64_t b, uint64_t e) {
    gaps.push_back({b, e});
    return true;
  };
  uint64_t merged = 0;
  EXPECT_EQ(tree.forEachGap(0, 3, collect, merged, 2), 80u);
  EXPECT_EQ(gaps, (Gaps{{0, 10}, {20, 30}}));
  EXPECT_EQ(merged, 2u);
  // The bound is on the running count: nothing is left to merge.
  gaps.clear();
  EXPECT_EQ(tree.forEachGap(0, 3, collect, merged, 2), 80u);
  EXPECT_TRUE(gaps.empty());
  EXPECT_EQ(tree.forEachGap(0, 3, collect, merged), 80u);
  EXPECT_EQ(gaps, (Gaps{{0, 10}, {20, 30}, {40, 50}, {60, 70}}));
  EXPECT_EQ(merged, 6u);
}

TEST(OccupancyTreeTest, MatchesBruteForce) {
  std::mt19937 random(7);
  for (unsigned round = 0; round < 40; ++round) {
    int64_t steps = 1 + random() % 40;
    std::vector<int64_t> points;
    for (int64_t s = 0; s < steps; ++s)
      points.push_back(s * 3 - 7);
    OccupancyTree tree(points);
    std::vector<Taken> taken;
    auto pick = [&]() {
      int64_t a = points[random() % points.size()];
      int64_t b = points[random() % points.size()];
      return std::make_pair(std::min(a, b), std::max(a, b));
    };
    for (unsigned step = 0; step < 60; ++step) {
      auto [first, last] = pick();
      uint64_t begin = random() % 200, end = begin + 1 + random() % 30;
      tree.insert(first, last, begin, end);
      taken.push_back({first, last, begin, end});
      auto [qFirst, qLast] = pick();
      Gaps gaps;
      uint64_t merged = 0;
      uint64_t top = tree.forEachGap(
          qFirst, qLast,
          [&](uint64_t b, uint64_t e) {
            gaps.push_back({b, e});
            return true;
          },
          merged);
      auto expected = bruteGaps(taken, qFirst, qLast);
      ASSERT_EQ(gaps, expected.first) << "round " << round << " step " << step;
      ASSERT_EQ(top, expected.second) << "round " << round << " step " << step;
    }
  }
}

} // namespace
