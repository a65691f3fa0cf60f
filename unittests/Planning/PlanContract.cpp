//===- PlanContract.cpp - What every solver result must keep --------------===//
//
// The replay builds its own list of steps and versions of values and counts
// live bytes by brute force, step by buffer: slow, and deliberately unlike
// the sweep over range events that the planner uses.
//
//===----------------------------------------------------------------------===//

#include "PlanContract.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace remat;

namespace {

/// One op executed by the planned step.
struct Step {
  OpId original;
  bool isCopy;
  std::vector<unsigned> reads;
  bool dropped = false;
  /// Position in the step once dropped ops are gone.
  unsigned time = 0;
};

/// One version of an original value: itself, or a copy a chain makes.
struct Version {
  ValueId original;
  /// The step that defines it, or kNone for an input.
  unsigned step;
  /// The version whose buffer this one views or writes into, or kNone.
  unsigned aliasOf;
  bool isOutput = false;
};

class Replayer {
public:
  Replayer(const Program &program, const Plan &plan)
      : program(program), plan(plan) {}

  Replay run(bool countInputs) {
    buildSteps();
    dropDeadOriginals();
    unsigned numTimes = 0;
    for (Step &step : steps)
      if (!step.dropped)
        step.time = numTimes++;
    Replay replay;
    replay.error = firstBadRead(numTimes);
    if (!replay.error.empty())
      return replay;
    for (const Step &step : steps)
      if (!step.dropped)
        replay.flops += program.ops[step.original].flops;
    replay.peakBytes = peak(numTimes, countInputs);
    return replay;
  }

private:
  unsigned addVersion(ValueId original, unsigned step, unsigned aliasOf) {
    versions.push_back({original, step, aliasOf});
    return versions.size() - 1;
  }

  /// Emits one execution of `op`, reading through `lookup`; returns the
  /// versions of its results.
  template <typename Lookup>
  std::vector<unsigned> execute(OpId op, bool isCopy, Lookup lookup) {
    unsigned index = steps.size();
    steps.push_back({op, isCopy, {}});
    for (ValueId operand : program.ops[op].operands)
      steps[index].reads.push_back(lookup(operand));
    std::vector<unsigned> results;
    for (ValueId result : program.ops[op].results) {
      ValueId aliasOf = program.values[result].aliasOf;
      results.push_back(addVersion(result, index,
                                   aliasOf == kNone ? kNone : lookup(aliasOf)));
    }
    return results;
  }

  void buildSteps() {
    std::map<ValueId, unsigned> current;
    for (ValueId input : program.inputs)
      current[input] = addVersion(input, kNone, kNone);
    auto latest = [&](ValueId v) {
      auto it = current.find(v);
      return it == current.end() ? kNone : it->second;
    };
    for (OpId i = 0; i < program.ops.size(); ++i) {
      for (const Recompute &recompute : plan.recomputes) {
        if (recompute.before != i)
          continue;
        std::map<ValueId, unsigned> made;
        auto read = [&](ValueId v) {
          auto it = made.find(v);
          return it == made.end() ? latest(v) : it->second;
        };
        for (OpId c : recompute.chain) {
          std::vector<unsigned> results = execute(c, true, read);
          for (auto [value, version] :
               llvm::zip(program.ops[c].results, results))
            made[value] = version;
        }
        current[recompute.value] = made.at(recompute.value);
      }
      std::vector<unsigned> results = execute(i, false, latest);
      for (auto [value, version] : llvm::zip(program.ops[i].results, results))
        current[value] = version;
    }
    for (ValueId v = 0; v < program.values.size(); ++v)
      if (program.values[v].isOutput && latest(v) != kNone)
        versions[latest(v)].isOutput = true;
  }

  /// An original op all of whose readers moved to copies goes, and so do
  /// the producers that only fed it (Plan.h); ops unused to begin with stay.
  void dropDeadOriginals() {
    std::vector<bool> usedOriginally(program.values.size(), false);
    for (const OpInfo &op : program.ops)
      for (ValueId operand : op.operands)
        usedOriginally[operand] = true;
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<unsigned> readers(versions.size(), 0);
      for (const Step &step : steps)
        if (!step.dropped)
          for (unsigned version : step.reads)
            if (version != kNone)
              ++readers[version];
      for (unsigned s = 0; s < steps.size(); ++s) {
        Step &step = steps[s];
        const OpInfo &op = program.ops[step.original];
        if (step.dropped || step.isCopy || !op.recomputable ||
            op.results.empty() || llvm::none_of(op.results, [&](ValueId r) {
              return usedOriginally[r];
            }))
          continue;
        bool unread = true;
        for (unsigned v = 0; v < versions.size(); ++v)
          if (versions[v].step == s && (readers[v] || versions[v].isOutput))
            unread = false;
        if (unread)
          step.dropped = changed = true;
      }
    }
  }

  /// Whether the planned step makes `version` (the ops that define the
  /// others were dropped).
  bool exists(unsigned version) const {
    unsigned step = versions[version].step;
    return step == kNone || !steps[step].dropped;
  }

  unsigned rootOf(unsigned version) const {
    while (versions[version].aliasOf != kNone)
      version = versions[version].aliasOf;
    return version;
  }

  /// The time `version` is born at; inputs are there before the first step.
  long bornAt(unsigned version) const {
    unsigned step = versions[version].step;
    return step == kNone ? -1L : static_cast<long>(steps[step].time);
  }

  std::string firstBadRead(unsigned numTimes) const {
    // From an in-place write into a buffer on, the versions born in it
    // before no longer hold.
    std::vector<long> overwrittenAt(versions.size(), numTimes);
    for (unsigned w = 0; w < versions.size(); ++w) {
      const Version &writer = versions[w];
      if (writer.step == kNone || !exists(w) ||
          !program.values[writer.original].writesInPlace)
        continue;
      for (unsigned v = 0; v < versions.size(); ++v)
        if (v != w && exists(v) && rootOf(v) == rootOf(w) &&
            bornAt(v) < bornAt(w))
          overwrittenAt[v] = std::min(overwrittenAt[v], bornAt(w));
    }
    for (const Step &step : steps) {
      if (step.dropped)
        continue;
      for (unsigned version : step.reads) {
        std::string at = " at step " + std::to_string(step.time) + " (op " +
                         std::to_string(step.original) + ")";
        if (version == kNone)
          return "a value is read before it is defined" + at;
        if (!exists(version) || bornAt(version) >= (long)step.time)
          return "a version of value " +
                 std::to_string(versions[version].original) +
                 " is read where it does not exist" + at;
        if (overwrittenAt[version] < step.time)
          return "value " + std::to_string(versions[version].original) +
                 " is read after its buffer was overwritten" + at;
      }
    }
    for (unsigned v = 0; v < versions.size(); ++v)
      if (versions[v].isOutput && overwrittenAt[v] < (long)numTimes)
        return "output " + std::to_string(versions[v].original) +
               " is returned after its buffer was overwritten";
    return "";
  }

  uint64_t peak(unsigned numTimes, bool countInputs) const {
    if (numTimes == 0)
      return 0;
    // Each buffer lives from its birth to the last step that defines, reads
    // or returns it or a view of it.
    std::vector<long> end(versions.size(), -2);
    for (unsigned v = 0; v < versions.size(); ++v)
      if (exists(v))
        end[rootOf(v)] = std::max(end[rootOf(v)], bornAt(v));
    for (const Step &step : steps)
      if (!step.dropped)
        for (unsigned version : step.reads)
          end[rootOf(version)] =
              std::max<long>(end[rootOf(version)], step.time);
    for (unsigned v = 0; v < versions.size(); ++v)
      if (versions[v].isOutput)
        end[rootOf(v)] = numTimes - 1;

    uint64_t peakBytes = 0;
    for (const Step &step : steps) {
      if (step.dropped)
        continue;
      unsigned __int128 live = program.ops[step.original].scratchBytes();
      for (unsigned v = 0; v < versions.size(); ++v) {
        if (versions[v].aliasOf != kNone || !exists(v))
          continue;
        bool isInput = versions[v].step == kNone;
        bool alive = isInput ? countInputs
                             : bornAt(v) <= step.time && step.time <= end[v];
        if (alive)
          live += program.values[versions[v].original].bytes;
      }
      peakBytes = std::max<uint64_t>(
          peakBytes, std::min<unsigned __int128>(live, UINT64_MAX));
    }
    return peakBytes;
  }

  const Program &program;
  const Plan &plan;
  std::vector<Step> steps;
  std::vector<Version> versions;
};

} // namespace

Replay remat::replayPlan(const Program &program, const Plan &plan,
                         bool countInputs) {
  return Replayer(program, plan).run(countInputs);
}

::testing::AssertionResult
remat::keepsPlanContract(const Program &program, const SolverResult &result,
                         const SolverOptions &options) {
  std::string invalid = verifyPlan(program, result.plan);
  if (!invalid.empty())
    return ::testing::AssertionFailure() << "invalid plan: " << invalid;
  Replay replay = replayPlan(program, result.plan, options.countInputs);
  if (!replay.error.empty())
    return ::testing::AssertionFailure() << replay.error;
  if (replay.peakBytes != result.peakBytes)
    return ::testing::AssertionFailure()
           << "reported peak " << result.peakBytes << " B, replayed "
           << replay.peakBytes << " B";
  uint64_t originalFlops = replayPlan(program, Plan()).flops;
  if (replay.flops != originalFlops + result.extraFlops)
    return ::testing::AssertionFailure()
           << "reported " << result.extraFlops << " extra FLOPs, replayed "
           << replay.flops - originalFlops;
  if (result.feasible && options.budgetBytes && !options.minimize &&
      replay.peakBytes > *options.budgetBytes)
    return ::testing::AssertionFailure()
           << "called feasible at " << replay.peakBytes
           << " B over a budget of " << *options.budgetBytes << " B";
  return ::testing::AssertionSuccess();
}

std::string remat::keptNotSaveable(const Program &program, const Plan &plan) {
  std::vector<bool> notSaveable(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    const ValueInfo &info = program.values[v];
    if (info.def == kNone || info.def >= program.backwardBegin)
      continue;
    if (info.aliasOf == kNone)
      notSaveable[v] =
          program.ops[info.def].mustRecompute && program.canRecompute(info.def);
    else if (!info.writesInPlace)
      notSaveable[v] =
          notSaveable[info.aliasOf] && program.canRecompute(info.def);
  }
  Program planned = materialize(program, plan);
  auto original = [&](ValueId v) {
    return v < program.values.size() && notSaveable[v];
  };
  for (OpId op = planned.backwardBegin; op < planned.ops.size(); ++op)
    for (ValueId operand : planned.ops[op].operands)
      if (original(operand))
        return "op " + std::to_string(op) +
               " of the planned step reads "
               "not-saveable value " +
               std::to_string(operand) + " kept from the forward part";
  for (ValueId v = 0; v < program.values.size(); ++v)
    if (original(v) && planned.values[v].isOutput)
      return "not-saveable value " + std::to_string(v) + " is returned";
  return "";
}
