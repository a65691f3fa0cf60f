//===- ArenaPlacementInternal.h - Shared by the arena placers ---*- C++ -*-===//
//
// The conflict graph of a placement instance and the greedy placer, shared by
// the heuristics (ArenaPlacement.cpp) and the exact search (ArenaSearch.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H
#define REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H

#include "remat/Planning/ArenaPlacement.h"

#include <cstdint>
#include <vector>

namespace remat::arena {

inline uint64_t alignmentOf(const ArenaBuffer &buffer) {
  return buffer.alignment ? buffer.alignment : 1;
}

/// Whether the buffer takes any bytes at any step.
inline bool occupies(const ArenaBuffer &buffer) {
  return buffer.bytes > 0 && buffer.first <= buffer.last;
}

struct Instance {
  explicit Instance(llvm::ArrayRef<ArenaBuffer> buffers);

  /// The arena that `offsets` need: highest end, rounded to maxAlignment.
  uint64_t arenaOf(llvm::ArrayRef<uint64_t> offsets) const;

  llvm::ArrayRef<ArenaBuffer> buffers;
  /// Aligned bytes per buffer.
  std::vector<uint64_t> sizes;
  /// Per buffer, the occupying buffers whose intervals meet its own (sorted).
  std::vector<std::vector<uint32_t>> conflicts;
  /// Indices of the buffers that occupy bytes, ascending.
  std::vector<uint32_t> occupying;
  uint64_t maxAlignment = 1;
  uint64_t liveBytes = 0;
};

enum class Fit {
  /// The smallest gap that fits (ties: the lowest).
  Smallest,
  /// The lowest gap that fits.
  Lowest,
};

/// Places the buffers of `order` one by one among the earlier ones they
/// conflict with; buffers not in `order` keep offset 0. Returns the arena.
uint64_t placeGreedy(const Instance &instance, llvm::ArrayRef<uint32_t> order,
                     Fit fit, std::vector<uint64_t> &offsets);

} // namespace remat::arena

#endif // REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H
