//===- SegmentsSolver.cpp - Checkpointing at the forward part's cuts ------===//
//
// Per-block checkpointing, found rather than annotated: a cut is a point of
// the forward part where a single recomputable buffer is live from before
// it to after it (a transformer's residual stream between blocks, a
// ResNet's block output). Keeping only cut values, every other residual is
// recomputed from the nearest kept cut when the backward part enters its
// segment, which is what torch.utils.checkpoint around every block does.
// sqrt-n keeps every k-th op's results instead, which are rarely cuts: what
// a segment needs from before it stays live as well.
//
// The solver tries strides of kept cuts (every cut, every second, ...:
// every stride on small steps, a geometric ladder of them on deep ones)
// and, for each, whether values that are dear to recompute for their size
// (a dropout mask: a hundred integer ops per byte) are kept beside the cuts,
// at a few thresholds of FLOPs per byte. Every candidate is evaluated
// exactly; under a budget, those that meet it are then pruned, cheapest
// first while the time and a bound on the work last, and the best by the
// solvers' rule (isBetterResult) is returned.
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

using namespace remat;

namespace {

/// FLOPs per byte from which a forward value is kept beside the cuts, in
/// the candidates that keep dear values (infinity: none kept).
/// Each threshold a quarter of the last: a dropout mask is ~100, a
/// transformer's projections ~64, its attention scores ~16.
constexpr double kDearCostPerByte[] = {
    std::numeric_limits<double>::infinity(), 96.0, 24.0, 6.0, 1.5};

/// Op-evaluations the shapes may cost together, and the least number of
/// shapes on any program. Every shape is one evaluation of the whole
/// program and a deep step has a cut per block (a 3,000-layer transformer
/// about 6,000): evaluating every stride made the plan time quadratic in
/// the depth. Up to a few thousand ops every stride still fits.
constexpr size_t kShapeWork = 2'000'000;
constexpr size_t kMinShapes = 20;
/// Op-evaluations the pruning of the candidates may cost together: one
/// pruning evaluates the program once per recomputation, a few seconds per
/// 4M op-evaluations (a 300-layer transformer's candidates at 0.7 took 16 s
/// at 32M).
constexpr uint64_t kPruneWork = 4'000'000;

/// Whether `v` owns a buffer a plan could free by recomputing it.
bool isRecomputableBuffer(const Program &program, ValueId v) {
  const ValueInfo &info = program.values[v];
  return info.aliasOf == kNone && info.bytes > 0 && info.def != kNone &&
         !info.isOutput && program.canRecompute(info.def);
}

} // namespace

// Peaks and FLOPs change smoothly with the stride: a geometric ladder
// misses the best stride by at most its ratio.
std::vector<size_t> remat::segmentStrides(size_t cuts, size_t perThreshold) {
  std::vector<size_t> strides;
  if (cuts + 1 <= perThreshold) {
    for (size_t stride = 0; stride <= cuts; ++stride)
      strides.push_back(stride);
    return strides;
  }
  strides.push_back(0);
  size_t steps = std::max<size_t>(perThreshold, 3) - 2;
  for (size_t i = 0; i <= steps; ++i) {
    auto stride = static_cast<size_t>(std::llround(
        std::pow(double(cuts), double(i) / double(steps))));
    stride = std::clamp<size_t>(stride, 1, cuts);
    if (strides.back() != stride)
      strides.push_back(stride);
  }
  return strides;
}

std::vector<ValueId> remat::forwardCuts(const Program &program) {
  OpId boundary = program.backwardBegin;
  std::vector<ValueId> cuts;
  if (boundary == kNone)
    return cuts;
  // The last forward op that reads each buffer, through any of its views.
  std::vector<OpId> lastUse(program.values.size(), kNone);
  for (OpId op = 0; op < boundary && op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands) {
      ValueId root = program.rootOf(operand);
      if (lastUse[root] == kNone || lastUse[root] < op)
        lastUse[root] = op;
    }
  // Sweep the forward part keeping the recomputable buffers live across
  // each point; a point crossed by exactly one is a cut at that buffer.
  std::vector<std::vector<ValueId>> closing(boundary);
  size_t crossing = 0;
  ValueId lastOpened = kNone;
  std::vector<bool> open(program.values.size(), false);
  for (OpId op = 0; op < boundary; ++op) {
    for (ValueId v : closing[op]) {
      open[v] = false;
      --crossing;
    }
    for (ValueId v : program.ops[op].results)
      if (isRecomputableBuffer(program, v) && lastUse[v] != kNone &&
          lastUse[v] > op) {
        open[v] = true;
        ++crossing;
        closing[lastUse[v]].push_back(v);
        lastOpened = v;
      }
    if (crossing != 1)
      continue;
    // The one crossing buffer: the latest opened that is still open, or
    // found by a scan when an older one outlived it (rare: a cut at a
    // value that stays live while a whole segment runs).
    ValueId cut = lastOpened != kNone && open[lastOpened] ? lastOpened : kNone;
    if (cut == kNone)
      for (ValueId v = 0; v < open.size() && cut == kNone; ++v)
        if (open[v])
          cut = v;
    if (cuts.empty() || cuts.back() != cut)
      cuts.push_back(cut);
  }
  return cuts;
}

namespace {

class SegmentsSolver : public Solver {
public:
  std::string name() const override { return "segments"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    OpId boundary = program.backwardBegin;
    if (boundary == kNone || boundary >= program.ops.size()) {
      SolverResult result = evaluatePlan(program, Plan(), options);
      result.note = "segments needs a forward/backward boundary "
                    "(remat.backward); nothing recomputed";
      return result;
    }
    std::vector<ValueId> cuts = forwardCuts(program);
    std::vector<bool> mandatory = mustKeepValues(program);
    // A policy's values are recomputed, never kept as cuts or dear values.
    std::vector<bool> notSaveable = unsaveableByPolicy(program);
    auto deadline = solveDeadline(options);
    // Unless a policy asks for recomputation, planning nothing is a
    // candidate too: a budget the step already meets needs no segments.
    std::optional<SolverResult> best;
    std::string bestShape = "nothing recomputed";
    if (llvm::none_of(program.ops, [](const OpInfo &op) {
          return op.mustRecompute && op.recomputable;
        }))
      best = evaluatePlan(program, Plan(), options);
    auto consider = [&](SolverResult result, const std::string &shape) {
      if (!best || isBetterResult(result, *best, options)) {
        best = std::move(result);
        bestShape = shape;
      }
    };
    // Every shape first, as it is: each is one evaluation.
    std::vector<std::pair<SolverResult, std::string>> candidates;
    const size_t numOps = std::max<size_t>(program.ops.size(), 1);
    const size_t numThresholds = std::size(kDearCostPerByte);
    std::vector<size_t> strides = segmentStrides(
        cuts.size(),
        std::max(kMinShapes, kShapeWork / numOps) / numThresholds);
    for (double dear : kDearCostPerByte) {
      if (best && std::chrono::steady_clock::now() >= deadline)
        break;
      std::vector<bool> base = mandatory;
      for (ValueId v = 0; v < program.values.size(); ++v)
        if (isRecomputableBuffer(program, v) && !notSaveable[v] &&
            program.values[v].def < boundary &&
            double(program.ops[program.values[v].def].cost) >=
                dear * double(program.values[v].bytes))
          base[v] = true;
      // Stride 0: no cut kept; stride k: every k-th cut, the last one kept.
      for (size_t stride : strides) {
        if (best && std::chrono::steady_clock::now() >= deadline)
          break;
        std::vector<bool> keep = base;
        if (stride > 0)
          for (size_t j = cuts.size(); j-- > 0;)
            if ((cuts.size() - 1 - j) % stride == 0)
              keep[cuts[j]] = keep[cuts[j]] || !notSaveable[cuts[j]];
        SolverResult result = evaluatePlan(
            program, checkpointPlan(program, keep, options), options);
        std::string shape = describeShape(stride, cuts.size(), dear);
        if (result.feasible && options.budgetBytes && !options.minimize)
          candidates.push_back({result, shape});
        consider(std::move(result), shape);
      }
    }
    // The budget may leave room beside what is kept: what a plan meets it
    // without is kept instead of recomputed. Pruning costs an evaluation
    // per recomputation, so the plans that meet the budget are pruned
    // cheapest first, as long as the time and kPruneWork last.
    llvm::stable_sort(candidates, [](const auto &a, const auto &b) {
      return a.first.extraCost < b.first.extraCost;
    });
    uint64_t pruneWorkLeft = kPruneWork;
    for (auto &[result, shape] : candidates) {
      if (std::chrono::steady_clock::now() >= deadline || pruneWorkLeft == 0)
        break;
      // The pruning, then the evaluation of what it leaves (neither where
      // the plan is too large to prune).
      uint64_t work = pruneWork(result.plan.recomputes.size(), numOps);
      pruneWorkLeft -= std::min(pruneWorkLeft, work > 0 ? work + numOps : 0);
      consider(pruneEvaluated(program, std::move(result), options, deadline),
               shape);
    }
    best->note = "segments: " + bestShape;
    return std::move(*best);
  }

private:
  static std::string describeShape(size_t stride, size_t cuts, double dear) {
    std::string shape = stride == 0   ? "no cut kept"
                        : stride == 1 ? "every cut kept"
                                      : "one cut in " + std::to_string(stride) +
                                            " kept";
    shape += " (of " + std::to_string(cuts) + ")";
    if (dear != std::numeric_limits<double>::infinity())
      shape += ", values of at least " + std::to_string(int(dear)) +
               " FLOPs per byte kept";
    return shape;
  }

  /// What no checkpointing plan may recompute: inputs, the backward part,
  /// outputs, and what cannot be re-executed (checkpointPlan's contract).
  static std::vector<bool> mustKeepValues(const Program &program) {
    std::vector<bool> keep(program.values.size(), false);
    for (ValueId v = 0; v < program.values.size(); ++v) {
      const ValueInfo &info = program.values[v];
      keep[v] = info.def == kNone || info.def >= program.backwardBegin ||
                info.isOutput || !program.canRecompute(info.def);
    }
    return keep;
  }
};

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfSegmentsSolver() {
  return {{"segments", makeSolver<SegmentsSolver>}};
}
} // namespace remat
