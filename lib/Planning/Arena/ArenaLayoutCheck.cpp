//===- ArenaLayoutCheck.cpp - Whether given offsets are a placement -------===//
//
// The lowering takes the offsets the plan chose instead of placing the
// buffers again, so that the arena it allocates is the plan's by
// construction; it must first know that those offsets are a placement of the
// buffers as it sees them. A sweep over the steps keeps the buffers live at
// the current step ordered by offset: they never overlap (else the check has
// already failed), so a new buffer only needs to clear its two neighbours.
// O(n log n), where comparing every pair would be quadratic on steps with
// thousands of buffers.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/ArenaPlacement.h"

#include "ArenaPlacementInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <queue>

using namespace remat;
using namespace remat::arena;

std::string remat::arenaLayoutProblem(llvm::ArrayRef<ArenaBuffer> buffers,
                                      llvm::ArrayRef<uint64_t> offsets,
                                      uint64_t arenaBytes) {
  if (offsets.size() != buffers.size())
    return llvm::formatv("{0} offsets for {1} buffers", offsets.size(),
                         buffers.size());
  std::vector<uint32_t> byFirst;
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    if (offsets[i] % alignmentOf(buffers[i]) != 0)
      return llvm::formatv("buffer {0}'s offset {1} is not a multiple of its "
                           "alignment {2}",
                           i, offsets[i], alignmentOf(buffers[i]));
    if (!occupies(buffers[i]))
      continue;
    bool overflow = false;
    uint64_t end =
        llvm::SaturatingAdd(offsets[i], alignedBytes(buffers[i]), &overflow);
    if (overflow || end > arenaBytes)
      return llvm::formatv("buffer {0} ends at byte {1}, beyond the arena's "
                           "{2}",
                           i, end, arenaBytes);
    byFirst.push_back(i);
  }
  llvm::sort(byFirst, [&](uint32_t a, uint32_t b) {
    return std::make_pair(buffers[a].first, a) <
           std::make_pair(buffers[b].first, b);
  });
  // Live buffers by offset, and by last step to retire them.
  std::map<uint64_t, uint32_t> live;
  auto laterLast = [&](uint32_t a, uint32_t b) {
    return buffers[a].last > buffers[b].last;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(laterLast)>
      retiring(laterLast);
  auto end = [&](uint32_t i) { return offsets[i] + alignedBytes(buffers[i]); };
  auto clash = [&](uint32_t a, uint32_t b) {
    return llvm::formatv("buffers {0} and {1} are live at the same step but "
                         "share bytes [{2}, {3})",
                         std::min(a, b), std::max(a, b),
                         std::max(offsets[a], offsets[b]),
                         std::min(end(a), end(b)))
        .str();
  };
  for (uint32_t i : byFirst) {
    while (!retiring.empty() && buffers[retiring.top()].last < buffers[i].first) {
      live.erase(offsets[retiring.top()]);
      retiring.pop();
    }
    auto above = live.lower_bound(offsets[i]);
    if (above != live.end() && above->first < end(i))
      return clash(i, above->second);
    if (above != live.begin() && end(std::prev(above)->second) > offsets[i])
      return clash(i, std::prev(above)->second);
    live.emplace(offsets[i], i);
    retiring.push(i);
  }
  return "";
}
