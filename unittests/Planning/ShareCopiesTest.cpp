//===- ShareCopiesTest.cpp - Later readers read copies made in chains -----===//
//
// shareRecomputedCopies (lib/Planning/ShareCopies.cpp) splits a recompute
// chain after every intermediate that a later reader would otherwise read in
// an older version. Hand-built steps pin down where it cuts and where it must
// not; seeded random steps and plans check that it never raises the peak or
// the FLOPs and that a shared plan is shared already.
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

#include <algorithm>
#include <random>

using namespace remat;

namespace {

/// Checks that sharing leaves the well-formed `plan` as it is.
void expectUnchanged(const Program &program, const Plan &plan) {
  EXPECT_EQ(verifyPlan(program, plan), "");
  EXPECT_EQ(describe(shareRecomputedCopies(program, plan)), describe(plan));
}

/// Checks that sharing turns the well-formed `plan` into `expected`, a
/// well-formed plan that peaks strictly lower at the same FLOPs.
void expectSharedLowers(const Program &program, const Plan &plan,
                        const std::string &expected) {
  EXPECT_EQ(verifyPlan(program, plan), "");
  Plan shared = shareRecomputedCopies(program, plan);
  EXPECT_EQ(describe(shared), expected);
  EXPECT_EQ(verifyPlan(program, shared), "");
  EXPECT_LT(replayPlan(program, shared).peakBytes, replayPlan(program, plan).peakBytes);
  EXPECT_EQ(replayPlan(program, shared).flops, replayPlan(program, plan).flops);
}

/// The chain ops in the order the plan runs them, each with the op it runs
/// in front of: what sharing must not change.
std::vector<std::pair<OpId, OpId>> executedChainOps(const Plan &plan) {
  std::vector<std::pair<OpId, OpId>> executed;
  for (const Recompute &recompute : plan.recomputes)
    for (OpId op : recompute.chain)
      executed.push_back({recompute.before, op});
  return executed;
}

/// The forward part of the hand-built steps below: a = f(x), b = g(a),
/// c = h(b) (100 bytes each), l = loss(c) (1 byte), then the boundary.
/// Values: x=0, a=1, b=2, c=3, l=4. Ops: f=0, g=1, h=2, loss=3.
struct Forward {
  ValueId a, b, c, l;
};

Forward addForward(Program &program) {
  Forward forward;
  ValueId x = program.addInput(0, "x");
  forward.a = addOp(program, {x}, 100, 10, "f");
  forward.b = addOp(program, {forward.a}, 100, 20, "g");
  forward.c = addOp(program, {forward.b}, 100, 30, "h");
  forward.l = addOp(program, {forward.c}, 1, 1, "loss");
  program.backwardBegin = program.ops.size();
  return forward;
}

/// Forward, then gc = dc(l, c) (10 bytes, op 4), db (op 5) reading gc (and
/// b, when `backwardReadsB`), and da (op 6) as the output.
struct ChainStep {
  Program program;
  Forward forward;
  explicit ChainStep(bool backwardReadsB) : forward(addForward(program)) {
    ValueId gc = addOp(program, {forward.l, forward.c}, 10, 1, "dc");
    std::vector<ValueId> dbOperands = {gc};
    if (backwardReadsB)
      dbOperands.push_back(forward.b);
    ValueId gb = addOp(program, dbOperands, 100, 1, "db");
    program.markOutput(addOp(program, {gb}, 100, 1, "da"));
  }
};

TEST(ShareCopiesTest, LaterReaderOfAnIntermediateSplitsTheChain) {
  ChainStep step(/*backwardReadsB=*/true);
  const Program &program = step.program;
  // c = h(g(f(x))) before dc; db reads b later.
  Plan plan;
  plan.recomputes.push_back({step.forward.c, /*before=*/4, {0, 1, 2}});
  ASSERT_EQ(verifyPlan(program, plan), "");

  Plan shared = shareRecomputedCopies(program, plan);
  EXPECT_EQ(describe(shared), "{2 @4: 0 1}{3 @4: 2}");
  EXPECT_EQ(verifyPlan(program, shared), "");

  // Unshared, the original b lives until db beside the chain's transient b':
  // b, l, b', c' at h' = 301. Shared, db reads b' and the original b dies at
  // h: the peak is dc's l, c', b', gc = 211.
  EXPECT_EQ(replayPlan(program, plan).peakBytes, 301u);
  EXPECT_EQ(replayPlan(program, shared).peakBytes, 211u);
  EXPECT_EQ(replayPlan(program, shared).flops, replayPlan(program, plan).flops);

  Program materialized = materialize(program, shared);
  const OpInfo &db = materialized.ops[materialized.ops.size() - 2];
  ASSERT_EQ(db.name, "db");
  ValueId readB = db.operands[1];
  EXPECT_EQ(materialized.values[readB].origin, step.forward.b);
  EXPECT_NE(readB, step.forward.b) << "db must read the copy";

  // Every solver's plan goes through it.
  SolverResult result = evaluatePlan(program, plan, SolverOptions());
  EXPECT_EQ(describe(result.plan), describe(shared));
  EXPECT_EQ(result.peakBytes, 211u);
  EXPECT_EQ(result.extraFlops, 60u);
}

TEST(ShareCopiesTest, NoLaterReaderLeavesThePlanAlone) {
  {
    SCOPED_TRACE("b read by nothing after the chain");
    ChainStep step(/*backwardReadsB=*/false);
    Plan plan;
    plan.recomputes.push_back({step.forward.c, 4, {0, 1, 2}});
    expectUnchanged(step.program, plan);
  }
  {
    SCOPED_TRACE("b read in the backward part before the chain only");
    Program program;
    Forward forward = addForward(program);
    ValueId gb = addOp(program, {forward.l, forward.b}, 10, 1, "db");
    program.markOutput(addOp(program, {gb, forward.c}, 100, 1, "dc"));
    Plan plan;
    plan.recomputes.push_back({forward.c, 5, {0, 1, 2}});
    expectUnchanged(program, plan);
  }
}

TEST(ShareCopiesTest, ForwardRecomputationsAreLeftAlone) {
  // Recomputing c in front of loss (forward part): the copies of forward
  // intermediates would become saved activations.
  ChainStep step(/*backwardReadsB=*/true);
  Plan plan;
  plan.recomputes.push_back({step.forward.c, 3, {0, 1, 2}});
  expectUnchanged(step.program, plan);
}

/// Forward: a = f(x), (b1, b2) = g(a) (100 bytes each), c = h(b1[, b2]),
/// l = loss(c, b2). Backward: dc(l, c), then readers of b1 and, when
/// `laterReadsB2`, of b2. Ops: f=0 g=1 h=2 loss=3 dc=4.
struct TwoResultStep {
  Program program;
  ValueId b1, b2, c;
  TwoResultStep(bool chainReadsB2, bool laterReadsB2) {
    ValueId x = program.addInput(0, "x");
    ValueId a = addOp(program, {x}, 100, 10, "f");
    OpId g = program.addOp({a}, {100, 100}, 20, true, "g");
    b1 = program.ops[g].results[0];
    b2 = program.ops[g].results[1];
    std::vector<ValueId> hOperands = {b1};
    if (chainReadsB2)
      hOperands.push_back(b2);
    c = addOp(program, hOperands, 100, 30, "h");
    ValueId l = addOp(program, {c, b2}, 1, 1, "loss");
    program.backwardBegin = program.ops.size();
    ValueId grad = addOp(program, {l, c}, 10, 1, "dc");
    grad = addOp(program, {grad, b1}, 10, 1, "db1");
    if (laterReadsB2)
      grad = addOp(program, {grad, b2}, 10, 1, "db2");
    program.markOutput(grad);
  }
};

TEST(ShareCopiesTest, TwoResultsToHandOnLeaveThePlanAlone) {
  for (bool laterReadsB2 : {true, false}) {
    // Both results read later, or b1 read later while h reads b2 too: a cut
    // after g would have to make two values current.
    SCOPED_TRACE(laterReadsB2 ? "both read later" : "h reads the other");
    TwoResultStep step(/*chainReadsB2=*/true, laterReadsB2);
    Plan plan;
    plan.recomputes.push_back({step.c, 4, {0, 1, 2}});
    expectUnchanged(step.program, plan);
  }
}

TEST(ShareCopiesTest, OneResultOfATwoResultOpIsHandedOn) {
  TwoResultStep step(/*chainReadsB2=*/false, /*laterReadsB2=*/false);
  Plan plan;
  plan.recomputes.push_back({step.c, 4, {0, 1, 2}});
  expectSharedLowers(step.program, plan,
                     "{" + std::to_string(step.b1) + " @4: 0 1}{" +
                         std::to_string(step.c) + " @4: 2}");
}

TEST(ShareCopiesTest, ALaterRecomputationTakesOver) {
  // Forward, then two backward readers of b after gc = dc(l, c) (op 4):
  // u = k(gc, b) (op 5) and db(u, b) (op 6).
  Program program;
  Forward forward = addForward(program);
  ValueId gc = addOp(program, {forward.l, forward.c}, 10, 1, "dc");
  ValueId u = addOp(program, {gc, forward.b}, 10, 1, "k");
  program.markOutput(addOp(program, {u, forward.b}, 100, 1, "db"));
  const ValueId b = forward.b, c = forward.c;
  {
    SCOPED_TRACE("b recomputed again before its first later reader");
    Plan plan;
    plan.recomputes.push_back({c, 4, {0, 1, 2}});
    plan.recomputes.push_back({b, 5, {0, 1}});
    expectUnchanged(program, plan);
  }
  {
    SCOPED_TRACE("k reads b before the next copy takes over at db");
    Plan plan;
    plan.recomputes.push_back({c, 4, {0, 1, 2}});
    plan.recomputes.push_back({b, 6, {0, 1}});
    expectSharedLowers(program, plan, "{2 @4: 0 1}{3 @4: 2}{2 @6: 0 1}");
  }
}

TEST(ShareCopiesTest, ALaterChainReadsTheCopy) {
  // Forward: a = f(x), b = g(a), c = h(b), u = k(b), l = loss(c, u).
  // Backward: gc = dc(l, c), gu = du(gc, u). No original op reads b after
  // the first chain, but the chain recomputing u before du does.
  Program program;
  ValueId x = program.addInput(0, "x");
  ValueId a = addOp(program, {x}, 100, 10, "f");
  ValueId b = addOp(program, {a}, 100, 20, "g");
  ValueId c = addOp(program, {b}, 100, 30, "h");
  ValueId u = addOp(program, {b}, 100, 40, "k");
  ValueId l = addOp(program, {c, u}, 1, 1, "loss");
  program.backwardBegin = program.ops.size();
  ValueId gc = addOp(program, {l, c}, 10, 1, "dc");
  program.markOutput(addOp(program, {gc, u}, 10, 1, "du"));

  Plan plan;
  plan.recomputes.push_back({c, 5, {0, 1, 2}});
  plan.recomputes.push_back({u, 6, {3}});
  // The original b is still read by h and k in the forward part: nothing
  // is dropped, the FLOPs stay.
  expectSharedLowers(program, plan, "{2 @5: 0 1}{3 @5: 2}{4 @6: 3}");
}

TEST(ShareCopiesTest, AnOutputReadsTheCopy) {
  ChainStep step(/*backwardReadsB=*/false);
  Program program = step.program;
  program.markOutput(step.forward.b);
  Plan plan;
  plan.recomputes.push_back({step.forward.c, 4, {0, 1, 2}});
  expectSharedLowers(program, plan, "{2 @4: 0 1}{3 @4: 2}");
  Program materialized =
      materialize(program, shareRecomputedCopies(program, plan));
  EXPECT_FALSE(materialized.values[step.forward.b].isOutput);
}

/// ChainStep where the backward part also reads a view w of b (or, with
/// `viewOfA`, b is itself a view of a that the backward part reads too).
/// Ops: f=0 g=1 h=2 [view=3] loss dc ...
struct ViewStep {
  Program program;
  ValueId b, c;
  OpId dc;
  explicit ViewStep(bool viewOfA) {
    ValueId x = program.addInput(0, "x");
    ValueId a = addOp(program, {x}, 100, 10, "f");
    OpId g = program.addOp({a}, {100}, 20, true, "g");
    b = program.ops[g].results[0];
    if (viewOfA)
      program.setAlias(b, a);
    c = addOp(program, {b}, 100, 30, "h");
    ValueId w = a;
    if (!viewOfA) {
      OpId view = program.addOp({b}, {0}, 0, true, "view");
      w = program.ops[view].results[0];
      program.setAlias(w, b);
    }
    ValueId l = addOp(program, {c}, 1, 1, "loss");
    program.backwardBegin = program.ops.size();
    dc = program.ops.size();
    ValueId gc = addOp(program, {l, c}, 10, 1, "dc");
    ValueId gb = addOp(program, {gc, b}, 10, 1, "db");
    program.markOutput(addOp(program, {gb, w}, 10, 1, "dw"));
  }
};

TEST(ShareCopiesTest, ABufferAViewHoldsIsNotHandedOn) {
  for (bool viewOfA : {false, true}) {
    // The older b's buffer stays live for dw whatever db reads: a copy of b
    // for db would only add its bytes.
    SCOPED_TRACE(viewOfA ? "b is a view of a, dw reads a"
                         : "w is a view of b, dw reads w");
    ViewStep step(viewOfA);
    Plan plan;
    plan.recomputes.push_back({step.c, step.dc, {0, 1, 2}});
    expectUnchanged(step.program, plan);
  }
}

/// x -> a = f(x) (100 B), c = k(x) (50 B), w = h(a, c) written in place
/// into a, y = m(w); after the boundary d1 reads y and c, d2 reads w, d3
/// reads c again. Recomputing w for d2 re-executes f, k and h: c is read
/// later (by d3), which would cut the chain after k, and a is then read by
/// the piece after the cut, which would cut it after f too; the last piece
/// would write into a buffer its chain does not create.
struct InPlaceChainStep {
  Program program;
  ValueId x, a, c, w;
  OpId f, k, h, d2;

  InPlaceChainStep() {
    x = program.addInput(10, "x");
    a = addOp(program, {x}, 100, 10, "f");
    c = addOp(program, {x}, 50, 10, "k");
    f = program.values[a].def;
    k = program.values[c].def;
    h = program.addOp({a, c}, {100}, 10, true, "h");
    w = program.ops[h].results[0];
    program.setInPlaceWrite(w, a);
    ValueId y = addOp(program, {w}, 10, 10, "m");
    program.backwardBegin = program.ops.size();
    ValueId d1 = addOp(program, {y, c}, 10, 1, "d1");
    ValueId g2 = addOp(program, {d1, w}, 10, 1, "d2");
    d2 = program.values[g2].def;
    program.markOutput(addOp(program, {g2, c}, 10, 1, "d3"));
  }
};

// Regression: sharing cut chains between the op creating a buffer and the
// chain op writing in place into it. evaluatePlan then dropped the piece
// holding the write (a piece may only write into a buffer it creates), and
// with it the recomputation: the plan's peak rose (447 to 459 B on a random
// step of an earlier generator).
TEST(ShareCopiesTest, AChainIsNotCutBetweenABufferAndItsInPlaceWrite) {
  InPlaceChainStep step;
  Plan plan;
  plan.recomputes.push_back({step.w, step.d2, {step.f, step.k, step.h}});
  expectUnchanged(step.program, plan);
  SolverResult result = evaluatePlan(step.program, plan, SolverOptions());
  EXPECT_EQ(describe(result.plan), describe(plan));
  EXPECT_EQ(result.peakBytes, replayPlan(step.program, plan).peakBytes);
}

// The same on the random training step it was found on (seed 225): the
// chain of %24, written in place into %21, which op 18 creates.
TEST(ShareCopiesTest, SeededInPlaceChainKeepsItsRecomputation) {
  Program program = generateTrainingStep(225);
  ASSERT_TRUE(program.values[24].writesInPlace);
  ASSERT_EQ(program.values[program.values[24].aliasOf].def, 18u);
  Plan plan;
  plan.recomputes.push_back({24, 34, {13, 18, 19, 20}});
  ASSERT_EQ(verifyPlan(program, plan), "");
  Plan shared = shareRecomputedCopies(program, plan);
  EXPECT_EQ(verifyPlan(program, shared), "") << describe(shared);
  EXPECT_LE(replayPlan(program, shared, true).peakBytes,
            replayPlan(program, plan, true).peakBytes);
  SolverOptions options;
  options.countInputs = true;
  SolverResult result = evaluatePlan(program, plan, options);
  EXPECT_LE(result.peakBytes, replayPlan(program, plan, true).peakBytes);
}

TEST(ShareCopiesTest, RandomPlansNeverGetWorse) {
  constexpr unsigned kNumSeeds = 300;
  std::mt19937 rng(2024);
  unsigned splitPlans = 0, lowerPeaks = 0;
  forEachValidRandomPlan(kNumSeeds, rng, [&](const Program &program,
                                              const Plan &plan,
                                              bool countInputs) {
    Plan shared = shareRecomputedCopies(program, plan);
    EXPECT_EQ(executedChainOps(shared), executedChainOps(plan));
    EXPECT_EQ(describe(shareRecomputedCopies(program, shared)),
              describe(shared));
    // A piece can be left unread; evaluatePlan drops it.
    dropInvalidRecomputes(program, shared);
    ASSERT_EQ(verifyPlan(program, shared), "") << describe(shared);
    uint64_t peak = replayPlan(program, plan, countInputs).peakBytes;
    uint64_t sharedPeak = replayPlan(program, shared, countInputs).peakBytes;
    EXPECT_LE(sharedPeak, peak) << describe(plan) << " -> " << describe(shared);
    EXPECT_LE(replayPlan(program, shared).flops,
              replayPlan(program, plan).flops);
    splitPlans += shared.recomputes.size() > plan.recomputes.size();
    lowerPeaks += sharedPeak < peak;
  });
  // The random plans must exercise the splitting, not only the trivial path.
  EXPECT_GT(splitPlans, kNumSeeds);
  EXPECT_GT(lowerPeaks, kNumSeeds / 2);
}

TEST(ShareCopiesTest, SolverPlansAreSharedAlready) {
  std::mt19937 budgets(77);
  for (const char *name :
       {"greedy", "chain", "checkpoint-all", "sqrt-n", "xla"}) {
    std::unique_ptr<Solver> solver = createSolver(name);
    for (unsigned seed = 0; seed < 100; ++seed) {
      SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
      Program program = generateTrainingStep(seed);
      uint64_t originalPeak = computeMemoryProfile(program, false).peakBytes;
      SolverOptions options;
      if (seed % 2)
        options.minimize = true;
      else
        options.budgetBytes = budgets() % (originalPeak + 1);
      SolverResult result = solver->solve(program, options);
      ASSERT_EQ(verifyPlan(program, result.plan), "");
      EXPECT_EQ(describe(shareRecomputedCopies(program, result.plan)),
                describe(result.plan));
    }
  }
}

} // namespace
