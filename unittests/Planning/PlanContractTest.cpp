//===- PlanContractTest.cpp - The plan contract can fail ------------------===//
//
// The contract is the evidence every solver test leans on, so it is checked
// both ways: against figures worked out by hand, and against results that
// misreport by one byte or one FLOP, which it must refuse.
//
//===----------------------------------------------------------------------===//

#include "PlanContract.h"
#include "TinyStep.h"

#include "gtest/gtest.h"

using namespace remat;

namespace {

/// Recomputes a (op 0) before op 5: the hand-checked optimum of TinyStep.
Plan recomputeABeforeOp5() {
  Plan plan;
  ValueId a = 1;
  plan.recomputes.push_back({a, /*before=*/5, /*chain=*/{0}});
  return plan;
}

/// What a solver must report for that plan.
SolverResult honestResult() {
  SolverResult result;
  result.plan = recomputeABeforeOp5();
  result.peakBytes = 300;
  result.extraFlops = 10;
  return result;
}

SolverOptions withBudget(uint64_t budget) {
  SolverOptions options;
  options.budgetBytes = budget;
  return options;
}

TEST(PlanContractTest, ReplaysTheHandCheckedPeaks) {
  TinyStep tiny;
  Replay original = replayPlan(tiny.program, Plan());
  EXPECT_EQ(original.error, "");
  EXPECT_EQ(original.peakBytes, 310u);
  EXPECT_EQ(original.flops, 38u);
  Replay planned = replayPlan(tiny.program, recomputeABeforeOp5());
  EXPECT_EQ(planned.error, "");
  EXPECT_EQ(planned.peakBytes, 300u);
  EXPECT_EQ(planned.flops, 48u);
}

TEST(PlanContractTest, AcceptsAnHonestResult) {
  TinyStep tiny;
  EXPECT_TRUE(keepsPlanContract(tiny.program, honestResult(), withBudget(300)));
}

TEST(PlanContractTest, RefusesAWrongPeak) {
  TinyStep tiny;
  for (uint64_t peak : {299u, 301u, 310u}) {
    SolverResult result = honestResult();
    result.peakBytes = peak;
    EXPECT_FALSE(keepsPlanContract(tiny.program, result, withBudget(310)))
        << peak;
  }
}

TEST(PlanContractTest, RefusesWrongExtraFlops) {
  TinyStep tiny;
  SolverResult result = honestResult();
  result.extraFlops = 9;
  EXPECT_FALSE(keepsPlanContract(tiny.program, result, withBudget(300)));
}

TEST(PlanContractTest, RefusesAFeasibleClaimOverTheBudget) {
  TinyStep tiny;
  SolverResult result = honestResult();
  EXPECT_FALSE(keepsPlanContract(tiny.program, result, withBudget(299)));
  result.feasible = false;
  EXPECT_TRUE(keepsPlanContract(tiny.program, result, withBudget(299)));
}

TEST(PlanContractTest, RefusesAReadAfterAnOverwrite) {
  // b overwrites a's buffer in place, then c reads a.
  Program program;
  ValueId x = program.addInput(0, "x");
  ValueId a = program.ops[program.addOp({x}, {100}, 1, true, "a")].results[0];
  ValueId b = program.ops[program.addOp({a}, {0}, 1, true, "b")].results[0];
  program.setInPlaceWrite(b, a);
  ValueId c = program.ops[program.addOp({a}, {10}, 1, true, "c")].results[0];
  program.markOutput(b);
  program.markOutput(c);
  EXPECT_NE(replayPlan(program, Plan()).error, "");
}

} // namespace
