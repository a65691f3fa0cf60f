//===- StepArena.cpp - A planned step's buffers placed in one arena -------===//

#include "remat/Planning/StepArena.h"

using namespace remat;

StepArena remat::placeStepArena(const Program &program,
                                const MemoryProfile &profile,
                                uint64_t alignment, ArenaStrategy strategy) {
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
  for (OpId op = 0; op < program.ops.size(); ++op) {
    for (ValueId result : program.ops[op].results)
      addValue(result);
    if (uint64_t scratch = program.ops[op].scratchBytes) {
      arena.buffers.push_back({scratch, alignment, int64_t(op), int64_t(op)});
      arena.owners.push_back({kNone, op});
    }
  }
  arena.layout = placeArena(arena.buffers, strategy);
  return arena;
}
