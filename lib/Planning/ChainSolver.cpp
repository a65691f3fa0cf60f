//===- ChainSolver.cpp - Multi-level checkpointing on chains by DP --------===//
//
// When the forward part is a chain (every forward op reads the previous
// forward op's single result, plus graph inputs, and nothing is a view), the
// backward part reads the activations back in reverse order, and what is
// left to decide is when to recompute each one and from which stored copy.
//
// The main candidate is a multi-level dynamic program in the style of
// Griewank's revolve and of Beaumont et al. 2019 (heterogeneous chains):
// checkpoints form a stack. Opt(s, t, m) is the least flops to run the
// backward stages of positions t down to s+1 when the activation at s is
// stored, none in between is, and m memory slots are left: pick j in (s, t],
// recompute it from s with one transient chain, keep it (w_j slots) while
// Opt(j, t, m - w_j) runs and while its own stage reads it, then run
// Opt(s, j-1, m). The top
// level is the forward pass itself, where such chains cost nothing. Every
// schedule of the stack family is a Plan: a chain from s to j becomes a
// Recompute of j in front of the first backward reader of t, and the next
// chain of the same descent, in front of the same op, reads that copy.
//
// The DP's memory is the exact memory model, made conservative in two
// places: a stored activation that no backward op reads counts until its
// stage position is passed (materialize frees it after its last chain), and
// memory is counted in whole slots (sizes rounded up, the budget down). The
// plan it returns therefore meets the budget when the DP says it does; it is
// still evaluated exactly. What it proves: no stack schedule with the same
// slot rounding has fewer extra flops. Schedules outside the family (an
// activation stored twice, copies made earlier than needed) are not
// searched, so `optimal` stays false and the claim goes to `note`.
//
// Two fallbacks stay candidates, so the result is never worse than they
// are: the one-level checkpoint selection (a grid of caps and prices over
// checkpoint sets, each turned into a plan by checkpointPlan) and the
// greedy solver. The best exactly evaluated plan wins. On a graph whose
// forward part is not a chain, the solver is the greedy solver.
//
//===----------------------------------------------------------------------===//

#include "Solvers.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

using namespace remat;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr unsigned kMaxPositions = 500;

/// The forward ops of a chain, in order; empty when it is not one.
std::vector<OpId> forwardChain(const Program &program) {
  OpId boundary = program.backwardBegin;
  if (boundary == kNone || boundary == 0 || boundary > program.ops.size())
    return {};
  std::vector<OpId> chain;
  for (OpId op = 0; op < boundary; ++op) {
    const OpInfo &info = program.ops[op];
    if (info.results.size() != 1 ||
        program.values[info.results[0]].aliasOf != kNone)
      return {};
    unsigned forwardOperands = 0;
    for (ValueId operand : info.operands) {
      OpId def = program.values[operand].def;
      if (def == kNone)
        continue;
      if (chain.empty() || def != chain.back())
        return {};
      ++forwardOperands;
    }
    if (!chain.empty() && forwardOperands == 0)
      return {};
    chain.push_back(op);
  }
  return chain;
}

//===----------------------------------------------------------------------===//
// The chain as the multi-level DP sees it
//===----------------------------------------------------------------------===//

/// Position p (1..last) is the result of forward op ops[p]; position 0 stands
/// for the graph inputs. A "free" position is one the DP may drop and
/// recompute; a pinned one keeps its original live range whatever the plan,
/// so its bytes belong to the background. The stage of a free position is
/// the span of backward ops reading it; stages must be disjoint and come in
/// reverse position order, which is what makes the stack schedules exact.
struct ChainModel {
  /// Highest free position that the backward part reads.
  unsigned last = 0;
  std::vector<OpId> ops;
  std::vector<ValueId> values;
  std::vector<double> bytes, flops, scratch;
  std::vector<bool> pinned;
  /// May not be stored across the boundary (mustRecompute policy).
  std::vector<bool> banned;
  /// First and last backward reader; kNone when no stage.
  std::vector<OpId> stageBegin, stageEnd;
  /// Background bytes (everything but free positions, scratch included)
  /// peaking during the stage, between its end and the next stage, and
  /// across the gap in front of the stage where its chains run.
  std::vector<double> stageNeed, tailNeed, gapNeed;
  /// Background while forward op p runs.
  std::vector<double> forwardNeed;
  /// Background after forward position `last` and before its stage, when
  /// every top-level checkpoint is held.
  double preNeed = 0;
  /// Largest position <= x with a stage, 0 when none.
  std::vector<unsigned> prevStage;

  bool hasStage(unsigned p) const { return stageBegin[p] != kNone; }
  /// Memory while stage p runs (with p held) and until the next stage.
  double stagePeak(unsigned p) const {
    return hasStage(p) ? std::max(bytes[p] + stageNeed[p], tailNeed[p]) : 0;
  }
};

/// Builds the model, or returns std::nullopt when the backward part does
/// not read the chain in the stack order the DP assumes.
std::optional<ChainModel> buildChainModel(const Program &program,
                                          const std::vector<OpId> &chain,
                                          const SolverOptions &options) {
  size_t n = chain.size();
  OpId boundary = program.backwardBegin;
  std::vector<bool> notSaveable = notSaveableValues(program);
  ChainModel model;
  model.ops.assign(n + 1, kNone);
  model.values.assign(n + 1, kNone);
  model.bytes.assign(n + 1, 0);
  model.flops.assign(n + 1, 0);
  model.scratch.assign(n + 1, 0);
  model.pinned.assign(n + 1, true);
  model.banned.assign(n + 1, false);
  model.stageBegin.assign(n + 1, kNone);
  model.stageEnd.assign(n + 1, kNone);
  std::vector<unsigned> positionOf(program.values.size(), 0);
  for (size_t p = 1; p <= n; ++p) {
    const OpInfo &op = program.ops[chain[p - 1]];
    ValueId v = op.results[0];
    const ValueInfo &value = program.values[v];
    model.ops[p] = chain[p - 1];
    model.values[p] = v;
    model.flops[p] = double(op.flops);
    model.scratch[p] = double(op.scratchBytes);
    model.pinned[p] = !op.recomputable || op.mustKeep || value.isOutput ||
                      value.bytes < options.minRematBytes;
    model.banned[p] = notSaveable[v];
    positionOf[v] = p;
  }
  for (ValueId v = 0; v < program.values.size(); ++v) {
    // A later view of an activation would outlive the activation's stage.
    ValueId root = program.rootOf(v);
    if (root != v && positionOf[root] != 0)
      return std::nullopt;
  }
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
    return std::nullopt;
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
      return std::nullopt;
    previousEnd = model.stageEnd[p];
  }
  model.prevStage.assign(n + 1, 0);
  for (unsigned p = 1; p <= n; ++p)
    model.prevStage[p] = model.hasStage(p) ? p : model.prevStage[p - 1];

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
    background[op] = live + double(program.ops[op].scratchBytes);
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
  return model;
}

//===----------------------------------------------------------------------===//
// The dynamic programs
//===----------------------------------------------------------------------===//

/// Opt and Top over memory slots of `unit` bytes (see the file comment).
class StackSchedule {
public:
  StackSchedule(const ChainModel &model, double budget, unsigned slots);

  /// Fills the tables; returns the least extra flops, or kInf.
  double solve();
  /// The schedule of the last solve() as a plan (solve() must be finite).
  Plan plan() const;
  unsigned slots() const { return numSlots; }

private:
  size_t index(unsigned s, unsigned t, unsigned m) const {
    return (size_t(s) * width + t) * (numSlots + 1) + m;
  }
  double capacity(unsigned m) const { return m * unit; }
  /// The least m with capacity(m) >= bytes; numSlots + 1 when none.
  unsigned slotsFor(double bytes) const;
  void fillOpt(unsigned s, unsigned t);
  void fillTop(unsigned s);
  void emitOpt(unsigned s, unsigned t, unsigned m, Plan &plan) const;
  void emitTop(unsigned s, unsigned m, Plan &plan) const;

  const ChainModel &model;
  double unit;
  unsigned numSlots, width;
  /// Slots a stored copy of each position takes: slotsFor(bytes).
  std::vector<unsigned> weights;
  std::vector<double> prefixFlops;
  std::vector<double> opt;
  std::vector<uint16_t> optChoice;
  /// Top(s, m), indexed s * (numSlots + 1) + m.
  std::vector<double> top;
  std::vector<uint16_t> topChoice;
};

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
  prefixFlops.assign(width + 1, 0);
  for (unsigned p = 1; p < width; ++p)
    prefixFlops[p] = prefixFlops[p - 1] + model.flops[p];
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
    double flops = prefixFlops[j] - prefixFlops[s];
    const double *after = j < t ? &opt[index(j, t, 0)] : nullptr;
    unsigned r = model.prevStage[j - 1];
    const double *rest = r > s ? &opt[index(s, r, 0)] : nullptr;
    for (unsigned m = from; m <= numSlots; ++m) {
      double cost = flops + (after ? after[m - w] : 0) + (rest ? rest[m] : 0);
      if (cost < best[m]) {
        best[m] = cost;
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

/// The least peak of any stack schedule in the DP's model, in bytes (no
/// slots): the same recursion with max-of-needs in place of flops.
double minimalStackPeak(const ChainModel &model) {
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

//===----------------------------------------------------------------------===//
// The solver
//===----------------------------------------------------------------------===//

class ChainSolver : public Solver {
public:
  std::string name() const override { return "chain"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override;
};

/// Keeps the best exactly evaluated plan: within the budget first, then
/// (for `min`, or when nothing fits) the smaller peak, then fewer flops.
class Candidates {
public:
  Candidates(const Program &program, const SolverOptions &options)
      : program(program), options(options) {}

  /// Evaluates `plan` and considers it, with `note` as its note.
  void consider(Plan plan, const std::string &note = {}) {
    SolverResult result = evaluatePlan(program, std::move(plan), options);
    result.note = note;
    consider(std::move(result));
  }
  void consider(SolverResult result) {
    if (haveBest && !better(result, best))
      return;
    best = std::move(result);
    haveBest = true;
  }
  const SolverResult &get() const { return best; }
  bool bestFits() const { return haveBest && fits(best); }

private:
  bool fits(const SolverResult &r) const {
    return !options.budgetBytes || options.minimize ||
           r.peakBytes <= *options.budgetBytes;
  }
  bool better(const SolverResult &a, const SolverResult &b) const {
    if (fits(a) != fits(b))
      return fits(a);
    if ((options.minimize || !fits(a)) && a.peakBytes != b.peakBytes)
      return a.peakBytes < b.peakBytes;
    return a.extraFlops < b.extraFlops;
  }

  const Program &program;
  const SolverOptions &options;
  SolverResult best;
  bool haveBest = false;
};

/// The one-level checkpoint selection: for a cap C on the bytes of a
/// recomputed segment and a price lambda per checkpoint byte, a DP over
/// positions finds the checkpoint set minimizing flops + lambda * bytes
/// whose segments fit in C; every set of the (C, lambda) grid is a
/// candidate, recomputed segment by segment with checkpointPlan.
void considerOneLevel(const Program &program, const std::vector<OpId> &chain,
                      const SolverOptions &options, Candidates &candidates,
                      std::chrono::steady_clock::time_point start) {
  size_t length = chain.size();
  std::vector<bool> notSaveable = notSaveableValues(program);
  std::vector<double> bytes(length), flops(length);
  std::vector<bool> forced(length), banned(length);
  for (size_t p = 0; p < length; ++p) {
    const OpInfo &op = program.ops[chain[p]];
    ValueId v = op.results[0];
    bytes[p] = double(program.values[v].bytes);
    flops[p] = double(op.flops);
    forced[p] = !op.recomputable || op.mustKeep || program.values[v].isOutput;
    banned[p] = notSaveable[v];
  }
  std::vector<bool> baseKeep(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    OpId def = program.values[v].def;
    baseKeep[v] = def == kNone || def >= program.backwardBegin;
  }
  // Many grid points pick the same set; each is evaluated once.
  std::set<std::vector<bool>> seen;
  auto consider = [&](const std::vector<bool> &keepPositions) {
    if (!seen.insert(keepPositions).second)
      return;
    std::vector<bool> keep = baseKeep;
    for (size_t p = 0; p < length; ++p)
      keep[program.ops[chain[p]].results[0]] = keepPositions[p];
    candidates.consider(checkpointPlan(program, keep, options));
  };

  // Keeping everything that may be kept: no recompute beyond the policy.
  std::vector<bool> all(length);
  for (size_t p = 0; p < length; ++p)
    all[p] = !banned[p];
  consider(all);
  if (!options.budgetBytes && !options.minimize)
    return;

  double totalBytes = 0, totalFlops = 0, maxBytes = 0;
  for (size_t p = 0; p < length; ++p) {
    totalBytes += bytes[p];
    totalFlops += flops[p];
    maxBytes = std::max(maxBytes, bytes[p]);
  }
  double ratio = totalFlops / std::max(1.0, totalBytes);
  std::vector<double> caps;
  for (int c = 1; c <= 24; ++c)
    caps.push_back(maxBytes + (totalBytes - maxBytes) * std::pow(c / 24.0, 2));
  caps.push_back(0);
  std::vector<double> lambdas = {0};
  for (int e = -8; e <= 8; ++e)
    lambdas.push_back(ratio * std::pow(2.0, e));

  std::vector<double> prefixBytes(length + 1, 0), prefixFlops(length + 1, 0);
  for (size_t p = 0; p < length; ++p) {
    prefixBytes[p + 1] = prefixBytes[p] + bytes[p];
    prefixFlops[p + 1] = prefixFlops[p] + flops[p];
  }
  for (double cap : caps) {
    for (double lambda : lambdas) {
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      if (seconds > options.timeLimitSeconds)
        return;
      // dp[k]: best cost with a checkpoint at position k-1 (k = 0: the
      // inputs); positions strictly between checkpoints are recomputed.
      std::vector<double> dp(length + 2, kInf);
      std::vector<size_t> from(length + 2, 0);
      dp[0] = 0;
      for (size_t k = 1; k <= length + 1; ++k) {
        size_t pos = k - 1;
        if (pos < length && banned[pos])
          continue;
        double own = pos < length ? lambda * bytes[pos] : 0;
        for (size_t j = k; j-- > 0;) {
          double segBytes = prefixBytes[pos] - prefixBytes[j];
          if (segBytes > cap && j + 1 < k)
            break;
          if (segBytes > cap)
            continue;
          if (dp[j] < kInf) {
            double cost = dp[j] + (prefixFlops[pos] - prefixFlops[j]) + own;
            if (cost < dp[k]) {
              dp[k] = cost;
              from[k] = j;
            }
          }
          // A forced checkpoint cannot be skipped over.
          if (j >= 1 && forced[j - 1])
            break;
        }
      }
      if (dp[length + 1] == kInf)
        continue;
      std::vector<bool> keep(length, false);
      for (size_t k = from[length + 1]; k > 0; k = from[k])
        keep[k - 1] = true;
      consider(keep);
    }
  }
}

/// Runs the stack-schedule DP at `budget` bytes and offers its plan.
/// Returns the DP's extra flops (kInf when it finds no schedule).
double considerStackSchedule(const Program &program, const ChainModel &model,
                             double budget, Candidates &candidates) {
  if (!(budget > 0))
    return kInf;
  // About two million table cells: a few tens of milliseconds.
  double positions = double(model.last + 1);
  unsigned slots =
      unsigned(std::clamp(2e6 / (positions * positions), 32.0, 1000.0));
  StackSchedule schedule(model, budget, slots);
  double flops = schedule.solve();
  if (flops == kInf)
    return kInf;
  candidates.consider(schedule.plan(),
                      "chain: multi-level stack schedule, least flops among "
                      "stack schedules in the DP's memory model (" +
                          std::to_string(schedule.slots()) + " slots)");
  return flops;
}

SolverResult ChainSolver::solve(const Program &program,
                                const SolverOptions &options) {
  std::vector<OpId> chain = forwardChain(program);
  if (chain.empty()) {
    SolverResult result = createGreedySolver()->solve(program, options);
    result.note = "chain: the forward part is not a chain; used the greedy "
                  "solver";
    return result;
  }
  auto start = std::chrono::steady_clock::now();
  Candidates candidates(program, options);
  if (!options.budgetBytes && !options.minimize) {
    considerOneLevel(program, chain, options, candidates, start);
    return candidates.get();
  }
  std::optional<ChainModel> model = buildChainModel(program, chain, options);
  // Past about 500 positions even 32 slots make tables of hundreds of MB.
  bool useDP = model && model->last <= kMaxPositions;
  // The DP goes first: on a tie its plan, whose note states what the DP
  // proves, is kept.
  if (useDP && !options.minimize)
    considerStackSchedule(program, *model, double(*options.budgetBytes),
                          candidates);
  if (useDP && (options.minimize || !candidates.bestFits())) {
    // The least peak the model allows; slot rounding may need a little more.
    double peak = minimalStackPeak(*model);
    for (double slack : {0.0, 0.002, 0.01, 0.03})
      if (peak < kInf &&
          considerStackSchedule(program, *model, peak * (1 + slack),
                                candidates) < kInf)
        break;
  }
  considerOneLevel(program, chain, options, candidates, start);
  candidates.consider(createGreedySolver()->solve(program, options));
  SolverResult best = candidates.get();
  // Moves that gain nothing (an activation no backward op needs early)
  // are dropped; the FLOPs do not change.
  SolverResult result = evaluatePlan(
      program, dropNeedlessRecomputes(program, std::move(best.plan), options),
      options);
  result.note = std::move(best.note);
  if (!useDP && result.note.empty())
    result.note = model ? "chain: too long for the multi-level DP; one-level "
                          "checkpoints and greedy only"
                        : "chain: the backward part does not read the chain "
                          "in reverse order; multi-level schedules not "
                          "searched";
  return result;
}

} // namespace

std::unique_ptr<Solver> remat::createChainSolver() {
  return std::make_unique<ChainSolver>();
}
