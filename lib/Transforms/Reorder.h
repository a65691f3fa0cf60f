//===- Reorder.h - Moving a graph's ops into a new order --------*- C++ -*-===//
//
// Shared by remat-schedule, which always commits the memory-aware order, and
// remat-plan with `schedule`, which commits it only when it plans better.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_TRANSFORMS_REORDER_H
#define REMAT_LIB_TRANSFORMS_REORDER_H

#include "remat/Analysis/ProgramBuilder.h"

#include "llvm/ADT/ArrayRef.h"

namespace remat {

/// Moves the ops of `function`'s block (the ops of `graph`, built from it)
/// into `order`, a permutation of their ids such as scheduleForMemory
/// returns. remat.name tags, which are not ops of the program, follow the
/// values they name. Value ids follow block order, so a Program built from
/// the result numbers values differently from reorder(graph.program, order).
void reorderBlock(mlir::FunctionOpInterface function, const GraphProgram &graph,
                  llvm::ArrayRef<OpId> order);

} // namespace remat

#endif // REMAT_LIB_TRANSFORMS_REORDER_H
