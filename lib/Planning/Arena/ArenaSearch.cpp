//===- ArenaSearch.cpp - Exact placement of small instances --------------===//
//
// Branch and bound over canonical placements, after minimalloc (Moffitt,
// ASPLOS 2023). Push every buffer of a placement down as far as it goes: it
// then rests, rounded up to its alignment, on the highest end among the
// conflicting buffers below it, or on 0. Sorted by (offset, index), such a
// placement is built by taking the buffers in that order and putting each
// right above the placed buffers it conflicts with. So the search branches
// on which buffer comes next, requires (offset, index) to increase, and
// finds an optimal placement when it finishes. It prunes with two bounds:
// every buffer left goes at or above the last offset, and those live at one
// step stack up there. A node budget keeps it bounded and deterministic;
// when the budget runs out it keeps the best placement found.
//
//===----------------------------------------------------------------------===//

#include "ArenaPlacementInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace remat;
using namespace remat::arena;

namespace {

class ExactSearch {
public:
  ExactSearch(const Instance &instance, uint64_t bestArena,
              uint64_t nodeBudget)
      : instance(instance), nodesLeft(nodeBudget), best(bestArena) {
    size_t n = instance.buffers.size();
    floor.assign(n, 0);
    offsets.assign(n, 0);
    placed.assign(n, false);
    conflicts.resize(n);
    for (uint32_t i : instance.occupying)
      for (uint32_t j : instance.occupying)
        if (i != j && instance.meet(i, j))
          conflicts[i].push_back(j);
    // Cliques of the interval graph: the buffers live at each start step.
    std::vector<int64_t> points;
    for (uint32_t i : instance.occupying)
      points.push_back(instance.buffers[i].first);
    llvm::sort(points);
    points.erase(std::unique(points.begin(), points.end()), points.end());
    for (int64_t point : points) {
      std::vector<uint32_t> clique;
      for (uint32_t i : instance.occupying)
        if (instance.buffers[i].first <= point &&
            point <= instance.buffers[i].last)
          clique.push_back(i);
      cliques.push_back(std::move(clique));
    }
  }

  /// Searches below the arena given at construction; returns whether it
  /// found a smaller one (then in `bestOffsets`).
  bool run() {
    search(0, 0, 0, 0);
    return improved;
  }

  bool finished() const { return nodesLeft > 0; }

  std::vector<uint64_t> bestOffsets;
  uint64_t bestArena() const { return best; }

private:
  uint64_t candidate(uint32_t i) const {
    return llvm::alignTo(floor[i], alignmentOf(instance.buffers[i]));
  }

  /// A lower bound on the top of any completion.
  uint64_t lowerBound(uint64_t top, uint64_t lastOffset) const {
    uint64_t bound = top;
    for (const std::vector<uint32_t> &clique : cliques) {
      uint64_t load = 0;
      for (uint32_t i : clique)
        if (!placed[i])
          load += instance.sizes[i];
      if (load)
        bound = std::max(bound, lastOffset + load);
    }
    return bound;
  }

  void search(size_t depth, uint64_t top, uint64_t lastOffset,
              uint32_t lastIndex) {
    if (nodesLeft == 0)
      return;
    --nodesLeft;
    const std::vector<uint32_t> &all = instance.occupying;
    if (depth == all.size()) {
      uint64_t arena = llvm::alignTo(top, instance.maxAlignment);
      if (arena < best) {
        best = arena;
        bestOffsets = offsets;
        improved = true;
      }
      return;
    }
    if (llvm::alignTo(lowerBound(top, lastOffset), instance.maxAlignment) >=
        best)
      return;

    // Children: every unplaced buffer that keeps (offset, index) rising,
    // lowest offset first, then largest.
    std::vector<std::pair<uint64_t, uint32_t>> children;
    for (uint32_t i : all) {
      if (placed[i])
        continue;
      uint64_t offset = candidate(i);
      if (offset < lastOffset || (offset == lastOffset && depth > 0 &&
                                  i < lastIndex))
        continue;
      if (llvm::alignTo(offset + instance.sizes[i], instance.maxAlignment) >=
          best)
        continue;
      children.push_back({offset, i});
    }
    llvm::sort(children, [&](const auto &a, const auto &b) {
      if (a.first != b.first)
        return a.first < b.first;
      if (instance.sizes[a.second] != instance.sizes[b.second])
        return instance.sizes[a.second] > instance.sizes[b.second];
      return a.second < b.second;
    });

    std::vector<std::pair<uint32_t, uint64_t>> saved;
    for (auto [offset, i] : children) {
      uint64_t end = offset + instance.sizes[i];
      placed[i] = true;
      offsets[i] = offset;
      saved.clear();
      for (uint32_t j : conflicts[i])
        if (!placed[j] && floor[j] < end) {
          saved.push_back({j, floor[j]});
          floor[j] = end;
        }
      search(depth + 1, std::max(top, end), offset, i);
      for (auto [j, old] : saved)
        floor[j] = old;
      placed[i] = false;
      if (nodesLeft == 0)
        return;
    }
  }

  const Instance &instance;
  uint64_t nodesLeft;
  uint64_t best;
  bool improved = false;
  /// Per buffer: the highest end among the placed buffers it conflicts with.
  std::vector<uint64_t> floor;
  std::vector<uint64_t> offsets;
  std::vector<bool> placed;
  /// Per buffer, the occupying buffers whose intervals meet its own.
  std::vector<std::vector<uint32_t>> conflicts;
  std::vector<std::vector<uint32_t>> cliques;
};

} // namespace

bool arena::searchExact(const Instance &instance, ArenaLayout &layout,
                        uint64_t nodeBudget) {
  ExactSearch search(instance, layout.arenaBytes, nodeBudget);
  if (search.run()) {
    layout.offsets = search.bestOffsets;
    layout.arenaBytes = search.bestArena();
  }
  return search.finished();
}
