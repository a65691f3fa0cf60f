//===- PlanReport.cpp - The JSON report of remat-plan ---------------------===//

#include "PlanOutcome.h"

#include "remat/Support/JsonNumbers.h"
#include "remat/Support/Locations.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;
namespace json = llvm::json;

Location PlanOutcome::plannedValueLoc(ValueId value) const {
  return graph.locOfValue(planned.values[value].origin == kNone
                              ? value
                              : planned.values[value].origin);
}

const std::string &PlanOutcome::plannedValueName(ValueId value) const {
  ValueId origin = planned.values[value].origin;
  return graph.program.values[origin == kNone ? value : origin].name;
}

Operation *PlanOutcome::plannedOp(OpId op) const {
  OpId origin = planned.ops[op].origin;
  return graph.ops[origin == kNone ? op : origin];
}

static json::Value nullable(std::optional<uint64_t> value) {
  if (!value)
    return nullptr;
  return static_cast<int64_t>(*value);
}

static json::Object peakJson(const PlanOutcome &outcome,
                             const MemoryProfile &profile, bool planned) {
  json::Object peak;
  peak["bytes"] = static_cast<int64_t>(profile.peakBytes);
  if (profile.peakOp == kNone)
    return peak;
  const Program &program = planned ? outcome.planned : outcome.graph.program;
  Operation *op = planned ? outcome.plannedOp(profile.peakOp)
                          : outcome.graph.ops[profile.peakOp];
  peak["op"] = op->getName().getStringRef().str();
  peak["index"] = static_cast<int64_t>(profile.peakOp);
  peak["recomputed"] = planned && outcome.isRecomputedOp(profile.peakOp);
  peak["loc"] = formatLoc(op->getLoc());
  json::Array live;
  for (ValueId value : profile.liveAt(program, profile.peakOp)) {
    json::Object entry;
    entry["value"] = planned ? outcome.plannedValueName(value)
                             : program.values[value].name;
    entry["bytes"] = static_cast<int64_t>(program.values[value].bytes);
    entry["loc"] = formatLoc(planned ? outcome.plannedValueLoc(value)
                                     : outcome.graph.locOfValue(value));
    live.push_back(std::move(entry));
  }
  peak["live"] = std::move(live);
  return peak;
}

/// Which order `schedule` kept, and what the other one planned to; null
/// with `schedule=false`.
static json::Value orderJson(const PlanOutcome &outcome) {
  if (!outcome.order)
    return nullptr;
  const OrderChoice &order = *outcome.order;
  json::Object entry;
  entry["kept"] = order.scheduled ? "scheduled" : "original";
  entry["given_peak_bytes"] = static_cast<int64_t>(order.givenPeakBytes);
  entry["scheduled_peak_bytes"] =
      static_cast<int64_t>(order.scheduledPeakBytes);
  if (order.other)
    entry["other"] = json::Object{
        {"peak_bytes", static_cast<int64_t>(order.other->peakBytes)},
        {"extra_flops", order.other->extraFlops},
        {"feasible", order.other->feasible}};
  else
    entry["other"] = nullptr;
  return entry;
}

/// The placed arena: its bytes, the load bound, and every buffer's offset.
static json::Object arenaJson(const PlanOutcome &outcome,
                              const StepArena &arena) {
  json::Array buffers;
  for (auto [buffer, owner, offset] :
       llvm::zip_equal(arena.buffers, arena.owners, arena.layout.offsets)) {
    json::Object entry;
    if (owner.value != kNone) {
      entry["value"] = outcome.plannedValueName(owner.value);
      if (outcome.isRecomputedValue(owner.value))
        entry["recomputed"] = true;
    } else {
      entry["scratch_of"] =
          outcome.plannedOp(owner.scratchOf)->getName().getStringRef().str();
      entry["op_index"] = static_cast<int64_t>(owner.scratchOf);
    }
    entry["offset"] = static_cast<int64_t>(offset);
    entry["bytes"] = static_cast<int64_t>(buffer.bytes);
    entry["first"] = buffer.first;
    entry["last"] = buffer.last;
    buffers.push_back(std::move(entry));
  }
  // The production baseline on the same buffers, for comparison.
  ArenaLayout baseline =
      placeArena(arena.buffers, ArenaStrategy::SizeBestFit);
  return json::Object{
      {"live_bytes", static_cast<int64_t>(arena.layout.liveBytes)},
      {"size_best_fit_bytes", static_cast<int64_t>(baseline.arenaBytes)},
      {"buffers", std::move(buffers)}};
}

json::Object remat::reportGraph(const PlanOutcome &outcome) {
  const Program &program = outcome.graph.program;
  json::Object g;
  g["name"] = outcome.graphName;
  g["budget"] = outcome.budget ? json::Value(formatBudget(*outcome.budget))
                               : json::Value(nullptr);
  g["budget_bytes"] = nullable(outcome.budgetBytes);
  g["peak_before_bytes"] = static_cast<int64_t>(outcome.before.peakBytes);
  g["peak_after_bytes"] = static_cast<int64_t>(outcome.after.peakBytes);
  g["budget_kind"] = outcome.arenaBudget ? "arena" : "live";
  g["arena_bytes"] = static_cast<int64_t>(outcome.arenaAfter.layout.arenaBytes);
  g["arena_before_bytes"] =
      static_cast<int64_t>(outcome.arenaBefore.layout.arenaBytes);
  g["fragmentation"] =
      outcome.arenaAfter.fragmentation(outcome.after.peakBytes);
  // No placement of these buffers needs fewer bytes than this; over the
  // live peak, the fragmentation no placement can avoid.
  g["arena_lower_bound_bytes"] =
      static_cast<int64_t>(outcome.arenaAfter.layout.lowerBound);
  g["fragmentation_lower_bound"] =
      outcome.after.peakBytes
          ? double(outcome.arenaAfter.layout.lowerBound) /
                double(outcome.after.peakBytes)
          : 1.0;
  g["live_target_bytes"] = nullable(outcome.liveTargetBytes);
  g["plans"] = static_cast<int64_t>(outcome.plans);
  g["feasible"] = outcome.result.feasible;
  g["solver"] = outcome.solver;
  g["solve_ms"] = jsonNumber(outcome.solveMs);
  // What an exact solver proved: `optimal`, and the relative gap to its
  // lower bound (null when unknown); the solver's note, if any.
  g["optimal"] = outcome.result.optimal;
  g["gap"] = outcome.result.gap >= 0 ? jsonNumber(outcome.result.gap)
                                     : json::Value(nullptr);
  g["solver_note"] = outcome.result.note;
  g["ops"] = static_cast<int64_t>(program.ops.size());
  g["base_flops"] = outcome.baseFlops;
  g["extra_flops"] = outcome.result.extraFlops;
  g["extra_flops_percent"] = jsonNumber(
      outcome.baseFlops ? 100.0 * outcome.result.extraFlops / outcome.baseFlops
                        : 0.0);
  // What the solvers minimized, and, under a time model, the estimated
  // seconds of the unplanned step and of what the plan adds.
  std::optional<double> baseSeconds = outcome.secondsOf(outcome.baseCost);
  std::optional<double> extraSeconds =
      outcome.secondsOf(outcome.result.extraCost);
  g["cost_model"] = baseSeconds ? "time" : "flops";
  g["base_seconds"] = baseSeconds ? jsonNumber(*baseSeconds)
                                  : json::Value(nullptr);
  g["extra_seconds"] = extraSeconds ? jsonNumber(*extraSeconds)
                                    : json::Value(nullptr);
  g["extra_seconds_percent"] =
      baseSeconds ? jsonNumber(*baseSeconds > 0
                                   ? 100.0 * *extraSeconds / *baseSeconds
                                   : 0.0)
                  : json::Value(nullptr);

  // One entry per recomputed value: its FLOPs and cost per recomputation
  // and how often it is recomputed.
  struct Recomputed {
    uint64_t flops = 0, cost = 0;
    int64_t times = 0;
  };
  llvm::DenseMap<ValueId, Recomputed> perValue;
  std::vector<ValueId> order;
  for (const Recompute &r : outcome.result.plan.recomputes) {
    auto [it, inserted] = perValue.try_emplace(r.value);
    if (inserted) {
      order.push_back(r.value);
      for (OpId op : r.chain) {
        it->second.flops =
            llvm::SaturatingAdd(it->second.flops, program.ops[op].flops);
        it->second.cost =
            llvm::SaturatingAdd(it->second.cost, program.ops[op].cost);
      }
    }
    ++it->second.times;
  }
  // What the report says of any value of the original program.
  auto valueEntry = [&](ValueId value) {
    const ValueInfo &info = program.values[value];
    json::Object entry;
    entry["value"] = info.name;
    entry["op"] = outcome.graph.ops[info.def]->getName().getStringRef().str();
    entry["loc"] = formatLoc(outcome.graph.locOfValue(value));
    entry["bytes"] = static_cast<int64_t>(info.bytes);
    return entry;
  };
  json::Array recomputed;
  for (ValueId value : order) {
    json::Object entry = valueEntry(value);
    const Recomputed &each = perValue[value];
    entry["flops"] = each.flops;
    std::optional<double> seconds = outcome.secondsOf(each.cost);
    entry["seconds"] = seconds ? jsonNumber(*seconds) : json::Value(nullptr);
    entry["times"] = each.times;
    recomputed.push_back(std::move(entry));
  }
  g["recomputed"] = std::move(recomputed);

  // Kept: the residuals (forward values the backward pass reads) that stay
  // in memory; without a boundary, the buffers live at the original peak.
  json::Array kept;
  auto isKeptCandidate = [&](ValueId value) {
    const ValueInfo &info = program.values[value];
    if (info.def == kNone || info.aliasOf != kNone || info.bytes == 0 ||
        perValue.count(value))
      return false;
    const LiveRange &range = outcome.before.ranges[value];
    if (program.backwardBegin != kNone)
      return info.def < program.backwardBegin &&
             range.end != kNone && range.end > program.backwardBegin;
    return outcome.before.peakOp != kNone &&
           range.begin <= outcome.before.peakOp &&
           range.end >= outcome.before.peakOp;
  };
  for (ValueId value = 0; value < program.values.size(); ++value)
    if (isKeptCandidate(value))
      kept.push_back(valueEntry(value));
  g["kept"] = std::move(kept);
  g["order"] = orderJson(outcome);
  g["peak_before"] = peakJson(outcome, outcome.before, /*planned=*/false);
  g["peak"] = peakJson(outcome, outcome.after, /*planned=*/true);
  g["arena"] = arenaJson(outcome, outcome.arenaAfter);
  return g;
}
