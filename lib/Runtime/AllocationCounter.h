//===- AllocationCounter.h - Live bytes and their high-water mark -*- C++ -*-=//

#ifndef REMAT_LIB_RUNTIME_ALLOCATIONCOUNTER_H
#define REMAT_LIB_RUNTIME_ALLOCATIONCOUNTER_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace remat::runtime {

/// Remembers the size of every live pointer, so that a free knows how many
/// bytes it gives back. Thread-safe: kernels of the CPU lowering may run on
/// several threads one day.
class AllocationCounter {
public:
  void allocated(void *ptr, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = bytes;
    live += bytes;
    ++count;
    if (live > peak)
      peak = live;
  }

  /// Returns false for a pointer this counter never saw.
  bool freed(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end())
      return false;
    live -= it->second;
    sizes.erase(it);
    return true;
  }

  void reset() {
    std::lock_guard<std::mutex> lock(mutex);
    peak = live;
    count = 0;
  }

  uint64_t peakBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return peak;
  }
  uint64_t liveBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return live;
  }
  uint64_t allocCount() {
    std::lock_guard<std::mutex> lock(mutex);
    return count;
  }

private:
  std::mutex mutex;
  std::unordered_map<void *, size_t> sizes;
  uint64_t live = 0;
  uint64_t peak = 0;
  uint64_t count = 0;
};

} // namespace remat::runtime

#endif // REMAT_LIB_RUNTIME_ALLOCATIONCOUNTER_H
