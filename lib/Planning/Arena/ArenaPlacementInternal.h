//===- ArenaPlacementInternal.h - Shared by the arena placers ---*- C++ -*-===//
//
// A placement instance and the greedy placer, shared by the heuristics
// (ArenaPlacement.cpp, its orders in ArenaOrders.cpp and its local search in
// ArenaLocalSearch.cpp) and the exact search (ArenaSearch.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H
#define REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H

#include "remat/Planning/ArenaPlacement.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
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

/// Steps with more occupying buffers than this are large: their greedy
/// passes are bounded (maxRanges), they try fewer orders, and their skyline
/// orders give up sooner (ArenaSkyline.cpp).
constexpr size_t kLargeInstance = 4096;

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

/// The occupying buffers by first step (ties: by index): the order in which
/// an allocator replaying the step would see them start.
std::vector<uint32_t> startOrder(const Instance &instance);

/// placeGreedy(instance, order, Fit::Smallest, offsets) for `order` =
/// startOrder(instance), in O(n log n) however fragmented the arena gets
/// (ArenaStartOrder.cpp): in that order a buffer's gaps are those of the
/// buffers live at its first step. Returns the arena. With `sliver`, a
/// buffer avoids gaps that it would leave fewer than `sliver` free bytes
/// above it (LiveRanges::fitWithoutSliver): on steps whose buffers come in
/// a few sizes, such slivers are never filled again.
uint64_t placeInStartOrder(const Instance &instance,
                           llvm::ArrayRef<uint32_t> order,
                           std::vector<uint64_t> &offsets,
                           uint64_t sliver = 0);

/// The `sliver` placeInStartOrder avoids: the size that all but 1% of the
/// occupying buffers reach. A gap smaller than that is rarely taken again.
uint64_t sliverBytes(const Instance &instance);

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

/// The taken ranges one greedy pass may merge to find gaps. Steps whose
/// buffers pack well need a handful per buffer and are placed exactly as by
/// an unbounded pass; on a large fragmented step, a pass that needs more is
/// dropped instead of growing quadratically. Small steps are always placed
/// in full: there the passes are cheap and the dropped ones can win.
uint64_t maxRanges(const Instance &instance);

/// The occupying buffers sorted by `key` (largest first), ties by index.
template <typename Key>
std::vector<uint32_t> orderBy(const Instance &instance, Key key) {
  std::vector<uint32_t> order = instance.occupying;
  llvm::sort(order, [&](uint32_t a, uint32_t b) {
    auto keyA = key(a), keyB = key(b);
    if (keyA != keyB)
      return keyA > keyB;
    return a < b;
  });
  return order;
}

/// The orders placeArena tries, the likeliest winners first (ArenaOrders.cpp).
/// Most look only at sizes, the conflict graph and indices; the skyline
/// orders also weigh lifetimes in steps, which the lowering numbers
/// differently. That is safe because the lowering takes the plan's offsets;
/// it places the buffers again, and must then reach the plan's arena, only
/// when those offsets are not a placement of its buffers (a plan that does
/// not describe the lowered step).
struct CandidateOrder {
  std::vector<uint32_t> buffers;
  /// Whether it is a skyline order (the local search starts from the best
  /// pass of each kind).
  bool skyline = false;
};
/// With `all` false (large steps), only the orders by size and contention
/// and (with `skylines`) the skyline orders.
std::vector<CandidateOrder> candidateOrders(const Instance &instance,
                                            bool all, bool skylines = true);

/// What breaks ties among buffers that can go equally low: higher first.
using SkylinePriority = std::pair<uint64_t, uint64_t>;

/// The buffers in the order of their skyline placement (ArenaSkyline.cpp):
/// bottom up, each next one the buffer that can go lowest, on the placed
/// buffers it meets, ties broken by `priority` (higher first), then by
/// index. Placing them in this order with Fit::Lowest puts each buffer no
/// higher than the skyline did. O(n log n) plus the stale entries the queue
/// revisits; nothing once those pass a bound linear in n.
std::optional<std::vector<uint32_t>>
skylineOrder(const Instance &instance,
             llvm::function_ref<SkylinePriority(uint32_t)> priority);

/// How the local search judges a try whose arena equals the best one's.
enum class Plateau {
  /// Taken: equal arenas drift freely until one settles lower.
  Drift,
  /// Taken only if the buffers sit no higher (their bytes weighted by their
  /// ends). Drifting can wander away from a layout that is one move from a
  /// lower arena; settling walks downhill towards the layouts with room
  /// left at the top, which the arena's top then falls into.
  Settle,
};

/// Local search on the best greedy order (iterated greedy): each try either
/// moves the buffer that ends highest to an earlier place in the order, or
/// (in a second phase) moves one to three buffers anywhere, and is kept when
/// the arena does not grow (and, with Plateau::Settle, an equal arena's
/// buffers sit no higher). The first move alone stalls where the top is
/// held by buffers that only reach it because others sit badly below them
/// (the backward pass of a training step: weight gradients that live to the
/// end); the free moves let equal arenas move until one of those settles.
/// Choices come from a fixed seed, so placement stays deterministic. The
/// number of tries shrinks with the square of the instance's size: the
/// search pays on small steps, where a few hundred passes are cheap.
/// Defined in ArenaLocalSearch.cpp.
void improveOrder(const Instance &instance, std::vector<uint32_t> order,
                  Fit fit, Plateau plateau, ArenaLayout &layout);

/// Branch and bound for a placement with a smaller arena than `layout`'s,
/// visiting at most `nodeBudget` nodes; improves `layout` in place. Returns
/// whether the search finished, i.e. `layout` is optimal.
bool searchExact(const Instance &instance, ArenaLayout &layout,
                 uint64_t nodeBudget);

} // namespace remat::arena

#endif // REMAT_LIB_PLANNING_ARENAPLACEMENTINTERNAL_H
