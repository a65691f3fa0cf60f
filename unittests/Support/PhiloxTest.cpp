//===- PhiloxTest.cpp - Known answers of Philox4x32-10 --------------------===//

#include "remat/Support/Philox.h"

#include <gtest/gtest.h>

using namespace remat::philox;

namespace {

// The known-answer vectors of the Random123 distribution (kat_vectors) for
// philox4x32 with 10 rounds.
TEST(PhiloxTest, KnownAnswers) {
  EXPECT_EQ(philox4x32({0, 0, 0, 0}, {0, 0}),
            (Counter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                       {0xffffffff, 0xffffffff}),
            (Counter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                       {0xa4093822, 0x299f31d0}),
            (Counter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(PhiloxTest, KeepsTheShareOneMinusRatio) {
  const int n = 1 << 16;
  for (double ratio : {0.1, 0.5, 0.9}) {
    int kept = 0;
    for (int i = 0; i < n; ++i)
      kept += streamBits(7, i) >= keepThreshold(ratio);
    EXPECT_NEAR(double(kept) / n, 1.0 - ratio, 0.01) << "ratio " << ratio;
  }
}

TEST(PhiloxTest, SeedsAndOffsetsGiveOtherStreams) {
  int same = 0;
  for (int i = 0; i < 1024; ++i) {
    same += streamBits(1, i) == streamBits(2, i);
    same += streamBits(1, i) == streamBits(1, i + 1024);
  }
  EXPECT_EQ(same, 0);
}

} // namespace
