//===- IlpSolverTest.cpp - Tests for the ilp solver -----------------------===//
//
// Hand-checked optima on tiny graphs, constraints, and optimality proofs on
// small models that the LP relaxation could not bound before moves were
// modelled as first computations (see IlpSolver.cpp).
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Testing/Generators.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Solver.h"

#include "PlanContract.h"
#include "TinyStep.h"

#include "gtest/gtest.h"

#include <chrono>

using namespace remat;

namespace {

ValueId result(const Program &program, OpId op, unsigned i = 0) {
  return program.ops[op].results[i];
}

SolverOptions withBudget(uint64_t budget) {
  SolverOptions options;
  options.budgetBytes = budget;
  options.timeLimitSeconds = 10;
  return options;
}

SolverResult solveIlp(const Program &program, const SolverOptions &options) {
  return createSolver("ilp")->solve(program, options);
}

TEST(IlpSolverTest, FindsTheHandCheckedOptimum) {
  TinyStep tiny;
  SolverResult r = solveIlp(tiny.program, withBudget(300));
  EXPECT_TRUE(r.feasible);
  EXPECT_LE(r.peakBytes, 300u);
  EXPECT_EQ(r.extraFlops, 10u);
  EXPECT_TRUE(r.optimal);
  EXPECT_EQ(r.gap, 0);
  EXPECT_TRUE(keepsPlanContract(tiny.program, r, withBudget(300)));
}

TEST(IlpSolverTest, LooseBudgetNeedsNothing) {
  TinyStep tiny;
  SolverResult r = solveIlp(tiny.program, withBudget(310));
  EXPECT_TRUE(r.plan.recomputes.empty());
  EXPECT_TRUE(r.optimal);
}

TEST(IlpSolverTest, InfeasibleBudgetIsReported) {
  TinyStep tiny;
  // Op 5 alone needs gb, a and ga: 300 bytes.
  SolverResult r = solveIlp(tiny.program, withBudget(250));
  EXPECT_FALSE(r.feasible);
  EXPECT_FALSE(r.optimal);
  EXPECT_GT(r.peakBytes, 250u);
  EXPECT_TRUE(keepsPlanContract(tiny.program, r, withBudget(250)));
  EXPECT_NE(r.note.find("no plan"), std::string::npos) << r.note;
}

TEST(IlpSolverTest, MustKeepIsNeverRecomputed) {
  TinyStep tiny;
  tiny.program.ops[0].mustKeep = true;
  SolverResult r = solveIlp(tiny.program, withBudget(300));
  for (const Recompute &recompute : r.plan.recomputes)
    for (OpId op : recompute.chain)
      EXPECT_NE(op, 0u);
  // a must stay from op 0 to op 5; then the only way to 300 is gone.
  EXPECT_FALSE(r.feasible);
}

TEST(IlpSolverTest, MustRecomputeIsHonoured) {
  TinyStep tiny;
  // b is read by the forward part (op 2) and the backward part (op 4): not
  // saveable means it must be recomputed, even without a budget.
  tiny.program.ops[1].mustRecompute = true;
  SolverResult r = solveIlp(tiny.program, SolverOptions());
  Program rewritten = materialize(tiny.program, r.plan);
  MemoryProfile profile = computeMemoryProfile(rewritten, false);
  // Either b's original dies in the forward part, or materialize dropped it
  // (the plan moved g, and h with it, behind the boundary: no extra cost).
  LiveRange range = profile.ranges[result(tiny.program, 1)];
  EXPECT_TRUE(range.end == kNone || range.end < rewritten.backwardBegin);
  EXPECT_EQ(r.extraFlops, 0u);
  EXPECT_TRUE(r.optimal);
}

/// A value that only a late op reads, made from a small operand: moving its
/// op next to the reader costs nothing.
///   0: a = f(x)        100 bytes, read only by op 3
///   1: b = g(x)         50
///   2: c = h(b)         50
///   3: out = k(a, c)    10 (output)
/// Live bytes 100 150 200 160: peak 200 at op 2. Moving f in front of op 3
/// gives 50 100 [a: 150] 160.
// Regression: the MIP kept a not-saveable value that only the forward part
// read, for a chain recomputing a saveable one from it (seed 1540 of the
// random training steps: %5, of a mustRecompute op, read by the copy of %6
// after the boundary). The MIP now forbids keeping every value of a policy
// across the boundary, and a plan whose backward part reads one is not
// taken.
TEST(IlpSolverTest, AChainDoesNotKeepANotSaveableValue) {
  Program program = generateTrainingStep(1540);
  ASSERT_TRUE(program.ops[program.values[5].def].mustRecompute);
  std::unique_ptr<Solver> ilp = createSolver("ilp");
  SolverOptions minimize;
  minimize.minimize = true;
  minimize.timeLimitSeconds = 5;
  SolverResult least = ilp->solve(program, minimize);
  EXPECT_TRUE(keepsPlanContract(program, least, minimize));
  EXPECT_EQ(keptNotSaveable(program, least.plan), "");
  SolverOptions options;
  options.budgetBytes = least.peakBytes;
  options.timeLimitSeconds = 5;
  SolverResult result = ilp->solve(program, options);
  EXPECT_TRUE(keepsPlanContract(program, result, options));
  EXPECT_TRUE(result.feasible);
  EXPECT_EQ(keptNotSaveable(program, result.plan), "");
}

TEST(IlpSolverTest, MovingAnOpIsFree) {
  Program program;
  ValueId x = program.addInput(0, "x");
  ValueId a = result(program, program.addOp({x}, {100}, 7, true, "f"));
  ValueId b = result(program, program.addOp({x}, {50}, 1, true, "g"));
  ValueId c = result(program, program.addOp({b}, {50}, 1, true, "h"));
  program.markOutput(result(program, program.addOp({a, c}, {10}, 1, true)));
  ASSERT_EQ(computeMemoryProfile(program, false).peakBytes, 200u);

  SolverResult r = solveIlp(program, withBudget(160));
  EXPECT_TRUE(r.feasible);
  EXPECT_EQ(r.peakBytes, 160u);
  EXPECT_EQ(r.extraFlops, 0u);
  EXPECT_TRUE(r.optimal);
  // Below 160 op 3 itself does not fit.
  EXPECT_FALSE(solveIlp(program, withBudget(159)).feasible);
}

/// A small MLP that the LP, when it may split an op between its place and a
/// later stage (half moved, at no cost), bounds by 0 extra FLOPs. Greedy
/// finds the optimum here; what is tested is the proof, which now comes
/// from the fixed-order MIP solved first.
/// Three layers of 16 at batch 64: CBC proves its optimum in milliseconds.
Program smallMlp() {
  ModelOptions model;
  model.layers = 3;
  model.width = 16;
  model.batch = 64;
  Program program = generateModel(ModelFamily::Mlp, model);
  return program;
}

TEST(IlpSolverTest, ProvesOptimalityOnASmallMlp) {
  Program program = smallMlp();
  uint64_t peak = computeMemoryProfile(program, false).peakBytes;
  SolverOptions options = withBudget(uint64_t(peak * 0.8));
  SolverResult ilp = solveIlp(program, options);
  EXPECT_TRUE(ilp.optimal) << "gap " << ilp.gap << " " << ilp.note;
  EXPECT_EQ(ilp.gap, 0);
  EXPECT_TRUE(ilp.feasible);
  EXPECT_TRUE(keepsPlanContract(program, ilp, options));
  for (const char *other : {"greedy", "chain", "sqrt-n", "xla"}) {
    SolverResult r = createSolver(other)->solve(program, options);
    if (r.feasible) {
      EXPECT_LE(ilp.extraFlops, r.extraFlops) << other;
    }
  }
}

/// A 70-op ResNet-style step (Checkmate's graph sizes) at 0.9 of its peak:
/// with the fixed order solved first, the LP bound is tight and CBC proves
/// the plan optimal among plans that keep every op at its place (the MIP
/// with moves alone ended at its time limit with a gap of 17-94%).
TEST(IlpSolverTest, ProvesACheckmateSizeCnnInTheFixedOrder) {
  ModelOptions model;
  model.layers = 3;
  Program program = generateModel(ModelFamily::ResNet, model);
  ASSERT_GE(program.ops.size(), 45u);
  ASSERT_LE(program.ops.size(), 75u);
  uint64_t peak = computeMemoryProfile(program, false).peakBytes;
  SolverOptions options = withBudget(uint64_t(peak * 0.9));
  options.timeLimitSeconds = 60;
  SolverResult ilp = solveIlp(program, options);
  EXPECT_TRUE(ilp.feasible);
  EXPECT_TRUE(ilp.optimal) << ilp.note;
  EXPECT_EQ(ilp.gap, 0);
  EXPECT_NE(ilp.note.find("fixed order"), std::string::npos) << ilp.note;
  EXPECT_TRUE(keepsPlanContract(program, ilp, options));
  SolverResult greedy = createSolver("greedy")->solve(program, options);
  if (greedy.feasible) {
    EXPECT_LE(ilp.extraFlops, greedy.extraFlops);
  }
}

/// An op with two results: the MIP keeps ops, not values, so it would
/// charge both buffers where a plan keeps one, and its bound would not be
/// valid. The solver still plans but claims nothing.
/// isolate-search=false, for embedders that must not fork: CBC runs in this
/// process and proves the same optimum as in its child.
TEST(IlpSolverTest, SolvesInThisProcessWhenNotIsolated) {
  Program program = smallMlp();
  uint64_t peak = computeMemoryProfile(program, false).peakBytes;
  SolverOptions options = withBudget(uint64_t(peak * 0.8));
  SolverResult isolated = solveIlp(program, options);
  options.isolateSearch = false;
  SolverResult here = solveIlp(program, options);
  EXPECT_TRUE(keepsPlanContract(program, here, options));
  EXPECT_TRUE(here.optimal) << here.note;
  EXPECT_EQ(here.extraFlops, isolated.extraFlops);
  EXPECT_EQ(here.peakBytes, isolated.peakBytes);
}

TEST(IlpSolverTest, NoClaimWithSeveralResults) {
  Program program;
  ValueId x = program.addInput(0, "x");
  OpId split = program.addOp({x}, {100, 10}, 50, true, "split");
  ValueId big = result(program, split, 0), small = result(program, split, 1);
  ValueId y = result(program, program.addOp({big}, {100}, 1, true));
  ValueId z = result(program, program.addOp({y}, {100}, 1, true));
  program.markOutput(result(program, program.addOp({z, small}, {10}, 1, true)));
  uint64_t peak = computeMemoryProfile(program, false).peakBytes;
  SolverResult r = solveIlp(program, withBudget(peak - 1));
  EXPECT_FALSE(r.optimal);
  EXPECT_LT(r.gap, 0);
  EXPECT_TRUE(keepsPlanContract(program, r, withBudget(peak - 1)));
}

/// The time limit is a promise, whatever CBC does: on this 136-op
/// transformer CBC alone took 7 s for a 1 s limit (its preprocessing and
/// root LP do not look at the clock) until it ran in a child process killed
/// at the deadline. The margin is the one the solver promises
/// (max(10%, 1 s)); the plan comes back valid, with no optimality claim.
TEST(IlpSolverTest, KeepsItsTimeLimitOnALargeMip) {
  ModelOptions model;
  model.layers = 4;
  model.width = 64;
  model.length = 32;
  Program program = generateModel(ModelFamily::Transformer, model);
  uint64_t peak = computeMemoryProfile(program, false).peakBytes;
  SolverOptions options = withBudget(uint64_t(peak * 0.5));
  options.timeLimitSeconds = 1;
  auto start = std::chrono::steady_clock::now();
  SolverResult r = solveIlp(program, options);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  EXPECT_LE(seconds, options.timeLimitSeconds + 1.0);
  EXPECT_FALSE(r.optimal) << r.note;
  EXPECT_TRUE(keepsPlanContract(program, r, options));
}

} // namespace
