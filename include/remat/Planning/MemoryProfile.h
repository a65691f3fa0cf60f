//===- MemoryProfile.h - Live bytes over program order ----------*- C++ -*-===//
//
// The memory model on a Program (docs/memory-model.md): a buffer is live from
// the op that defines it to the last op that uses it or any view of it;
// outputs stay live to the end; inputs count only with `countInputs` (then for
// the whole step). While an op runs, its operands and its results are live,
// and so are its scratch bytes (OpInfo::scratchBytes).
// The peak is the maximum over ops of the live bytes while that op runs.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_MEMORYPROFILE_H
#define REMAT_PLANNING_MEMORYPROFILE_H

#include "remat/Planning/Program.h"

#include "llvm/ADT/ArrayRef.h"

namespace remat {

struct LiveRange {
  /// First op during which the buffer is live (kNone for inputs: from start).
  OpId begin = kNone;
  /// Last op during which the buffer is live (ops.size() - 1 for outputs).
  OpId end = kNone;
};

struct MemoryProfile {
  /// Live bytes while each op runs, its scratch bytes included;
  /// liveBytes.size() == ops.size().
  std::vector<uint64_t> liveBytes;
  /// Live range of every buffer-owning value (indexed by ValueId; views get
  /// their root's range).
  std::vector<LiveRange> ranges;
  uint64_t peakBytes = 0;
  /// The first op at which the peak occurs (kNone for an empty program).
  OpId peakOp = kNone;

  /// Buffer-owning values live while `op` runs, largest first.
  std::vector<ValueId> liveAt(const Program &program, OpId op) const;
};

/// Computes the profile in O(values + ops + uses).
MemoryProfile computeMemoryProfile(const Program &program, bool countInputs);

/// The profile of `program` with its ops run in `order` (a permutation of
/// its op ids): that of reorder(program, order) (Schedule.h), in its
/// positions, without building that program (the scheduler judges dozens
/// of orders of one step).
MemoryProfile computeMemoryProfile(const Program &program,
                                   llvm::ArrayRef<OpId> order,
                                   bool countInputs);

} // namespace remat

#endif // REMAT_PLANNING_MEMORYPROFILE_H
