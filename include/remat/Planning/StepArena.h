//===- StepArena.h - A planned step's buffers placed in one arena -*- C++ -*-===//
//
// The bridge from the memory model to arena placement: every buffer-owning
// value with its live range, and each of an op's scratch buffers as a buffer
// live while that op runs, so that the load of the arena buffers is the model's
// peak with each buffer's bytes rounded up to the alignment.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_STEPARENA_H
#define REMAT_PLANNING_STEPARENA_H

#include "remat/Planning/ArenaPlacement.h"
#include "remat/Planning/MemoryProfile.h"

namespace remat {

/// What an arena buffer holds: a value's buffer, or an op's scratch bytes.
struct StepBuffer {
  /// The buffer-owning value, or kNone for scratch.
  ValueId value = kNone;
  /// The op whose scratch this is, or kNone for a value.
  OpId scratchOf = kNone;
};

struct StepArena {
  /// In program order: inputs (when counted) first, then per op its scratch
  /// buffers and then its results.
  std::vector<ArenaBuffer> buffers;
  std::vector<StepBuffer> owners;
  ArenaLayout layout;

  /// Arena bytes over the model's (unaligned) peak; 1 for an empty step.
  double fragmentation(uint64_t peakBytes) const {
    return peakBytes ? double(layout.arenaBytes) / double(peakBytes) : 1.0;
  }
};

/// The buffers of `program` under `profile` (computed with the same
/// `countInputs`), placed with `strategy`; offsets are multiples of
/// `alignment`. `placedBefore`, an arena placed earlier with the same
/// strategy or with Best, lends its layout when its buffers are these:
/// placement is a function of the buffers, and planning places the plan it
/// keeps. A layout of Quick's start order alone
/// (ArenaLayout::startOrderOnly) lends itself only to Quick: planning
/// leaves one where the plan's aligned live bytes exceed the budget, and no
/// placement could meet it.
StepArena placeStepArena(const Program &program, const MemoryProfile &profile,
                         uint64_t alignment,
                         ArenaStrategy strategy = ArenaStrategy::Best,
                         const StepArena *placedBefore = nullptr);

} // namespace remat

#endif // REMAT_PLANNING_STEPARENA_H
