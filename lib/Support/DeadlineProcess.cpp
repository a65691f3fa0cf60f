//===- DeadlineProcess.cpp - Run work in a child stopped at a deadline ----===//
//
// fork() + a pipe: the child runs the work, writes its bytes and leaves with
// _exit (no atexit handlers or stdio flushes of the parent's state); the
// parent reads with poll() until end of file or the deadline, then reaps the
// child, killing it first if it is still running. The parent reads while the
// child writes, so results larger than a pipe buffer cannot deadlock.
//
//===----------------------------------------------------------------------===//

#include "remat/Support/DeadlineProcess.h"

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace remat;

namespace {

/// Writes all of `bytes` to `fd`; false on error.
bool writeAll(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// Milliseconds until `deadline`, at least 0.
int millisecondsLeft(std::chrono::steady_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

} // namespace

DeadlineResult
remat::runBeforeDeadline(std::chrono::steady_clock::time_point deadline,
                         llvm::function_ref<std::string()> work,
                         DeadlineIsolation isolation) {
  DeadlineResult result;
  if (millisecondsLeft(deadline) == 0) {
    result.outcome = DeadlineOutcome::TimedOut;
    return result;
  }
  int fds[2];
  pid_t child = -1;
  if (isolation == DeadlineIsolation::ChildProcess && ::pipe(fds) == 0) {
    child = ::fork();
    if (child < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
    }
  }
  if (child < 0) {
    result.bytes = work();
    result.outcome = DeadlineOutcome::Finished;
    return result;
  }
  if (child == 0) {
    ::close(fds[0]);
    std::string bytes = work();
    _exit(writeAll(fds[1], bytes) ? 0 : 1);
  }

  ::close(fds[1]);
  bool eof = false, timedOut = false;
  char buffer[1 << 16];
  while (!eof) {
    int wait = millisecondsLeft(deadline);
    if (wait == 0) {
      timedOut = true;
      break;
    }
    pollfd poller{fds[0], POLLIN, 0};
    int ready = ::poll(&poller, 1, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      break;
    if (ready == 0)
      continue; // The loop head sees the deadline.
    ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      eof = n == 0;
      break;
    }
    result.bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (!eof)
    ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut)
    result.outcome = DeadlineOutcome::TimedOut;
  else if (eof && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    result.outcome = DeadlineOutcome::Finished;
  else
    result.outcome = DeadlineOutcome::Failed;
  if (result.outcome != DeadlineOutcome::Finished)
    result.bytes.clear();
  return result;
}
