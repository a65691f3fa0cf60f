//===- SolverSupport.cpp - What every solver builds on --------------------===//
//
// The not-saveable derivation, plan evaluation and the rule for choosing
// between plans, shared by every solver (SolverSupport.h).
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "remat/Planning/MemoryProfile.h"

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

SolverResult remat::evaluatePlan(const Program &program, Plan plan,
                                 const SolverOptions &options) {
  SolverResult result;
  dropOverwrittenReads(program, plan);
  dropUnreadRecomputes(program, plan);
  plan = shareRecomputedCopies(program, std::move(plan));
  // A piece whose readers a later copy of the same value serves is unread;
  // a split chain may have left an in-place write outside the piece that
  // creates its buffer. Each drop can call for the other again (a copy
  // dropped for an overwrite leaves the copies its chain read unread; an
  // unread copy dropped leaves its readers on an overwritten original), so
  // both go until neither drops anything: a plan verifyPlan accepts.
  while (true) {
    dropOverwrittenReads(program, plan);
    size_t left = plan.recomputes.size();
    dropUnreadRecomputes(program, plan);
    if (plan.recomputes.size() == left)
      break;
  }
  Program planned = materialize(program, plan);
  result.peakBytes =
      computeMemoryProfile(planned, options.countInputs).peakBytes;
  // What the planned step executes beyond the original: chain ops, minus
  // originals the plan moved rather than repeated.
  // Summed in 128 bits so that ops of 2^63 FLOPs cannot wrap a costly plan
  // into a free one; the difference saturates at 2^64-1.
  unsigned __int128 before = 0, after = 0;
  for (const OpInfo &op : program.ops)
    before += op.flops;
  for (const OpInfo &op : planned.ops)
    after += op.flops;
  unsigned __int128 extra = after > before ? after - before : 0;
  result.extraFlops = extra > std::numeric_limits<uint64_t>::max()
                          ? std::numeric_limits<uint64_t>::max()
                          : static_cast<uint64_t>(extra);
  result.feasible = options.minimize || !options.budgetBytes ||
                    result.peakBytes <= *options.budgetBytes;
  result.plan = std::move(plan);
  return result;
}

bool remat::isBetterResult(const SolverResult &a, const SolverResult &b,
                           const SolverOptions &options) {
  if (a.feasible != b.feasible)
    return a.feasible;
  if ((options.minimize || !a.feasible) && a.peakBytes != b.peakBytes)
    return a.peakBytes < b.peakBytes;
  return a.extraFlops < b.extraFlops;
}

std::chrono::steady_clock::time_point
remat::solveDeadline(const SolverOptions &options) {
  using Clock = std::chrono::steady_clock;
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(
                                std::max(0.0, options.timeLimitSeconds)));
}
