//===- HostAllocatorTest.cpp - The counting host allocator ----------------===//

#include "remat/Runtime/RematRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>

namespace {

constexpr size_t kMiB = size_t(1) << 20;

// A step's arena is allocated and freed once per step: the next step gets
// the same block back, its pages already mapped, and the counters see two
// allocations of the arena's size as they would without the reuse.
TEST(HostAllocatorTest, LargeBlocksAreReusedAndStillCounted) {
  remat_runtime_release_cached();
  remat_runtime_reset();
  void *first = _mlir_memref_to_llvm_alloc(3 * kMiB + 5);
  _mlir_memref_to_llvm_free(first);
  // Kept, rounded up to the 64-byte alignment, and not live.
  EXPECT_EQ(remat_runtime_cached_bytes(), 3 * kMiB + 64);
  EXPECT_EQ(remat_runtime_live_bytes(), 0u);
  void *second = _mlir_memref_to_llvm_alloc(3 * kMiB + 5);
  EXPECT_EQ(first, second);
  EXPECT_EQ(remat_runtime_cached_bytes(), 0u);
  EXPECT_EQ(remat_runtime_alloc_count(), 2u);
  EXPECT_EQ(remat_runtime_peak_bytes(), 3 * kMiB + 5);
  EXPECT_EQ(remat_runtime_live_bytes(), 3 * kMiB + 5);
  _mlir_memref_to_llvm_free(second);
  EXPECT_EQ(remat_runtime_live_bytes(), 0u);
  remat_runtime_release_cached();
  EXPECT_EQ(remat_runtime_cached_bytes(), 0u);
}

// Another size or a stricter alignment than the kept block has gets a
// block of its own.
TEST(HostAllocatorTest, ReuseNeedsTheSameSizeAndAlignment) {
  void *block = _mlir_memref_to_llvm_alloc(2 * kMiB);
  _mlir_memref_to_llvm_free(block);
  void *larger = _mlir_memref_to_llvm_alloc(2 * kMiB + 64);
  EXPECT_NE(larger, block);
  void *aligned = _mlir_memref_to_llvm_aligned_alloc(size_t(1) << 21, 2 * kMiB);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % (size_t(1) << 21), 0u);
  _mlir_memref_to_llvm_free(aligned);
  _mlir_memref_to_llvm_free(larger);
  remat_runtime_release_cached();
}

// At most 8 blocks are kept; the oldest goes back to the system.
TEST(HostAllocatorTest, AtMostEightBlocksAreKept) {
  remat_runtime_release_cached();
  void *blocks[9];
  for (size_t i = 0; i < 9; ++i)
    blocks[i] = _mlir_memref_to_llvm_alloc((i + 1) * kMiB);
  for (void *block : blocks)
    _mlir_memref_to_llvm_free(block);
  // Blocks 2..9 MiB kept, the 1 MiB one freed.
  EXPECT_EQ(remat_runtime_cached_bytes(), 44 * kMiB);
  remat_runtime_release_cached();
}

// Blocks under 1 MiB go back to malloc, whose own free lists serve them.
TEST(HostAllocatorTest, SmallBlocksAreCountedAndFreed) {
  remat_runtime_release_cached();
  remat_runtime_reset();
  void *small = _mlir_memref_to_llvm_alloc(4096);
  EXPECT_EQ(remat_runtime_live_bytes(), 4096u);
  _mlir_memref_to_llvm_free(small);
  EXPECT_EQ(remat_runtime_cached_bytes(), 0u);
  EXPECT_EQ(remat_runtime_live_bytes(), 0u);
  EXPECT_EQ(remat_runtime_peak_bytes(), 4096u);
}

} // namespace
