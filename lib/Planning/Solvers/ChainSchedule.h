//===- ChainSchedule.h - Stack schedules of a chain by DP -------*- C++ -*-===//
//
// Private to lib/Planning: the chain model and the multi-level dynamic
// program of ChainSchedule.cpp, which the chain solver (ChainSolver.cpp)
// runs as its main candidate.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_CHAINSCHEDULE_H
#define REMAT_LIB_PLANNING_CHAINSCHEDULE_H

#include "remat/Planning/Solver.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace remat {

/// The cost of what cannot be scheduled: no schedule, no peak.
inline constexpr double kInf = std::numeric_limits<double>::infinity();

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
  std::vector<double> bytes, cost, scratch;
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

/// Builds the model of `chain` (the forward ops, in order), or returns
/// std::nullopt when the backward part does not read the chain in the stack
/// order the DP assumes.
std::optional<ChainModel> buildChainModel(const Program &program,
                                          const std::vector<OpId> &chain,
                                          const SolverOptions &options);

/// Opt and Top over memory slots of `unit` bytes (see ChainSchedule.cpp).
class StackSchedule {
public:
  StackSchedule(const ChainModel &model, double budget, unsigned slots);

  /// Fills the tables; returns the least extra cost, or kInf.
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
  std::vector<double> prefixCost;
  std::vector<double> opt;
  std::vector<uint16_t> optChoice;
  /// Top(s, m), indexed s * (numSlots + 1) + m.
  std::vector<double> top;
  std::vector<uint16_t> topChoice;
};

/// The least peak of any stack schedule in the DP's model, in bytes (no
/// slots): the same recursion with max-of-needs in place of cost.
double minimalStackPeak(const ChainModel &model);

} // namespace remat

#endif // REMAT_LIB_PLANNING_CHAINSCHEDULE_H
