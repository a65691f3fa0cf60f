//===- ScheduleTest.cpp - Tests for memory-aware scheduling ---------------===//

#include "remat/Planning/Schedule.h"
#include "remat/Planning/InPlaceWrites.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Testing/Generators.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <numeric>
#include <random>

using namespace remat;

namespace {

ValueId result(const Program &program, OpId op, unsigned i = 0) {
  return program.ops[op].results[i];
}

/// Two independent branches computed breadth-first:
///   0: a = f(x)   100      2: c = h(a)   1
///   1: b = g(x)   100      3: d = k(b)   1
///   4: e = m(c, d) 1 (output)
/// Live: 100 200 201 102 3. Depth-first (0 2 1 3 4): 100 101 101 102 3.
Program makeTwoBranches() {
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {100}, 1, true, "f"));
  ValueId b = result(program, program.addOp({x}, {100}, 1, true, "g"));
  ValueId c = result(program, program.addOp({a}, {1}, 1, true, "h"));
  ValueId d = result(program, program.addOp({b}, {1}, 1, true, "k"));
  program.markOutput(result(program, program.addOp({c, d}, {1}, 1, true)));
  return program;
}

std::vector<OpId> identity(size_t size) {
  std::vector<OpId> order(size);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

TEST(ScheduleTest, InterleavesBranchesToFreeEarly) {
  Program program = makeTwoBranches();
  std::vector<OpId> order = scheduleForMemory(program, false);
  EXPECT_EQ(order, (std::vector<OpId>{0, 2, 1, 3, 4}));
  MemoryProfile profile = computeMemoryProfile(reorder(program, order), false);
  EXPECT_EQ(profile.liveBytes, (std::vector<uint64_t>{100, 101, 101, 102, 3}));
}

/// A small-input, large-output op (a weight gradient) that the greedy
/// choice runs first, where it then sits through the chain's peak:
///   0: a = f(x)  100        2: b = h(a)  100
///   1: w = g(x)   50 (output, through a view when `viewed`)
///   3: c = k(b)    1 (output)
/// Given and greedy orders peak at 250 (a, b and w); with w made last,
/// 200.
Program makeLateWeightGradient(bool viewed) {
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {100}, 1, true, "f"));
  ValueId w = result(program, program.addOp({x}, {50}, 1, true, "g"));
  if (viewed) {
    ValueId view = result(program, program.addOp({w}, {0}, 0, true, "view"));
    program.setAlias(view, w);
    w = view;
  }
  ValueId b = result(program, program.addOp({a}, {100}, 1, true, "h"));
  program.markOutput(w);
  program.markOutput(result(program, program.addOp({b}, {1}, 1, true, "k")));
  return program;
}

TEST(ScheduleTest, SinksOpsWhoseResultsOutweighTheirReads) {
  Program program = makeLateWeightGradient(/*viewed=*/false);
  EXPECT_EQ(computeMemoryProfile(program, false).peakBytes, 250u);
  std::vector<OpId> order = scheduleForMemory(program, false);
  EXPECT_EQ(order, (std::vector<OpId>{0, 2, 3, 1}));
  EXPECT_EQ(computeMemoryProfile(reorder(program, order), false).peakBytes,
            200u);
}

TEST(ScheduleTest, SinksAGrowingOpTogetherWithItsView) {
  Program program = makeLateWeightGradient(/*viewed=*/true);
  std::vector<OpId> order = scheduleForMemory(program, false);
  EXPECT_EQ(order, (std::vector<OpId>{0, 3, 4, 1, 2}));
  EXPECT_EQ(computeMemoryProfile(reorder(program, order), false).peakBytes,
            200u);
}

TEST(ScheduleTest, KeepsTheOrderWhenItCannotImprove) {
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {10}, 1, true));
  ValueId b = result(program, program.addOp({a}, {20}, 1, true));
  program.markOutput(result(program, program.addOp({b}, {30}, 1, true)));
  EXPECT_EQ(scheduleForMemory(program, false), identity(3));
}

TEST(ScheduleTest, OrderedOpsKeepTheirRelativeOrder) {
  // g and h are ordered: h cannot move ahead of g, so the depth-first
  // order is out of reach and the program stays as it is.
  Program program = makeTwoBranches();
  program.ops[1].ordered = true;
  program.ops[2].ordered = true;
  EXPECT_EQ(scheduleForMemory(program, false), identity(5));
}

TEST(ScheduleTest, OpsStayOnTheirSideOfTheBoundary) {
  Program program = makeTwoBranches();
  program.backwardBegin = 2;
  EXPECT_EQ(scheduleForMemory(program, false), identity(5));

  // With the boundary after h, f and h may still be paired up front.
  program.backwardBegin = 3;
  EXPECT_EQ(scheduleForMemory(program, false),
            (std::vector<OpId>{0, 2, 1, 3, 4}));
}

TEST(ScheduleTest, BackwardOpsStayAfterTheBoundaryOp) {
  // The boundary op (1, ordered, like remat.backward) comes before every
  // backward op, even one that reads only a forward value and would lower
  // the live bytes by running first:
  //   0: a = f(x) 100 | 1: boundary | 2: s = sum(a) 1 (output)
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {100}, 1, true, "f"));
  OpId boundary = program.addOp({}, {}, 0, false, "backward");
  program.ops[boundary].ordered = true;
  program.backwardBegin = boundary;
  program.markOutput(result(program, program.addOp({a}, {1}, 1, true, "sum")));
  EXPECT_EQ(scheduleForMemory(program, false), identity(3));
}

TEST(ScheduleTest, ReorderRemapsDefinitionsAndTheBoundary) {
  Program program = makeTwoBranches();
  program.backwardBegin = 3;
  std::vector<OpId> order = {1, 0, 2, 4, 3};
  // Not a valid schedule (4 reads 3's result), but reorder only permutes.
  Program result = reorder(program, order);
  for (OpId position = 0; position < order.size(); ++position) {
    EXPECT_EQ(result.ops[position].name, program.ops[order[position]].name);
    EXPECT_EQ(result.ops[position].origin, position);
    for (ValueId v : result.ops[position].results)
      EXPECT_EQ(result.values[v].def, position);
  }
  EXPECT_EQ(result.backwardBegin, 3u);
  EXPECT_EQ(result.inputs, program.inputs);
}

/// An order of `program`'s ops in which no op reads a value after an
/// in-place write replaced it.
bool readsOnlyHeldValues(const Program &program,
                         const std::vector<OpId> &order) {
  return !findClobberedRead(reorder(program, order));
}

TEST(ScheduleTest, ReadersOfABufferRunBeforeItsInPlaceWrite) {
  // Running w early would free c early (peak 1100 instead of 2100), but w
  // overwrites a, which r still has to read:
  //   0: a = f(x) 100   1: c = k(x) 1000   2: r = g(a) 1000
  //   3: w = h(a, c) in place into a      4: out = n(r, w) 1
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {100}, 1, true, "f"));
  ValueId c = result(program, program.addOp({x}, {1000}, 1, true, "k"));
  ValueId r = result(program, program.addOp({a}, {1000}, 1, true, "g"));
  ValueId w = result(program, program.addOp({a, c}, {100}, 1, true, "h"));
  program.setInPlaceWrite(w, a);
  program.markOutput(result(program, program.addOp({r, w}, {1}, 1, true)));
  ASSERT_TRUE(readsOnlyHeldValues(program, identity(5)));
  std::vector<OpId> order = scheduleForMemory(program, false);
  EXPECT_TRUE(readsOnlyHeldValues(program, order));
}

TEST(ScheduleTest, GrowingOpsDoNotSinkPastAnInPlaceWriteOfTheirOperand) {
  // Sinking g to n would lower the live bytes summed over the step, but
  // w overwrites a, which g reads:
  //   0: a = f(x) 10   1: big = g(a) 1000   2: w = h(a) in place into a
  //   3: t = k(x) 500  4: out = n(big, w, t) 1
  Program program;
  ValueId x = program.addInput(0);
  ValueId a = result(program, program.addOp({x}, {10}, 1, true, "f"));
  ValueId big = result(program, program.addOp({a}, {1000}, 1, true, "g"));
  ValueId w = result(program, program.addOp({a}, {10}, 1, true, "h"));
  program.setInPlaceWrite(w, a);
  ValueId t = result(program, program.addOp({x}, {500}, 1, true, "k"));
  program.markOutput(
      result(program, program.addOp({big, w, t}, {1}, 1, true, "n")));
  std::vector<OpId> order = scheduleForMemory(program, false);
  EXPECT_TRUE(readsOnlyHeldValues(program, order));
}

TEST(ScheduleTest, InPlaceWritesIntoOneBufferKeepTheirOrder) {
  // Both writes go into p's buffer and whichever runs last decides what
  // n reads. Running g first would free c early (peak 1000 instead of
  // 2000), but then f overwrites g's result:
  //   0: c = k(x) 1000   1: e = m(x) 1000   2: u = f(p, e) in place into p
  //   3: v = g(p, c) in place into p       4: out = n(v) 1
  Program program;
  ValueId x = program.addInput(0);
  ValueId p = program.addInput(100);
  ValueId c = result(program, program.addOp({x}, {1000}, 1, true, "k"));
  ValueId e = result(program, program.addOp({x}, {1000}, 1, true, "m"));
  OpId first = program.addOp({p, e}, {100}, 1, true, "f");
  program.setInPlaceWrite(result(program, first), p);
  OpId second = program.addOp({p, c}, {100}, 1, true, "g");
  ValueId v = result(program, second);
  program.setInPlaceWrite(v, p);
  program.markOutput(result(program, program.addOp({v}, {1}, 1, true, "n")));
  std::vector<OpId> order = scheduleForMemory(program, false);
  EXPECT_TRUE(readsOnlyHeldValues(program, order));
  auto position = [&](OpId op) { return llvm::find(order, op) - order.begin(); };
  EXPECT_LT(position(first), position(second));
}

/// The profile of an order, as the scheduler judges orders, is that of the
/// reordered program: on random training steps (views, in-place writes,
/// scratch, outputs), in the memory-aware order and in shuffled ones, with
/// and without the inputs.
TEST(ScheduleTest, ProfileOfAnOrderIsThatOfTheReorderedProgram) {
  std::mt19937_64 rng(17);
  for (unsigned seed = 0; seed < 40; ++seed) {
    Program program = generateTrainingStep(seed);
    std::vector<OpId> shuffled(program.ops.size());
    std::iota(shuffled.begin(), shuffled.end(), 0);
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (bool countInputs : {false, true}) {
      for (const std::vector<OpId> &order :
           {scheduleForMemory(program, countInputs), shuffled}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        MemoryProfile direct = computeMemoryProfile(program, order, countInputs);
        MemoryProfile built =
            computeMemoryProfile(reorder(program, order), countInputs);
        EXPECT_EQ(direct.liveBytes, built.liveBytes);
        EXPECT_EQ(direct.peakBytes, built.peakBytes);
        EXPECT_EQ(direct.peakOp, built.peakOp);
        ASSERT_EQ(direct.ranges.size(), built.ranges.size());
        for (ValueId v = 0; v < direct.ranges.size(); ++v) {
          EXPECT_EQ(direct.ranges[v].begin, built.ranges[v].begin);
          EXPECT_EQ(direct.ranges[v].end, built.ranges[v].end);
        }
      }
    }
  }
}

} // namespace
