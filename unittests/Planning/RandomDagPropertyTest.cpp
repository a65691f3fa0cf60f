//===- RandomDagPropertyTest.cpp - Properties on random training graphs ---===//
//
// The solvers and the scheduler must keep their promises on every seeded
// random training step of RandomTrainingGraph.h.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Schedule.h"
#include "remat/Planning/Solver.h"

#include "PlanContract.h"
#include "RandomTrainingGraph.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace remat;

namespace {

constexpr unsigned kNumSeeds = 300;

/// Checks what every solver result must satisfy, whatever the budget: the
/// plan contract, and no more extra FLOPs than its chains execute.
void checkResult(const Program &program, const SolverResult &result,
                 const SolverOptions &options) {
  EXPECT_TRUE(keepsPlanContract(program, result, options));
  uint64_t chainFlops = 0;
  for (const Recompute &recompute : result.plan.recomputes)
    for (OpId op : recompute.chain)
      chainFlops += program.ops[op].flops;
  EXPECT_LE(result.extraFlops, chainFlops);
}

/// Checks that no forward buffer of a mustRecompute op (the generator's views
/// are all recomputable and its chains short, so the solver can always
/// comply) is still live when the backward part starts. A buffer only the
/// backward part read has its op moved there (the original is dropped).
void checkNotSaveable(const Program &program, const SolverResult &result,
                      bool countInputs) {
  Program rewritten = materialize(program, result.plan);
  MemoryProfile profile = computeMemoryProfile(rewritten, countInputs);
  for (OpId op = 0; op < program.backwardBegin; ++op) {
    const OpInfo &info = program.ops[op];
    if (!info.canRecompute() || !info.mustRecompute)
      continue;
    for (ValueId v : info.results)
      if (profile.ranges[v].end != kNone)
        EXPECT_LT(profile.ranges[v].end, rewritten.backwardBegin);
  }
}

TEST(RandomDagPropertyTest, GreedyMeetsEveryReachableBudget) {
  std::unique_ptr<Solver> greedy = createSolver("greedy");
  std::mt19937 budgets(12345);
  unsigned recomputedSeeds = 0;
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Program program = GraphGenerator(seed).generate();
    bool countInputs = seed % 2;
    uint64_t originalPeak =
        computeMemoryProfile(program, countInputs).peakBytes;

    SolverOptions minimize;
    minimize.minimize = true;
    minimize.countInputs = countInputs;
    SolverResult constrained = greedy->solve(program, SolverOptions());
    checkResult(program, constrained, SolverOptions());
    checkNotSaveable(program, constrained, false);
    SolverResult least = greedy->solve(program, minimize);
    checkResult(program, least, minimize);
    checkNotSaveable(program, least, countInputs);
    EXPECT_TRUE(least.feasible);
    if (!least.plan.recomputes.empty())
      ++recomputedSeeds;

    uint64_t lo = std::min(least.peakBytes, originalPeak);
    for (unsigned i = 0; i < 4; ++i) {
      uint64_t budget = lo + budgets() % (originalPeak - lo + 1);
      SCOPED_TRACE("budget " + std::to_string(budget));
      SolverOptions options;
      options.budgetBytes = budget;
      options.countInputs = countInputs;
      SolverResult result = greedy->solve(program, options);
      checkResult(program, result, options);
      checkNotSaveable(program, result, countInputs);
      // A budget run follows the minimizing run until the budget holds.
      if (budget >= least.peakBytes) {
        EXPECT_TRUE(result.feasible);
      }
    }

    // Below the least peak the local search, started from the budget
    // run's greedy plan rather than the minimizing run's, may still succeed;
    // whatever it returns is a true account of its plan.
    if (least.peakBytes > 0) {
      SolverOptions options;
      options.budgetBytes = least.peakBytes - 1;
      options.countInputs = countInputs;
      SolverResult result = greedy->solve(program, options);
      checkResult(program, result, options);
      EXPECT_EQ(result.feasible, result.peakBytes < least.peakBytes);
    }
  }
  // The generator must exercise the solver, not only the trivial path.
  EXPECT_GT(recomputedSeeds, kNumSeeds / 4);
}

TEST(RandomDagPropertyTest, NoneSolverReportsTheOriginalPeak) {
  std::unique_ptr<Solver> none = createSolver("none");
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Program program = GraphGenerator(seed).generate();
    SolverResult result = none->solve(program, SolverOptions());
    EXPECT_TRUE(result.plan.recomputes.empty());
    EXPECT_EQ(result.peakBytes, computeMemoryProfile(program, false).peakBytes);
  }
}

TEST(RandomDagPropertyTest, ScheduleIsAValidOrderThatNeverRaisesThePeak) {
  unsigned improved = 0;
  for (unsigned seed = 0; seed < kNumSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Program program = GraphGenerator(seed).generate();
    bool countInputs = seed % 2;
    std::vector<OpId> order = scheduleForMemory(program, countInputs);

    std::vector<OpId> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (OpId op = 0; op < sorted.size(); ++op)
      ASSERT_EQ(sorted[op], op);
    ASSERT_EQ(sorted.size(), program.ops.size());

    Program scheduled = reorder(program, order);
    OpId lastOrdered = kNone;
    for (OpId position = 0; position < order.size(); ++position) {
      OpId op = order[position];
      for (ValueId operand : scheduled.ops[position].operands) {
        OpId def = scheduled.values[operand].def;
        EXPECT_TRUE(def == kNone || def < position);
      }
      EXPECT_EQ(op < program.backwardBegin, position < program.backwardBegin);
      if (program.ops[op].ordered) {
        EXPECT_TRUE(lastOrdered == kNone || lastOrdered < op);
        lastOrdered = op;
      }
    }
    EXPECT_EQ(scheduled.backwardBegin, program.backwardBegin);

    uint64_t before = computeMemoryProfile(program, countInputs).peakBytes;
    uint64_t after = computeMemoryProfile(scheduled, countInputs).peakBytes;
    EXPECT_LE(after, before);
    if (after < before)
      ++improved;
  }
  EXPECT_GT(improved, 0u);
}

} // namespace
