//===- Baselines.cpp - Reference solvers for comparison -------------------===//
//
// Three baselines behind the Solver interface, for the benchmarks:
//
//  - checkpoint-all: keep only what cannot be recomputed (inputs, ops that
//    are not recomputable or must be kept, outputs); every residual (a
//    forward value the backward part reads) is recomputed from them right
//    before its first backward use, its whole recomputable ancestry as one
//    transient chain. Least memory, most FLOPs.
//  - sqrt-n: Chen et al. 2016. Every ceil(sqrt(n))-th forward op's results
//    are kept as checkpoints; every other residual, and what it needs back
//    to the nearest checkpoints, is recomputed once, just before the backward
//    part first needs it (a segment is recomputed when the backward part
//    enters it).
//  - xla: XLA's rematerialization rule: only bytes matter. While the peak is
//    above the budget, recompute the largest buffer live at the peak (not
//    used there) whose defining op's operands are still available, by
//    re-executing that single op right before the buffer's next use.
//
// checkpoint-all and sqrt-n ignore the budget (they are strategies, not
// searches), except that they leave a program alone when it already fits and
// no checkpoint policy asks for recomputation. Both need a forward/backward
// boundary; without one they return no plan and say so in the note. xla's
// rule does not know about checkpoint policies (mustRecompute): it starts
// from the plan that recomputes what they forbid keeping.
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "remat/Planning/InPlaceWrites.h"
#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace remat;

Plan remat::planFromRecomputeSet(const Program &program,
                                 const std::vector<bool> &recompute) {
  OpId boundary = program.backwardBegin;
  size_t numValues = program.values.size();
  // Where each value's copy goes: in front of its first backward use, or of
  // the first recomputation that reads it, whichever comes first. Consumers
  // are defined later, so a reverse sweep over values sees them first.
  std::vector<OpId> placement(numValues, kNone);
  std::vector<OpId> firstBackwardUse =
      boundary != kNone ? program.firstUsesFrom(boundary)
                        : std::vector<OpId>(numValues, kNone);
  std::vector<OpId> overwritten = overwriteTimes(program);
  for (ValueId v = numValues; v-- > 0;) {
    if (!recompute[v])
      continue;
    placement[v] = std::min(placement[v], firstBackwardUse[v]);
    OpId def = program.values[v].def;
    if (placement[v] == kNone || def == kNone)
      continue;
    // An operand that an in-place write in the backward part overwrites (a
    // parameter the optimizer updates, a buffer a destination-passing op
    // reuses) must be read before that write, kept or copied (the write
    // goes into whatever version is current): the copy goes in front of it
    // rather than not at all (a copy reading the new contents would be
    // dropped and the value kept, against a policy).
    for (ValueId operand : program.ops[def].operands) {
      OpId write = overwritten[operand];
      if (write != kNone && write < placement[v] && boundary != kNone &&
          write >= boundary)
        placement[v] = write;
    }
    auto feed = [&](ValueId operand) {
      if (recompute[operand])
        placement[operand] = std::min(placement[operand], placement[v]);
    };
    for (ValueId operand : program.ops[def].operands)
      feed(operand);
    if (program.values[v].aliasOf != kNone)
      feed(program.values[v].aliasOf);
  }
  std::vector<std::pair<OpId, ValueId>> entries;
  for (ValueId v = 0; v < numValues; ++v)
    if (recompute[v] && placement[v] != kNone &&
        program.values[v].def != kNone && placement[v] > program.values[v].def)
      entries.push_back({placement[v], v});
  // Group by `before`, program order (value ids follow it) within a group.
  llvm::sort(entries, [&](auto a, auto b) {
    if (a.first != b.first)
      return a.first < b.first;
    OpId defA = program.values[a.second].def;
    OpId defB = program.values[b.second].def;
    return defA != defB ? defA < defB : a.second < b.second;
  });
  Plan plan;
  for (auto [before, v] : entries) {
    // A value written in place into a buffer (a linalg op's init, a copy
    // into a tensor.empty) is made again with the buffer it is written
    // into: a chain writes only into buffers it creates, so a copy of the
    // writer alone would be dropped and the value kept.
    std::vector<OpId> chain = {program.values[v].def};
    if (program.values[v].writesInPlace)
      for (ValueId u = program.values[v].aliasOf;
           u != kNone && recompute[u] && program.values[u].def != kNone;
           u = program.values[u].aliasOf)
        chain.push_back(program.values[u].def);
    llvm::sort(chain);
    plan.recomputes.push_back({v, before, std::move(chain)});
  }
  return plan;
}

Plan remat::checkpointPlan(const Program &program,
                           const std::vector<bool> &keep,
                           const SolverOptions &options) {
  // The residuals that are not kept, and what they need back to kept values.
  std::vector<bool> recompute(program.values.size(), false);
  std::vector<ValueId> worklist;
  OpId boundary = program.backwardBegin;
  for (OpId op = boundary; op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands) {
      const ValueInfo &info = program.values[operand];
      if (info.def != kNone && info.def < boundary && !keep[operand] &&
          program.values[program.rootOf(operand)].bytes >=
              options.minRematBytes)
        worklist.push_back(operand);
    }
  while (!worklist.empty()) {
    ValueId v = worklist.back();
    worklist.pop_back();
    if (recompute[v])
      continue;
    recompute[v] = true;
    auto need = [&](ValueId operand) {
      if (!keep[operand] && !recompute[operand])
        worklist.push_back(operand);
    };
    for (ValueId operand : program.ops[program.values[v].def].operands)
      need(operand);
    if (program.values[v].aliasOf != kNone)
      need(program.values[v].aliasOf);
  }
  return planFromRecomputeSet(program, recompute);
}

namespace {

/// Whether the baseline may leave the program alone: it fits and no policy
/// asks for anything.
bool fitsAsIs(const Program &program, const SolverOptions &options) {
  if (options.minimize || !options.budgetBytes)
    return false;
  if (llvm::any_of(program.ops, [](const OpInfo &op) {
        return op.mustRecompute && op.recomputable;
      }))
    return false;
  return computeMemoryProfile(program, options.countInputs).peakBytes <=
         *options.budgetBytes;
}

/// For every value, whether a chain in the backward part may re-execute the
/// op defining it: the op can be, where it writes in place into another
/// value's buffer the chain can create that buffer too (a chain writes only
/// into buffers it creates), and what it reads and nothing recomputes is
/// not overwritten before the backward part starts.
std::vector<bool> backwardRecomputable(const Program &program) {
  std::vector<OpId> overwritten = overwriteTimes(program);
  std::vector<bool> result(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    const ValueInfo &info = program.values[v];
    if (!program.canRecompute(info.def) ||
        (info.writesInPlace &&
         !program.canRecompute(program.values[program.rootOf(v)].def)))
      continue;
    result[v] = llvm::all_of(program.ops[info.def].operands, [&](ValueId u) {
      bool kept = !result[u] || program.values[u].isOutput;
      return !kept || overwritten[u] == kNone ||
             overwritten[u] >= program.backwardBegin;
    });
  }
  return result;
}

/// Forward values the backward part reads, which a baseline may recompute.
std::vector<ValueId> residuals(const Program &program,
                               const std::vector<bool> &recomputable,
                               const SolverOptions &options) {
  std::vector<bool> seen(program.values.size(), false);
  std::vector<ValueId> result;
  for (OpId op = program.backwardBegin; op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands) {
      const ValueInfo &info = program.values[operand];
      if (seen[operand] || info.def == kNone ||
          info.def >= program.backwardBegin || info.isOutput ||
          !recomputable[operand] ||
          program.values[program.rootOf(operand)].bytes < options.minRematBytes)
        continue;
      seen[operand] = true;
      result.push_back(operand);
    }
  llvm::sort(result);
  return result;
}

/// Most chain ops checkpoint-all builds per op of the program. Its chains go
/// back to the inputs, so the plan grows with the square of the depth: a
/// 3,400-op step became 103 MB of IR. Sharing the chains' prefixes would
/// keep them alive between backward uses, which is no longer least memory;
/// past this bound the solver refuses instead (the applied step stays within
/// this many times the size of the original).
constexpr size_t kMaxCheckpointAllOpsPerOp = 32;

SolverResult noBoundary(const Program &program, const SolverOptions &options,
                        const std::string &name) {
  SolverResult result = evaluatePlan(program, Plan(), options);
  result.note = name + " needs a forward/backward boundary (remat.backward); "
                       "nothing recomputed";
  return result;
}

class CheckpointAllSolver : public Solver {
public:
  std::string name() const override { return "checkpoint-all"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    if (program.backwardBegin == kNone ||
        program.backwardBegin >= program.ops.size())
      return noBoundary(program, options, name());
    if (fitsAsIs(program, options))
      return evaluatePlan(program, Plan(), options);
    std::vector<OpId> firstBackwardUse =
        program.firstUsesFrom(program.backwardBegin);
    std::vector<bool> recomputable = backwardRecomputable(program);
    // Where each residual's copy goes: in front of its first backward use,
    // or of the first in-place write in the backward part into a value its
    // chain reads and does not recompute (a parameter the optimizer
    // updates), whichever comes first; a chain reading the new contents
    // would be dropped, and the residual kept against a policy.
    std::vector<OpId> placement = firstBackwardUse;
    if (hasInPlaceWrites(program)) {
      std::vector<OpId> overwritten = overwriteTimes(program);
      std::vector<OpId> readsUntil(program.values.size(), kNone);
      auto kept = [&](ValueId v) {
        OpId def = program.values[v].def;
        return def == kNone || !recomputable[v] || program.values[v].isOutput;
      };
      for (ValueId v = 0; v < program.values.size(); ++v) {
        OpId def = program.values[v].def;
        if (kept(v))
          continue;
        for (ValueId operand : program.ops[def].operands) {
          OpId until =
              kept(operand) ? overwritten[operand] : readsUntil[operand];
          if (until != kNone && until >= program.backwardBegin)
            readsUntil[v] = std::min(readsUntil[v], until);
        }
      }
      for (ValueId v = 0; v < program.values.size(); ++v)
        placement[v] = std::min(placement[v], readsUntil[v]);
    }

    Plan plan;
    std::vector<unsigned> mark(program.ops.size(), 0);
    unsigned stamp = 0;
    // Chains back to the inputs make the plan quadratic in the graph. The
    // bound also stops the walk early, so a refusal costs O(ops) too.
    size_t chainOps = 0;
    const size_t maxChainOps = kMaxCheckpointAllOpsPerOp * program.ops.size();
    std::vector<ValueId> toRecompute =
        residuals(program, recomputable, options);
    std::vector<bool> isResidual(program.values.size(), false);
    for (ValueId residual : toRecompute)
      isResidual[residual] = true;
    for (ValueId residual : toRecompute) {
      if (chainOps > maxChainOps) {
        SolverResult result = evaluatePlan(program, Plan(), options);
        result.note =
            "checkpoint-all refused: recomputing every residual from the "
            "inputs would re-execute more than " +
            std::to_string(kMaxCheckpointAllOpsPerOp) +
            " ops per op of the step (" + std::to_string(maxChainOps) +
            " ops); nothing recomputed (sqrt-n or greedy scale)";
        return result;
      }
      ++stamp;
      // Every recomputable ancestor, back to what must be kept.
      std::vector<OpId> chain = {program.values[residual].def};
      mark[chain[0]] = stamp;
      for (size_t i = 0; i < chain.size(); ++i) {
        for (ValueId operand : program.ops[chain[i]].operands) {
          OpId def = program.values[operand].def;
          // A residual recomputed just before, in front of the same op, is
          // read from its copy rather than re-executed a second time.
          bool copiedAlready = isResidual[operand] && operand < residual &&
                               placement[operand] == placement[residual];
          if (def == kNone || mark[def] == stamp || copiedAlready ||
              !recomputable[operand] || program.values[operand].isOutput)
            continue;
          mark[def] = stamp;
          chain.push_back(def);
        }
      }
      llvm::sort(chain);
      chainOps += chain.size();
      plan.recomputes.push_back(
          {residual, placement[residual], std::move(chain)});
    }
    // Grouped by `before`, in residual order within a group.
    std::vector<size_t> order(plan.recomputes.size());
    for (size_t k = 0; k < order.size(); ++k)
      order[k] = k;
    llvm::sort(order, [&](size_t a, size_t b) {
      return std::make_pair(plan.recomputes[a].before, a) <
             std::make_pair(plan.recomputes[b].before, b);
    });
    Plan grouped;
    for (size_t k : order)
      grouped.recomputes.push_back(std::move(plan.recomputes[k]));
    plan = std::move(grouped);
    return evaluatePlan(program, std::move(plan), options);
  }
};

class SqrtNSolver : public Solver {
public:
  std::string name() const override { return "sqrt-n"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    OpId boundary = program.backwardBegin;
    if (boundary == kNone || boundary >= program.ops.size())
      return noBoundary(program, options, name());
    if (fitsAsIs(program, options))
      return evaluatePlan(program, Plan(), options);
    // A policy's values are recomputed even where only the backward part
    // reads them (their op is then moved there).
    std::vector<bool> notSaveable = unsaveableByPolicy(program);

    // Forward ops that produce buffers, in program order.
    std::vector<OpId> forward;
    for (OpId op = 0; op < boundary; ++op)
      if (!program.ops[op].results.empty())
        forward.push_back(op);
    size_t segment = std::max<size_t>(
        1, static_cast<size_t>(std::ceil(std::sqrt(double(forward.size())))));
    std::vector<bool> keep(program.values.size(), false);
    for (size_t i = 0; i < forward.size(); ++i)
      if ((i + 1) % segment == 0)
        for (ValueId v : program.ops[forward[i]].results)
          keep[v] = !notSaveable[v];
    for (ValueId v = 0; v < program.values.size(); ++v) {
      const ValueInfo &info = program.values[v];
      if (info.def == kNone || info.def >= boundary || info.isOutput ||
          !program.canRecompute(info.def))
        keep[v] = true;
    }

    return evaluatePlan(program, checkpointPlan(program, keep, options),
                        options);
  }
};

class XlaSolver : public Solver {
public:
  std::string name() const override { return "xla"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override;
};

SolverResult XlaSolver::solve(const Program &base,
                              const SolverOptions &options) {
  // XLA's rule knows nothing of checkpoint policies: the values a policy
  // forbids keeping are recomputed first, in front of their first backward
  // use, and the rule starts from there.
  Plan plan = planFromRecomputeSet(base, unsaveableByPolicy(base));
  if (!options.minimize && !options.budgetBytes)
    return evaluatePlan(base, plan, options);

  struct State {
    Program program;
    MaterializeMap map;
    MemoryProfile profile;
    unsigned peakCount = 0;
    /// For each recomputed value, its recomputations (indices into the plan).
    llvm::DenseMap<ValueId, llvm::SmallVector<unsigned, 2>> copiesOf;
  };
  auto snapshot = [&](const Plan &plan) {
    State state;
    state.program = materialize(base, plan, state.map);
    state.profile = computeMemoryProfile(state.program, options.countInputs);
    state.peakCount =
        llvm::count(state.profile.liveBytes, state.profile.peakBytes);
    for (unsigned k = 0; k < plan.recomputes.size(); ++k)
      state.copiesOf[plan.recomputes[k].value].push_back(k);
    return state;
  };
  // Every step evaluates the whole program, and the steps grow with it: the
  // time limit is what bounds a large graph.
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = solveDeadline(options);
  bool stopped = false;
  auto pastDeadline = [&] {
    stopped = stopped || Clock::now() >= deadline;
    return stopped;
  };
  State current = snapshot(plan);
  Plan best = plan;
  unsigned triesLeft = 4 * base.ops.size() + 64;
  while ((options.minimize ||
          current.profile.peakBytes > *options.budgetBytes) &&
         triesLeft > 0 && !pastDeadline()) {
    const Program &program = current.program;
    OpId peakOp = current.profile.peakOp;
    if (peakOp == kNone)
      break;
    std::vector<bool> hasViews = program.rootsWithViews();
    std::vector<OpId> nextUse = program.firstUsesFrom(peakOp + 1);
    std::vector<bool> usedBefore(program.values.size(), false);
    for (OpId op = 0; op < peakOp; ++op)
      for (ValueId operand : program.ops[op].operands)
        usedBefore[operand] = true;

    // Largest first (liveAt's order).
    bool accepted = false;
    for (ValueId live : current.profile.liveAt(program, peakOp)) {
      const ValueInfo &info = program.values[live];
      if (info.def == kNone || info.def == peakOp || info.isOutput ||
          hasViews[live] || !usedBefore[live] ||
          info.bytes < options.minRematBytes ||
          llvm::is_contained(program.ops[peakOp].operands, live))
        continue;
      ValueId value = info.origin;
      OpId def = base.values[value].def;
      OpId use = nextUse[live];
      if (!base.canRecompute(def) || use == kNone ||
          current.map.isCopy[use])
        continue;
      // Single op: its operands, as the copy would read them, must still be
      // live there.
      bool available = true;
      OpId before = program.ops[use].origin;
      for (ValueId operand : base.ops[def].operands) {
        if (base.values[operand].def == kNone)
          continue;
        // The version `before` reads: the latest copy placed at or before.
        ValueId version = operand;
        auto copies = current.copiesOf.find(operand);
        if (copies != current.copiesOf.end())
          for (unsigned k : copies->second)
            if (plan.recomputes[k].before <= before)
              version = current.map.copies[k];
        ValueId root = program.rootOf(version);
        const LiveRange &range = current.profile.ranges[root];
        if (program.values[root].def != kNone &&
            (range.end == kNone || range.end < use)) {
          available = false;
          break;
        }
      }
      if (!available)
        continue;
      if (triesLeft-- == 0 || pastDeadline())
        break;
      plan.recomputes.push_back({value, before, {def}});
      State next = snapshot(plan);
      bool improves =
          next.profile.peakBytes != current.profile.peakBytes
              ? next.profile.peakBytes < current.profile.peakBytes
              : next.peakCount < current.peakCount;
      if (improves) {
        if (next.profile.peakBytes < current.profile.peakBytes)
          best = plan;
        current = std::move(next);
        accepted = true;
        break;
      }
      plan.recomputes.pop_back();
    }
    if (!accepted)
      break;
  }
  SolverResult result = evaluatePlan(base, std::move(best), options);
  if (stopped)
    result.note = "xla: stopped by the time limit; the plan is the best "
                  "found by then";
  return result;
}

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfBaselines() {
  return {{"checkpoint-all", makeSolver<CheckpointAllSolver>},
          {"sqrt-n", makeSolver<SqrtNSolver>},
          {"xla", makeSolver<XlaSolver>}};
}
} // namespace remat
