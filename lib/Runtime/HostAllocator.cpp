//===- HostAllocator.cpp - The counting host allocator --------------------===//

#include "AllocationCounter.h"
#include "remat/Runtime/RematRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using remat::runtime::AllocationCounter;

namespace {

/// Alignment of every buffer: remat-to-cpu asks for unaligned buffers so that
/// the size it passes is the tensor's, and gets cache-line aligned ones.
constexpr size_t kAlignment = 64;

AllocationCounter &hostCounter() {
  static AllocationCounter *counter = new AllocationCounter();
  return *counter;
}

/// Large blocks kept after they are freed, for the next allocation of the
/// same size and alignment: a step's arena is allocated and freed once per
/// step, and glibc maps a block that large (over 32 MiB) afresh every time,
/// so that every page of it faulted on every step. On ResNet-50's step
/// (a 103 MB arena) that was 310 ms a step against 46 ms with the pages
/// reused. The counters see every allocation and free as before: a
/// reused block is allocated and freed like a new one.
class BlockCache {
public:
  /// A cached block of exactly `padded` bytes whose address has
  /// `alignment`, or null.
  void *take(size_t alignment, size_t padded) {
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t i = 0; i < count; ++i)
      if (blocks[i].padded == padded &&
          reinterpret_cast<uintptr_t>(blocks[i].ptr) % alignment == 0) {
        void *ptr = blocks[i].ptr;
        blocks[i] = blocks[--count];
        return ptr;
      }
    return nullptr;
  }

  /// Keeps a freed block if it is large, the oldest one given back to the
  /// system when the cache is full; returns false for small blocks.
  bool keep(void *ptr, size_t padded) {
    if (padded < kMinBytes)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    if (count == kCapacity) {
      std::free(blocks[0].ptr);
      for (size_t i = 1; i < count; ++i)
        blocks[i - 1] = blocks[i];
      --count;
    }
    blocks[count++] = {ptr, padded};
    return true;
  }

  /// Bytes kept.
  uint64_t bytes() {
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t total = 0;
    for (size_t i = 0; i < count; ++i)
      total += blocks[i].padded;
    return total;
  }

  /// Gives every kept block back to the system.
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t i = 0; i < count; ++i)
      std::free(blocks[i].ptr);
    count = 0;
  }

private:
  /// Blocks below this size come from (and go back to) malloc's own free
  /// lists, which reuse them without faulting.
  static constexpr size_t kMinBytes = size_t(1) << 20;
  static constexpr size_t kCapacity = 8;
  struct Block {
    void *ptr;
    size_t padded;
  };
  std::mutex mutex;
  Block blocks[kCapacity];
  size_t count = 0;
};

BlockCache &blockCache() {
  static BlockCache *cache = new BlockCache();
  return *cache;
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
  void *ptr = blockCache().take(alignment, padded);
  if (!ptr)
    ptr = std::aligned_alloc(alignment, padded);
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
  size_t padded = hostCounter().freed(ptr);
  if (!padded) {
    std::fprintf(stderr,
                 "remat runtime: freeing %p, which this allocator did not "
                 "allocate\n",
                 ptr);
    std::abort();
  }
  if (!blockCache().keep(ptr, padded))
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
uint64_t remat_runtime_cached_bytes(void) { return blockCache().bytes(); }
void remat_runtime_release_cached(void) { blockCache().release(); }

} // extern "C"
