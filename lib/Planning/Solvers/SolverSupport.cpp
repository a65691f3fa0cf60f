//===- SolverSupport.cpp - What every solver builds on --------------------===//
//
// The not-saveable derivation, plan evaluation and the rule for choosing
// between plans, shared by every solver (SolverSupport.h).
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace remat;

std::vector<bool> remat::unsaveableByPolicy(const Program &program) {
  std::vector<bool> result(program.values.size(), false);
  OpId boundary = program.backwardBegin;
  for (OpId op = 0; boundary != kNone && op < boundary && op < program.ops.size();
       ++op)
    for (ValueId v : program.ops[op].results) {
      // A view would keep the buffer alive just the same: it is recomputed
      // too when it can be.
      ValueId root = program.rootOf(v);
      OpId owner = root == v ? op : program.values[root].def;
      result[v] = owner != kNone && owner < boundary &&
                  program.ops[owner].mustRecompute &&
                  program.canRecompute(owner) && program.canRecompute(op);
    }
  return result;
}

std::vector<bool> remat::notSaveableValues(const Program &program) {
  std::vector<bool> result = unsaveableByPolicy(program);
  OpId boundary = program.backwardBegin;
  if (boundary == kNone)
    return result;
  std::vector<bool> forwardUse(program.values.size(), false);
  std::vector<bool> backwardUse(program.values.size(), false);
  for (OpId op = 0; op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands) {
      if (op < boundary)
        forwardUse[program.rootOf(operand)] = true;
      else
        backwardUse[operand] = true;
    }
  for (ValueId v = 0; v < program.values.size(); ++v)
    result[v] = result[v] && forwardUse[program.rootOf(v)] && backwardUse[v];
  return result;
}

namespace {
/// What a plan costs: its peak, and what the planned step executes beyond
/// the original (chain ops, minus originals the plan moved rather than
/// repeated) in the planner's cost and in FLOPs.
struct PlanMeasure {
  uint64_t peak = 0;
  uint64_t extraCost = 0;
  uint64_t extraFlops = 0;
};
} // namespace

/// The extra of `after` over `before`. Summed in 128 bits so that ops of
/// 2^63 cannot wrap a costly plan into a free one; saturates at 2^64-1.
template <typename Field>
static uint64_t extraOf(const Program &before, const Program &after,
                        Field field) {
  unsigned __int128 sumBefore = 0, sumAfter = 0;
  for (const OpInfo &op : before.ops)
    sumBefore += op.*field;
  for (const OpInfo &op : after.ops)
    sumAfter += op.*field;
  unsigned __int128 extra = sumAfter > sumBefore ? sumAfter - sumBefore : 0;
  return extra > std::numeric_limits<uint64_t>::max()
             ? std::numeric_limits<uint64_t>::max()
             : static_cast<uint64_t>(extra);
}

/// The measure of a plan from the program it makes.
static PlanMeasure measureProgram(const Program &program,
                                  const Program &planned, bool countInputs) {
  return {computeMemoryProfile(planned, countInputs).peakBytes,
          extraOf(program, planned, &OpInfo::cost),
          extraOf(program, planned, &OpInfo::flops)};
}

SolverResult remat::evaluatePlan(const Program &program, Plan plan,
                                 const SolverOptions &options) {
  SolverResult result;
  // Dropping what is invalid materializes the plan it keeps; those programs
  // are measured rather than built again (on a 50k-op step, materializing
  // is the most of an evaluation).
  Program planned, sharedPlanned;
  dropInvalidRecomputes(program, plan, planned);
  Plan hoisted = hoistAboveReaderBuffers(program, plan);
  bool hoistKept = samePlan(hoisted, plan);
  plan = std::move(hoisted);
  Plan shared = shareRecomputedCopies(program, plan);
  // A piece whose readers a later copy of the same value serves is unread.
  dropInvalidRecomputes(program, shared, sharedPlanned);
  PlanMeasure measure =
      measureProgram(program, sharedPlanned, options.countInputs);
  if (!samePlan(shared, plan)) {
    // Sharing is meant never to raise the peak or the cost
    // (ShareCopies.cpp); where a piece it made had to go after all, the
    // plan as the solver made it is kept rather than a worse one.
    if (!hoistKept) {
      MaterializeMap map;
      materialize(program, plan, map, planned);
    }
    PlanMeasure own = measureProgram(program, planned, options.countInputs);
    if (own.peak < measure.peak ||
        (own.peak == measure.peak && own.extraCost < measure.extraCost))
      measure = own;
    else
      plan = std::move(shared);
  }
  result.peakBytes = measure.peak;
  result.extraCost = measure.extraCost;
  result.extraFlops = measure.extraFlops;
  result.feasible = meetsBudget(result.peakBytes, options);
  result.plan = std::move(plan);
  return result;
}

bool remat::meetsBudget(uint64_t peakBytes, const SolverOptions &options) {
  return options.minimize || !options.budgetBytes ||
         peakBytes <= *options.budgetBytes;
}

bool remat::isBetterResult(const SolverResult &a, const SolverResult &b,
                           const SolverOptions &options) {
  if (a.feasible != b.feasible)
    return a.feasible;
  if ((options.minimize || !a.feasible) && a.peakBytes != b.peakBytes)
    return a.peakBytes < b.peakBytes;
  return a.extraCost < b.extraCost;
}

std::chrono::steady_clock::time_point
remat::solveDeadline(const SolverOptions &options) {
  using Clock = std::chrono::steady_clock;
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(
                                std::max(0.0, options.timeLimitSeconds)));
}
