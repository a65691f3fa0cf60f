//===- MemoryProfileTest.cpp - Tests for the memory model -----------------===//

#include "remat/Planning/MemoryProfile.h"

#include "gtest/gtest.h"

using namespace remat;

namespace {

ValueId result(const Program &program, OpId op, unsigned i = 0) {
  return program.ops[op].results[i];
}

/// x(100) -> b(10) -> c(20) -> d(30, output).
Program makeChain() {
  Program program;
  ValueId x = program.addInput(100, "x");
  OpId f = program.addOp({x}, {10}, 1, true, "f");
  OpId g = program.addOp({result(program, f)}, {20}, 1, true, "g");
  OpId h = program.addOp({result(program, g)}, {30}, 1, true, "h");
  program.markOutput(result(program, h));
  return program;
}

TEST(MemoryProfileTest, ChainWithoutInputs) {
  MemoryProfile profile = computeMemoryProfile(makeChain(), false);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{10, 30, 50}));
  EXPECT_EQ(profile.peakBytes, 50u);
  EXPECT_EQ(profile.peakOp, 2u);
}

TEST(MemoryProfileTest, ChainWithInputs) {
  Program program = makeChain();
  MemoryProfile profile = computeMemoryProfile(program, true);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{110, 130, 150}));
  EXPECT_EQ(profile.peakBytes, 150u);
  EXPECT_EQ(profile.ranges[0].begin, kNone);
  EXPECT_EQ(profile.ranges[0].end, 2u);
}

TEST(MemoryProfileTest, RangesEndAtLastUseOrAtTheEndForOutputs) {
  Program program = makeChain();
  MemoryProfile profile = computeMemoryProfile(program, false);
  EXPECT_EQ(profile.ranges[1].begin, 0u);
  EXPECT_EQ(profile.ranges[1].end, 1u);
  EXPECT_EQ(profile.ranges[2].begin, 1u);
  EXPECT_EQ(profile.ranges[2].end, 2u);
  EXPECT_EQ(profile.ranges[3].begin, 2u);
  EXPECT_EQ(profile.ranges[3].end, 2u);
  // Without countInputs an input is never live.
  EXPECT_EQ(profile.ranges[0].end, kNone);
}

TEST(MemoryProfileTest, UnusedResultIsLiveOnlyDuringItsOp) {
  Program program;
  ValueId x = program.addInput(8);
  program.addOp({x}, {40}, 1, true);
  OpId last = program.addOp({x}, {5}, 1, true);
  program.markOutput(result(program, last));
  MemoryProfile profile = computeMemoryProfile(program, false);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{40, 5}));
  EXPECT_EQ(profile.peakOp, 0u);
}

TEST(MemoryProfileTest, ViewsKeepTheirBufferAlive) {
  // r(64) = alloc; v = view(r); s(8) = f(); t(4) = g(v).
  Program program;
  ValueId x = program.addInput(0);
  ValueId r = result(program, program.addOp({x}, {64}, 1, true));
  ValueId v = result(program, program.addOp({r}, {0}, 0, true));
  program.setAlias(v, r);
  ValueId s = result(program, program.addOp({x}, {8}, 1, true));
  ValueId t = result(program, program.addOp({v}, {4}, 1, true));
  program.markOutput(s);
  program.markOutput(t);

  MemoryProfile profile = computeMemoryProfile(program, false);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{64, 64, 72, 76}));
  EXPECT_EQ(profile.ranges[r].end, 3u);
  EXPECT_EQ(profile.ranges[v].begin, profile.ranges[r].begin);
  EXPECT_EQ(profile.ranges[v].end, profile.ranges[r].end);
}

TEST(MemoryProfileTest, OutputViewKeepsItsBufferToTheEnd) {
  Program program;
  ValueId x = program.addInput(0);
  ValueId r = result(program, program.addOp({x}, {64}, 1, true));
  ValueId v = result(program, program.addOp({r}, {0}, 0, true));
  program.setAlias(v, r);
  program.addOp({x}, {8}, 1, true);
  program.markOutput(v);

  MemoryProfile profile = computeMemoryProfile(program, false);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{64, 64, 72}));
  EXPECT_EQ(profile.ranges[r].end, 2u);
}

TEST(MemoryProfileTest, PeakOpIsTheFirstMaximum) {
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {10}, 1, true));
  program.addOp({a}, {5}, 1, true);
  ValueId c = result(program, program.addOp({x}, {15}, 1, true));
  program.markOutput(c);
  MemoryProfile profile = computeMemoryProfile(program, false);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{10, 15, 15}));
  EXPECT_EQ(profile.peakBytes, 15u);
  EXPECT_EQ(profile.peakOp, 1u);
}

TEST(MemoryProfileTest, EmptyProgram) {
  Program program;
  program.addInput(100);
  MemoryProfile profile = computeMemoryProfile(program, true);
  EXPECT_TRUE(profile.liveBytes.empty());
  EXPECT_EQ(profile.peakBytes, 0u);
  EXPECT_EQ(profile.peakOp, kNone);
}

TEST(MemoryProfileTest, LiveAtListsBuffersLargestFirst) {
  // a(10), b(30), c(0: a scalar) are all live while d(20) is computed.
  Program program;
  ValueId x = program.addInput(50);
  ValueId a = result(program, program.addOp({x}, {10}, 1, true));
  ValueId b = result(program, program.addOp({x}, {30}, 1, true));
  ValueId c = result(program, program.addOp({x}, {0}, 1, true));
  OpId dOp = program.addOp({a, b, c}, {20}, 1, true);
  ValueId d = result(program, dOp);
  program.markOutput(d);

  MemoryProfile withoutInputs = computeMemoryProfile(program, false);
  EXPECT_EQ(withoutInputs.liveAt(program, dOp),
            (std::vector<ValueId>{b, d, a}));
  MemoryProfile withInputs = computeMemoryProfile(program, true);
  EXPECT_EQ(withInputs.liveAt(program, dOp),
            (std::vector<ValueId>{x, b, d, a}));
  EXPECT_EQ(withInputs.liveBytes[dOp], 110u);
}

} // namespace
