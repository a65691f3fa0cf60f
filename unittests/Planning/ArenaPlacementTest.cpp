//===- ArenaPlacementTest.cpp - Offsets of buffers in one arena ----------===//
//
// placeArena (lib/Planning/ArenaPlacement.cpp): hand-built instances pin
// down the baseline's choices and the bound; seeded random instances check
// every layout is overlap-free, aligned, at least the load, and never worse
// than the baseline; tiny ones are compared with the optimum found by trying
// every offset on the alignment grid.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/ArenaPlacement.h"

#include "ArenaPlacementInternal.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/StepArena.h"
#include "remat/Planning/Testing/Generators.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

using namespace remat;

namespace {

bool meet(const ArenaBuffer &a, const ArenaBuffer &b) {
  return a.first <= b.last && b.first <= a.last;
}

bool takesBytes(const ArenaBuffer &buffer) {
  return buffer.bytes > 0 && buffer.first <= buffer.last;
}

/// Fails the test unless `layout` is a valid placement of `buffers`.
void expectValid(const std::vector<ArenaBuffer> &buffers,
                 const ArenaLayout &layout) {
  ASSERT_EQ(layout.offsets.size(), buffers.size());
  EXPECT_GE(layout.arenaBytes, layout.liveBytes);
  for (size_t i = 0; i < buffers.size(); ++i) {
    uint64_t alignment = std::max<uint64_t>(buffers[i].alignment, 1);
    EXPECT_EQ(layout.offsets[i] % alignment, 0u) << "buffer " << i;
    if (!takesBytes(buffers[i]))
      continue;
    EXPECT_LE(layout.offsets[i] + alignedBytes(buffers[i]), layout.arenaBytes)
        << "buffer " << i;
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      if (!takesBytes(buffers[j]) || !meet(buffers[i], buffers[j]))
        continue;
      bool apart =
          layout.offsets[i] + alignedBytes(buffers[i]) <= layout.offsets[j] ||
          layout.offsets[j] + alignedBytes(buffers[j]) <= layout.offsets[i];
      EXPECT_TRUE(apart) << "buffers " << i << " and " << j << " overlap";
    }
  }
}

/// Fails the test unless the load of `buffers` is `load`, the baseline
/// misses it and Best meets it (and so knows it is optimal).
void expectBestReachesTheLoad(const std::vector<ArenaBuffer> &buffers,
                              uint64_t load) {
  ArenaLayout baseline = placeArena(buffers, ArenaStrategy::SizeBestFit);
  ArenaLayout best = placeArena(buffers);
  expectValid(buffers, baseline);
  expectValid(buffers, best);
  EXPECT_EQ(best.liveBytes, load);
  EXPECT_GT(baseline.arenaBytes, load);
  EXPECT_EQ(best.arenaBytes, load);
  EXPECT_EQ(best.lowerBound, load);
}

std::vector<ArenaBuffer> randomBuffers(std::mt19937_64 &rng, size_t count,
                                       int64_t steps, uint64_t maxUnits,
                                       uint64_t unit) {
  std::vector<ArenaBuffer> buffers;
  for (size_t i = 0; i < count; ++i) {
    int64_t first = std::uniform_int_distribution<int64_t>(0, steps - 1)(rng);
    int64_t last =
        std::uniform_int_distribution<int64_t>(first, steps - 1)(rng);
    uint64_t bytes =
        std::uniform_int_distribution<uint64_t>(1, maxUnits * unit)(rng);
    buffers.push_back({bytes, unit, first, last});
  }
  return buffers;
}

/// The smallest top of any placement, by trying every offset that is a
/// multiple of `unit` and of the buffer's alignment (a multiple of `unit`)
/// below the best top found so far.
class BruteForce {
public:
  BruteForce(const std::vector<ArenaBuffer> &buffers, uint64_t unit)
      : buffers(buffers), unit(unit), offsets(buffers.size(), 0) {
    for (const ArenaBuffer &buffer : buffers)
      best += alignedBytes(buffer);
  }

  uint64_t optimum() {
    search(0, 0);
    return best;
  }

private:
  void search(size_t index, uint64_t top) {
    if (top >= best)
      return;
    if (index == buffers.size()) {
      best = top;
      return;
    }
    uint64_t size = alignedBytes(buffers[index]);
    uint64_t step = std::max(unit, buffers[index].alignment);
    for (uint64_t offset = 0; offset + size < best; offset += step) {
      bool fits = true;
      for (size_t j = 0; j < index && fits; ++j)
        if (meet(buffers[index], buffers[j]))
          fits = offset + size <= offsets[j] ||
                 offsets[j] + alignedBytes(buffers[j]) <= offset;
      if (!fits)
        continue;
      offsets[index] = offset;
      search(index + 1, std::max(top, offset + size));
    }
  }

  const std::vector<ArenaBuffer> &buffers;
  uint64_t unit;
  std::vector<uint64_t> offsets;
  uint64_t best = 0;
};

TEST(ArenaPlacementTest, EmptyAndZeroSizedBuffersTakeNothing) {
  EXPECT_EQ(placeArena({}).arenaBytes, 0u);
  std::vector<ArenaBuffer> buffers = {{0, 64, 0, 3}, {100, 64, 2, 1}};
  ArenaLayout layout = placeArena(buffers);
  expectValid(buffers, layout);
  EXPECT_EQ(layout.arenaBytes, 0u);
  EXPECT_EQ(layout.liveBytes, 0u);
}

// Arenas past kMaxArenaBytes are refused, not wrapped: huge alignments,
// sizes whose rounding wraps, and sums past 2^63 - 1 or 2^64.
TEST(ArenaPlacementTest, OverflowingArenasAreRefused) {
  constexpr uint64_t kHalf = uint64_t(1) << 62;
  for (ArenaStrategy strategy :
       {ArenaStrategy::Best, ArenaStrategy::SizeBestFit}) {
    for (const std::vector<ArenaBuffer> &buffers :
         std::vector<std::vector<ArenaBuffer>>{
             {{1, kHalf, 0, 1}, {1, kHalf, 0, 1}},
             {{UINT64_MAX, 64, 0, 0}},
             {{kHalf, 64, 0, 1}, {kHalf, 64, 1, 2}},
             {{kHalf, 1, 0, 2}, {kHalf, 1, 1, 2}, {kHalf, 1, 2, 2}}}) {
      ArenaLayout layout = placeArena(buffers, strategy);
      EXPECT_TRUE(layout.overflow);
      EXPECT_TRUE(layout.offsets.empty());
      EXPECT_EQ(layout.arenaBytes, UINT64_MAX);
    }
    // Just below the bound: every buffer stacked with its padding fits.
    std::vector<ArenaBuffer> large = {{kHalf - 4096, 64, 0, 1},
                                      {kHalf - 4096, 64, 1, 2}};
    ArenaLayout layout = placeArena(large, strategy);
    EXPECT_FALSE(layout.overflow);
    expectValid(large, layout);
    EXPECT_EQ(layout.arenaBytes, 2 * (kHalf - 4096));
  }
  EXPECT_EQ(alignedBytes({UINT64_MAX, 64, 0, 0}), UINT64_MAX);
}

TEST(ArenaPlacementTest, PaddingIsCounted) {
  std::vector<ArenaBuffer> buffers = {{100, 64, 0, 1}, {1, 256, 1, 2}};
  ArenaLayout layout = placeArena(buffers);
  expectValid(buffers, layout);
  EXPECT_EQ(alignedBytes(buffers[0]), 128u);
  EXPECT_EQ(layout.liveBytes, 128u + 256u);
  // The 256-aligned buffer goes at 0 (largest first), the other above it.
  EXPECT_EQ(layout.offsets[1], 0u);
  EXPECT_EQ(layout.offsets[0], 256u);
  EXPECT_EQ(layout.arenaBytes, 512u);
}

TEST(ArenaPlacementTest, DisjointIntervalsShareOffsets) {
  // Touching intervals ([0,1] and [1,2]) conflict; [0,1] and [2,3] do not.
  std::vector<ArenaBuffer> buffers = {
      {64, 64, 0, 1}, {64, 64, 2, 3}, {64, 64, 1, 2}};
  ArenaLayout layout = placeArena(buffers, ArenaStrategy::SizeBestFit);
  expectValid(buffers, layout);
  EXPECT_EQ(layout.offsets, (std::vector<uint64_t>{0, 0, 64}));
  EXPECT_EQ(layout.arenaBytes, 128u);
  EXPECT_EQ(layout.liveBytes, 128u);
}

TEST(ArenaPlacementTest, BaselineTakesTheSmallestGap) {
  // In 64-byte units, largest first: 0 at [0,4) and 1 at [4,8), 2 at [8,10),
  // 3 (dead after step 1) at [10,11), 4 at [11,12). The last buffer (steps
  // 2..3) meets 1, 2 and 4 only: gaps [0,4) and [10,11); it takes the
  // smaller one.
  std::vector<ArenaBuffer> buffers = {{4 * 64, 64, 0, 1}, {4 * 64, 64, 0, 3},
                                      {2 * 64, 64, 0, 3}, {1 * 64, 64, 0, 1},
                                      {1 * 64, 64, 0, 3}, {1 * 64, 64, 2, 3}};
  ArenaLayout layout = placeArena(buffers, ArenaStrategy::SizeBestFit);
  expectValid(buffers, layout);
  EXPECT_EQ(layout.offsets,
            (std::vector<uint64_t>{0, 256, 512, 640, 704, 640}));
  EXPECT_EQ(layout.arenaBytes, 768u);
}

TEST(ArenaPlacementTest, BestBeatsTheBaselineWhereSizeOrderFragments) {
  // By size, the two 3-unit buffers go first at 0 and 3 (their intervals
  // meet), and the 2-unit ones cannot reuse the space: a classic case where
  // placing by lifetime wins.
  std::vector<ArenaBuffer> buffers = {{3 * 64, 64, 0, 1},
                                      {3 * 64, 64, 1, 2},
                                      {2 * 64, 64, 0, 0},
                                      {2 * 64, 64, 2, 3},
                                      {4 * 64, 64, 3, 3},
                                      {1 * 64, 64, 0, 3}};
  ArenaLayout baseline = placeArena(buffers, ArenaStrategy::SizeBestFit);
  ArenaLayout best = placeArena(buffers);
  expectValid(buffers, baseline);
  expectValid(buffers, best);
  EXPECT_LE(best.arenaBytes, baseline.arenaBytes);
  EXPECT_EQ(best.arenaBytes, BruteForce(buffers, 64).optimum());
}

TEST(ArenaPlacementTest, RandomLayoutsAreValidAndNoWorseThanBaseline) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    size_t count = 1 + trial % 60;
    uint64_t unit = trial % 3 == 0 ? 256 : 64;
    std::vector<ArenaBuffer> buffers = randomBuffers(rng, count, 20, 16, unit);
    // Mixed alignments: every fifth buffer wants more than the rest.
    for (size_t i = 0; i < buffers.size(); i += 5)
      buffers[i].alignment = 4 * unit;
    ArenaLayout baseline = placeArena(buffers, ArenaStrategy::SizeBestFit);
    ArenaLayout best = placeArena(buffers);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expectValid(buffers, baseline);
    expectValid(buffers, best);
    EXPECT_EQ(best.liveBytes, arenaLiveBytes(buffers));
    EXPECT_LE(best.arenaBytes, baseline.arenaBytes);
  }
}

TEST(ArenaPlacementTest, BestIsTheBruteForceOptimumOnTinyInstances) {
  // Also checks the lower bounds against the optimum: no strategy's bound
  // exceeds it, and the exact search, which finishes on these, proves it.
  std::mt19937_64 rng(7);
  int beatBaseline = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<ArenaBuffer> buffers =
        randomBuffers(rng, 2 + trial % 6, 6, 6, 64);
    // Some buffers want a coarser alignment, which the search must respect.
    if (trial % 4 == 0)
      buffers[trial % buffers.size()].alignment = 256;
    SCOPED_TRACE("trial " + std::to_string(trial));
    // Both round the top to the largest alignment.
    uint64_t largest = trial % 4 == 0 ? 256 : 64;
    uint64_t optimum = BruteForce(buffers, 64).optimum();
    optimum = (optimum + largest - 1) / largest * largest;
    ArenaLayout best = placeArena(buffers);
    expectValid(buffers, best);
    EXPECT_EQ(best.arenaBytes, optimum);
    ArenaLayout baseline = placeArena(buffers, ArenaStrategy::SizeBestFit);
    ArenaLayout exact = placeArena(buffers, ArenaStrategy::Exact);
    for (const ArenaLayout &layout : {best, baseline, exact}) {
      EXPECT_GE(layout.lowerBound, layout.liveBytes);
      EXPECT_LE(layout.lowerBound, optimum);
    }
    EXPECT_EQ(exact.arenaBytes, optimum);
    EXPECT_EQ(exact.lowerBound, optimum);
    beatBaseline += best.arenaBytes < baseline.arenaBytes;
  }
  // The instances are hard enough that the baseline misses the optimum.
  EXPECT_GT(beatBaseline, 0);
}

TEST(ArenaPlacementTest, BestReachesTheLoadWhereTheBaselineDoesNot) {
  // 64-byte blocks that tile a 7-unit-high strip exactly; by size the
  // baseline leaves a hole.
  std::vector<ArenaBuffer> buffers = {
      {2 * 64, 64, 0, 2}, {2 * 64, 64, 3, 5}, {1 * 64, 64, 0, 3},
      {1 * 64, 64, 4, 5}, {1 * 64, 64, 0, 1}, {1 * 64, 64, 2, 5},
      {3 * 64, 64, 0, 0}, {1 * 64, 64, 1, 4}, {1 * 64, 64, 5, 5}};
  EXPECT_EQ(placeArena(buffers, ArenaStrategy::SizeBestFit).arenaBytes,
            8u * 64);
  expectBestReachesTheLoad(buffers, 7u * 64);
}

TEST(ArenaPlacementTest, IteratedGreedyReachesTheLoadWhereEveryOrderMisses) {
  // 30 buffers (too many for the exact search) on which every candidate
  // order, and moving only the top buffer, leave a 64-byte hole; the free
  // moves of the local search close it.
  std::vector<ArenaBuffer> buffers = {
      {1 * 64, 64, 0, 1},  {4 * 64, 64, 8, 11}, {4 * 64, 64, 9, 10},
      {4 * 64, 64, 7, 8},  {3 * 64, 64, 7, 8},  {2 * 64, 64, 9, 9},
      {3 * 64, 64, 9, 9},  {4 * 64, 64, 9, 10}, {3 * 64, 64, 1, 2},
      {1 * 64, 64, 4, 5},  {2 * 64, 64, 5, 6},  {2 * 64, 64, 10, 11},
      {4 * 64, 64, 10, 10}, {2 * 64, 64, 0, 0}, {3 * 64, 64, 0, 2},
      {3 * 64, 64, 9, 11}, {4 * 64, 64, 6, 6},  {2 * 64, 64, 11, 11},
      {3 * 64, 64, 2, 5},  {1 * 64, 64, 11, 11}, {4 * 64, 64, 5, 8},
      {4 * 64, 64, 3, 6},  {2 * 64, 64, 5, 5},  {4 * 64, 64, 2, 4},
      {3 * 64, 64, 7, 10}, {1 * 64, 64, 4, 6},  {4 * 64, 64, 8, 8},
      {4 * 64, 64, 3, 4},  {3 * 64, 64, 6, 9},  {1 * 64, 64, 8, 9}};
  expectBestReachesTheLoad(buffers, 27u * 64);
}

TEST(ArenaPlacementTest, ExactIsNeverWorseThanGreedy) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<ArenaBuffer> buffers =
        randomBuffers(rng, 4 + trial % 9, 10, 8, 64);
    for (size_t i = 0; i < buffers.size(); i += 4)
      buffers[i].alignment = 128;
    SCOPED_TRACE("trial " + std::to_string(trial));
    ArenaLayout baseline = placeArena(buffers, ArenaStrategy::SizeBestFit);
    ArenaLayout best = placeArena(buffers);
    ArenaLayout exact = placeArena(buffers, ArenaStrategy::Exact);
    expectValid(buffers, exact);
    EXPECT_LE(exact.arenaBytes, best.arenaBytes);
    EXPECT_LE(exact.arenaBytes, baseline.arenaBytes);
    EXPECT_LE(exact.lowerBound, exact.arenaBytes);
    EXPECT_GE(exact.lowerBound, best.lowerBound);
  }
}

TEST(ArenaPlacementTest, PlacementIsDeterministic) {
  std::mt19937_64 rng(21);
  std::vector<ArenaBuffer> buffers = randomBuffers(rng, 200, 80, 64, 64);
  ArenaLayout first = placeArena(buffers);
  for (int repeat = 0; repeat < 3; ++repeat) {
    ArenaLayout again = placeArena(buffers);
    EXPECT_EQ(again.offsets, first.offsets);
    EXPECT_EQ(again.arenaBytes, first.arenaBytes);
  }
  // Step numbers matter only through the overlap relation, their order and
  // the steps crossed in proportion: stretching the timeline evenly gives
  // the same layout.
  std::vector<ArenaBuffer> stretched = buffers;
  for (ArenaBuffer &buffer : stretched) {
    buffer.first = 3 * buffer.first + 100;
    buffer.last = 3 * buffer.last + 100;
  }
  EXPECT_EQ(placeArena(stretched).offsets, first.offsets);
}

/// Whether `offsets` place `buffers` in `arena` bytes, pair by pair.
bool placesPairwise(const std::vector<ArenaBuffer> &buffers,
                    const std::vector<uint64_t> &offsets, uint64_t arena) {
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (offsets[i] % std::max<uint64_t>(buffers[i].alignment, 1) != 0)
      return false;
    if (!takesBytes(buffers[i]))
      continue;
    if (offsets[i] + alignedBytes(buffers[i]) > arena)
      return false;
    for (size_t j = i + 1; j < buffers.size(); ++j)
      if (takesBytes(buffers[j]) && meet(buffers[i], buffers[j]) &&
          offsets[i] + alignedBytes(buffers[i]) > offsets[j] &&
          offsets[j] + alignedBytes(buffers[j]) > offsets[i])
        return false;
  }
  return true;
}

// The lowering's check of the plan's offsets agrees with the pairwise
// definition on placements, on placements with one buffer moved (valid or
// not), and on random offsets; it names the problem when there is one.
TEST(ArenaPlacementTest, LayoutCheckAgreesWithThePairwiseDefinition) {
  std::mt19937_64 rng(57);
  size_t valid = 0, invalid = 0;
  for (int trial = 0; trial < 600; ++trial) {
    std::vector<ArenaBuffer> buffers =
        randomBuffers(rng, 1 + trial % 40, 30, 12, trial % 3 ? 64 : 1);
    ArenaLayout layout = placeArena(buffers, ArenaStrategy::SizeBestFit);
    std::vector<uint64_t> offsets = layout.offsets;
    uint64_t arena = layout.arenaBytes;
    if (trial % 3 == 1) {
      offsets[rng() % offsets.size()] = (rng() % 8) * 64;
    } else if (trial % 3 == 2) {
      for (uint64_t &offset : offsets)
        offset = (rng() % 16) * std::max<uint64_t>(buffers[0].alignment, 1);
      arena = std::max<uint64_t>(arena, 16 * 64);
    }
    bool expected = placesPairwise(buffers, offsets, arena);
    std::string problem = arenaLayoutProblem(buffers, offsets, arena);
    EXPECT_EQ(problem.empty(), expected) << "trial " << trial << ": " << problem;
    (expected ? valid : invalid) += 1;
  }
  // Both verdicts are exercised.
  EXPECT_GT(valid, 100u);
  EXPECT_GT(invalid, 100u);
}

TEST(ArenaPlacementTest, LayoutCheckNamesTheProblem) {
  std::vector<ArenaBuffer> buffers = {
      {16, 64, 0, 2}, {32, 64, 1, 3}, {8, 64, 4, 5}};
  EXPECT_EQ(arenaLayoutProblem(buffers, {0, 64, 0}, 128), "");
  EXPECT_EQ(arenaLayoutProblem(buffers, {0, 0, 0}, 128),
            "buffers 0 and 1 are live at the same step but share bytes "
            "[0, 64)");
  EXPECT_EQ(arenaLayoutProblem(buffers, {0, 64, 32}, 128),
            "buffer 2's offset 32 is not a multiple of its alignment 64");
  EXPECT_EQ(arenaLayoutProblem(buffers, {0, 128, 0}, 128),
            "buffer 1 ends at byte 192, beyond the arena's 128");
  EXPECT_EQ(arenaLayoutProblem(buffers, {0, 64}, 128),
            "2 offsets for 3 buffers");
}

TEST(ArenaPlacementTest, BoundedGapSearchGoesOnTopWhenItRunsOut) {
  // 0 and 1 meet, 2 meets only 1: a full search puts 2 into the gap at 0
  // that 0 leaves at step 1; a search that may merge no range puts it on
  // top of 1.
  std::vector<ArenaBuffer> buffers = {
      {64, 64, 0, 0}, {64, 64, 0, 1}, {64, 64, 1, 1}};
  arena::Instance instance(buffers);
  std::vector<uint32_t> order = {0, 1, 2};
  for (arena::Fit fit : {arena::Fit::Smallest, arena::Fit::Lowest}) {
    std::vector<uint64_t> offsets;
    EXPECT_EQ(arena::placeGreedy(instance, order, fit, offsets), 128u);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 64, 0}));
    EXPECT_EQ(arena::placeGreedy(instance, order, fit, offsets, UINT64_MAX,
                                 /*rangesPerBuffer=*/0),
              192u);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 64, 128}));
  }
}

TEST(ArenaPlacementTest, BoundedGapSearchPlacesValidly) {
  std::mt19937 random(11);
  for (unsigned trial = 0; trial < 50; ++trial) {
    std::vector<ArenaBuffer> buffers;
    for (unsigned i = 0; i < 40; ++i) {
      int64_t first = random() % 30;
      buffers.push_back({64 * (1 + random() % 8), 64, first,
                         first + int64_t(random() % 10)});
    }
    arena::Instance instance(buffers);
    for (uint64_t rangesPerBuffer : {0u, 1u, 3u}) {
      ArenaLayout layout;
      layout.liveBytes = instance.liveBytes;
      layout.arenaBytes =
          *arena::placeGreedy(instance, instance.occupying,
                              arena::Fit::Smallest, layout.offsets, UINT64_MAX,
                              rangesPerBuffer);
      expectValid(buffers, layout);
    }
  }
}

/// The buffers of a data file: one "bytes first last" per line, 64-byte
/// aligned; lines starting with '#' are comments.
std::vector<ArenaBuffer> readBuffers(const std::string &path) {
  std::ifstream file(path);
  EXPECT_TRUE(file) << path;
  std::vector<ArenaBuffer> buffers;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream fields(line);
    ArenaBuffer buffer{0, 64, 0, 0};
    fields >> buffer.bytes >> buffer.first >> buffer.last;
    buffers.push_back(buffer);
  }
  return buffers;
}

/// Places the buffers of a data file (`count` of them) and checks the arena
/// is valid and within `permille` thousandths of the live peak.
void expectPlacedWithin(const std::string &file, size_t count,
                        uint64_t permille) {
  std::vector<ArenaBuffer> buffers =
      readBuffers(REMAT_PLANNING_TEST_DATA "/" + file);
  ASSERT_EQ(buffers.size(), count) << file;
  ArenaLayout layout = placeArena(buffers, ArenaStrategy::Best);
  expectValid(buffers, layout);
  EXPECT_LE(layout.arenaBytes * 1000, layout.liveBytes * permille) << file;
}

// Training steps at their lowest peak. In the bundled transformer's, weight
// gradients live from where they are made to the end, across the next
// layers' peaks: the orders by size and contention with the drifting local
// search stall at 1.021 of the load, the settling search reached 1.013, and
// a skyline order reaches the load. In the shared models' steps, small
// buffers (saved statistics, scales) live across most of the backward pass
// beside large short-lived ones; the orders by size and by contention leave
// them to be placed last, above the large ones' fragments (1.013 of the load
// on SqueezeNet, 1.138 on ResNet-50); with the skyline orders, which place
// them as soon as the floor under them is free, 1.0013 and 1.088.
TEST(ArenaPlacementTest, TrainingStepsPlaceNearTheLoad) {
  expectPlacedWithin("transformer-min-buffers.txt", 406, 1000);
  expectPlacedWithin("squeezenet-min-buffers.txt", 344, 1002);
  expectPlacedWithin("resnet50-min-buffers.txt", 2093, 1090);
}

/// The offsets of placing `order` bottom up as the skyline does: each
/// buffer on the highest end among the earlier ones it meets.
std::vector<uint64_t> stackedOffsets(const std::vector<ArenaBuffer> &buffers,
                                     llvm::ArrayRef<uint32_t> order) {
  std::vector<uint64_t> offsets(buffers.size(), 0);
  for (size_t k = 0; k < order.size(); ++k) {
    uint64_t floor = 0;
    for (size_t j = 0; j < k; ++j)
      if (meet(buffers[order[k]], buffers[order[j]]))
        floor = std::max(floor, offsets[order[j]] +
                                    alignedBytes(buffers[order[j]]));
    offsets[order[k]] = floor;
  }
  return offsets;
}

TEST(ArenaPlacementTest, SkylineOrderGoesBottomUpAndGreedyStaysBelowIt) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<ArenaBuffer> buffers =
        randomBuffers(rng, 2 + trial % 40, 30, 8, 64);
    arena::Instance instance(buffers);
    std::optional<std::vector<uint32_t>> skyline =
        arena::skylineOrder(instance, [&](uint32_t i) {
          return arena::SkylinePriority(instance.sizes[i], 0);
        });
    ASSERT_TRUE(skyline);
    const std::vector<uint32_t> &order = *skyline;
    ASSERT_EQ(order.size(), instance.occupying.size());
    // Each next buffer is one that could go lowest: stacked in the order,
    // the offsets never fall, and none could have gone below the one
    // chosen at its turn.
    std::vector<uint64_t> stacked = stackedOffsets(buffers, order);
    for (size_t k = 0; k < order.size(); ++k) {
      if (k > 0)
        EXPECT_LE(stacked[order[k - 1]], stacked[order[k]]);
      for (size_t later = k + 1; later < order.size(); ++later) {
        uint64_t floor = 0;
        for (size_t j = 0; j < k; ++j)
          if (meet(buffers[order[later]], buffers[order[j]]))
            floor = std::max(floor, stacked[order[j]] +
                                        alignedBytes(buffers[order[j]]));
        EXPECT_GE(floor, stacked[order[k]]);
      }
    }
    // Fit::Lowest in that order puts every buffer no higher.
    ArenaLayout layout;
    layout.liveBytes = instance.liveBytes;
    layout.arenaBytes = *arena::placeGreedy(instance, order, arena::Fit::Lowest,
                                            layout.offsets);
    expectValid(buffers, layout);
    for (uint32_t i : order)
      EXPECT_LE(layout.offsets[i], stacked[i]);
  }
}

// A deep random DAG's buffers all live across its backward pass: each
// placement raises the floor under thousands of them, and the skyline's
// queue would revisit about 400 stale entries per buffer. It gives up
// instead, and placement stays near-linear with the other orders.
TEST(ArenaPlacementTest, SkylineGivesUpWhereItsQueueWouldGrowQuadratic) {
  RandomDagOptions options;
  options.depth = 850;
  options.width = 4;
  Program program = generateRandomDag(options);
  StepArena step = placeStepArena(
      program, computeMemoryProfile(program, false), 64);
  ASSERT_GT(step.buffers.size(), 10000u);
  arena::Instance instance(step.buffers);
  EXPECT_FALSE(arena::skylineOrder(instance, [&](uint32_t i) {
    return arena::SkylinePriority(instance.sizes[i], 0);
  }));
  expectValid(step.buffers, step.layout);
  EXPECT_LE(step.layout.arenaBytes * 1000, step.layout.liveBytes * 1001);
}

/// Random buffers over `steps` steps whose intervals overlap a lot, so that
/// gap walks merge many ranges.
std::vector<ArenaBuffer> crowdedBuffers(std::mt19937 &random, unsigned count,
                                        int64_t steps) {
  std::vector<ArenaBuffer> buffers;
  for (unsigned i = 0; i < count; ++i) {
    int64_t first = random() % steps;
    buffers.push_back({64 * (1 + random() % 16), 64, first,
                       first + int64_t(random() % (steps / 4))});
  }
  return buffers;
}

TEST(ArenaPlacementTest, DroppedPassFinishesAsABoundedPass) {
  // A pass dropped for running out of ranges, finished under a per-buffer
  // bound, places every buffer as a pass under that bound from the start.
  std::mt19937 random(5);
  unsigned finished = 0, refused = 0;
  for (unsigned trial = 0; trial < 60; ++trial) {
    // Past 4096 buffers placement uses the occupancy tree.
    unsigned count = trial % 20 == 0 ? 5000 : 80;
    std::vector<ArenaBuffer> buffers =
        crowdedBuffers(random, count, count / 2);
    arena::Instance instance(buffers);
    for (arena::Fit fit : {arena::Fit::Smallest, arena::Fit::Lowest}) {
      for (uint64_t maxRanges : {count / 4, 2 * count}) {
        arena::GreedyPass pass(instance, instance.occupying, fit);
        if (pass.place(maxRanges))
          continue;
        for (uint64_t rangesPerBuffer : {2u, 8u, 64u}) {
          if (!pass.canFinish(rangesPerBuffer)) {
            ++refused;
            continue;
          }
          std::vector<uint64_t> expected;
          uint64_t arena =
              *arena::placeGreedy(instance, instance.occupying, fit, expected,
                                  UINT64_MAX, rangesPerBuffer);
          arena::GreedyPass copy(instance, instance.occupying, fit);
          ASSERT_FALSE(copy.place(maxRanges));
          EXPECT_EQ(copy.finish(rangesPerBuffer), arena) << "trial " << trial;
          EXPECT_EQ(copy.offsets, expected) << "trial " << trial;
          ++finished;
          break;
        }
      }
    }
  }
  // Both answers of canFinish are exercised.
  EXPECT_GT(finished, 20u);
  EXPECT_GT(refused, 20u);
}

TEST(ArenaPlacementTest, PassThatMergedPastTheBoundCannotFinishUnderIt) {
  // Buffer 2's walk merges the ranges of 0 and 1 (two) before it finds the
  // gap above them: a pass under one range per buffer had cut it short.
  std::vector<ArenaBuffer> buffers = {
      {64, 64, 0, 1}, {64, 64, 0, 1}, {64, 64, 1, 2}, {64, 64, 2, 3}};
  arena::Instance instance(buffers);
  std::vector<uint32_t> order = {0, 1, 2, 3};
  arena::GreedyPass pass(instance, order, arena::Fit::Lowest);
  EXPECT_FALSE(pass.place(/*maxRanges=*/3));
  EXPECT_FALSE(pass.canFinish(1));
  EXPECT_TRUE(pass.canFinish(2));
  std::vector<uint64_t> expected;
  uint64_t arena = *arena::placeGreedy(instance, order, arena::Fit::Lowest,
                                       expected, UINT64_MAX, 2);
  EXPECT_EQ(pass.finish(2), arena);
  EXPECT_EQ(pass.offsets, expected);
}

TEST(ArenaPlacementTest, StartOrderBestFitIsTheGreedyPassInThatOrder) {
  // The free-list placement takes, for every buffer, the gap the greedy
  // pass in start order takes: random steps with equal first steps, mixed
  // alignments (gaps whose start must be padded), zero-sized and empty
  // buffers, on both of the greedy pass's structures (a list up to 4096
  // buffers, the occupancy tree above). The variant that avoids slivers
  // gives valid layouts on them.
  std::mt19937 random(17);
  for (unsigned trial = 0; trial < 40; ++trial) {
    unsigned count = trial % 10 == 0 ? 5000 : 120;
    int64_t steps = trial % 2 ? count / 8 : count;
    std::vector<ArenaBuffer> buffers;
    for (unsigned i = 0; i < count; ++i) {
      int64_t first = random() % steps;
      uint64_t alignment = uint64_t(16) << (random() % 3);
      uint64_t bytes = random() % 20 == 0 ? 0 : 8 * (1 + random() % 40);
      int64_t last = random() % 25 == 0 ? first - 1
                                        : first + int64_t(random() % 12);
      buffers.push_back({bytes, alignment, first, last});
    }
    arena::Instance instance(buffers);
    std::vector<uint32_t> order = arena::startOrder(instance);
    ASSERT_EQ(order.size(), instance.occupying.size());
    std::vector<uint64_t> expected, offsets;
    uint64_t arena = *arena::placeGreedy(instance, order,
                                         arena::Fit::Smallest, expected);
    EXPECT_EQ(arena::placeInStartOrder(instance, order, offsets), arena)
        << "trial " << trial;
    EXPECT_EQ(offsets, expected) << "trial " << trial;
    ArenaLayout layout;
    layout.liveBytes = instance.liveBytes;
    layout.arenaBytes = arena;
    layout.offsets = offsets;
    expectValid(buffers, layout);
    // The variant that avoids slivers places them too.
    layout.arenaBytes = arena::placeInStartOrder(
        instance, order, layout.offsets, arena::sliverBytes(instance));
    expectValid(buffers, layout);
  }
}

TEST(ArenaPlacementTest, StartOrderBestFitTakesTheSmallestGapThatFits) {
  // At step 2, buffers 1 and 3 have left gaps of 128 B at 64 and 256 B at
  // 256. Buffer 5 (128 B, 128-byte aligned) cannot start in the smaller
  // one (128 + 128 > 192) and takes the larger; 6 takes the smallest gap
  // left, the lowest of two equal ones; 7 the only one that fits it. The
  // arena is rounded to the largest alignment.
  std::vector<ArenaBuffer> buffers = {
      {64, 64, 0, 3},  {128, 64, 0, 1},  {64, 64, 0, 3}, {256, 64, 0, 1},
      {64, 64, 0, 3},  {128, 128, 2, 3}, {64, 64, 2, 3}, {128, 64, 2, 3}};
  arena::Instance instance(buffers);
  std::vector<uint64_t> offsets;
  EXPECT_EQ(arena::placeInStartOrder(instance, arena::startOrder(instance),
                                     offsets),
            640u);
  EXPECT_EQ(offsets,
            (std::vector<uint64_t>{0, 64, 192, 256, 512, 256, 64, 384}));
}

/// A `base`-byte buffer live throughout, then 1366 times in steps of their
/// own: A (64 B, one step), B (64 B, three) and C (128 B, the last two). In
/// start order A and B take the bytes above the base, C fits in A's 64 B
/// only partly and goes on top: 64 B over the load, within 1/512 of it. By
/// size C goes first, A beside it in time, B above both: the load.
std::vector<ArenaBuffer> nearMissStep(uint64_t base) {
  std::vector<ArenaBuffer> buffers = {{base, 64, 0, 3 * 1366}};
  for (int64_t p = 0; p < 1366; ++p) {
    int64_t step = 3 * p;
    buffers.push_back({64, 64, step, step});
    buffers.push_back({64, 64, step, step + 2});
    buffers.push_back({128, 64, step + 1, step + 2});
  }
  return buffers;
}

TEST(ArenaPlacementTest, SliverAvoidingStartOrderTakesARoomyGapFirst) {
  // At step 2 buffers 0 and 2 have left gaps of 10 B at 0 and 20 B at 60.
  // Buffer 4 (8 B) fits both; best fit takes the 10 B gap and leaves 2 B,
  // less than the smallest size (the sliver bound on five buffers), so the
  // variant takes the 20 B gap, which keeps 12 B free.
  std::vector<ArenaBuffer> buffers = {
      {10, 1, 0, 1}, {50, 1, 0, 9}, {20, 1, 0, 1}, {50, 1, 0, 9}, {8, 1, 2, 9}};
  arena::Instance instance(buffers);
  std::vector<uint32_t> order = arena::startOrder(instance);
  ASSERT_EQ(arena::sliverBytes(instance), 8u);
  std::vector<uint64_t> bestFit, avoiding;
  EXPECT_EQ(arena::placeInStartOrder(instance, order, bestFit), 130u);
  EXPECT_EQ(arena::placeInStartOrder(instance, order, avoiding, 8), 130u);
  EXPECT_EQ(bestFit, (std::vector<uint64_t>{0, 10, 60, 80, 0}));
  EXPECT_EQ(avoiding, (std::vector<uint64_t>{0, 10, 60, 80, 60}));
}

TEST(ArenaPlacementTest, SliverAvoidingStartOrderWeighsTheTopAgainstTheSliver) {
  // Buffer 0 (`high` bytes, step 0) sets the high-water mark; at step 3 the
  // only gap is buffer 1's 10 B, where buffer 3 (8 B) would leave 2 B. On
  // top (at 60) it stays under a mark of 100 and goes there; with a mark
  // of 61 it would rise 7 B above it, more than the 2 B sliver.
  for (auto [high, expected] : {std::pair<uint64_t, uint64_t>{100, 60},
                                 std::pair<uint64_t, uint64_t>{61, 0}}) {
    std::vector<ArenaBuffer> buffers = {
        {high, 1, 0, 0}, {10, 1, 1, 2}, {50, 1, 1, 9}, {8, 1, 3, 9}};
    arena::Instance instance(buffers);
    std::vector<uint64_t> offsets;
    arena::placeInStartOrder(instance, arena::startOrder(instance), offsets,
                             8);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 0, 10, expected}))
        << "high-water mark " << high;
  }
}

TEST(ArenaPlacementTest, QuickPlacesLargeStepsInStartOrderOnly) {
  // nearMissStep: start order places it 64 B over the load. Quick stops there and says that Best may come closer; on a
  // small step it is Best.
  const uint64_t base = 64 * 1024;
  std::vector<ArenaBuffer> buffers = nearMissStep(base);
  ArenaLayout quick = placeArena(buffers, ArenaStrategy::Quick);
  expectValid(buffers, quick);
  EXPECT_EQ(quick.arenaBytes, base + 256);
  EXPECT_TRUE(quick.startOrderOnly);
  EXPECT_TRUE(quick.startOrderKept);
  EXPECT_LE(placeArena(buffers, ArenaStrategy::Best).arenaBytes,
            quick.arenaBytes);

  buffers.resize(100);
  ArenaLayout small = placeArena(buffers, ArenaStrategy::Quick);
  EXPECT_FALSE(small.startOrderOnly);
  EXPECT_EQ(small.offsets, placeArena(buffers, ArenaStrategy::Best).offsets);
}

TEST(ArenaPlacementTest, NearMissTriesTheOrdersBestFitInStartOrderSkips) {
  // nearMissStep: start order is within 1/512 of the load, which Best
  // keeps on a step this large; NearMiss reaches the load by size.
  const uint64_t base = 64 * 1024;
  std::vector<ArenaBuffer> buffers = nearMissStep(base);
  ArenaLayout best = placeArena(buffers, ArenaStrategy::Best);
  ArenaLayout nearMiss = placeArena(buffers, ArenaStrategy::NearMiss);
  expectValid(buffers, best);
  expectValid(buffers, nearMiss);
  EXPECT_EQ(best.liveBytes, base + 192);
  EXPECT_EQ(best.arenaBytes, base + 256);
  EXPECT_TRUE(best.startOrderKept);
  EXPECT_EQ(nearMiss.arenaBytes, base + 192);
  EXPECT_FALSE(nearMiss.startOrderKept);
}

} // namespace
