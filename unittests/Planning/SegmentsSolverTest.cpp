//===- SegmentsSolverTest.cpp - Checkpointing at the forward part's cuts --===//
//
// The cuts of a residual stack are its block outputs; the checkpointing
// plans built on a keep set (segments, sqrt-n) recompute values written in
// place into a buffer together with that buffer; and on such a stack the
// segments solver meets a budget for at most one forward pass of the
// blocks, keeping the block outputs. On deep steps it tries a geometric
// ladder of strides of kept cuts instead of every stride.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Solver.h"

#include "PlanContract.h"
#include "PlanTestHelpers.h"
#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace remat;

namespace {

/// x0 = embed(in); per block x' = x + g(f(x)); loss(x3); then a backward
/// part that reads every block's f and g results, last block first.
struct ResidualStack {
  Program program;
  std::vector<ValueId> streams, inner;
  explicit ResidualStack(unsigned blocks) {
    ValueId in = program.addInput(0, "in");
    streams.push_back(addOp(program, {in}, 100, 10, "embed"));
    for (unsigned b = 0; b < blocks; ++b) {
      ValueId h = addOp(program, {streams.back()}, 400, 1000, "f");
      ValueId g = addOp(program, {h}, 400, 1000, "g");
      inner.push_back(h);
      inner.push_back(g);
      streams.push_back(addOp(program, {streams.back(), g}, 100, 10, "add"));
    }
    ValueId grad = addOp(program, {streams.back()}, 100, 10, "loss");
    program.backwardBegin = program.ops.size();
    for (unsigned b = blocks; b-- > 0;)
      grad = addOp(program, {grad, inner[2 * b], inner[2 * b + 1]}, 100, 20,
                   "dblock");
    program.markOutput(grad);
  }
};

TEST(SegmentsSolverTest, CutsAreTheResidualStream) {
  ResidualStack stack(3);
  EXPECT_EQ(forwardCuts(stack.program), stack.streams);
}

TEST(SegmentsSolverTest, NoCutsWithoutABoundary) {
  ResidualStack stack(2);
  stack.program.backwardBegin = kNone;
  EXPECT_TRUE(forwardCuts(stack.program).empty());
}

TEST(SegmentsSolverTest, MeetsABudgetBySegmentsAndKeepsTheStream) {
  ResidualStack stack(4);
  const Program &program = stack.program;
  SolverOptions options;
  uint64_t plain = computeMemoryProfile(program, false).peakBytes;
  // Every block's f and g kept is 3,200 bytes; one block's at a time, with
  // the stream, fits in well under half.
  options.budgetBytes = plain / 2;
  SolverResult result = createSolver("segments")->solve(program, options);
  ASSERT_TRUE(result.feasible) << result.note;
  EXPECT_EQ(verifyPlan(program, result.plan), "");
  // At most one forward pass of f and g per block (less where the budget
  // leaves room to keep some), and never the stream.
  EXPECT_GT(result.extraFlops, 0u);
  EXPECT_LE(result.extraFlops, 4u * 2000u);
  for (const Recompute &recompute : result.plan.recomputes)
    EXPECT_FALSE(llvm::is_contained(stack.streams, recompute.value));
}

TEST(SegmentsSolverTest, EveryStrideWhenAllFit) {
  EXPECT_EQ(segmentStrides(0, 4), (std::vector<size_t>{0}));
  EXPECT_EQ(segmentStrides(4, 5), (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(SegmentsSolverTest, StridesOfDeepStepsAreAGeometricLadder) {
  for (auto [cuts, allowed] : {std::pair<size_t, size_t>{6000, 4},
                               {600, 39}, {100, 10}, {7, 3}, {50, 1}}) {
    std::vector<size_t> strides = segmentStrides(cuts, allowed);
    SCOPED_TRACE(testing::Message() << cuts << " cuts, " << allowed);
    ASSERT_GE(strides.size(), 3u);
    EXPECT_LE(strides.size(), std::max<size_t>(allowed, 3));
    EXPECT_EQ(strides[0], 0u);
    EXPECT_EQ(strides[1], 1u);
    EXPECT_EQ(strides.back(), cuts);
    // Increasing, each at most the ladder's ratio above the last (both
    // rounded to the nearest integer).
    double ratio =
        std::pow(double(cuts), 1.0 / double(std::max<size_t>(allowed, 3) - 2));
    for (size_t i = 2; i < strides.size(); ++i) {
      EXPECT_GT(strides[i], strides[i - 1]);
      EXPECT_LE(double(strides[i]),
                ratio * (double(strides[i - 1]) + 0.5) + 0.5);
    }
  }
}

TEST(SegmentsSolverTest, InPlaceWritesAreRecomputedWithTheirBuffer) {
  // x = f(in); e = empty(); w = write(x into e); loss(w); the backward part
  // reads w. Recomputing w re-executes the write and makes its buffer.
  Program program;
  ValueId in = program.addInput(0, "in");
  ValueId x = addOp(program, {in}, 100, 10, "f");
  ValueId e = addOp(program, {}, 100, 0, "empty");
  ValueId w = addOp(program, {x, e}, 0, 10, "write");
  program.setInPlaceWrite(w, e);
  ValueId l = addOp(program, {w}, 4, 10, "loss");
  program.backwardBegin = program.ops.size();
  ValueId big = addOp(program, {l}, 500, 10, "grad");
  program.markOutput(addOp(program, {big, w}, 4, 10, "dw"));

  std::vector<bool> keep(program.values.size(), false);
  for (ValueId v : {in, l, big})
    keep[v] = true;
  SolverOptions options;
  SolverResult result =
      evaluatePlan(program, checkpointPlan(program, keep, options), options);
  EXPECT_EQ(verifyPlan(program, result.plan), "");
  auto recomputesW = [&](const Recompute &r) {
    return r.value == w && llvm::is_contained(r.chain, program.values[e].def);
  };
  EXPECT_TRUE(llvm::any_of(result.plan.recomputes, recomputesW))
      << describe(result.plan);
}

} // namespace
