//===- IlpModel.h - Minimum-FLOPs rematerialization as a MIP ----*- C++ -*-===//
//
// Private to lib/Planning: the MIP of IlpModel.cpp (its formulation is
// described there), solved with COIN-OR CBC, whose solution becomes a Plan.
// The ilp solver (IlpSolver.cpp) drives it; CBC itself stays behind
// IlpModel.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_ILPMODEL_H
#define REMAT_LIB_PLANNING_ILPMODEL_H

#include "remat/Planning/Solver.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace remat {

/// The MIP for one program and one budget: relaxed (a lower bound on the
/// extra FLOPs of every plan) or conservative (every solution fits).
class IlpModel {
public:
  /// Without `allowMoves`, every op runs at its own place (K = 1): the
  /// fixed-order space of Checkmate, whose LP bound is much tighter.
  IlpModel(const Program &program, const SolverOptions &options,
           uint64_t budget, bool allowMoves)
      : program(program), options(options), budget(budget),
        allowMoves(allowMoves) {}

  /// Builds the MIP; false if it is too large.
  bool build(bool conservative);
  /// Gives CBC `plan` (which must meet the budget) as its starting solution.
  void setStart(const Plan &plan);
  /// Solves, in a child process killed at `deadline` (in this process
  /// without options.isolateSearch); fills the solution.
  /// Returns false when CBC found no solution (or was killed: `timedOut`).
  bool solve(double cutoffCost,
             std::chrono::steady_clock::time_point deadline);
  Plan extractPlan() const;

  /// Whether the MIP is a relaxation of every plan of `program`, so that its
  /// bound is a bound.
  static bool boundIsValid(const Program &program);

  bool provenOptimal = false;
  bool provenInfeasible = false;
  /// CBC was stopped at the deadline before it answered.
  bool timedOut = false;
  double bound = 0;
  size_t numVariables() const { return lower.size(); }

private:
  struct Triplet {
    int row;
    int col;
    double value;
  };

  int addVar(double cost, double lo, double hi) {
    objective.push_back(cost);
    lower.push_back(lo);
    upper.push_back(hi);
    return static_cast<int>(lower.size()) - 1;
  }
  int addRow(double lo, double hi) {
    rowLower.push_back(lo);
    rowUpper.push_back(hi);
    return static_cast<int>(rowLower.size()) - 1;
  }
  int rVar(OpId t, OpId i) const {
    auto it = rIndex.find({t, i});
    return it == rIndex.end() ? -1 : it->second;
  }
  int sVar(OpId t, OpId i) const {
    auto it = sIndex.find({t, i});
    return it == sIndex.end() ? -1 : it->second;
  }
  /// C[t][i], or -1 where it is the constant 1.
  int cVar(OpId t, OpId i) const {
    return t - i < cIndex[i].size() ? cIndex[i][t - i] : -1;
  }
  void addFirstComputations(const std::vector<OpId> &lastStage);

  // The steps of build, in the order they add columns and rows: the order
  // CBC sees them in.
  /// Result bytes, dependencies and the objective's scale.
  void measureOps();
  /// lastStage and output; false when the MIP would be too large.
  bool findLastStages();
  /// S[t][i] (kept) and R[t][i] (recomputed) for the stages i may be read in.
  void addStageVariables();
  /// K[t]: op t runs at its own place (moves).
  void addMoveVariables();
  void preferFewerRecomputations();
  void forbidSavingAcrossBoundary();
  /// rowCoef * x_rowCol <= R[t][i] + S[t][i] (1 <= ... when rowCol < 0).
  void addAvailability(OpId t, OpId i, int rowCol, double rowCoef);
  /// What op t and the ops recomputed in stage t read is available.
  void addDependencyRows(OpId t);
  /// A value kept into stage t was kept or recomputed in stage t - 1.
  void addKeepingRows(OpId t);
  /// The budget at op t, at the recomputed ops of stage t (relaxed model
  /// only), and entering stage t (the whole stage when conservative).
  void addMemoryAtOp(OpId t);
  void addMemoryInStage(OpId t);
  void addMemoryEnteringStage(OpId t, bool conservative);

  const Program &program;
  const SolverOptions &options;
  uint64_t budget;
  bool allowMoves;
  double flopScale = 1;

  std::vector<uint64_t> bytes;
  std::vector<std::vector<OpId>> deps;
  /// The last stage op i's result can be read in, and whether it is an
  /// output.
  std::vector<OpId> lastStage;
  std::vector<bool> output;
  /// Counted inputs' bytes, and the scale of every memory row (1 / budget).
  double inputBytes = 0;
  double byteScale = 1;
  std::map<std::pair<OpId, OpId>, int> rIndex, sIndex;
  std::vector<int> kIndex;
  /// cIndex[i][t - i]: C[t][i], op i has run in some stage <= t (the first
  /// entry is K[i]); absent entries are the constant 1.
  std::vector<std::vector<int>> cIndex;
  std::vector<int> continuous;
  double objectiveOffset = 0;
  std::vector<double> objective, lower, upper, rowLower, rowUpper;
  std::vector<Triplet> triplets;
  std::vector<double> solution;
  /// The MIP start: integer columns and their values.
  std::vector<int> startColumns;
  std::vector<double> startValues;
};

} // namespace remat

#endif // REMAT_LIB_PLANNING_ILPMODEL_H
