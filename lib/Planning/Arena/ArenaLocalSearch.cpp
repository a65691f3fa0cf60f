//===- ArenaLocalSearch.cpp - Improving a greedy arena placement ----------===//
//
// Iterated greedy over the order of the best greedy placement: moves in
// the order that keep the arena from growing are kept (improveOrder).
//
//===----------------------------------------------------------------------===//

#include "ArenaPlacementInternal.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace remat;
using namespace remat::arena;

/// The buffers' bytes weighted by where they end: lower is more settled.
static unsigned __int128 height(const Instance &instance,
                         llvm::ArrayRef<uint64_t> offsets) {
  unsigned __int128 sum = 0;
  for (uint32_t i : instance.occupying)
    sum += static_cast<unsigned __int128>(offsets[i] + instance.sizes[i]) *
           instance.sizes[i];
  return sum;
}

void arena::improveOrder(const Instance &instance, std::vector<uint32_t> order,
                  Fit fit, Plateau plateau, ArenaLayout &layout) {
  size_t n = order.size();
  if (n < 2)
    return;
  constexpr uint64_t kWork = 200'000'000, kMaxTries = 300;
  uint64_t tries = std::min<uint64_t>(kMaxTries, kWork / (n * n));
  if (tries < 8)
    return;
  uint64_t bound = llvm::alignTo(instance.liveBytes, instance.maxAlignment);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&]() {
    // xorshift64: the same sequence on every platform.
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::vector<uint64_t> offsets;
  unsigned __int128 bestHeight = height(instance, layout.offsets);
  // First only top moves, then both kinds: the second phase starts from
  // where the first stalled, so it never ends worse.
  for (uint64_t attempt = 0; attempt < 2 * tries && layout.arenaBytes > bound;
       ++attempt) {
    std::vector<uint32_t> candidate = order;
    auto move = [&](size_t from, size_t to) {
      uint32_t moved = candidate[from];
      candidate.erase(candidate.begin() + from);
      candidate.insert(candidate.begin() + to, moved);
    };
    if (attempt >= tries && next() % 2) {
      for (uint64_t moves = 1 + next() % 3; moves > 0; --moves) {
        size_t from = next() % n;
        move(from, next() % n);
      }
    } else {
      // The buffer whose end is the arena's top (the lowest index on a tie).
      size_t top = 0;
      uint64_t topEnd = 0;
      for (size_t position = 0; position < n; ++position) {
        uint32_t i = order[position];
        uint64_t end = layout.offsets[i] + instance.sizes[i];
        if (end > topEnd || (end == topEnd && i < order[top])) {
          topEnd = end;
          top = position;
        }
      }
      if (top == 0) {
        // Already first: perturb elsewhere, swapping two neighbours.
        size_t position = 1 + next() % (n - 1);
        std::swap(candidate[position - 1], candidate[position]);
      } else {
        move(top, next() % top);
      }
    }
    std::optional<uint64_t> arena =
        placeGreedy(instance, candidate, fit, offsets, maxRanges(instance));
    if (!arena || *arena > layout.arenaBytes)
      continue;
    if (plateau == Plateau::Settle) {
      unsigned __int128 tried = height(instance, offsets);
      if (*arena == layout.arenaBytes && tried > bestHeight)
        continue;
      bestHeight = tried;
    }
    layout.arenaBytes = *arena;
    layout.offsets = offsets;
    order = std::move(candidate);
  }
}
