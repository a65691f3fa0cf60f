//===- ArenaPlacementInternal.h - Shared by the arena placers ---*- C++ -*-===//
//
// A placement instance and the greedy placer, shared by the heuristics
// (ArenaPlacement.cpp) and the exact search (ArenaSearch.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H
#define REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H

#include "remat/Planning/ArenaPlacement.h"

#include <cstdint>
#include <optional>
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

  /// Whether two buffers' intervals meet.
  bool meet(uint32_t a, uint32_t b) const {
    return buffers[a].first <= buffers[b].last &&
           buffers[b].first <= buffers[a].last;
  }

  llvm::ArrayRef<ArenaBuffer> buffers;
  /// Aligned bytes per buffer.
  std::vector<uint64_t> sizes;
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
/// conflict with; buffers not in `order` keep offset 0. Returns the arena,
/// or nothing once finding the gaps has merged more than `maxRanges` taken
/// ranges (OccupancyTree::forEachGap): a fragmented step can offer each
/// buffer a number of gaps that grows with the step, and a bounded pass
/// keeps placement near-linear there. Each buffer may merge
/// `rangesPerBuffer` ranges plus what the buffers before it left unused;
/// one that runs out takes the best gap it found, or else goes on top of
/// the buffers it meets.
std::optional<uint64_t> placeGreedy(const Instance &instance,
                                    llvm::ArrayRef<uint32_t> order, Fit fit,
                                    std::vector<uint64_t> &offsets,
                                    uint64_t maxRanges = UINT64_MAX,
                                    uint64_t rangesPerBuffer = UINT64_MAX);
/// Branch and bound for a placement with a smaller arena than `layout`'s,
/// visiting at most `nodeBudget` nodes; improves `layout` in place. Returns
/// whether the search finished, i.e. `layout` is optimal.
bool searchExact(const Instance &instance, ArenaLayout &layout,
                 uint64_t nodeBudget);

} // namespace remat::arena

#endif // REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H
