//===- StepArena.cpp - A planned step's buffers placed in one arena -------===//

#include "remat/Planning/StepArena.h"

using namespace remat;

StepArena remat::placeStepArena(const Program &program,
                                const MemoryProfile &profile,
                                uint64_t alignment, ArenaStrategy strategy,
                                const StepArena *placedBefore) {
  StepArena arena;
  auto addValue = [&](ValueId value) {
    const ValueInfo &info = program.values[value];
    const LiveRange &range = profile.ranges[value];
    if (info.aliasOf != kNone || info.bytes == 0 || range.end == kNone)
      return;
    int64_t first = range.begin == kNone ? 0 : range.begin;
    arena.buffers.push_back({info.bytes, alignment, first, range.end});
    arena.owners.push_back({value, kNone});
  };
  // Inputs live in the arena only when the model counts them (then their
  // range is the whole step; otherwise it is empty).
  for (ValueId input : program.inputs)
    addValue(input);
  // Per op, its scratch buffers and then its results. The lowering need not
  // allocate them in this order: it takes the offsets placed here
  // (remat-arena-allocation).
  for (OpId op = 0; op < program.ops.size(); ++op) {
    for (uint64_t scratch : program.ops[op].scratchBuffers) {
      if (!scratch)
        continue;
      arena.buffers.push_back({scratch, alignment, int64_t(op), int64_t(op)});
      arena.owners.push_back({kNone, op});
    }
    for (ValueId result : program.ops[op].results)
      addValue(result);
  }
  // A layout placed in start order only lends itself to Quick alone.
  if (placedBefore && placedBefore->buffers == arena.buffers &&
      (strategy == ArenaStrategy::Quick ||
       !placedBefore->layout.startOrderOnly))
    arena.layout = placedBefore->layout;
  else
    arena.layout = placeArena(arena.buffers, strategy);
  return arena;
}
