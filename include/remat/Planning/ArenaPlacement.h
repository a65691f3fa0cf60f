//===- ArenaPlacement.h - Offsets of a step's buffers in one arena -*- C++ -*-===//
//
// Static placement (dynamic storage allocation with known lifetimes): every
// buffer of a step gets a byte offset in one arena so that buffers whose live
// intervals intersect never share bytes. The arena can never be smaller than
// the most bytes live at one step (`liveBytes`, the load); arena / load is the
// fragmentation.
//
// Placement depends only on the buffers' sizes, alignments, the overlap
// relation of their intervals and their index (ties go to the lower index),
// so that two clients that build the same buffers in the same order get the
// same offsets.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_ARENAPLACEMENT_H
#define REMAT_PLANNING_ARENAPLACEMENT_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace remat {

/// One buffer to place: `bytes` (unpadded), the alignment its offset needs,
/// and the closed interval [first, last] of program steps it is live in.
/// Two buffers conflict iff their intervals intersect. Inside the arena a
/// buffer occupies `bytes` rounded up to its alignment, so padding is counted.
/// A buffer with no bytes or an empty interval (last < first) occupies
/// nothing and gets offset 0. An alignment of 0 means 1.
struct ArenaBuffer {
  uint64_t bytes;
  uint64_t alignment;
  int64_t first;
  int64_t last;
};

inline bool operator==(const ArenaBuffer &a, const ArenaBuffer &b) {
  return a.bytes == b.bytes && a.alignment == b.alignment &&
         a.first == b.first && a.last == b.last;
}

/// The largest arena a layout may have: the largest size a memref (and so
/// the lowering's one arena allocation) can have.
constexpr uint64_t kMaxArenaBytes = INT64_MAX;

struct ArenaLayout {
  /// The buffers do not fit in kMaxArenaBytes even placed one above the
  /// other with every byte of padding they may need: no layout was made
  /// (offsets are empty, arenaBytes and liveBytes are UINT64_MAX). Callers
  /// report it as an error; below that bound no sum or rounding in
  /// placement can wrap.
  bool overflow = false;
  /// One per buffer, each a multiple of its alignment.
  std::vector<uint64_t> offsets;
  /// Max over buffers of offset + aligned bytes, rounded up to the largest
  /// alignment.
  uint64_t arenaBytes = 0;
  /// Lower bound on any placement: the max over steps of the sum of the live
  /// buffers' aligned bytes.
  uint64_t liveBytes = 0;
  /// The best lower bound on the arena known after placing: liveBytes
  /// rounded up to the largest alignment, or arenaBytes itself where a
  /// search proved the layout optimal. arenaBytes - lowerBound is the most
  /// any placement could still save.
  uint64_t lowerBound = 0;
  /// Best kept best fit in start order alone, within 1/512 of lowerBound,
  /// on a step of more than 4096 buffers: placing with NearMiss may still
  /// come closer.
  bool startOrderKept = false;
  /// Quick placed a step of more than 4096 buffers in start order only,
  /// above lowerBound: Best may still come closer.
  bool startOrderOnly = false;
};

enum class ArenaStrategy {
  /// The production baseline (TFLite's arena planner, XNNPACK): by size,
  /// largest first (ties by index), each in the smallest gap that fits among
  /// the placed buffers it conflicts with, else above them.
  SizeBestFit,
  /// The default: the best of several orderings and fits, and an exact
  /// branch-and-bound search where the instance is small enough.
  Best,
  /// For a step whose Best placement missed an arena budget by less than
  /// 1/512: on steps of more than 4096 buffers, best fit in start order
  /// (which Best keeps alone that close to the lower bound) competes with
  /// the bounded passes in the orders by size and by contention, and the
  /// skyline orders and the fallback pass (seconds at 100k buffers) do not
  /// run. A second placement costs far less than the re-plan a miss leads
  /// to. Elsewhere as Best.
  NearMiss,
  /// On steps of more than 4096 buffers, best fit in start order only (and
  /// its variant that avoids slivers): O(n log n), and an arena that moves
  /// little between similar steps, where Best's other orders cost a second
  /// or more at 100k buffers and land anywhere from the lower bound to 8%
  /// above it (the arena budget's re-plans judge each plan by it,
  /// ArenaBudget.cpp). Elsewhere as Best.
  Quick,
  /// Best, then the exact search with a much larger node budget on any
  /// instance: for benchmarks and tests, which want the optimum (and the
  /// proof in lowerBound) more than speed. Not for the planner's loop.
  Exact,
};

/// `bytes` rounded up to the buffer's alignment: what it occupies
/// (UINT64_MAX when that does not fit in 64 bits).
uint64_t alignedBytes(const ArenaBuffer &buffer);

/// The load of `buffers`: ArenaLayout::liveBytes without placing anything.
uint64_t arenaLiveBytes(llvm::ArrayRef<ArenaBuffer> buffers);

ArenaLayout placeArena(llvm::ArrayRef<ArenaBuffer> buffers,
                       ArenaStrategy strategy = ArenaStrategy::Best);

/// Why `offsets` (one per buffer) are not a placement of `buffers` in an
/// arena of `arenaBytes`: an offset off its buffer's alignment, a buffer
/// beyond the arena, or two buffers live at the same step that share bytes
/// (the first such pair found). Empty when they are one.
std::string arenaLayoutProblem(llvm::ArrayRef<ArenaBuffer> buffers,
                               llvm::ArrayRef<uint64_t> offsets,
                               uint64_t arenaBytes);

} // namespace remat

#endif // REMAT_PLANNING_ARENAPLACEMENT_H
