//===- DeadlineProcessTest.cpp - Tests for work stopped at a deadline -----===//

#include "remat/Support/DeadlineProcess.h"

#include "gtest/gtest.h"

#include <thread>
#include <unistd.h>

using namespace remat;
using Clock = std::chrono::steady_clock;

namespace {

TEST(DeadlineProcessTest, ReturnsTheBytesOfWorkThatFinishes) {
  DeadlineResult result = runBeforeDeadline(
      Clock::now() + std::chrono::seconds(30),
      [] { return std::string("answer\0with a zero", 18); });
  EXPECT_EQ(result.outcome, DeadlineOutcome::Finished);
  EXPECT_EQ(result.bytes, std::string("answer\0with a zero", 18));
}

TEST(DeadlineProcessTest, RunsTheWorkInAChildByDefault) {
  pid_t parent = ::getpid();
  DeadlineResult result =
      runBeforeDeadline(Clock::now() + std::chrono::seconds(30),
                        [] { return std::to_string(::getpid()); });
  ASSERT_EQ(result.outcome, DeadlineOutcome::Finished);
  EXPECT_NE(result.bytes, std::to_string(parent));
}

TEST(DeadlineProcessTest, KillsWorkThatOverrunsTheDeadline) {
  Clock::time_point start = Clock::now();
  DeadlineResult result =
      runBeforeDeadline(start + std::chrono::milliseconds(200), [] {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return std::string("too late");
      });
  EXPECT_EQ(result.outcome, DeadlineOutcome::TimedOut);
  EXPECT_TRUE(result.bytes.empty());
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
}

TEST(DeadlineProcessTest, ReportsAChildThatDies) {
  DeadlineResult result =
      runBeforeDeadline(Clock::now() + std::chrono::seconds(30), []() {
        _exit(3);
        return std::string();
      });
  EXPECT_EQ(result.outcome, DeadlineOutcome::Failed);
  EXPECT_TRUE(result.bytes.empty());
}

TEST(DeadlineProcessTest, ThisProcessRunsTheWorkHere) {
  pid_t parent = ::getpid();
  DeadlineResult result = runBeforeDeadline(
      Clock::now() + std::chrono::seconds(30),
      [] { return std::to_string(::getpid()); },
      DeadlineIsolation::ThisProcess);
  EXPECT_EQ(result.outcome, DeadlineOutcome::Finished);
  EXPECT_EQ(result.bytes, std::to_string(parent));
}

TEST(DeadlineProcessTest, WorkDoesNotStartAfterTheDeadline) {
  bool ran = false;
  for (DeadlineIsolation isolation :
       {DeadlineIsolation::ChildProcess, DeadlineIsolation::ThisProcess}) {
    DeadlineResult result = runBeforeDeadline(
        Clock::now() - std::chrono::seconds(1),
        [&] {
          ran = true;
          return std::string("late");
        },
        isolation);
    EXPECT_EQ(result.outcome, DeadlineOutcome::TimedOut);
  }
  EXPECT_FALSE(ran);
}

} // namespace
