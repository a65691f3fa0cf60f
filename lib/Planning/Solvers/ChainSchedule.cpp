//===- ChainSchedule.cpp - Multi-level checkpointing on chains by DP ------===//
//
// On a chain (see ChainSolver.cpp) the backward part reads the activations
// back in reverse order, and what is left to decide is when to recompute
// each one and from which stored copy.
//
// This is a multi-level dynamic program in the style of Griewank's revolve
// and of Beaumont et al. 2019 (heterogeneous chains): checkpoints form a
// stack. Opt(s, t, m) is the least cost to run the backward stages of
// positions t down to s+1 when the activation at s is stored, none in
// between is, and m memory slots are left: pick j in (s, t], recompute it
// from s with one transient chain, keep it (w_j slots) while
// Opt(j, t, m - w_j) runs and while its own stage reads it, then run
// Opt(s, j-1, m). The top level is the forward pass itself, where such
// chains cost nothing. Every schedule of the stack family is a Plan: a
// chain from s to j becomes a Recompute of j in front of the first backward
// reader of t, and the next chain of the same descent, in front of the same
// op, reads that copy.
//
// The DP's memory is the exact memory model, made conservative in two
// places: a stored activation that no backward op reads counts until its
// stage position is passed (materialize frees it after its last chain), and
// memory is counted in whole slots (sizes rounded up, the budget down). The
// plan it returns therefore meets the budget when the DP says it does (the
// chain solver still evaluates it exactly). What it proves: no stack
// schedule with the same slot rounding has fewer extra cost. Schedules
// outside the family (an activation stored twice, copies made earlier than
// needed) are not searched.
//
//===----------------------------------------------------------------------===//

#include "ChainSchedule.h"
#include "SolverSupport.h"

#include "remat/Planning/MemoryProfile.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace remat;

//===----------------------------------------------------------------------===//
// The chain as the multi-level DP sees it
//===----------------------------------------------------------------------===//

namespace {

/// Per position of the chain: its op, value, bytes, FLOPs and scratch, and
/// whether it is pinned (never recomputed) or banned (never stored). False
/// when a later view of an activation would outlive the activation's stage.
bool describePositions(ChainModel &model, std::vector<unsigned> &positionOf,
                       const Program &program, const std::vector<OpId> &chain,
                       const SolverOptions &options) {
  size_t n = chain.size();
  std::vector<bool> notSaveable = notSaveableValues(program);
  model.ops.assign(n + 1, kNone);
  model.values.assign(n + 1, kNone);
  model.bytes.assign(n + 1, 0);
  model.cost.assign(n + 1, 0);
  model.scratch.assign(n + 1, 0);
  model.pinned.assign(n + 1, true);
  model.banned.assign(n + 1, false);
  model.stageBegin.assign(n + 1, kNone);
  model.stageEnd.assign(n + 1, kNone);
  for (size_t p = 1; p <= n; ++p) {
    const OpInfo &op = program.ops[chain[p - 1]];
    ValueId v = op.results[0];
    const ValueInfo &value = program.values[v];
    model.ops[p] = chain[p - 1];
    model.values[p] = v;
    model.cost[p] = double(op.cost);
    model.scratch[p] = double(op.scratchBytes());
    model.pinned[p] = !op.canRecompute() || value.isOutput ||
                      value.bytes < options.minRematBytes;
    model.banned[p] = notSaveable[v];
    positionOf[v] = p;
  }
  for (ValueId v = 0; v < program.values.size(); ++v) {
    // A later view of an activation would outlive the activation's stage.
    ValueId root = program.rootOf(v);
    if (root != v && positionOf[root] != 0)
      return false;
  }
  return true;
}

/// Each free position's stage (the backward ops that read it), which must
/// come later for lower positions. False when the chain has no stage or
/// the stages interleave.
bool findStages(ChainModel &model, const std::vector<unsigned> &positionOf,
                const Program &program) {
  size_t n = model.ops.size() - 1;
  OpId boundary = program.backwardBegin;
  for (OpId op = boundary; op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands) {
      unsigned p = positionOf[operand];
      if (p == 0 || model.pinned[p])
        continue;
      if (model.stageBegin[p] == kNone)
        model.stageBegin[p] = op;
      model.stageEnd[p] = op;
    }
  for (unsigned p = n; p > 0 && model.last == 0; --p)
    if (model.hasStage(p))
      model.last = p;
  if (model.last == 0)
    return false;
  // Forward-only positions past the last stage stay as they are.
  for (unsigned p = model.last + 1; p <= n; ++p)
    model.pinned[p] = true;
  for (unsigned p = 1; p <= n; ++p)
    if (!model.pinned[p])
      model.bytes[p] = double(program.values[model.values[p]].bytes);

  // Lower positions' stages come later.
  OpId previousEnd = kNone;
  for (unsigned p = model.last; p > 0; --p) {
    if (!model.hasStage(p))
      continue;
    if (previousEnd != kNone && model.stageBegin[p] <= previousEnd)
      return false;
    previousEnd = model.stageEnd[p];
  }
  model.prevStage.assign(n + 1, 0);
  for (unsigned p = 1; p <= n; ++p)
    model.prevStage[p] = model.hasStage(p) ? p : model.prevStage[p - 1];

  return true;
}

/// The bytes the rest of the step holds beside the chain at each op, and
/// from them the memory each part of the schedule needs.
void computeNeeds(ChainModel &model, const std::vector<unsigned> &positionOf,
                  const Program &program, const std::vector<OpId> &chain,
                  const SolverOptions &options) {
  size_t n = chain.size();
  OpId boundary = program.backwardBegin;
  // Background: every buffer but the free activations. A pinned position
  // that a chain reads in the backward part lives until that chain runs:
  // in front of the latest stage that starts from it.
  MemoryProfile profile = computeMemoryProfile(program, options.countInputs);
  size_t numOps = program.ops.size();
  std::vector<double> liveDelta(numOps + 1, 0), gapDelta(numOps + 1, 0);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    const LiveRange &range = profile.ranges[v];
    unsigned p = positionOf[v];
    if (program.rootOf(v) != v || range.end == kNone ||
        program.values[v].bytes == 0 || (p != 0 && !model.pinned[p]))
      continue;
    OpId end = range.end;
    if (p != 0) {
      unsigned q = p + 1;
      for (; q <= model.last && !model.pinned[q]; ++q)
        if (model.hasStage(q)) {
          end = std::max(end, model.stageBegin[q]);
          break;
        }
    }
    double bytes = double(program.values[v].bytes);
    OpId begin = range.begin == kNone ? 0 : range.begin;
    liveDelta[begin] += bytes;
    liveDelta[end + 1] -= bytes;
    // Across the gap in front of op b: born before b, still live at b.
    OpId gapBegin = range.begin == kNone ? 0 : range.begin + 1;
    if (gapBegin <= end) {
      gapDelta[gapBegin] += bytes;
      gapDelta[end + 1] -= bytes;
    }
  }
  std::vector<double> background(numOps), gap(numOps);
  double live = 0, across = 0;
  for (OpId op = 0; op < numOps; ++op) {
    live += liveDelta[op];
    across += gapDelta[op];
    background[op] = live + double(program.ops[op].scratchBytes());
    gap[op] = across;
  }
  auto maxOver = [&](OpId begin, OpId end) {
    double result = 0;
    for (OpId op = begin; op < end; ++op)
      result = std::max(result, background[op]);
    return result;
  };

  model.forwardNeed.assign(n + 1, 0);
  for (unsigned p = 1; p <= n; ++p)
    model.forwardNeed[p] = background[chain[p - 1]];
  model.stageNeed.assign(n + 1, 0);
  model.tailNeed.assign(n + 1, 0);
  model.gapNeed.assign(n + 1, 0);
  model.preNeed = std::max(maxOver(model.ops[model.last] + 1, boundary),
                           maxOver(boundary, model.stageBegin[model.last]));
  for (unsigned p = 1; p <= model.last; ++p) {
    if (!model.hasStage(p))
      continue;
    unsigned below = model.prevStage[p - 1];
    OpId next = below ? model.stageBegin[below] : numOps;
    model.stageNeed[p] = maxOver(model.stageBegin[p], model.stageEnd[p] + 1);
    model.tailNeed[p] = maxOver(model.stageEnd[p] + 1, next);
    model.gapNeed[p] = gap[model.stageBegin[p]];
  }
}

} // namespace

std::optional<ChainModel> remat::buildChainModel(const Program &program,
                                                 const std::vector<OpId> &chain,
                                                 const SolverOptions &options) {
  ChainModel model;
  std::vector<unsigned> positionOf(program.values.size(), 0);
  if (!describePositions(model, positionOf, program, chain, options) ||
      !findStages(model, positionOf, program))
    return std::nullopt;
  computeNeeds(model, positionOf, program, chain, options);
  return model;
}

//===----------------------------------------------------------------------===//
// The dynamic programs
//===----------------------------------------------------------------------===//

StackSchedule::StackSchedule(const ChainModel &model, double budget,
                             unsigned slots)
    : model(model), width(model.last + 1) {
  // Slots are aligned to the most common activation size, so that the
  // usual checkpoint costs a whole number of slots and rounding only loses
  // part of a slot of the budget.
  std::map<double, unsigned> counts;
  for (unsigned p = 1; p <= model.last; ++p)
    if (model.bytes[p] > 0)
      ++counts[model.bytes[p]];
  double common = budget;
  unsigned commonCount = 0;
  for (auto [bytes, count] : counts)
    if (count >= commonCount) {
      common = bytes;
      commonCount = count;
    }
  double perCommon = std::floor(common * slots / budget);
  unit = perCommon >= 1 ? common / perCommon : budget / slots;
  numSlots = unsigned(std::floor(budget / unit));
  weights.assign(width, 0);
  for (unsigned p = 1; p < width; ++p)
    weights[p] = slotsFor(model.bytes[p]);
  prefixCost.assign(width + 1, 0);
  for (unsigned p = 1; p < width; ++p)
    prefixCost[p] = prefixCost[p - 1] + model.cost[p];
}

unsigned StackSchedule::slotsFor(double bytes) const {
  double slots = std::ceil(bytes / unit);
  if (slots > numSlots)
    return numSlots + 1;
  // Exactly as capacity() compares, whatever the division rounded to.
  unsigned m = unsigned(slots);
  while (m > 0 && capacity(m - 1) >= bytes)
    --m;
  while (m <= numSlots && capacity(m) < bytes)
    ++m;
  return m;
}

// Both fills run over j outside and m inside: rows of the tables are
// contiguous in m, so the inner loop is a plain sweep.
void StackSchedule::fillOpt(unsigned s, unsigned t) {
  double *best = &opt[index(s, t, 0)];
  uint16_t *choice = &optChoice[index(s, t, 0)];
  double chainNeed = 0;
  for (unsigned j = s + 1; j <= t; ++j) {
    chainNeed = std::max(chainNeed, model.scratch[j] + model.bytes[j] +
                                        (j - 1 > s ? model.bytes[j - 1] : 0));
    unsigned from = slotsFor(model.gapNeed[t] + chainNeed);
    if (from > numSlots)
      break;
    from = std::max(from, slotsFor(model.stagePeak(j)));
    unsigned w = j < t ? weights[j] : 0;
    from = std::max(from, w);
    double stageCost = prefixCost[j] - prefixCost[s];
    const double *after = j < t ? &opt[index(j, t, 0)] : nullptr;
    unsigned r = model.prevStage[j - 1];
    const double *rest = r > s ? &opt[index(s, r, 0)] : nullptr;
    for (unsigned m = from; m <= numSlots; ++m) {
      double total = stageCost + (after ? after[m - w] : 0) + (rest ? rest[m] : 0);
      if (total < best[m]) {
        best[m] = total;
        choice[m] = uint16_t(j);
      }
    }
  }
}

void StackSchedule::fillTop(unsigned s) {
  double *best = &top[size_t(s) * (numSlots + 1)];
  uint16_t *choice = &topChoice[size_t(s) * (numSlots + 1)];
  double forwardNeed = 0;
  for (unsigned j = s + 1; j <= model.last; ++j) {
    forwardNeed =
        std::max(forwardNeed, model.forwardNeed[j] + model.bytes[j] +
                                  (j - 1 > s ? model.bytes[j - 1] : 0));
    unsigned from = slotsFor(forwardNeed);
    if (from > numSlots)
      break;
    if (!model.banned[j] || model.pinned[j]) {
      from = std::max(from, slotsFor(model.stagePeak(j)));
      unsigned w = 0;
      const double *after = nullptr;
      if (j == model.last) {
        from = std::max(from, slotsFor(model.preNeed + model.bytes[j]));
      } else {
        w = weights[j];
        after = &top[size_t(j) * (numSlots + 1)];
      }
      from = std::max(from, w);
      unsigned r = model.prevStage[j - 1];
      const double *rest = r > s ? &opt[index(s, r, 0)] : nullptr;
      for (unsigned m = from; m <= numSlots; ++m) {
        double cost = (after ? after[m - w] : 0) + (rest ? rest[m] : 0);
        if (cost < best[m]) {
          best[m] = cost;
          choice[m] = uint16_t(j);
        }
      }
    }
    // A pinned position is stored whatever the plan: nothing crosses it.
    if (model.pinned[j])
      break;
  }
}

double StackSchedule::solve() {
  opt.assign(size_t(width) * width * (numSlots + 1), kInf);
  optChoice.assign(opt.size(), 0);
  top.assign(size_t(width) * (numSlots + 1), kInf);
  topChoice.assign(top.size(), 0);
  // Opt(s, t) reads Opt(j, t) for j > s and Opt(s, r) for r < t.
  for (unsigned t = 1; t <= model.last; ++t) {
    if (!model.hasStage(t))
      continue;
    // Nothing crosses a pinned position: it is stored whatever the plan.
    for (unsigned s = t; s-- > 0 && !model.pinned[s + 1];)
      fillOpt(s, t);
  }
  for (unsigned s = model.last; s-- > 0;)
    fillTop(s);
  return top[numSlots];
}

void StackSchedule::emitOpt(unsigned s, unsigned t, unsigned m,
                            Plan &plan) const {
  unsigned j = optChoice[index(s, t, m)];
  Recompute recompute;
  recompute.value = model.values[j];
  recompute.before = model.stageBegin[t];
  for (unsigned k = s + 1; k <= j; ++k)
    recompute.chain.push_back(model.ops[k]);
  plan.recomputes.push_back(std::move(recompute));
  if (j < t)
    emitOpt(j, t, m - weights[j], plan);
  unsigned r = model.prevStage[j - 1];
  if (r > s)
    emitOpt(s, r, m, plan);
}

void StackSchedule::emitTop(unsigned s, unsigned m, Plan &plan) const {
  unsigned j = topChoice[size_t(s) * (numSlots + 1) + m];
  if (j < model.last)
    emitTop(j, m - weights[j], plan);
  unsigned r = model.prevStage[j - 1];
  if (r > s)
    emitOpt(s, r, m, plan);
}

Plan StackSchedule::plan() const {
  Plan plan;
  emitTop(0, numSlots, plan);
  return plan;
}
double remat::minimalStackPeak(const ChainModel &model) {
  unsigned width = model.last + 1;
  std::vector<double> need(size_t(width) * width, kInf);
  auto at = [&](unsigned s, unsigned t) -> double & {
    return need[size_t(s) * width + t];
  };
  auto rest = [&](unsigned s, unsigned x) {
    unsigned r = model.prevStage[x];
    return r > s ? at(s, r) : 0.0;
  };
  for (unsigned t = 1; t < width; ++t) {
    if (!model.hasStage(t))
      continue;
    for (unsigned s = t; s-- > 0 && !model.pinned[s + 1];) {
      double best = kInf, chainNeed = 0;
      for (unsigned j = s + 1; j <= t; ++j) {
        chainNeed =
            std::max(chainNeed, model.scratch[j] + model.bytes[j] +
                                    (j - 1 > s ? model.bytes[j - 1] : 0));
        double peak = std::max(
            {model.gapNeed[t] + chainNeed, model.stagePeak(j), rest(s, j - 1)});
        if (j < t)
          peak = std::max(peak, model.bytes[j] + at(j, t));
        best = std::min(best, peak);
      }
      at(s, t) = best;
    }
  }
  std::vector<double> top(width, kInf);
  for (unsigned s = model.last; s-- > 0;) {
    double forwardNeed = 0;
    for (unsigned j = s + 1; j <= model.last; ++j) {
      forwardNeed =
          std::max(forwardNeed, model.forwardNeed[j] + model.bytes[j] +
                                    (j - 1 > s ? model.bytes[j - 1] : 0));
      if (!model.banned[j] || model.pinned[j]) {
        double after = j == model.last ? model.preNeed : top[j];
        double peak = std::max({forwardNeed, model.bytes[j] + after,
                                model.stagePeak(j), rest(s, j - 1)});
        top[s] = std::min(top[s], peak);
      }
      if (model.pinned[j])
        break;
    }
  }
  return top[0];
}
