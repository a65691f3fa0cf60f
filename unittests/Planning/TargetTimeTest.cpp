//===- TargetTimeTest.cpp - The roofline time model and its pricing -------===//

#include "remat/Planning/MemoryProfile.h"
#include "remat/Planning/Schedule.h"
#include "remat/Planning/Solver.h"
#include "remat/Planning/TargetTime.h"

#include "PlanTestHelpers.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace remat;

namespace {

TargetTime roundNumbers() {
  TargetTime time;
  time.name = "test";
  time.peakFlopsPerSecond = 1e9;
  time.bytesPerSecond = 1e8;
  time.secondsPerOp = 1e-6;
  time.efficiency = {0.5, 0.25, 0.01, 0.1};
  return time;
}

TEST(TargetTimeTest, TheLongerOfComputeAndTrafficPlusTheFixedCost) {
  TargetTime time = roundNumbers();
  // 1e6 FLOPs at half of 1e9/s: 2 ms; 1e3 bytes at 1e8/s: 10 us.
  EXPECT_DOUBLE_EQ(time.seconds(KernelKind::MatrixProduct, 1000000, 1000),
                   1e-6 + 2e-3);
  // The same FLOPs in a convolution (a quarter of the peak): 4 ms.
  EXPECT_DOUBLE_EQ(time.seconds(KernelKind::Convolution, 1000000, 1000),
                   1e-6 + 4e-3);
  // A window: 1e5 FLOPs at a hundredth of the peak, 10 ms.
  EXPECT_DOUBLE_EQ(time.seconds(KernelKind::Window, 100000, 1000),
                   1e-6 + 1e-2);
  // Streaming: 1e3 FLOPs (10 us at a tenth) against 1e6 bytes (10 ms).
  EXPECT_DOUBLE_EQ(time.seconds(KernelKind::Streaming, 1000, 1000000),
                   1e-6 + 1e-2);
  // No FLOPs and no bytes: no kernel, no time.
  EXPECT_EQ(time.seconds(KernelKind::Streaming, 0, 0), 0.0);
}

TEST(TargetTimeTest, CostIsSecondsAtThePeakRate) {
  TargetTime time = roundNumbers();
  // 1 us + 2 ms at 1e9/s: 2,001,000 units.
  EXPECT_EQ(time.cost(KernelKind::MatrixProduct, 1000000, 1000), 2001000u);
  // A compute-bound op at full efficiency costs its FLOPs plus the fixed
  // cost.
  time.efficiency = {1, 1, 1, 1};
  time.secondsPerOp = 0;
  EXPECT_EQ(time.cost(KernelKind::MatrixProduct, 123456, 8), 123456u);
  // An op that takes any time costs at least one unit.
  time.efficiency = {1, 1, 1, 1};
  time.bytesPerSecond = 1e12;
  EXPECT_EQ(time.cost(KernelKind::Streaming, 0, 1), 1u);
  // Saturates rather than wraps.
  time.efficiency = {0.5, 0.5, 0.5, 0.5};
  EXPECT_EQ(time.cost(KernelKind::Convolution,
                      std::numeric_limits<uint64_t>::max(), 0),
            std::numeric_limits<uint64_t>::max());
}

TEST(TargetTimeTest, TheCpuHasABuiltInModelTheGpuDoesNot) {
  std::optional<TargetTime> cpu = lookupTargetTime("cpu");
  ASSERT_TRUE(cpu);
  EXPECT_EQ(checkTargetTime(*cpu), "");
  EXPECT_FALSE(lookupTargetTime("gpu"));
}

TEST(TargetTimeTest, ParsesTheCalibrationFormat) {
  llvm::Expected<TargetTime> time = parseTargetTime(R"({
    "target": "cpu", "peak_flops_per_second": 2e11, "bytes_per_second": 1e10,
    "seconds_per_op": 1e-7,
    "efficiency": {"matrix_product": 0.6, "convolution": 0.1,
                   "window": 0.005, "streaming": 0.02}})");
  ASSERT_TRUE(bool(time)) << llvm::toString(time.takeError());
  EXPECT_EQ(time->name, "cpu");
  EXPECT_EQ(time->peakFlopsPerSecond, 2e11);
  EXPECT_EQ(time->bytesPerSecond, 1e10);
  EXPECT_EQ(time->secondsPerOp, 1e-7);
  EXPECT_EQ(time->efficiency[unsigned(KernelKind::MatrixProduct)], 0.6);
  EXPECT_EQ(time->efficiency[unsigned(KernelKind::Convolution)], 0.1);
  EXPECT_EQ(time->efficiency[unsigned(KernelKind::Window)], 0.005);
  EXPECT_EQ(time->efficiency[unsigned(KernelKind::Streaming)], 0.02);
}

std::string parseError(llvm::StringRef json) {
  llvm::Expected<TargetTime> time = parseTargetTime(json);
  if (time)
    return "";
  return llvm::toString(time.takeError());
}

TEST(TargetTimeTest, ErrorsNameTheField) {
  const char *efficiency = R"("efficiency": {"matrix_product": 0.5,
      "convolution": 0.1, "window": 0.01, "streaming": 0.1})";
  auto with = [&](const std::string &fields) {
    return "{\"target\": \"cpu\", " + fields + ", " + efficiency + "}";
  };
  std::string numbers = R"("peak_flops_per_second": 1e9,
      "bytes_per_second": 1e8, "seconds_per_op": 0)";
  EXPECT_EQ(parseError(with(numbers)), "");
  EXPECT_NE(parseError("{"), "");
  EXPECT_EQ(parseError("[1]"), "expected a JSON object");
  EXPECT_EQ(parseError(with(R"("peak_flops_per_second": 1e9,
      "seconds_per_op": 0)")),
            "missing \"bytes_per_second\" (a number)");
  EXPECT_EQ(parseError(with(numbers + R"(, "bandwidth": 3)")),
            "unknown field \"bandwidth\"");
  EXPECT_EQ(parseError(with(R"("peak_flops_per_second": -1,
      "bytes_per_second": 1e8, "seconds_per_op": 0)")),
            "peak_flops_per_second must be a positive number");
  EXPECT_EQ(parseError(R"({"target": "cpu", "peak_flops_per_second": 1e9,
      "bytes_per_second": 1e8, "seconds_per_op": 0, "efficiency":
      {"matrix_product": 1.5, "convolution": 0.1, "window": 0.01,
       "streaming": 0.1}})"),
            "efficiency.matrix_product must be in (0, 1]");
  EXPECT_EQ(parseError(R"({"target": "cpu", "peak_flops_per_second": 1e9,
      "bytes_per_second": 1e8, "seconds_per_op": 0, "efficiency":
      {"matrix_product": 0.5, "window": 0.01, "streaming": 0.1}})"),
            "missing \"efficiency\".convolution (a number)");
}

/// Two activations, either of which a plan may recompute to meet a budget
/// of 250 bytes (peak 310 at `big` and `k`, 220 with either recomputed):
///   a = f(x) 100 B, b = g(x) 100 B, c = h(a, b) 10 B
///   --- backward
///   gc = s(c) 10 B, w = big(gc) 100 B, v = k(w) 10 B, ga = da(v, a) 10 B,
///   gb = db(ga, b) 10 B (output)
/// f has fewer FLOPs than g; `fCost` and `gCost` are their costs.
Program twoChoices(uint64_t fCost, uint64_t gCost) {
  Program program;
  ValueId x = program.addInput(0, "x");
  ValueId a = addOp(program, {x}, 100, 10, "f");
  ValueId b = addOp(program, {x}, 100, 20, "g");
  ValueId c = addOp(program, {a, b}, 10, 1, "h");
  program.backwardBegin = program.ops.size();
  ValueId gc = addOp(program, {c}, 10, 1, "s");
  ValueId w = addOp(program, {gc}, 100, 1, "big");
  ValueId v = addOp(program, {w}, 10, 1, "k");
  ValueId ga = addOp(program, {v, a}, 10, 1, "da");
  program.markOutput(addOp(program, {ga, b}, 10, 1, "db"));
  program.ops[0].cost = fCost;
  program.ops[1].cost = gCost;
  return program;
}

TEST(TargetTimeTest, SolversMinimizeTheCostAndReportTheFlops) {
  SolverOptions options;
  options.budgetBytes = 250;
  options.timeLimitSeconds = 20;
  Program byFlops = twoChoices(10, 20);
  Program byTime = twoChoices(1000, 20);
  ASSERT_EQ(computeMemoryProfile(byFlops, false).peakBytes, 310u);
  // `program`'s plan recomputes the result of op `op` alone.
  auto expectChoice = [&](const char *name, const Program &program, OpId op,
                          uint64_t flops, uint64_t cost) {
    SolverResult result = createSolver(name)->solve(program, options);
    ASSERT_TRUE(result.feasible) << name;
    ASSERT_EQ(result.plan.recomputes.size(), 1u) << name;
    EXPECT_EQ(result.plan.recomputes[0].value, program.ops[op].results[0])
        << name;
    EXPECT_EQ(result.extraFlops, flops) << name;
    EXPECT_EQ(result.extraCost, cost) << name;
  };
  for (const char *name : {"greedy", "ilp"}) {
    expectChoice(name, byFlops, /*op=*/0, /*flops=*/10, /*cost=*/10);
    expectChoice(name, byTime, /*op=*/1, /*flops=*/20, /*cost=*/20);
  }
}

TEST(TargetTimeTest, PlannedAndReorderedProgramsKeepTheCostRate) {
  Program program = twoChoices(1000, 20);
  program.costPerSecond = 2.5e11;
  Plan plan;
  plan.recomputes.push_back(
      {program.ops[1].results[0], /*before=*/7, /*chain=*/{1}});
  EXPECT_EQ(materialize(program, plan).costPerSecond, 2.5e11);
  std::vector<OpId> order(program.ops.size());
  for (OpId op = 0; op < order.size(); ++op)
    order[op] = op;
  std::swap(order[0], order[1]);
  EXPECT_EQ(reorder(program, order).costPerSecond, 2.5e11);
}

} // namespace
