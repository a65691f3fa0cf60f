//===- DriverTest.cpp - Tests for the planning driver ---------------------===//

#include "remat/Planning/Driver.h"
#include "remat/Planning/ArenaBudget.h"
#include "remat/Planning/Plan.h"
#include "remat/Planning/Schedule.h"
#include "remat/Planning/Testing/Generators.h"

#include "gtest/gtest.h"

#include <string>

using namespace remat;

namespace {

/// Two independent branches computed breadth-first:
///   0: a = f(x)   100      2: c = h(a)   1
///   1: b = g(x)   100      3: d = k(b)   1
///   4: e = m(c, d) 1 (output)
/// Live: 100 200 201 102 3; depth-first (0 2 1 3 4) peaks at 102. Aligned
/// to 64 bytes, a and b take 128 each and the rest 64: the arena peaks at
/// op 2 with a, b and c, 320 bytes.
Program makeTwoBranches() {
  Program program;
  ValueId x = program.addInput(0);
  auto add = [&](std::vector<ValueId> operands, uint64_t bytes) {
    return program.ops[program.addOp(operands, {bytes}, 1, true)].results[0];
  };
  ValueId a = add({x}, 100);
  ValueId b = add({x}, 100);
  ValueId c = add({a}, 1);
  ValueId d = add({b}, 1);
  program.markOutput(add({c, d}, 1));
  return program;
}

TEST(DriverTest, FractionIsOfTheGivenOrdersArenaOrLivePeak) {
  Program program = makeTwoBranches();
  PlanningOptions options;
  options.schedule = false;
  options.budget = Budget::ofFraction(0.5);
  StepPlan arena = planStep(program, options);
  EXPECT_EQ(arena.arenaBefore.layout.arenaBytes, 320u);
  EXPECT_EQ(arena.solverOptions.budgetBytes, 160u);
  options.arenaBudget = false;
  StepPlan live = planStep(program, options);
  EXPECT_EQ(live.solverOptions.budgetBytes, 100u);
  EXPECT_FALSE(live.order.has_value());
}

TEST(DriverTest, KeepsTheMemoryAwareOrderWhenItPlansBetter) {
  Program program = makeTwoBranches();
  PlanningOptions options;
  options.budget = Budget::ofBytes(110);
  options.arenaBudget = false;
  StepPlan plan = planStep(program, options);
  ASSERT_TRUE(plan.order.has_value());
  EXPECT_TRUE(plan.order->scheduled);
  EXPECT_EQ(plan.order->order, (std::vector<OpId>{0, 2, 1, 3, 4}));
  EXPECT_EQ(plan.order->givenPeakBytes, 201u);
  EXPECT_EQ(plan.order->scheduledPeakBytes, 102u);
  ASSERT_TRUE(plan.order->other.has_value());
  // The kept plan is in the ids of the reordered program.
  Program kept = reorder(program, plan.order->order);
  EXPECT_EQ(verifyPlan(kept, plan.result.plan), "");
  EXPECT_TRUE(plan.result.feasible);
  EXPECT_EQ(plan.result.extraFlops, 0u);
}

TEST(DriverTest, WithoutScheduleOnlyTheGivenOrderIsPlanned) {
  Program program = makeTwoBranches();
  PlanningOptions options;
  options.schedule = false;
  options.budget = Budget::ofBytes(110);
  options.arenaBudget = false;
  StepPlan plan = planStep(program, options);
  EXPECT_FALSE(plan.order.has_value());
  EXPECT_EQ(verifyPlan(program, plan.result.plan), "");
  EXPECT_EQ(plan.plans, 1u);
}

TEST(DriverTest, ArenaBudgetReplansUntilTheArenaFits) {
  Program program = makeTwoBranches();
  PlanningOptions options;
  options.schedule = false;
  // 256 arena bytes: a live target of 256 lets a, b and c (320 aligned)
  // stay; only a lower target fits.
  options.budget = Budget::ofBytes(256);
  StepPlan plan = planStep(program, options);
  ASSERT_TRUE(plan.liveTargetBytes.has_value());
  EXPECT_LT(*plan.liveTargetBytes, 256u);
  EXPECT_GT(plan.plans, 1u);
  Program planned = materialize(program, plan.result.plan);
  MemoryProfile after = computeMemoryProfile(planned, false);
  EXPECT_LE(placeStepArena(planned, after, 64).layout.arenaBytes, 256u);
}

TEST(DriverTest, KeepsThePlacedArenaOfTheKeptPlan) {
  Program program = makeTwoBranches();
  PlanningOptions options;
  options.schedule = false;
  options.budget = Budget::ofBytes(256);
  StepPlan plan = planStep(program, options);
  ASSERT_TRUE(plan.arenaAfter.has_value());
  Program planned = materialize(program, plan.result.plan);
  MemoryProfile after = computeMemoryProfile(planned, false);
  StepArena placed = placeStepArena(planned, after, 64);
  EXPECT_EQ(plan.arenaAfter->buffers, placed.buffers);
  EXPECT_EQ(plan.arenaAfter->layout.offsets, placed.layout.offsets);
  EXPECT_EQ(plan.arenaAfter->layout.arenaBytes, placed.layout.arenaBytes);
  // Without an arena budget nothing was placed after planning.
  options.arenaBudget = false;
  EXPECT_FALSE(planStep(program, options).arenaAfter.has_value());
}

/// The bytes a budget of `options` bounds, of the step `plan` kept: its
/// placed arena or its live peak.
uint64_t budgetedBytes(const Program &given, const StepPlan &plan,
                       const PlanningOptions &options) {
  if (!options.arenaBudget)
    return plan.result.peakBytes;
  return plannedStepArena(keptProgram(given, plan), plan.result.plan,
                          options.alignment, options.countInputs)
      .layout.arenaBytes;
}

/// A missed budget is answered with a plan `min`'s plan does not beat on
/// the bytes the budget bounds (its arena or its live peak), then on extra
/// FLOPs. On random training steps of the testing library, at every tenth
/// from 0.9 to 0.3, best effort, in both budget kinds, with and without
/// reordering. Before a missed budget was compared with `min`'s plan,
/// steps 20, 24, 85 and 108 missed budgets with plans `min`'s plan beat.
/// The converse, `min`'s peak at most every budget's plan's, is not
/// guaranteed: `min`'s runs are heuristics, and a budgeted search can end a
/// few bytes lower (step 102, fixed order: 330 B at a missed budget, 343 B
/// at `min`).
TEST(DriverTest, MissedBudgetsAreNeverBeatenByMin) {
  for (unsigned seed : {20u, 24u, 60u, 64u, 68u, 85u, 102u, 108u}) {
    Program program = generateTrainingStep(seed);
    for (auto [arena, schedule] :
         {std::pair(false, false), std::pair(false, true),
          std::pair(true, false), std::pair(true, true)}) {
      PlanningOptions options;
      options.arenaBudget = arena;
      options.schedule = schedule;
      options.searchBelowFloor = true;
      options.budget = Budget::min();
      StepPlan least = planStep(program, options);
      ASSERT_TRUE(least.planned());
      uint64_t leastBytes = budgetedBytes(program, least, options);
      for (int tenths = 9; tenths >= 3; --tenths) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", budget 0." +
                     std::to_string(tenths) + (arena ? ", arena" : ", live") +
                     (schedule ? ", schedule" : ""));
        options.budget = Budget::ofFraction(tenths / 10.0);
        StepPlan plan = planStep(program, options);
        EXPECT_EQ(verifyPlan(keptProgram(program, plan), plan.result.plan), "");
        if (plan.result.feasible)
          continue;
        uint64_t bytes = budgetedBytes(program, plan, options);
        EXPECT_LE(bytes, leastBytes);
        if (bytes == leastBytes)
          EXPECT_LE(plan.result.extraFlops, least.result.extraFlops);
      }
    }
  }
}

/// A budget below the step's floor fails at once, or, searching below it
/// (best effort), is answered with the plan `min` makes: no plan meets it,
/// and the least peak is the closest one comes. The budget stays the
/// step's, missed.
TEST(DriverTest, BelowTheFloorBestEffortPlansTheLeastPeak) {
  for (unsigned seed : {24u, 85u}) {
    Program program = generateTrainingStep(seed);
    uint64_t floor = computePeakFloor(program, false).bytes;
    for (bool arena : {false, true}) {
      SCOPED_TRACE("seed " + std::to_string(seed) +
                   (arena ? ", arena" : ", live"));
      PlanningOptions options;
      options.arenaBudget = arena;
      options.budget = Budget::ofBytes(floor - 1);
      StepPlan refused = planStep(program, options);
      ASSERT_TRUE(refused.belowFloor);
      EXPECT_TRUE(refused.result.plan.recomputes.empty());
      EXPECT_FALSE(refused.result.feasible);

      options.searchBelowFloor = true;
      StepPlan closest = planStep(program, options);
      options.budget = Budget::min();
      StepPlan least = planStep(program, options);
      ASSERT_TRUE(closest.belowFloor);
      EXPECT_EQ(closest.belowFloor->bytes, floor);
      EXPECT_FALSE(closest.result.feasible);
      EXPECT_EQ(closest.solverOptions.budgetBytes, floor - 1);
      EXPECT_FALSE(closest.solverOptions.minimize);
      EXPECT_FALSE(least.result.plan.recomputes.empty());
      EXPECT_TRUE(samePlan(closest.result.plan, least.result.plan));
      EXPECT_EQ(closest.result.peakBytes, least.result.peakBytes);
      ASSERT_TRUE(closest.order && least.order);
      EXPECT_EQ(closest.order->scheduled, least.order->scheduled);
      // The other order's plan misses the budget too.
      if (closest.order->other)
        EXPECT_FALSE(closest.order->other->feasible);
    }
  }
}

/// The two orders plan on two threads as they would one after the other:
/// the same kept order, plan, arena and other order's plan, under arena and
/// live budgets, at 0.7, 0.5 and `min`, on two random training steps and a
/// layered DAG (the time limit is far off, so no solve is cut short).
TEST(DriverTest, OrdersPlanOnTwoThreadsAsOnOne) {
  std::vector<Program> programs;
  for (unsigned seed : {24u, 85u})
    programs.push_back(generateTrainingStep(seed));
  LayeredDagOptions layered;
  layered.nodes = 120;
  layered.seed = 9;
  programs.push_back(layeredDagProgram(generateLayeredDag(layered)));
  for (const Program &program : programs) {
    for (bool arena : {false, true}) {
      for (Budget budget : {Budget::ofFraction(0.7), Budget::ofFraction(0.5),
                            Budget::min()}) {
        PlanningOptions options;
        options.arenaBudget = arena;
        options.budget = budget;
        options.timeLimitSeconds = 600;
        options.searchBelowFloor = true;
        options.parallelOrders = false;
        StepPlan one = planStep(program, options);
        options.parallelOrders = true;
        StepPlan two = planStep(program, options);
        SCOPED_TRACE(std::to_string(program.ops.size()) + " ops, " +
                     (arena ? "arena" : "live") + " budget");
        ASSERT_TRUE(one.order && two.order);
        EXPECT_EQ(one.order->scheduled, two.order->scheduled);
        EXPECT_TRUE(samePlan(one.result.plan, two.result.plan));
        EXPECT_EQ(one.result.peakBytes, two.result.peakBytes);
        EXPECT_EQ(one.result.feasible, two.result.feasible);
        EXPECT_EQ(one.order->other.has_value(), two.order->other.has_value());
        if (one.arenaAfter && two.arenaAfter)
          EXPECT_EQ(one.arenaAfter->layout.arenaBytes,
                    two.arenaAfter->layout.arenaBytes);
        EXPECT_EQ(one.arenaAfter.has_value(), two.arenaAfter.has_value());
      }
    }
  }
}

/// A plan whose live bytes exceed the arena budget misses it in every
/// placement: planning keeps best fit in start order (Quick), which the
/// pass re-places with Best only for a plan it applies. A budget the plan
/// can meet gets Best's placement. On a 6,000-op random layered DAG (over
/// 4096 buffers, where Quick differs from Best): at 0.5 no plan comes near,
/// at 0.99 the first plan fits once Best has placed it.
TEST(DriverTest, PlansThatCannotFitAreNotPlacedWithBest) {
  LayeredDagOptions layered;
  layered.nodes = 6000;
  layered.seed = 3;
  Program program = layeredDagProgram(generateLayeredDag(layered));
  PlanningOptions options;
  options.budget = Budget::ofFraction(0.5);
  StepPlan missed = planStep(program, options);
  ASSERT_FALSE(missed.result.feasible);
  ASSERT_TRUE(missed.arenaAfter.has_value());
  const ArenaLayout &quick = missed.arenaAfter->layout;
  EXPECT_TRUE(quick.startOrderOnly);
  EXPECT_GT(quick.lowerBound, *missed.solverOptions.budgetBytes);
  StepArena startOrder = plannedStepArena(keptProgram(program, missed),
                                          missed.result.plan, options.alignment,
                                          options.countInputs,
                                          ArenaStrategy::Quick);
  EXPECT_EQ(quick.offsets, startOrder.layout.offsets);
  // Best, as best-effort's pass places it, comes closer.
  Program planned =
      materialize(keptProgram(program, missed), missed.result.plan);
  MemoryProfile after = computeMemoryProfile(planned, options.countInputs);
  StepArena best = placeStepArena(planned, after, options.alignment,
                                  ArenaStrategy::Best, &*missed.arenaAfter);
  EXPECT_FALSE(best.layout.startOrderOnly);
  EXPECT_LT(best.layout.arenaBytes, quick.arenaBytes);

  options.budget = Budget::ofFraction(0.99);
  StepPlan met = planStep(program, options);
  ASSERT_TRUE(met.result.feasible);
  ASSERT_TRUE(met.arenaAfter.has_value());
  EXPECT_FALSE(met.arenaAfter->layout.startOrderOnly);
  EXPECT_LE(met.arenaAfter->layout.arenaBytes, *met.solverOptions.budgetBytes);
}

TEST(DriverTest, PlacedArenaLendsItsLayoutOnlyToTheSameBuffers) {
  Program program = makeTwoBranches();
  MemoryProfile profile = computeMemoryProfile(program, false);
  StepArena placed = placeStepArena(program, profile, 64);
  // A made-up layout shows whose layout was taken.
  StepArena lent = placed;
  lent.layout.arenaBytes = 12345;
  EXPECT_EQ(placeStepArena(program, profile, 64, ArenaStrategy::Best, &lent)
                .layout.arenaBytes,
            12345u);
  // A layout of start order alone lends itself to Quick, not to Best.
  lent.layout.startOrderOnly = true;
  EXPECT_EQ(placeStepArena(program, profile, 64, ArenaStrategy::Quick, &lent)
                .layout.arenaBytes,
            12345u);
  EXPECT_EQ(placeStepArena(program, profile, 64, ArenaStrategy::Best, &lent)
                .layout.arenaBytes,
            placed.layout.arenaBytes);
  lent.layout.startOrderOnly = false;
  lent.buffers.back().bytes += 64;
  EXPECT_EQ(placeStepArena(program, profile, 64, ArenaStrategy::Best, &lent)
                .layout.arenaBytes,
            placed.layout.arenaBytes);
}

} // namespace
