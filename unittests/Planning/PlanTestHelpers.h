//===- PlanTestHelpers.h - Building steps and reading plans in tests -*- C++ -*-//
//
// What the plan-rewriting tests share: a one-result op builder, a plan
// printed as text for readable failures, random recomputation chains,
// random plans, and valid random plans of generated training steps.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_UNITTESTS_PLANNING_PLANTESTHELPERS_H
#define REMAT_UNITTESTS_PLANNING_PLANTESTHELPERS_H

#include "remat/Planning/Plan.h"
#include "remat/Planning/Testing/Generators.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <random>
#include <string>

namespace remat {

/// Adds a recomputable one-result op; returns its result.
inline ValueId addOp(Program &program, std::vector<ValueId> operands,
                     uint64_t bytes, uint64_t flops, const char *name) {
  OpId op = program.addOp(std::move(operands), {bytes}, flops, true, name);
  return program.ops[op].results[0];
}

/// A chain that re-executes `def` and, recursively, producers of its
/// operands that can be recomputed, each taken when `take()` says so; in
/// program order. For random plans.
template <typename Take>
std::vector<OpId> growChain(const Program &program, OpId def, Take take) {
  std::vector<OpId> chain = {def};
  for (size_t j = 0; j < chain.size(); ++j)
    for (ValueId operand : program.ops[chain[j]].operands) {
      OpId producer = program.values[operand].def;
      if (program.canRecompute(producer) &&
          !llvm::is_contained(chain, producer) && take())
        chain.push_back(producer);
    }
  llvm::sort(chain);
  return chain;
}

/// A random well-formed plan: up to four recomputations, each of a value in
/// front of one of its readers, re-executing the value's op and, at random,
/// the producers of its operands, recursively.
inline Plan randomPlan(const Program &program, std::mt19937 &rng) {
  std::vector<std::pair<ValueId, OpId>> uses;
  for (OpId op = 0; op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands)
      if (program.canRecompute(program.values[operand].def))
        uses.push_back({operand, op});
  Plan plan;
  if (uses.empty())
    return plan;
  unsigned count = 1 + rng() % 4;
  for (unsigned i = 0; i < count; ++i) {
    auto [value, before] = uses[rng() % uses.size()];
    plan.recomputes.push_back(
        {value, before,
         growChain(program, program.values[value].def,
                   [&] { return rng() % 3 != 0; })});
  }
  return plan;
}

/// "{value @before: chain ops}" per recomputation.
inline std::string describe(const Plan &plan) {
  std::string text;
  for (const Recompute &recompute : plan.recomputes) {
    text += "{" + std::to_string(recompute.value) + " @" +
            std::to_string(recompute.before) + ":";
    for (OpId op : recompute.chain)
      text += " " + std::to_string(op);
    text += "}";
  }
  return text;
}

/// Calls `check(program, plan, countInputs)` on eight random plans of each
/// of the first `numSeeds` generated training steps: each drawn from `rng`,
/// stripped of the recomputations no plan may make (two picks of one use
/// leave a copy unread; a chain may read a value after an in-place write),
/// and verified. The property tests of plan rewrites start from these.
template <typename Check>
void forEachValidRandomPlan(unsigned numSeeds, std::mt19937 &rng,
                            Check check) {
  for (unsigned seed = 0; seed < numSeeds; ++seed) {
    Program program = generateTrainingStep(seed);
    bool countInputs = seed % 2;
    for (unsigned trial = 0; trial < 8; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " +
                   std::to_string(trial));
      Plan plan = randomPlan(program, rng);
      dropInvalidRecomputes(program, plan);
      ASSERT_EQ(verifyPlan(program, plan), "") << describe(plan);
      check(program, plan, countInputs);
    }
  }
}

} // namespace remat

#endif // REMAT_UNITTESTS_PLANNING_PLANTESTHELPERS_H
