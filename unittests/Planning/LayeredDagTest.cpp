//===- LayeredDagTest.cpp - Random layered DAGs are seeded and valid ------===//

#include "remat/Planning/Testing/Generators.h"
#include "remat/Planning/MemoryProfile.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <set>

using namespace remat;

namespace {

/// The CP study's fixed-order peak, written from its definition: at step j
/// the live buffers are the node run at j and every earlier node that a node
/// at j or later reads.
uint64_t topoMem(const LayeredDag &dag) {
  std::vector<unsigned> step(dag.order.size());
  for (unsigned j = 0; j < dag.order.size(); ++j)
    step[dag.order[j]] = j;
  std::vector<unsigned> lastRead(dag.order.size(), 0);
  for (auto [from, to] : dag.links)
    lastRead[from] = std::max(lastRead[from], step[to]);
  uint64_t peak = 0;
  for (unsigned j = 0; j < dag.order.size(); ++j) {
    uint64_t live = dag.outBytes[dag.order[j]];
    for (unsigned i = 0; i < j; ++i)
      if (lastRead[dag.order[i]] >= j)
        live += dag.outBytes[dag.order[i]];
    peak = std::max(peak, live);
  }
  return peak;
}

TEST(LayeredDagTest, SameSeedSameGraph) {
  LayeredDagOptions options;
  options.seed = 11;
  LayeredDag a = generateLayeredDag(options);
  LayeredDag b = generateLayeredDag(options);
  EXPECT_EQ(writeLayeredDagJson(a), writeLayeredDagJson(b));
  options.seed = 12;
  EXPECT_NE(writeLayeredDagJson(a),
            writeLayeredDagJson(generateLayeredDag(options)));
}

TEST(LayeredDagTest, OrderIsTopologicalFromSourceToSink) {
  for (unsigned n : {3u, 100u, 250u, 1000u}) {
    SCOPED_TRACE(n);
    LayeredDagOptions options;
    options.nodes = n;
    options.seed = n;
    LayeredDag dag = generateLayeredDag(options);
    ASSERT_EQ(dag.order.size(), n);
    std::vector<unsigned> step(n, n);
    for (unsigned j = 0; j < n; ++j) {
      ASSERT_LT(dag.order[j], n);
      ASSERT_EQ(step[dag.order[j]], n) << "node listed twice";
      step[dag.order[j]] = j;
    }
    EXPECT_EQ(dag.order.front(), 0u);
    EXPECT_EQ(dag.order.back(), 1u);
    std::vector<bool> hasOperand(n), hasReader(n);
    for (auto [from, to] : dag.links) {
      EXPECT_LT(step[from], step[to]);
      EXPECT_LT(dag.layer[from], dag.layer[to]);
      hasReader[from] = hasOperand[to] = true;
    }
    // One source and one sink: every other node reads and is read.
    for (unsigned v = 0; v < n; ++v) {
      EXPECT_EQ(hasOperand[v], v != 0) << v;
      EXPECT_EQ(hasReader[v], v != 1) << v;
    }
  }
}

TEST(LayeredDagTest, ShapeFollowsThePublishedInstances) {
  LayeredDagOptions options;
  options.nodes = 100;
  LayeredDag dag = generateLayeredDag(options);
  unsigned layers = *std::max_element(dag.layer.begin(), dag.layer.end()) + 1;
  // About 5 nodes per layer at n = 100 (the published instance has 19
  // inner layers), one to two operands per node on average plus skips.
  EXPECT_GE(layers, 12u);
  EXPECT_LE(layers, 30u);
  EXPECT_GE(dag.links.size(), 150u);
  EXPECT_LE(dag.links.size(), 300u);
  for (unsigned v = 0; v < 100; ++v) {
    EXPECT_EQ(dag.outBytes[v] % 10, 0u);
    EXPECT_LE(dag.duration[v], 1000u);
  }
}

TEST(LayeredDagTest, ProgramPeakIsTheFixedOrderPeak) {
  for (unsigned seed : {1u, 2u, 3u}) {
    LayeredDagOptions options;
    options.seed = seed;
    options.nodes = 250;
    LayeredDag dag = generateLayeredDag(options);
    Program program = layeredDagProgram(dag);
    ASSERT_EQ(program.ops.size(), 250u);
    EXPECT_EQ(program.backwardBegin, kNone);
    for (unsigned j = 0; j < 250; ++j)
      EXPECT_EQ(program.ops[j].name, std::to_string(dag.order[j]));
    EXPECT_EQ(computeMemoryProfile(program, false).peakBytes, topoMem(dag));
  }
}

} // namespace
