//===- IlpSolver.cpp - The ilp solver: MIP passes against incumbents ------===//
//
// Drives the MIP of IlpModel.cpp. The relaxed MIP, whose optimum bounds the
// extra FLOPs of every plan, is solved first and its solution evaluated
// exactly as a plan. Unless that plan fits, or the relaxed MIP proved that
// nothing beats the incumbent, the conservative MIP, whose solutions always
// fit, is solved in the time left.
//
// The incumbent is the best feasible plan among greedy, chain and the
// baselines; it is passed to CBC as a cutoff, so CBC only looks for strictly
// better plans. When CBC proves there are none, the incumbent is optimal. The
// result is never worse than greedy or chain. A CBC run that used up its
// time proves nothing, whatever its status says.
//
// The bound is valid only when ops own at most one buffer and no output is
// read by a later recomputable op (IlpModel::boundIsValid); otherwise the
// solver plans but claims no optimality and no gap.
//
// Limits: the MIP has O(n^2) variables for n ops; above kMaxVariables
// (IlpModel.cpp) the solver returns the incumbent with a note. Even with the
// first-run variables C the LP bound is weak (fractional keeps and moves
// still mix), and CBC proves optimality only on graphs of a few dozen ops;
// larger ones report the gap to CBC's best bound. `min` budgets use the
// smallest peak the incumbents reach.
//
//===----------------------------------------------------------------------===//

#include "IlpModel.h"
#include "SolverSupport.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <string>

using namespace remat;

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point secondsFromNow(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds));
}

/// One solve: the incumbents, the MIP phases against them, and the note
/// that says what was proven. Everything, the heuristics and the MIP
/// included, happens before the deadline.
class IlpRun {
public:
  IlpRun(const Program &program, const SolverOptions &options)
      : program(program), options(options), effective(options),
        deadline(secondsFromNow(options.timeLimitSeconds)),
        notSaveable(notSaveableValues(program)),
        unsaveable(unsaveableByPolicy(program)),
        anyPolicy(llvm::is_contained(unsaveable, true)) {}

  SolverResult run() {
    solveIncumbents();
    if (bestIndex >= 0 && best.extraCost == 0) {
      best.optimal = true;
      best.gap = 0;
      return finish(std::move(best));
    }
    budget = effective.budgetBytes ? *effective.budgetBytes : UINT64_MAX;
    cutoff = bestIndex >= 0 ? double(best.extraCost) : INFINITY;

    // First the fixed order (every op at its own place, as in Checkmate):
    // without moves the LP bound is tight and CBC proves Checkmate-size
    // graphs in seconds. Moves, which reorder, are recovered by materialize
    // (an original all of whose readers read copies is dropped) and only
    // lower the FLOPs. Then, if that did not prove, the MIP with moves.
    // Conservative MIPs restrict the plans: their bounds bound nothing.
    double ignoredBound;
    bool fixedOrderProven =
        secondsLeft() > 0.05 &&
        solvePhase(false, false, phaseEnd(0.6), fixedOrderBound);
    if (tooLarge) {
      best.note = "ilp: graph too large for the MIP (" +
                  std::to_string(program.ops.size()) +
                  " ops); returning the best heuristic plan";
      return finish(std::move(best));
    }
    if (!fixedOrderProven && secondsLeft() > 0.05)
      solvePhase(false, true, phaseEnd(0.5), ignoredBound);
    bool relaxedOptimal = false;
    if (!fixedOrderProven && secondsLeft() > 0.05) {
      relaxedOptimal = solvePhase(true, false, deadline, lowerBound);
      if (!relaxedOptimal && secondsLeft() > 0.05)
        solvePhase(true, true, deadline, ignoredBound);
    }
    if (bestIndex < 0) {
      best.note = "ilp: no plan found that meets the budget";
      return finish(std::move(best));
    }
    claimOptimality(fixedOrderProven, relaxedOptimal);
    return finish(std::move(best));
  }

private:
  double secondsLeft() const {
    return std::chrono::duration<double>(deadline - Clock::now()).count();
  }

  Clock::time_point phaseEnd(double share) const {
    return secondsFromNow(share * secondsLeft());
  }

  /// Incumbents: greedy, chain (its DP on chains) and the baselines. The
  /// best feasible one is what the MIP has to beat; with `min`, their
  /// smallest peak becomes the budget. The heuristics get a third of the
  /// time; each later one only what the earlier ones left of it.
  void solveIncumbents() {
    SolverOptions heuristic = options;
    Clock::time_point heuristicDeadline =
        secondsFromNow(options.timeLimitSeconds / 3);
    std::vector<std::unique_ptr<Solver>> heuristics;
    heuristics.push_back(createSolver("greedy"));
    if (program.ops.size() <= 5000) {
      heuristics.push_back(createSolver("chain"));
      heuristics.push_back(createSolver("xla"));
      heuristics.push_back(createSolver("sqrt-n"));
      heuristics.push_back(createSolver("checkpoint-all"));
    }
    for (auto &solver : heuristics) {
      double left =
          std::chrono::duration<double>(heuristicDeadline - Clock::now())
              .count();
      if (!incumbents.empty() && left <= 0)
        break;
      heuristic.timeLimitSeconds = std::max(0.05, left);
      incumbents.push_back(solver->solve(program, heuristic));
    }
    if (options.minimize) {
      uint64_t least = UINT64_MAX;
      for (const SolverResult &r : incumbents)
        least = std::min(least, r.peakBytes);
      effective.minimize = false;
      effective.budgetBytes = least;
    }
    for (size_t k = 0; k < incumbents.size(); ++k) {
      SolverResult &r = incumbents[k];
      r = evaluatePlan(program, std::move(r.plan), effective);
      if (fits(r) &&
          (bestIndex < 0 || r.extraCost < incumbents[bestIndex].extraCost))
        bestIndex = static_cast<int>(k);
    }
    best = bestIndex >= 0 ? incumbents[bestIndex] : incumbents[0];
  }

  /// Residuals a policy marks not saveable must not be live across the
  /// boundary (the baselines may not know about policies). A chain may also
  /// read a value of a policy that only the forward part read before (the
  /// MIP's plan recomputing a saveable value from a not-saveable one): the
  /// backward part may read no such value either, only copies of it.
  bool respectsPolicy(const Plan &plan) const {
    if (!anyPolicy)
      return true;
    Program rewritten = materialize(program, plan);
    MemoryProfile profile =
        computeMemoryProfile(rewritten, effective.countInputs);
    for (ValueId v = 0; v < program.values.size(); ++v)
      if (notSaveable[v] && profile.ranges[v].end != kNone &&
          profile.ranges[v].end >= rewritten.backwardBegin)
        return false;
    for (OpId op = rewritten.backwardBegin; op < rewritten.ops.size(); ++op)
      for (ValueId operand : rewritten.ops[op].operands)
        if (operand < program.values.size() && unsaveable[operand])
          return false;
    return true;
  }

  bool fits(const SolverResult &r) const {
    return (!effective.budgetBytes || r.peakBytes <= *effective.budgetBytes) &&
           respectsPolicy(r.plan);
  }

  /// One MIP run; returns whether its relaxed form proved its answer (the
  /// incumbent or the plan found is optimal in the MIP's space), and sets
  /// `bound` to its lower bound (-1 when it has none).
  bool solvePhase(bool allowMoves, bool conservative,
                  Clock::time_point phaseDeadline, double &bound) {
    bound = -1;
    IlpModel model(program, effective, budget, allowMoves);
    if (!model.build(conservative)) {
      tooLarge = true;
      return false;
    }
    if (bestIndex >= 0)
      model.setStart(best.plan);
    bool found = model.solve(cutoff, phaseDeadline);
    timedOut |= model.timedOut;
    bool proven = false;
    if (!conservative && !model.timedOut) {
      // Proven: nothing below the cutoff but the solution (if any).
      proven = model.provenOptimal || model.provenInfeasible;
      // A bound below zero says nothing (FLOPs are not negative).
      bound = model.provenInfeasible || (proven && !found)
                  ? cutoff
                  : std::max(0.0, model.bound);
    }
    if (found) {
      SolverResult candidate =
          evaluatePlan(program, model.extractPlan(), effective);
      bool valid = verifyPlanShape(program, candidate.plan).empty();
      bool fitsNow = valid && fits(candidate);
      if (fitsNow &&
          (bestIndex < 0 || candidate.extraCost < best.extraCost)) {
        best = std::move(candidate);
        bestIndex = 0;
        cutoff = double(best.extraCost);
      }
      // The relaxation's optimum is only the optimum if its plan fits.
      if (!conservative && !fitsNow)
        proven = false;
    }
    return proven;
  }

  /// What the phases proved about the best plan: optimal, optimal in the
  /// fixed order, or a gap to the tighter bound, which the note names.
  void claimOptimality(bool fixedOrderProven, bool relaxedOptimal) {
    if (timedOut && lowerBound < 0 && fixedOrderBound < 0)
      best.note = "ilp: CBC stopped at the time limit before it bounded the "
                  "MIP; returning the best plan found, no bound";
    double cost = double(best.extraCost);
    auto gapTo = [&](double b) {
      return cost <= 0 ? 0 : std::max(0.0, (cost - b) / cost);
    };
    if ((lowerBound >= 0 || fixedOrderBound >= 0) &&
        !IlpModel::boundIsValid(program)) {
      best.note = "ilp: the MIP does not model ops with several buffers or "
                  "outputs read later exactly; optimality not claimed";
    } else if (relaxedOptimal ||
               (lowerBound >= 0 && gapTo(lowerBound) < 1e-6)) {
      best.gap = 0;
      best.optimal = true;
      best.note = "ilp: optimal, proven by CBC";
    } else if (fixedOrderProven ||
               (fixedOrderBound >= 0 && gapTo(fixedOrderBound) < 1e-6)) {
      best.gap = 0;
      best.optimal = true;
      best.note = "ilp: optimal among plans that keep every op at its own "
                  "place (the fixed order, as in Checkmate), proven by CBC";
    } else if (fixedOrderBound >= 0 || lowerBound >= 0) {
      // The fixed-order bound is the tighter one, and only a bound for
      // plans in the fixed order; the note says which bound the gap is to.
      bool fixedOrder = fixedOrderBound >= 0;
      best.gap = gapTo(fixedOrder ? fixedOrderBound : lowerBound);
      best.note = fixedOrder ? "ilp: time limit reached; gap to the bound "
                               "among plans that keep every op at its own "
                               "place"
                             : "ilp: time limit reached; gap to CBC's bound";
    }
  }

  /// Zero-cost moves the MIP or an incumbent made for nothing go; the FLOPs
  /// do not change, so neither does the optimality claim. Pruning may use
  /// half of the margin the limit promises (max(10%, 1 s)) when CBC used
  /// all of its time.
  SolverResult finish(SolverResult result) const {
    Clock::time_point pruneDeadline =
        deadline + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(
                           std::max(0.5, 0.05 * options.timeLimitSeconds)));
    bool optimal = result.optimal;
    double gap = result.gap;
    std::string note = result.note;
    SolverResult out =
        pruneEvaluated(program, std::move(result), options, pruneDeadline);
    out.optimal = optimal;
    out.gap = gap;
    out.note = std::move(note);
    return out;
  }

  const Program &program;
  const SolverOptions &options;
  /// The options the MIP and the fit check use: with `min`, the smallest
  /// incumbent peak as the budget.
  SolverOptions effective;
  Clock::time_point deadline;
  std::vector<bool> notSaveable, unsaveable;
  bool anyPolicy;

  std::vector<SolverResult> incumbents;
  SolverResult best;
  int bestIndex = -1;
  uint64_t budget = UINT64_MAX;
  double cutoff = INFINITY;
  double fixedOrderBound = -1, lowerBound = -1;
  bool timedOut = false, tooLarge = false;
};

class IlpSolver : public Solver {
public:
  std::string name() const override { return "ilp"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override {
    return IlpRun(program, options).run();
  }
};

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfIlpSolver() {
  return {{"ilp", makeSolver<IlpSolver>}};
}
} // namespace remat
