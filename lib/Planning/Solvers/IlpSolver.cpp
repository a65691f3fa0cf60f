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

class IlpSolver : public Solver {
public:
  std::string name() const override { return "ilp"; }
  SolverResult solve(const Program &program,
                     const SolverOptions &options) override;
};

SolverResult IlpSolver::solve(const Program &program,
                              const SolverOptions &options) {
  // Everything, the heuristics and the MIP included, happens before this.
  auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(options.timeLimitSeconds));
  auto secondsLeft = [&] {
    return std::chrono::duration<double>(deadline -
                                         std::chrono::steady_clock::now())
        .count();
  };

  // Incumbents: greedy, chain (its DP on chains) and the baselines. The
  // best feasible one is what the MIP has to beat; with `min`, their
  // smallest peak becomes the budget.
  // The heuristics get a third of the time; each later one only what the
  // earlier ones left of it.
  SolverOptions heuristic = options;
  auto heuristicDeadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(options.timeLimitSeconds / 3));
  std::vector<SolverResult> incumbents;
  std::vector<std::unique_ptr<Solver>> heuristics;
  heuristics.push_back(createSolver("greedy"));
  if (program.ops.size() <= 5000) {
    heuristics.push_back(createSolver("chain"));
    heuristics.push_back(createSolver("xla"));
    heuristics.push_back(createSolver("sqrt-n"));
    heuristics.push_back(createSolver("checkpoint-all"));
  }
  for (auto &solver : heuristics) {
    double left = std::chrono::duration<double>(
                      heuristicDeadline - std::chrono::steady_clock::now())
                      .count();
    if (!incumbents.empty() && left <= 0)
      break;
    heuristic.timeLimitSeconds = std::max(0.05, left);
    incumbents.push_back(solver->solve(program, heuristic));
  }
  SolverOptions effective = options;
  if (options.minimize) {
    uint64_t least = UINT64_MAX;
    for (const SolverResult &r : incumbents)
      least = std::min(least, r.peakBytes);
    effective.minimize = false;
    effective.budgetBytes = least;
  }
  // Residuals a policy marks not saveable must not be live across the
  // boundary (the baselines may not know about policies).
  // A chain may also read a value of a policy that only the forward part
  // read before (the MIP's plan recomputing a saveable value from a
  // not-saveable one): the backward part may read no such value either,
  // only copies of it.
  std::vector<bool> notSaveable = notSaveableValues(program);
  std::vector<bool> unsaveable = unsaveableByPolicy(program);
  bool anyPolicy = llvm::is_contained(unsaveable, true);
  auto respectsPolicy = [&](const Plan &plan) {
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
  };
  auto fits = [&](const SolverResult &r) {
    return (!effective.budgetBytes || r.peakBytes <= *effective.budgetBytes) &&
           respectsPolicy(r.plan);
  };
  auto reEvaluate = [&](Plan plan) {
    SolverResult r = evaluatePlan(program, std::move(plan), effective);
    return r;
  };
  int bestIndex = -1;
  for (size_t k = 0; k < incumbents.size(); ++k) {
    SolverResult &r = incumbents[k];
    r = reEvaluate(std::move(r.plan));
    if (fits(r) &&
        (bestIndex < 0 || r.extraFlops < incumbents[bestIndex].extraFlops))
      bestIndex = static_cast<int>(k);
  }
  // Pruning the MIP's plan may use half of the margin the limit promises
  // (max(10%, 1 s)) when CBC used all of its time.
  auto pruneDeadline =
      deadline + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(
                         std::max(0.5, 0.05 * options.timeLimitSeconds)));
  auto finish = [&](SolverResult result) {
    // Zero-cost moves the MIP or an incumbent made for nothing go; the
    // FLOPs do not change, so neither does the optimality claim.
    SolverResult out = evaluatePlan(
        program,
        dropNeedlessRecomputes(program, std::move(result.plan), options,
                               pruneDeadline),
        options);
    out.optimal = result.optimal;
    out.gap = result.gap;
    out.note = result.note;
    return out;
  };
  SolverResult best = bestIndex >= 0 ? incumbents[bestIndex] : incumbents[0];
  if (bestIndex >= 0 && best.extraFlops == 0) {
    best.optimal = true;
    best.gap = 0;
    return finish(std::move(best));
  }
  uint64_t budget = effective.budgetBytes ? *effective.budgetBytes : UINT64_MAX;
  double cutoff = bestIndex >= 0 ? double(best.extraFlops) : INFINITY;

  // One MIP run; returns whether its relaxed form proved its answer (the
  // incumbent or the plan found is optimal in the MIP's space), and sets
  // `bound` to its lower bound (-1 when it has none).
  bool timedOut = false, tooLarge = false;
  auto solvePhase = [&](bool allowMoves, bool conservative,
                        std::chrono::steady_clock::time_point phaseDeadline,
                        double &bound) -> bool {
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
      SolverResult candidate = reEvaluate(model.extractPlan());
      bool valid = verifyPlanShape(program, candidate.plan).empty();
      bool fitsNow = valid && fits(candidate);
      if (fitsNow &&
          (bestIndex < 0 || candidate.extraFlops < best.extraFlops)) {
        best = std::move(candidate);
        bestIndex = 0;
        cutoff = double(best.extraFlops);
      }
      // The relaxation's optimum is only the optimum if its plan fits.
      if (!conservative && !fitsNow)
        proven = false;
    }
    return proven;
  };
  auto phaseEnd = [&](double share) {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(share * secondsLeft()));
  };

  // First the fixed order (every op at its own place, as in Checkmate):
  // without moves the LP bound is tight and CBC proves Checkmate-size
  // graphs in seconds. Moves, which reorder, are recovered by materialize
  // (an original all of whose readers read copies is dropped) and only
  // lower the FLOPs. Then, if that did not prove, the MIP with moves.
  double fixedOrderBound = -1, lowerBound = -1;
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
  if (timedOut && lowerBound < 0 && fixedOrderBound < 0)
    best.note = "ilp: CBC stopped at the time limit before it bounded the "
                "MIP; returning the best plan found, no bound";
  double flops = double(best.extraFlops);
  auto gapTo = [&](double b) {
    return flops <= 0 ? 0 : std::max(0.0, (flops - b) / flops);
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
    // The fixed-order bound is the tighter one, and only a bound for plans
    // in the fixed order; the note says which bound the gap is to.
    bool fixedOrder = fixedOrderBound >= 0;
    best.gap = gapTo(fixedOrder ? fixedOrderBound : lowerBound);
    best.note = fixedOrder ? "ilp: time limit reached; gap to the bound "
                             "among plans that keep every op at its own "
                             "place"
                           : "ilp: time limit reached; gap to CBC's bound";
  }
  return finish(std::move(best));
}

} // namespace

namespace remat {
/// The solvers of this file, in the registry's order (SolverSupport.h).
std::vector<SolverRegistration> solversOfIlpSolver() {
  return {{"ilp", makeSolver<IlpSolver>}};
}
} // namespace remat
