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
#include <memory>
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

/// placeGreedy's pass as an object that keeps what it placed when it is
/// dropped. A dropped pass whose gap walks so far each stayed under the
/// banked bound of `rangesPerBuffer` per buffer has placed its first
/// buffers exactly as a pass under that bound would have: finish() goes on
/// from there, instead of placing them all again.
class GreedyPass {
public:
  GreedyPass(const Instance &instance, llvm::ArrayRef<uint32_t> order,
             Fit fit);
  GreedyPass(GreedyPass &&);
  ~GreedyPass();

  /// placeGreedy(instance, order, fit, offsets, maxRanges, rangesPerBuffer).
  std::optional<uint64_t> place(uint64_t maxRanges,
                                uint64_t rangesPerBuffer = UINT64_MAX);
  /// Whether place() dropped the pass at a point from which finish() may
  /// go on under `rangesPerBuffer`: every walk was unbounded, and each
  /// merged fewer ranges than the banked bound would have let it.
  bool canFinish(uint64_t rangesPerBuffer) const;
  /// After canFinish(rangesPerBuffer): the arena of placeGreedy(instance,
  /// order, fit, offsets, UINT64_MAX, rangesPerBuffer), with the same
  /// offsets.
  uint64_t finish(uint64_t rangesPerBuffer);

  /// The offsets placed so far (all of them once a pass completes).
  std::vector<uint64_t> offsets;

private:
  struct Taken;
  template <typename Bytes>
  std::optional<uint64_t> placeFrom(Bytes &taken, uint64_t maxRanges,
                                    uint64_t rangesPerBuffer);

  const Instance &instance;
  llvm::ArrayRef<uint32_t> order;
  Fit fit;
  std::unique_ptr<Taken> taken;
  /// The position in `order` of the next buffer to place.
  size_t next = 0;
  /// Ranges the walks of the placed buffers merged.
  uint64_t merged = 0;
  /// The least per-buffer bound under which no walk so far would have
  /// been cut short.
  uint64_t leastRangesPerBuffer = 0;
  bool walksUnbounded = true;
  bool dropped = false;
};
/// Branch and bound for a placement with a smaller arena than `layout`'s,
/// visiting at most `nodeBudget` nodes; improves `layout` in place. Returns
/// whether the search finished, i.e. `layout` is optimal.
bool searchExact(const Instance &instance, ArenaLayout &layout,
                 uint64_t nodeBudget);

} // namespace remat::arena

#endif // REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H
