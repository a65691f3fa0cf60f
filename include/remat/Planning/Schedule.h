//===- Schedule.h - Memory-aware topological ordering -----------*- C++ -*-===//

#ifndef REMAT_PLANNING_SCHEDULE_H
#define REMAT_PLANNING_SCHEDULE_H

#include "remat/Planning/Program.h"

namespace remat {

/// Returns a topological order of program.ops (a permutation of op ids) that
/// keeps `ordered` ops in their relative order, keeps every op on its side of
/// `backwardBegin`, and whose peak is never above the peak of the given
/// order: a lower peak, or the same peak with fewer live bytes summed over
/// the ops (it returns the identity when it cannot do better).
std::vector<OpId> scheduleForMemory(const Program &program, bool countInputs);

/// Whether `order` leaves every op where it is.
bool isIdentityOrder(const std::vector<OpId> &order);

/// Returns `program` with its ops permuted by `order` (value ids unchanged).
Program reorder(const Program &program, const std::vector<OpId> &order);

} // namespace remat

#endif // REMAT_PLANNING_SCHEDULE_H
