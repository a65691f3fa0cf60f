//===- UnreadCopiesTest.cpp - Plans whose copies nothing reads ------------===//
//
// A recomputation whose copy nothing reads is wasted work that remat-apply
// refuses (verifyPlan). Search moves leave them behind when a longer chain
// later absorbs their reader; every solver's plan goes through
// dropUnreadRecomputes (evaluatePlan). Hand-built plans pin down what counts
// as read; seeded random plans with junk added check that what is left
// verifies and never peaks higher or costs more.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Solver.h"
#include "remat/Planning/Testing/Generators.h"

#include "PlanContract.h"
#include "PlanTestHelpers.h"
#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <random>

using namespace remat;

namespace {

/// x -> a = f(x) (op 0) -> b = g(a) (op 1) -> c = h(b) (op 2) -> loss (op 3),
/// then dc(l, c) (op 4), db(gc) (op 5), da(gb, b) (op 6, the output): b is
/// read again only by da.
struct Step {
  Program program;
  ValueId a, b, c;
  Step() {
    ValueId x = program.addInput(0, "x");
    a = addOp(program, {x}, 100, 10, "f");
    b = addOp(program, {a}, 100, 20, "g");
    c = addOp(program, {b}, 100, 30, "h");
    ValueId l = addOp(program, {c}, 1, 1, "loss");
    program.backwardBegin = program.ops.size();
    ValueId gc = addOp(program, {l, c}, 10, 1, "dc");
    ValueId gb = addOp(program, {gc}, 100, 1, "db");
    program.markOutput(addOp(program, {gb, b}, 100, 1, "da"));
  }
};

TEST(UnreadCopiesTest, ACopyALaterOpReadsIsKept) {
  Step step;
  // b' in front of dc, which does not read b; da, later, reads the current
  // version of b: the copy.
  Plan plan;
  plan.recomputes.push_back({step.b, 4, {1}});
  EXPECT_EQ(verifyPlan(step.program, plan), "");
  Plan kept = plan;
  dropUnreadRecomputes(step.program, kept);
  EXPECT_EQ(describe(kept), describe(plan));
}

TEST(UnreadCopiesTest, ACopyNothingReadsIsDroppedAndRefused) {
  Step step;
  // a' in front of dc: neither dc, nor a chain, nor a later op reads a.
  Plan plan;
  plan.recomputes.push_back({step.a, 4, {0}});
  plan.recomputes.push_back({step.c, 4, {2}});
  EXPECT_EQ(verifyPlanShape(step.program, plan), "");
  EXPECT_EQ(verifyPlan(step.program, plan),
            "recompute #0: nothing reads its copy of " +
                step.program.values[step.a].name);
  Plan dropped = plan;
  dropUnreadRecomputes(step.program, dropped);
  EXPECT_EQ(describe(dropped), "{3 @4: 2}");
  EXPECT_EQ(verifyPlan(step.program, dropped), "");
  EXPECT_LE(replayPlan(step.program, dropped).peakBytes, replayPlan(step.program, plan).peakBytes);
  EXPECT_LT(replayPlan(step.program, dropped).flops, replayPlan(step.program, plan).flops);
  // Every solver's plan goes through it.
  SolverResult result = evaluatePlan(step.program, plan, SolverOptions());
  EXPECT_EQ(verifyPlan(step.program, result.plan), "");
  EXPECT_EQ(result.extraFlops, 30u);
}

TEST(UnreadCopiesTest, AnEarlierDuplicateIsDropped) {
  Step step;
  // Two copies of c in front of dc: dc reads the second one.
  Plan plan;
  plan.recomputes.push_back({step.c, 4, {2}});
  plan.recomputes.push_back({step.c, 4, {2}});
  EXPECT_NE(verifyPlan(step.program, plan), "");
  dropUnreadRecomputes(step.program, plan);
  EXPECT_EQ(describe(plan), "{3 @4: 2}");
  EXPECT_EQ(verifyPlan(step.program, plan), "");
}

TEST(UnreadCopiesTest, DroppingCascadesToTheCopiesAChainRead) {
  // No backward op reads b. b' is read only by the chain of c', which a
  // second c' (re-making its own b) supersedes.
  Program program;
  ValueId x = program.addInput(0, "x");
  ValueId a = addOp(program, {x}, 100, 10, "f");
  ValueId b = addOp(program, {a}, 100, 20, "g");
  ValueId c = addOp(program, {b}, 100, 30, "h");
  ValueId l = addOp(program, {c}, 1, 1, "loss");
  program.backwardBegin = program.ops.size();
  program.markOutput(addOp(program, {l, c}, 10, 1, "dc"));
  Plan plan;
  plan.recomputes.push_back({b, 4, {1}});
  plan.recomputes.push_back({c, 4, {2}});
  plan.recomputes.push_back({c, 4, {1, 2}});
  dropUnreadRecomputes(program, plan);
  EXPECT_EQ(describe(plan), "{3 @4: 1 2}");
  EXPECT_EQ(verifyPlan(program, plan), "");
}

/// A random plan of shape-valid recomputations: each of a random value in
/// front of a random later op (not necessarily a reader), re-executing its
/// op and, at random, producers of its operands. Many copies are unread.
Plan randomShapedPlan(const Program &program, std::mt19937 &rng) {
  Plan plan;
  unsigned count = 1 + rng() % 6;
  for (unsigned tries = 0; plan.recomputes.size() < count && tries < 64;
       ++tries) {
    ValueId value = rng() % program.values.size();
    OpId def = program.values[value].def;
    if (!program.canRecompute(def) || def + 1 >= program.ops.size())
      continue;
    OpId before = def + 1 + rng() % (program.ops.size() - def - 1);
    plan.recomputes.push_back(
        {value, before, growChain(program, def, [&] { return rng() % 3 == 0; })});
  }
  return plan;
}

TEST(UnreadCopiesTest, RandomPlansVerifyAndNeverGetWorse) {
  constexpr unsigned kNumSeeds = 200;
  std::mt19937 rng(4242);
  unsigned droppedPlans = 0, keptCopies = 0;
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    Program program = generateTrainingStep(seed);
    for (unsigned trial = 0; trial < 8; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " +
                   std::to_string(trial));
      Plan plan = randomShapedPlan(program, rng);
      if (!verifyPlanShape(program, plan).empty())
        continue; // a chain the random walk left open
      Plan dropped = plan;
      dropUnreadRecomputes(program, dropped);
      ASSERT_EQ(verifyPlan(program, dropped), "") << describe(dropped);
      EXPECT_LE(replayPlan(program, dropped).peakBytes, replayPlan(program, plan).peakBytes)
          << describe(plan) << " -> " << describe(dropped);
      EXPECT_LE(replayPlan(program, dropped).flops, replayPlan(program, plan).flops);
      Plan again = dropped;
      dropUnreadRecomputes(program, again);
      EXPECT_EQ(describe(again), describe(dropped));
      droppedPlans += dropped.recomputes.size() < plan.recomputes.size();
      keptCopies += dropped.recomputes.size();
    }
  }
  // Both paths must be exercised.
  EXPECT_GT(droppedPlans, kNumSeeds);
  EXPECT_GT(keptCopies, kNumSeeds);
}

} // namespace
