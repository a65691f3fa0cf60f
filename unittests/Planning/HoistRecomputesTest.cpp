//===- HoistRecomputesTest.cpp - Recomputations ahead of reader buffers ---===//
//
// hoistAboveReaderBuffers (lib/Planning/Solvers/HoistRecomputes.cpp) moves
// recomputations above the ops that open their reader's destination. A
// hand-built step pins down where it moves them and where it must not;
// seeded random steps and plans check that it never raises the peak or the
// FLOPs and keeps the plan valid.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Solver.h"
#include "remat/Planning/Testing/Generators.h"

#include "PlanContract.h"
#include "PlanTestHelpers.h"
#include "SolverSupport.h"

#include "gtest/gtest.h"

#include <random>

using namespace remat;

namespace {

/// a = f(x), b = g(a) (100 bytes each), l = loss(b) (1 byte), the boundary;
/// then `opened` ops, e = empty() (100 bytes), and the output
/// db = grad(e, b, l) (10 bytes). The plan recomputes b (f and g) in front
/// of grad. Ops: f=0, g=1, loss=2, boundary=3, opened..., empty, grad.
struct LossTail {
  Program program;
  ValueId a, b, l, e;
  OpId empty, grad;
};

template <typename Opened>
LossTail makeLossTail(Opened opened) {
  LossTail step;
  Program &program = step.program;
  ValueId x = program.addInput(0, "x");
  step.a = addOp(program, {x}, 100, 10, "f");
  step.b = addOp(program, {step.a}, 100, 10, "g");
  step.l = addOp(program, {step.b}, 1, 1, "loss");
  program.backwardBegin = program.ops.size();
  OpId boundary = program.addOp({}, {}, 0, false, "backward");
  program.ops[boundary].ordered = true;
  opened(step);
  step.e = addOp(program, {}, 100, 0, "empty");
  step.empty = program.values[step.e].def;
  ValueId db = addOp(program, {step.e, step.b, step.l}, 10, 10, "grad");
  step.grad = program.values[db].def;
  program.markOutput(db);
  return step;
}

Plan recomputeB(const LossTail &step) {
  Plan plan;
  plan.recomputes.push_back({step.b, step.grad, {0, 1}});
  return plan;
}

TEST(HoistRecomputesTest, MovesAboveTheReadersEmptyDestination) {
  LossTail step = makeLossTail([](LossTail &) {});
  Plan plan = recomputeB(step);
  ASSERT_EQ(verifyPlan(step.program, plan), "");
  Plan hoisted = hoistAboveReaderBuffers(step.program, plan);
  EXPECT_EQ(describe(hoisted),
            "{" + std::to_string(step.b) + " @" +
                std::to_string(step.empty) + ": 0 1}");
  EXPECT_EQ(verifyPlan(step.program, hoisted), "");
  // In front of grad, the chain runs with e open: a', b', e and l.
  EXPECT_EQ(replayPlan(step.program, plan).peakBytes, 301u);
  // Ahead of empty, the peak is grad's: e, b', l and db.
  EXPECT_EQ(replayPlan(step.program, hoisted).peakBytes, 211u);
  EXPECT_EQ(replayPlan(step.program, hoisted).flops,
            replayPlan(step.program, plan).flops);
  // evaluatePlan reports the hoisted plan.
  SolverResult result = evaluatePlan(step.program, plan, SolverOptions());
  EXPECT_EQ(result.peakBytes, 211u);
  EXPECT_EQ(describe(result.plan), describe(hoisted));
}

TEST(HoistRecomputesTest, StopsAtAnOpThatEndsABuffer) {
  // t = h(a): a's last reader. Moving the chain above h would run it with a
  // still live.
  LossTail step = makeLossTail([](LossTail &s) {
    ValueId t = addOp(s.program, {s.a}, 1, 1, "h");
    s.program.markOutput(t);
  });
  Plan plan = recomputeB(step);
  Plan hoisted = hoistAboveReaderBuffers(step.program, plan);
  EXPECT_EQ(hoisted.recomputes[0].before, step.empty);
  EXPECT_LE(replayPlan(step.program, hoisted).peakBytes,
            replayPlan(step.program, plan).peakBytes);
}

TEST(HoistRecomputesTest, StopsAtTheBoundaryAndAtAnotherReader) {
  LossTail step = makeLossTail([](LossTail &) {});
  Plan plan = recomputeB(step);
  // Another recomputation in front of empty: the two do not merge.
  plan.recomputes.insert(plan.recomputes.begin(),
                         {step.a, step.empty, {0}});
  Plan hoisted = hoistAboveReaderBuffers(step.program, plan);
  EXPECT_EQ(hoisted.recomputes[1].before, step.grad);
  // Alone, the chain stops at the boundary (op 3), not above it.
  Plan alone = hoistAboveReaderBuffers(step.program, recomputeB(step));
  EXPECT_EQ(alone.recomputes[0].before, 4u);
}

TEST(HoistRecomputesTest, RandomPlansNeverGetWorse) {
  constexpr unsigned kNumSeeds = 300;
  std::mt19937 rng(2026);
  unsigned moved = 0;
  forEachValidRandomPlan(kNumSeeds, rng, [&](const Program &program,
                                              const Plan &plan,
                                              bool countInputs) {
    Plan hoisted = hoistAboveReaderBuffers(program, plan);
    ASSERT_EQ(verifyPlan(program, hoisted), "") << describe(hoisted);
    Replay before = replayPlan(program, plan, countInputs);
    Replay after = replayPlan(program, hoisted, countInputs);
    EXPECT_LE(after.peakBytes, before.peakBytes)
        << describe(plan) << " -> " << describe(hoisted);
    EXPECT_EQ(after.flops, before.flops);
    moved += describe(hoisted) != describe(plan);
  });
  // The random plans must exercise the move, not only the trivial path.
  EXPECT_GT(moved, kNumSeeds / 4);
}

} // namespace
