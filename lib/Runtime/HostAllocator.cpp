//===- HostAllocator.cpp - The counting host allocator --------------------===//

#include "AllocationCounter.h"
#include "remat/Runtime/RematRuntime.h"

#include <cstdio>
#include <cstdlib>

using remat::runtime::AllocationCounter;

namespace {

/// Alignment of every buffer: remat-to-cpu asks for unaligned buffers so that
/// the size it passes is the tensor's, and gets cache-line aligned ones.
constexpr size_t kAlignment = 64;

AllocationCounter &hostCounter() {
  static AllocationCounter *counter = new AllocationCounter();
  return *counter;
}

void *allocate(size_t alignment, size_t size) {
  if (size == 0)
    return remat::runtime::emptyBlock();
  if (alignment < kAlignment)
    alignment = kAlignment;
  // aligned_alloc wants a multiple of the alignment.
  size_t padded = (size + alignment - 1) / alignment * alignment;
  if (padded < size) {
    std::fprintf(stderr, "remat runtime: %zu bytes cannot be allocated\n",
                 size);
    std::abort();
  }
  void *ptr = std::aligned_alloc(alignment, padded);
  if (!ptr) {
    std::fprintf(stderr, "remat runtime: out of memory allocating %zu bytes\n",
                 size);
    std::abort();
  }
  hostCounter().allocated(ptr, size, padded);
  return ptr;
}

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return allocate(kAlignment, size);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return allocate(alignment, size);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr || ptr == remat::runtime::emptyBlock())
    return;
  if (!hostCounter().freed(ptr)) {
    std::fprintf(stderr,
                 "remat runtime: freeing %p, which this allocator did not "
                 "allocate\n",
                 ptr);
    std::abort();
  }
  std::free(ptr);
}

int remat_runtime_free_if_owned(void *ptr) {
  if (!hostCounter().owns(ptr))
    return 0;
  _mlir_memref_to_llvm_free(ptr);
  return 1;
}

void remat_runtime_reset(void) { hostCounter().reset(); }
uint64_t remat_runtime_peak_bytes(void) { return hostCounter().peakBytes(); }
uint64_t remat_runtime_live_bytes(void) { return hostCounter().liveBytes(); }
uint64_t remat_runtime_alloc_count(void) { return hostCounter().allocCount(); }
uint64_t remat_runtime_padded_peak_bytes(void) {
  return hostCounter().peakReservedBytes();
}
uint64_t remat_runtime_extent_bytes(void) {
  return hostCounter().extentBytes();
}

} // extern "C"
