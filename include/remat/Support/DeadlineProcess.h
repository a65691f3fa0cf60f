//===- DeadlineProcess.h - Run work in a child stopped at a deadline -*- C++ -*-//
//
// Third-party search code (CBC's preprocessing,
// root LP and cut loops) checks the clock only between its own steps, and a
// single step can run for minutes and gigabytes on a large model. A time
// limit is a promise to the user, so such work runs in a forked child that
// is killed when the deadline passes; its memory goes with it. An embedder
// that must not fork (a host whose threads or handles a child would copy)
// runs the work in its own process instead, with the work's own limits.
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

/// Where guarded work runs.
enum class DeadlineIsolation {
  /// A forked child, killed at the deadline.
  ChildProcess,
  /// This process: the deadline only decides whether the work starts.
  ThisProcess,
};

/// Runs `work` and returns the bytes it produced, unless `deadline` passes
/// first. In a child process (the default), the child is killed and reaped
/// at the deadline; when no child can be started, and with
/// DeadlineIsolation::ThisProcess, `work` runs in this process instead, so
/// callers still get an answer; the work's own limits then apply.
DeadlineResult
runBeforeDeadline(std::chrono::steady_clock::time_point deadline,
                  llvm::function_ref<std::string()> work,
                  DeadlineIsolation isolation = DeadlineIsolation::ChildProcess);

} // namespace remat

#endif // REMAT_SUPPORT_DEADLINEPROCESS_H
