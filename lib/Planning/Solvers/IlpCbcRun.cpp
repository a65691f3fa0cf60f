//===- IlpCbcRun.cpp - Solving the rematerialization MIP with CBC ---------===//
//
// The formulation (IlpModel.cpp) solved by COIN-OR CBC in a child process
// under the solver's deadline (DeadlineProcess.h), which reports its answer
// back as bytes: CBC cannot be interrupted from outside, and a child that
// overruns is killed without taking the planner down.
//
//===----------------------------------------------------------------------===//

#include "IlpModel.h"
#include "SolverSupport.h"

#include "remat/Support/DeadlineProcess.h"

#include <coin/Cbc_C_Interface.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

using namespace remat;

namespace {

/// What a CBC run in the child process reports back to the solver.
struct CbcAnswer {
  bool provenOptimal = false;
  bool provenInfeasible = false;
  bool found = false;
  double bound = 0;
  std::vector<double> solution;

  std::string serialize() const {
    std::string bytes;
    auto put = [&](const void *data, size_t size) {
      bytes.append(static_cast<const char *>(data), size);
    };
    char flags[3] = {provenOptimal, provenInfeasible, found};
    put(flags, sizeof(flags));
    put(&bound, sizeof(bound));
    uint64_t count = solution.size();
    put(&count, sizeof(count));
    put(solution.data(), count * sizeof(double));
    return bytes;
  }
  /// False when `bytes` is not what serialize() wrote.
  bool deserialize(const std::string &bytes) {
    size_t at = 0;
    auto get = [&](void *data, size_t size) {
      if (bytes.size() - at < size)
        return false;
      // An empty solution's data() may be null, which memcpy must not get.
      if (size == 0)
        return true;
      std::memcpy(data, bytes.data() + at, size);
      at += size;
      return true;
    };
    char flags[3];
    uint64_t count = 0;
    if (!get(flags, sizeof(flags)) || !get(&bound, sizeof(bound)) ||
        !get(&count, sizeof(count)) ||
        count > (bytes.size() - at) / sizeof(double))
      return false;
    provenOptimal = flags[0];
    provenInfeasible = flags[1];
    found = flags[2];
    solution.resize(count);
    return get(solution.data(), count * sizeof(double)) && at == bytes.size();
  }
};

} // namespace

bool IlpModel::solve(double cutoffCost,
                     std::chrono::steady_clock::time_point deadline) {
  timedOut = false;
  int numCols = static_cast<int>(lower.size());
  int numRows = static_cast<int>(rowLower.size());
  // Column-major (a counting sort by column).
  std::vector<CoinBigIndex> starts(numCols + 1, 0);
  for (const Triplet &t : triplets)
    ++starts[t.col + 1];
  for (int c = 0; c < numCols; ++c)
    starts[c + 1] += starts[c];
  std::vector<CoinBigIndex> fill(starts.begin(), starts.end() - 1);
  std::vector<int> rows(triplets.size());
  std::vector<double> values(triplets.size());
  for (const Triplet &t : triplets) {
    rows[fill[t.col]] = t.row;
    values[fill[t.col]++] = t.value;
  }
  std::vector<bool> integer(numCols, true);
  for (int c : continuous)
    integer[c] = false;

  // CBC gets most of the time left and stops itself at its own limit; the
  // child process it runs in is killed at the deadline if CBC overruns
  // (its preprocessing and root LP do not look at the clock).
  double left = std::chrono::duration<double>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
  double seconds = std::max(0.1, 0.85 * left - 0.2);

  auto runCbc = [&]() -> std::string {
    CbcAnswer answer;
    Cbc_Model *model = Cbc_newModel();
    Cbc_loadProblem(model, numCols, numRows, starts.data(), rows.data(),
                    values.data(), lower.data(), upper.data(),
                    objective.data(), rowLower.data(), rowUpper.data());
    for (int c = 0; c < numCols; ++c)
      if (integer[c])
        Cbc_setInteger(model, c);
    // REMAT_CBC_LOG=1 shows CBC's own log.
    Cbc_setLogLevel(model, std::getenv("REMAT_CBC_LOG") ? 1 : 0);
    Cbc_setMaximumSeconds(model, seconds);
    Cbc_setParameter(model, "threads", "1");
    // The limit is the user's wall-clock time, not CBC's default CPU time.
    Cbc_setParameter(model, "timeMode", "elapsed");
    if (std::isfinite(cutoffCost))
      Cbc_setCutoff(model, (cutoffCost + objectiveOffset - 0.5) * flopScale);
    if (!startColumns.empty())
      Cbc_setMIPStartI(model, static_cast<int>(startColumns.size()),
                       startColumns.data(), startValues.data());
    auto started = std::chrono::steady_clock::now();
    Cbc_solve(model);
    double spent = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - started)
                       .count();

    // A search that ran to the end proved its answer: the solution it found
    // is optimal, or nothing beats the cutoff (CBC reports the latter as
    // infeasible, or not at all through Cbc_isProvenInfeasible). A stop at
    // the time limit in preprocessing or at the root does not always set the
    // limit flag, so a search that used up its time proves nothing.
    bool outOfTime = spent >= 0.95 * seconds;
    bool finished = !outOfTime && !Cbc_isSecondsLimitReached(model) &&
                    !Cbc_isNodeLimitReached(model) &&
                    !Cbc_isAbandoned(model) &&
                    !Cbc_isSolutionLimitReached(model);
    answer.provenOptimal =
        !outOfTime && (Cbc_isProvenOptimal(model) ||
                       (finished && Cbc_numberSavedSolutions(model) > 0));
    answer.provenInfeasible =
        !outOfTime && (Cbc_isProvenInfeasible(model) ||
                       (finished && Cbc_numberSavedSolutions(model) == 0));
    answer.bound = Cbc_getBestPossibleObjValue(model);
    bool found = Cbc_numberSavedSolutions(model) > 0 ||
                 (answer.provenOptimal && Cbc_getColSolution(model));
    if (found) {
      const double *best = Cbc_bestSolution(model);
      if (!best)
        best = Cbc_getColSolution(model);
      if (best) {
        answer.found = true;
        answer.solution.assign(best, best + numCols);
      }
    }
    Cbc_deleteModel(model);
    return answer.serialize();
  };

  DeadlineResult run = runBeforeDeadline(
      deadline, runCbc,
      options.isolateSearch ? DeadlineIsolation::ChildProcess
                            : DeadlineIsolation::ThisProcess);
  CbcAnswer answer;
  if (run.outcome != DeadlineOutcome::Finished ||
      !answer.deserialize(run.bytes) ||
      (answer.found && answer.solution.size() != size_t(numCols))) {
    // Killed at the deadline, or crashed: no plan, no proof, no bound.
    timedOut = run.outcome == DeadlineOutcome::TimedOut;
    provenOptimal = provenInfeasible = false;
    bound = -INFINITY;
    return false;
  }
  provenOptimal = answer.provenOptimal;
  provenInfeasible = answer.provenInfeasible;
  bound = answer.bound / flopScale - objectiveOffset;
  if (answer.found)
    solution = std::move(answer.solution);
  return answer.found;
}
