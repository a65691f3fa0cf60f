//===- DeadlineProcess.h - Run work in a child stopped at a deadline -*- C++ -*-//
//
// Third-party search code (CBC's preprocessing,
// root LP and cut loops) checks the clock only between its own steps, and a
// single step can run for minutes and gigabytes on a large model. A time
// limit is a promise to the user, so such work runs in a forked child that
// is killed when the deadline passes; its memory goes with it.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_SUPPORT_DEADLINEPROCESS_H
#define REMAT_SUPPORT_DEADLINEPROCESS_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <chrono>
#include <optional>
#include <string>

namespace remat {

/// How a guarded run ended.
enum class DeadlineOutcome {
  /// The work returned; its bytes are in the result.
  Finished,
  /// The deadline passed first and the child was killed.
  TimedOut,
  /// The child died (a crash, an allocation failure) before returning.
  Failed,
};

struct DeadlineResult {
  DeadlineOutcome outcome = DeadlineOutcome::Failed;
  std::string bytes;
};

/// Runs `work` in a forked child and returns the bytes it produced, unless
/// `deadline` passes first (the child is killed and reaped). When no child
/// can be started, runs `work` in this process instead, so callers still get
/// an answer; the work's own limits then apply.
DeadlineResult runBeforeDeadline(std::chrono::steady_clock::time_point deadline,
                                 llvm::function_ref<std::string()> work);

} // namespace remat

#endif // REMAT_SUPPORT_DEADLINEPROCESS_H
