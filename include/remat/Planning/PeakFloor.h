//===- PeakFloor.h - A peak no plan goes below ------------------*- C++ -*-===//
//
// Recomputation can move and repeat ops, not shrink them: while an op runs,
// its operands, results and scratch are live whatever the plan, and at the
// end of the step so are all its results (and, when inputs count, the
// inputs throughout). The largest of these is a floor under every plan's
// live peak, and so under its arena: a budget below it fails at once,
// before any search.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_PEAKFLOOR_H
#define REMAT_PLANNING_PEAKFLOOR_H

#include "remat/Planning/Program.h"

namespace remat {

struct PeakFloor {
  uint64_t bytes = 0;
  /// The op that needs the floor while it runs, or kNone when the step's
  /// results (with the inputs, when they count) are the floor.
  OpId op = kNone;
};

/// In O(ops + operands): each op's distinct buffers are counted once.
PeakFloor computePeakFloor(const Program &program, bool countInputs);

} // namespace remat

#endif // REMAT_PLANNING_PEAKFLOOR_H
