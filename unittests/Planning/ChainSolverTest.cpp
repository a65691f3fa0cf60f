//===- ChainSolverTest.cpp - The multi-level chain solver -----------------===//

#include "remat/Planning/Testing/Generators.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Solver.h"

#include "PlanContract.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"


using namespace remat;

namespace {

SolverOptions withBudget(uint64_t budget) {
  SolverOptions options;
  options.budgetBytes = budget;
  options.timeLimitSeconds = 2;
  return options;
}

SolverOptions minimizing() {
  SolverOptions options;
  options.minimize = true;
  options.timeLimitSeconds = 2;
  return options;
}

/// Checks what every chain result must satisfy and returns it.
SolverResult solveChain(const Program &program, const SolverOptions &options) {
  SolverResult r = createSolver("chain")->solve(program, options);
  EXPECT_TRUE(keepsPlanContract(program, r, options));
  return r;
}

/// A chain of `n` activations of 100 bytes, each made by one op of 1 flop
/// from the previous one (a_0 is the input x), and a backward part that
/// reads them back one per op: d_n(a_n), then d_p(g_p, a_p) for p = n-1..1.
/// Gradients own no bytes, so the live bytes are 100 x (live activations).
Program unitChain(unsigned n) {
  Program program;
  ValueId a = program.addInput(0, "x");
  std::vector<ValueId> activations;
  for (unsigned p = 1; p <= n; ++p) {
    OpId op = program.addOp({a}, {100}, 1, true, "f" + std::to_string(p));
    a = program.ops[op].results[0];
    activations.push_back(a);
  }
  program.backwardBegin = program.ops.size();
  ValueId g = kNone;
  for (unsigned p = n; p >= 1; --p) {
    std::vector<ValueId> operands = {activations[p - 1]};
    if (g != kNone)
      operands.insert(operands.begin(), g);
    OpId op = program.addOp(operands, {0}, 1, true, "d" + std::to_string(p));
    g = program.ops[op].results[0];
  }
  program.markOutput(g);
  return program;
}

/// Whether some recomputation's chain reads the copy an earlier one made
/// (a checkpoint stored during the backward part: a second level).
bool hasSecondLevel(const Program &program, const Plan &plan) {
  for (size_t k = 0; k < plan.recomputes.size(); ++k)
    for (size_t later = k + 1; later < plan.recomputes.size(); ++later) {
      const std::vector<OpId> &chain = plan.recomputes[later].chain;
      if (llvm::is_contained(program.ops[chain.front()].operands,
                             plan.recomputes[k].value))
        return true;
    }
  return false;
}

// Five activations, budget 200 (two of them). Forward op k needs a_{k-1}
// and a_k, so the forward part can keep nothing but a_4 and a_5 (kept: 200
// while f5 and d5 run). One level of checkpoints then recomputes a_1..a_3
// once each, every copy live until its stage: 300 when a_3 is made.
// Infeasible. Two levels: a_2 from x (f1 f2, kept), a_3 from a_2 (f3), d3,
// d2, a_1 from x (f1): 4 flops, never more than two activations live. 3
// flops cannot work (a_1, a_2, a_3 each made once are all live when a_3
// is made), so 4 is the optimum.
TEST(ChainSolverTest, MultiLevelBeatsOneLevelUnderATightBudget) {
  Program program = unitChain(5);
  SolverResult r = solveChain(program, withBudget(200));
  EXPECT_TRUE(r.feasible);
  EXPECT_EQ(r.extraFlops, 4u);
  EXPECT_LE(r.peakBytes, 200u);
  EXPECT_TRUE(hasSecondLevel(program, r.plan));
  EXPECT_NE(r.note.find("multi-level"), std::string::npos) << r.note;
}

// Every op needs two activations live (its operand and its result, or the
// one it reads at the boundary): 200 is the least peak, and at 200 the
// optimum is the 4 flops above.
TEST(ChainSolverTest, MinimizeReachesTheLeastPeakWithTheFewestFlops) {
  Program program = unitChain(5);
  SolverResult r = solveChain(program, minimizing());
  EXPECT_EQ(r.peakBytes, 200u);
  EXPECT_EQ(r.extraFlops, 4u);
  EXPECT_NE(r.note.find("multi-level"), std::string::npos) << r.note;
}

TEST(ChainSolverTest, InfeasibleBudgetIsReported) {
  Program program = unitChain(5);
  SolverResult r = solveChain(program, withBudget(150));
  EXPECT_FALSE(r.feasible);
  EXPECT_GT(r.peakBytes, 150u);
}

// Loose budgets need nothing beyond what fits.
TEST(ChainSolverTest, LooseBudgetRecomputesNothing) {
  Program program = unitChain(5);
  SolverResult r = solveChain(program, withBudget(500));
  EXPECT_TRUE(r.feasible);
  EXPECT_EQ(r.extraFlops, 0u);
}

// A longer chain needs three levels under a budget of three activations:
// with n = 10 and budget 300 the DP's result must still be feasible.
TEST(ChainSolverTest, LongUnitChainFitsInThreeActivations) {
  Program program = unitChain(10);
  SolverResult r = solveChain(program, withBudget(300));
  EXPECT_TRUE(r.feasible);
  EXPECT_NE(r.note.find("multi-level"), std::string::npos) << r.note;
}

TEST(ChainSolverTest, MustKeepAndMustRecomputeAreRespected) {
  Program program = unitChain(8);
  OpId kept = 2, recomputed = 5; // f3 and f6
  program.ops[kept].mustKeep = true;
  program.ops[recomputed].mustRecompute = true;
  ValueId recomputedValue = program.ops[recomputed].results[0];
  for (const SolverOptions &options :
       {withBudget(800), withBudget(400), withBudget(300), minimizing()}) {
    SolverResult r = solveChain(program, options);
    for (const Recompute &recompute : r.plan.recomputes)
      EXPECT_FALSE(llvm::is_contained(recompute.chain, kept));
    // No backward op reads the original of the mustRecompute result.
    Program planned = materialize(program, r.plan);
    for (OpId op = planned.backwardBegin; op < planned.ops.size(); ++op)
      EXPECT_FALSE(
          llvm::is_contained(planned.ops[op].operands, recomputedValue));
  }
  EXPECT_TRUE(solveChain(program, withBudget(300)).feasible);
}

TEST(ChainSolverTest, FallsBackOnNonChains) {
  RandomDagOptions options;
  options.depth = 6;
  options.width = 3;
  options.density = 0.5;
  Program dag = generateRandomDag(options);
  SolverResult r = createSolver("chain")->solve(dag, withBudget(1));
  EXPECT_NE(r.note.find("not a chain"), std::string::npos);
}

// The ILP searches every plan but rarely proves optimality within its time
// limit (docs/solvers.md); the chain solver must never do worse, and must
// agree with it where it does prove.
TEST(ChainSolverTest, NoWorseThanIlpOnASmallChain) {
  Program program = unitChain(5);
  SolverOptions options = withBudget(200);
  options.timeLimitSeconds = 1;
  SolverResult ilp = createSolver("ilp")->solve(program, options);
  SolverResult chain = solveChain(program, options);
  ASSERT_TRUE(chain.feasible);
  if (ilp.feasible) {
    EXPECT_LE(chain.extraFlops, ilp.extraFlops);
  }
  if (ilp.optimal) {
    EXPECT_EQ(chain.extraFlops, ilp.extraFlops);
  }
}

// On MLP training steps (heterogeneous: matmuls are costly, relus cheap,
// the loss is 4 bytes) the chain solver is never worse than greedy, which
// is one of its candidates, and meets every budget greedy meets.
TEST(ChainSolverTest, NeverWorseThanGreedyOnMlps) {
  ModelOptions model;
  model.layers = 8;
  model.width = 16;
  model.batch = 64;
  Program mlp = generateModel(ModelFamily::Mlp, model);
  uint64_t peak = computeMemoryProfile(mlp, false).peakBytes;
  bool multiLevelWon = false;
  for (double fraction : {0.9, 0.6, 0.5, 0.4, 0.3, 0.2}) {
    SCOPED_TRACE(fraction);
    SolverOptions options = withBudget(uint64_t(peak * fraction));
    SolverResult chain = solveChain(mlp, options);
    SolverResult greedy = createSolver("greedy")->solve(mlp, options);
    if (greedy.feasible) {
      EXPECT_TRUE(chain.feasible);
      EXPECT_LE(chain.extraFlops, greedy.extraFlops);
    }
    multiLevelWon |= chain.note.find("multi-level") != std::string::npos;
  }
  EXPECT_TRUE(multiLevelWon);
}

/// Random chains: sizes and costs vary by orders of magnitude, some ops are
/// pinned by policies or need scratch, and backward ops carry gradients of
/// their own size.
Program randomChain(unsigned seed) {
  RandomDagOptions options;
  options.seed = seed;
  options.depth = 3 + seed % 12;
  options.width = 1;
  options.density = 0;
  options.paramChance = 0;
  options.minBytes = 1;
  options.maxBytes = 200;
  options.minFlops = 1;
  options.maxFlops = 1000;
  options.mustKeepChance = 0.08;
  options.mustRecomputeChance = 0.08;
  options.scratchChance = 0.1;
  return generateRandomDag(options);
}

TEST(ChainSolverTest, RandomChainsMeetTheBudgetWhenFeasible) {
  unsigned multiLevel = 0;
  for (unsigned seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Program program = randomChain(seed);
    uint64_t peak = computeMemoryProfile(program, false).peakBytes;
    for (double fraction : {0.8, 0.6, 0.45, 0.3}) {
      SolverOptions options = withBudget(uint64_t(peak * fraction));
      SolverResult chain = solveChain(program, options);
      SolverResult greedy = createSolver("greedy")->solve(program, options);
      if (greedy.feasible) {
        EXPECT_TRUE(chain.feasible);
        EXPECT_LE(chain.extraFlops, greedy.extraFlops);
      }
      multiLevel += chain.note.find("multi-level") != std::string::npos;
    }
    SolverResult least = solveChain(program, minimizing());
    EXPECT_LE(least.peakBytes,
              createSolver("greedy")->solve(program, minimizing()).peakBytes);
  }
  EXPECT_GT(multiLevel, 0u);
}

} // namespace
