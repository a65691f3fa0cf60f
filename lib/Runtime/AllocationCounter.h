//===- AllocationCounter.h - Live bytes and their high-water mark -*- C++ -*-=//

#ifndef REMAT_LIB_RUNTIME_ALLOCATIONCOUNTER_H
#define REMAT_LIB_RUNTIME_ALLOCATIONCOUNTER_H

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <unordered_map>

namespace remat::runtime {

/// What the runtime hands out for an allocation of no bytes: this address,
/// aligned for any alignment a step asks for. Nothing is allocated or
/// counted (the memory model counts a buffer of no elements as no bytes,
/// and a step whose buffers all have none as an arena of 0 bytes), and
/// freeing it does nothing. A buffer of no elements is never read or
/// written, so sharing one address is safe.
inline void *emptyBlock() {
  alignas(4096) static char block[1];
  return block;
}

/// Remembers the size of every live pointer, so that a free knows how many
/// bytes it gives back. Thread-safe: kernels of the CPU lowering may run on
/// several threads one day.
///
/// Three measures: the bytes asked (what the memory model counts), the bytes
/// reserved (what the allocator handed out, alignment padding included), and
/// the extent: the span of addresses from the lowest block start to the
/// highest block end among the blocks allocated since the last reset. For a
/// step lowered to one arena the extent is the arena's size; for one block
/// per buffer it is wherever the system allocator put them.
class AllocationCounter {
public:
  void allocated(void *ptr, size_t bytes, size_t reservedBytes) {
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = {bytes, reservedBytes};
    live += bytes;
    liveReserved += reservedBytes;
    ++count;
    peak = std::max(peak, live);
    peakReserved = std::max(peakReserved, liveReserved);
    auto begin = reinterpret_cast<uintptr_t>(ptr);
    lowest = std::min(lowest, begin);
    highest = std::max(highest, begin + reservedBytes);
  }

  /// The bytes reserved for the block, or 0 for a pointer this counter
  /// never saw (a block it saw reserved at least one byte).
  size_t freed(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end())
      return 0;
    size_t reserved = it->second.reserved;
    live -= it->second.bytes;
    liveReserved -= reserved;
    sizes.erase(it);
    return reserved;
  }

  bool owns(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    return sizes.count(ptr) != 0;
  }

  void reset() {
    std::lock_guard<std::mutex> lock(mutex);
    peak = live;
    peakReserved = liveReserved;
    count = 0;
    lowest = std::numeric_limits<uintptr_t>::max();
    highest = 0;
  }

  uint64_t peakBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return peak;
  }
  uint64_t liveBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return live;
  }
  uint64_t peakReservedBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return peakReserved;
  }
  /// 0 when nothing was allocated since the reset.
  uint64_t extentBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return highest > lowest ? highest - lowest : 0;
  }
  uint64_t allocCount() {
    std::lock_guard<std::mutex> lock(mutex);
    return count;
  }

private:
  struct Block {
    size_t bytes;
    size_t reserved;
  };
  std::mutex mutex;
  std::unordered_map<void *, Block> sizes;
  uint64_t live = 0;
  uint64_t peak = 0;
  uint64_t liveReserved = 0;
  uint64_t peakReserved = 0;
  uint64_t count = 0;
  uintptr_t lowest = std::numeric_limits<uintptr_t>::max();
  uintptr_t highest = 0;
};

} // namespace remat::runtime

#endif // REMAT_LIB_RUNTIME_ALLOCATIONCOUNTER_H
