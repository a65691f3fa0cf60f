//===- OccupancyTree.h - Bytes taken over ranges of steps -------*- C++ -*-===//
//
// The greedy arena placer (ArenaPlacement.cpp) puts each buffer into a gap
// of the bytes taken by the placed buffers whose steps meet its own. A scan
// of every placed buffer makes placement quadratic; this tree answers "the
// gaps of the bytes taken at some step of first..last" from O(log n) sets of
// merged byte ranges, so a placement costs about its gaps, not the buffers.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_ARENA_OCCUPANCYTREE_H
#define REMAT_LIB_PLANNING_ARENA_OCCUPANCYTREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <vector>

namespace remat::arena {

/// Byte ranges taken over closed ranges of steps: a segment tree over the
/// steps whose nodes hold merged byte ranges, both of the ranges stored at
/// the node and of everything stored in its subtree.
class OccupancyTree {
public:
  /// `steps` holds every step that inserts and queries will name as a first
  /// or last step, in any order, duplicates allowed.
  explicit OccupancyTree(llvm::ArrayRef<int64_t> steps);

  /// Takes bytes [begin, end) at steps first..last.
  void insert(int64_t first, int64_t last, uint64_t begin, uint64_t end);

  /// Visits, bottom up, the free gaps [begin, end) below the top of the bytes
  /// taken at some step of first..last, until `visit` returns false or
  /// `merged` reaches `maxMerged`. Returns the top (the highest taken end, 0
  /// when nothing is taken), also when `merged` reached its bound, or 0
  /// when `visit` stopped the walk. Adds to `merged` the stored ranges the
  /// walk went through: its cost, which can exceed the gaps where the ranges
  /// that meet first..last are spread over many nodes.
  uint64_t forEachGap(int64_t first, int64_t last,
                      llvm::function_ref<bool(uint64_t, uint64_t)> visit,
                      uint64_t &merged,
                      uint64_t maxMerged = UINT64_MAX) const;

private:
  struct ByteRange {
    uint64_t begin, end;
  };
  /// Disjoint byte ranges that neither overlap nor touch, by begin (and so
  /// by end). A sorted vector, not a tree: the gap walks read millions of
  /// ranges in order, and most sets are small enough that an insert's move
  /// of the ranges above it costs less than a tree node's allocation.
  using RangeSet = std::vector<ByteRange>;
  static constexpr uint32_t kNoSet = UINT32_MAX;

  size_t position(int64_t step) const;
  RangeSet &setAt(uint32_t &slot);
  void insert(size_t node, size_t lo, size_t hi, size_t first, size_t last,
              uint64_t begin, uint64_t end);
  void collect(size_t node, size_t lo, size_t hi, size_t first, size_t last,
               std::vector<const RangeSet *> &sets) const;
  static void add(RangeSet &set, uint64_t begin, uint64_t end);

  std::vector<int64_t> points;
  /// Per node, an index into `sets` or kNoSet: the ranges stored at the node
  /// (those that cover its steps but not its parent's), and the union of
  /// the ranges stored anywhere in its subtree.
  std::vector<uint32_t> own, subtree;
  std::vector<RangeSet> sets;
  /// forEachGap's working vectors, kept between calls: a placement asks for
  /// the gaps once per buffer.
  mutable struct {
    std::vector<const RangeSet *> found;
    std::vector<std::pair<uint64_t, uint32_t>> heap;
    std::vector<const ByteRange *> next;
  } scratch;
};

} // namespace remat::arena

#endif // REMAT_LIB_PLANNING_ARENA_OCCUPANCYTREE_H
