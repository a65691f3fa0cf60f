//===- PlanContract.h - What every solver result must keep ------*- C++ -*-===//
//
// The contract between a solver and its callers, checked without the code
// the solvers use to evaluate plans (materialize, computeMemoryProfile): the
// plan is replayed step by step from the Program, every read is checked
// against the values that exist and still hold their buffer at that step,
// and the peak is summed buffer by buffer. A reported figure that merely
// repeats the solver's own arithmetic cannot pass for evidence here.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_UNITTESTS_PLANNING_PLANCONTRACT_H
#define REMAT_UNITTESTS_PLANNING_PLANCONTRACT_H

#include "remat/Planning/Plan.h"
#include "remat/Planning/Solver.h"

#include "gtest/gtest.h"

#include <string>

namespace remat {

/// What the step a plan makes does, as replayed.
struct Replay {
  /// The largest sum, over the steps, of the bytes of the buffers live at
  /// that step plus its scratch.
  uint64_t peakBytes = 0;
  /// The FLOPs of every step executed.
  uint64_t flops = 0;
  /// The first read of a value that does not exist or no longer holds its
  /// buffer, or empty.
  std::string error;
};

/// Replays `plan` on `program` with the memory model of
/// docs/memory-model.md.
Replay replayPlan(const Program &program, const Plan &plan,
                  bool countInputs = false);

/// Whether `result` keeps the contract for `program` under `options`: the
/// plan verifies and replays without a bad read, the reported peak and extra
/// FLOPs are those of the replay, and a result called feasible meets the
/// budget.
::testing::AssertionResult keepsPlanContract(const Program &program,
                                             const SolverResult &result,
                                             const SolverOptions &options);

/// The first not-saveable value the backward part of the planned step
/// reads in its original version (not a copy), or empty: the result of a
/// recomputable mustRecompute forward op, or a view of one made by a
/// recomputable op. (Its buffer may outlive it: an op that cannot be
/// recomputed may write its own result into it in place.)
std::string keptNotSaveable(const Program &program, const Plan &plan);

} // namespace remat

#endif // REMAT_UNITTESTS_PLANNING_PLANCONTRACT_H
