//===- TargetMemory.h - How a target lays out a step's buffers --*- C++ -*-===//
//
// One description per target of what the memory model needs from it: the
// alignment every buffer of a step's arena is placed at and padded to, the
// largest alignment accepted, and that a buffer of no bytes takes nothing.
// remat-plan (arena placement and budgets), remat-to-cpu and remat-to-gpu
// (remat-arena-allocation) all read it; remat-plan records the alignment it
// planned with on the step (`remat.arena_alignment`) and the lowering
// refuses to place a step's arena with another.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_TARGETMEMORY_H
#define REMAT_PLANNING_TARGETMEMORY_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace remat {

/// The largest arena alignment accepted: a page. Larger alignments pad every
/// buffer to more than a page, which no target needs, and push sizes toward
/// overflow.
constexpr uint64_t kMaxArenaAlignment = 4096;

struct TargetMemory {
  llvm::StringRef name;
  /// Every buffer's offset in the arena is a multiple of it and its size is
  /// rounded up to it (the padding rule). The allocator that hands out the
  /// arena aligns its base at least as much: the runtime's host allocator
  /// to 64 bytes, CUDA to 256. A buffer of no bytes occupies nothing and the
  /// runtime allocates nothing for it.
  uint64_t alignment;
};

/// The CPU (a cache line) and NVIDIA GPUs (what CUDA allocations guarantee).
constexpr TargetMemory kCpuTargetMemory = {"cpu", 64};
constexpr TargetMemory kGpuTargetMemory = {"gpu", 256};

/// The description named `name` ("cpu" or "gpu").
std::optional<TargetMemory> lookupTargetMemory(llvm::StringRef name);

/// Empty when `alignment` is a power of two no larger than
/// kMaxArenaAlignment; otherwise what is wrong with it.
std::string checkArenaAlignment(uint64_t alignment);

/// The step attribute remat-plan records its arena alignment in.
constexpr llvm::StringLiteral kArenaAlignmentAttrName = "remat.arena_alignment";

/// The step attribute remat-plan records the arena it planned in: the
/// arena's bytes and the bytes of every buffer placed in it, which
/// remat-arena-allocation checks the lowered step's allocations against.
constexpr llvm::StringLiteral kPlannedArenaAttrName = "remat.arena";

} // namespace remat

#endif // REMAT_PLANNING_TARGETMEMORY_H
