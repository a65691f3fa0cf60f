//===- Runner.h - The step JIT-compiled, run and measured -------*- C++ -*-===//
//
// Run phase: the step, JIT-compiled for the host (Jit.h), called
// through its C interface (warmed up and timed with --repeat), and what
// the runtime library's counting allocator measured.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_RUNNER_H
#define REMAT_TOOLS_REMATRUN_RUNNER_H

#include "Arguments.h"
#include "Jit.h"
#include "RunOptions.h"
#include "Step.h"

namespace remat::run {

/// What one invocation of the step returned and what the runtime measured.
struct Measurement {
  llvm::SmallVector<int64_t> resultWords;
  uint64_t peak = 0;
  uint64_t allocations = 0;
  uint64_t extent = 0;
  uint64_t paddedPeak = 0;
  /// The timed runs, warm-up excluded.
  llvm::SmallVector<double> timesMs;

  double medianMs() const {
    llvm::SmallVector<double> sorted(timesMs);
    llvm::sort(sorted);
    size_t middle = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[middle]
                             : (sorted[middle - 1] + sorted[middle]) / 2;
  }
};

/// Without options.repeat the step runs once, cold; with it, once to warm
/// up and then options.repeat times. The memory figures are the last run's.
/// The results may point into the compiled module (a returned constant): it
/// must stay alive until they are read.
llvm::Expected<Measurement> runStep(const CompiledModule &compiled,
                                    const Step &step, Arguments &arguments,
                                    const RunOptions &options);

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_RUNNER_H
