//===- MemrefCopyTest.cpp - Tests for the runtime's strided copy ----------===//

#include "remat/Runtime/RematRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <random>
#include <vector>

namespace {

/// A ranked memref descriptor as the LLVM lowering lays it out: allocated
/// and aligned pointers, offset, sizes, strides.
struct Descriptor {
  std::vector<int64_t> words;
  Descriptor(float *data, int64_t offset, const std::vector<int64_t> &sizes,
             const std::vector<int64_t> &strides) {
    words.push_back(reinterpret_cast<int64_t>(data));
    words.push_back(reinterpret_cast<int64_t>(data));
    words.push_back(offset);
    words.insert(words.end(), sizes.begin(), sizes.end());
    words.insert(words.end(), strides.begin(), strides.end());
  }
};

struct Unranked {
  int64_t rank;
  void *descriptor;
};

/// Element offsets of every index of `sizes`, in row-major order.
std::vector<int64_t> offsetsOf(const std::vector<int64_t> &sizes,
                               const std::vector<int64_t> &strides,
                               int64_t offset) {
  std::vector<int64_t> offsets{offset};
  for (size_t d = 0; d < sizes.size(); ++d) {
    std::vector<int64_t> next;
    for (int64_t base : offsets)
      for (int64_t i = 0; i < sizes[d]; ++i)
        next.push_back(base + i * strides[d]);
    offsets = std::move(next);
  }
  return offsets;
}

/// Strides of a layout that holds `sizes` with room to spare: each
/// dimension's stride is the inner extent, sometimes padded, and a
/// dimension of one element may get any stride.
std::vector<int64_t> randomStrides(const std::vector<int64_t> &sizes,
                                   std::mt19937 &random) {
  std::vector<int64_t> strides(sizes.size());
  int64_t extent = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    if (random() % 3 == 0)
      extent += random() % 5;
    strides[d] = sizes[d] == 1 && random() % 2 ? 1 + random() % 7 : extent;
    extent = strides[d] * sizes[d] + (sizes[d] == 1 ? extent : 0);
  }
  return strides;
}

/// On random shapes and layouts (contiguous, padded inner or outer
/// dimensions, dimensions of one element with odd strides, offsets), every
/// element lands where the row-major walk of both layouts puts it, and no
/// other element of the target changes.
TEST(MemrefCopyTest, CopiesEveryElementOfRandomStridedLayouts) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 500; ++trial) {
    int64_t rank = 1 + random() % 4;
    std::vector<int64_t> sizes(rank);
    for (int64_t &size : sizes)
      size = 1 + random() % 5;
    std::vector<int64_t> srcStrides = randomStrides(sizes, random);
    std::vector<int64_t> dstStrides = randomStrides(sizes, random);
    int64_t srcOffset = random() % 4, dstOffset = random() % 4;
    std::vector<int64_t> from = offsetsOf(sizes, srcStrides, srcOffset);
    std::vector<int64_t> to = offsetsOf(sizes, dstStrides, dstOffset);
    int64_t srcLength = 1, dstLength = 1;
    for (int64_t offset : from)
      srcLength = std::max(srcLength, offset + 1);
    for (int64_t offset : to)
      dstLength = std::max(dstLength, offset + 1);
    std::vector<float> source(srcLength), target(dstLength, -1.0f);
    for (int64_t i = 0; i < srcLength; ++i)
      source[i] = static_cast<float>(i);
    std::vector<float> expected = target;
    for (size_t k = 0; k < from.size(); ++k)
      expected[to[k]] = source[from[k]];

    Descriptor src(source.data(), srcOffset, sizes, srcStrides);
    Descriptor dst(target.data(), dstOffset, sizes, dstStrides);
    Unranked srcArg{rank, src.words.data()}, dstArg{rank, dst.words.data()};
    memrefCopy(sizeof(float), &srcArg, &dstArg);
    ASSERT_EQ(target, expected) << "trial " << trial;
  }
}

TEST(MemrefCopyTest, RankZeroAndEmptyCopies) {
  float one = 3.0f, other = 0.0f;
  Descriptor src(&one, 0, {}, {}), dst(&other, 0, {}, {});
  Unranked srcArg{0, src.words.data()}, dstArg{0, dst.words.data()};
  memrefCopy(sizeof(float), &srcArg, &dstArg);
  EXPECT_EQ(other, 3.0f);

  float a[4] = {1, 2, 3, 4}, b[4] = {0, 0, 0, 0};
  Descriptor emptySrc(a, 0, {2, 0}, {2, 1}), emptyDst(b, 0, {2, 0}, {2, 1});
  Unranked emptySrcArg{2, emptySrc.words.data()},
      emptyDstArg{2, emptyDst.words.data()};
  memrefCopy(sizeof(float), &emptySrcArg, &emptyDstArg);
  EXPECT_EQ(b[0], 0.0f);
}

} // namespace
