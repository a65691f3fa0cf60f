//===- TapRunsTest.cpp - Runs of output columns by the taps they read -----===//

#include "ConvolutionTaps.h"

#include <gtest/gtest.h>

using remat::TapRun;
using remat::tapRuns;
using remat::tapSpans;

namespace {

/// Every (output, tap) pair whose input position lies inside the input is
/// in exactly one of `runs`, and no other pair is: the brute-force
/// definition.
void expectCoverExactly(llvm::ArrayRef<TapRun> runs, int64_t outputs,
                        int64_t inputs, int64_t kernel, int64_t stride,
                        int64_t dilation, int64_t pad) {
  for (int64_t o = 0; o < outputs; ++o)
    for (int64_t t = 0; t < kernel; ++t) {
      int64_t i = o * stride + t * dilation - pad;
      bool inside = i >= 0 && i < inputs;
      int covered = 0;
      for (const TapRun &run : runs)
        covered += run.begin <= o && o < run.end && run.tapBegin <= t &&
                   t < run.tapEnd;
      EXPECT_EQ(covered, inside ? 1 : 0)
          << "output " << o << " tap " << t << " (outputs " << outputs
          << ", inputs " << inputs << ", kernel " << kernel << ", stride "
          << stride << ", dilation " << dilation << ", pad " << pad << ")";
    }
}

/// Runs (ordered by outputs) and spans (ordered by taps) over a grid of
/// shapes, against the brute-force definition.
void expectBothCoverExactly() {
  for (int64_t inputs : {1, 2, 5, 8, 13})
    for (int64_t kernel : {1, 2, 3, 5, 7})
      for (int64_t stride : {1, 2, 3})
        for (int64_t dilation : {1, 2})
          for (int64_t pad : {0, 1, 2, 3})
            for (int64_t outputs : {1, 2, 4, 7}) {
              auto runs =
                  tapRuns(outputs, inputs, kernel, stride, dilation, pad);
              expectCoverExactly(runs, outputs, inputs, kernel, stride,
                                 dilation, pad);
              for (size_t r = 1; r < runs.size(); ++r)
                EXPECT_LE(runs[r - 1].end, runs[r].begin);
              auto spans =
                  tapSpans(outputs, inputs, kernel, stride, dilation, pad);
              expectCoverExactly(spans, outputs, inputs, kernel, stride,
                                 dilation, pad);
              for (size_t r = 1; r < spans.size(); ++r)
                EXPECT_LE(spans[r - 1].tapEnd, spans[r].tapBegin);
            }
}

TEST(TapRunsTest, SamePaddedThreeByThree) {
  // 16 columns, 3 taps, padding 1: the first column misses tap 0, the last
  // tap 2, the 14 between read all three.
  EXPECT_EQ(
      tapRuns(16, 16, 3, 1, 1, 1),
      (llvm::SmallVector<TapRun>{{0, 1, 1, 3}, {1, 15, 0, 3}, {15, 16, 0, 2}}));
}

TEST(TapRunsTest, UnpaddedIsOneRun) {
  EXPECT_EQ(tapRuns(14, 16, 3, 1, 1, 0),
            (llvm::SmallVector<TapRun>{{0, 14, 0, 3}}));
}

TEST(TapRunsTest, StridedStem) {
  // ResNet's stem: 7 taps, stride 2, padding 3, 32 columns to 16.
  EXPECT_EQ(tapRuns(16, 32, 7, 2, 1, 3),
            (llvm::SmallVector<TapRun>{
                {0, 1, 3, 7}, {1, 2, 1, 7}, {2, 15, 0, 7}, {15, 16, 0, 5}}));
}

TEST(TapRunsTest, WindowWiderThanOutput) {
  // A weight gradient written as a convolution: 16 taps, 3 outputs.
  EXPECT_EQ(
      tapRuns(3, 16, 16, 1, 1, 1),
      (llvm::SmallVector<TapRun>{{0, 1, 1, 16}, {1, 2, 0, 16}, {2, 3, 0, 15}}));
}

TEST(TapRunsTest, OutputsNoTapReachesAreInNoRun) {
  // Padding wider than the window: output 0 reads only padding.
  EXPECT_EQ(tapRuns(3, 2, 2, 1, 1, 2),
            (llvm::SmallVector<TapRun>{{1, 2, 1, 2}, {2, 3, 0, 2}}));
}

TEST(TapRunsTest, RunsAndSpansMatchBruteForce) { expectBothCoverExactly(); }

TEST(TapSpansTest, SamePaddedThreeByThree) {
  // 16 columns, 3 taps, padding 1: tap 0 misses the first column, tap 2
  // the last; each tap is a span of its own.
  EXPECT_EQ(
      tapSpans(16, 16, 3, 1, 1, 1),
      (llvm::SmallVector<TapRun>{{1, 16, 0, 1}, {0, 16, 1, 2}, {0, 15, 2, 3}}));
}

TEST(TapSpansTest, StridedTapsShareTheirOutputs) {
  // Stride 2, padding 1, 8 columns to 4: taps 1 and 2 reach all four.
  EXPECT_EQ(tapSpans(4, 8, 3, 2, 1, 1),
            (llvm::SmallVector<TapRun>{{1, 4, 0, 1}, {0, 4, 1, 3}}));
}

TEST(TapSpansTest, TapsThatReachNoOutputAreInNoSpan) {
  // Padding 2 before an input of 2, one output: taps 0 and 1 read only
  // padding.
  EXPECT_EQ(tapSpans(1, 2, 3, 1, 1, 2),
            (llvm::SmallVector<TapRun>{{0, 1, 2, 3}}));
}

} // namespace
