//===- IlpModel.cpp - Minimum-FLOPs rematerialization as a MIP ------------===//
//
// A Checkmate-style formulation (Jain et al. 2020) over the original op
// order, solved with COIN-OR CBC. Stage t executes original op t, preceded by
// recomputations of earlier ops:
//
//   R[t][i]  op i < t is re-executed in stage t (R[t][t] = 1 implicitly)
//   S[t][i]  the result of op i is kept from stage t-1 into stage t
//
//   R[t][j] <= R[t][i] + S[t][i]      for every operand i of j (j <= t)
//   S[t+1][i] <= R[t][i] + S[t][i]    (S[i+1][i] is free: op i just ran)
//   S[t][i] = 1                       for outputs (live to the end)
//   S[backwardBegin][i] = 0           for residuals a policy marks not
//                                     saveable
//   minimize sum flops(i) * R[t][i] + sum flops(t) * (K[t] - 1)
//
// K[t] (op t runs at its own place) is 1 except for ops materialize may drop
// because every reader reads a recomputed copy (the op moved). Moves make the
// plain LP useless (its bound is 0 on every benchmark model: half an op in
// place, half moved, at no cost), so first runs are ordered in time with
// C[t][i] (op i has run by stage t; see addFirstComputations):
//
//   C[t-1][i] <= C[t][i] <= C[t-1][i] + R[t][i],   C[i][i] = K[i]
//   R[t][i] <= C[t][i],  S[t+1][i] <= C[t][i],  C[t][j] <= C[t][i] (i feeds j)
//
// Memory, two families of constraints (bytes(i): the buffers op i owns):
//
//   at op t:        sum_{i not in ops(t)} bytes(i) S[t+1][i]
//                   + sum_{i in ops(t)} bytes(i) + scratch(t) <= budget
//   entering stage: sum_i bytes(i) S[t][i] <= budget
//
// where ops(t) is op t and the ops defining its operands. With S tight (kept
// exactly while some later use reads that version) both are exactly what
// computeMemoryProfile counts at op t and at the first op of stage t, so every
// plan in our format satisfies them: the MIP is a relaxation, its bound a
// true lower bound on the extra FLOPs of any plan. What it does not see is
// the memory at recomputed ops in the middle of a stage; so the solver
// converts its solution into a Plan (extractPlan: single-op recomputations,
// each moved to its first consumer) and evaluates it exactly. If that peak is
// over the budget, it solves the MIP again with the conservative stage
// constraint
//
//   sum_i bytes(i) S[t][i] + sum_{i<t} bytes(i) R[t][i] + bytes(t)
//     + scratch(t) <= budget
//
// (everything kept or recomputed in a stage counted for the whole stage),
// whose solutions always fit (views aside, which the re-evaluation catches).
//
// Ops with several results are recomputed as a whole per needed result;
// minRematBytes is not applied to recomputations inside the MIP.
//
//===----------------------------------------------------------------------===//

#include "IlpModel.h"
#include "SolverSupport.h"

#include "remat/Support/DeadlineProcess.h"

#include "llvm/ADT/STLExtras.h"

#include <coin/Cbc_C_Interface.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

using namespace remat;

namespace {

/// Largest MIP the solver builds (columns).
constexpr size_t kMaxVariables = 400000;
/// CBC treats bounds beyond 1e30 as infinite.
constexpr double kInfinity = 1e30;

} // namespace

bool IlpModel::build(bool conservative) {
  measureOps();
  if (!findLastStages())
    return false;
  addStageVariables();
  addMoveVariables();
  addFirstComputations(lastStage);
  preferFewerRecomputations();
  forbidSavingAcrossBoundary();

  inputBytes = 0;
  if (options.countInputs)
    for (ValueId input : program.inputs)
      inputBytes += program.values[input].bytes;
  byteScale = 1.0 / std::max<double>(1, budget);
  bool bounded =
      options.budgetBytes || options.minimize || budget != UINT64_MAX;
  for (OpId t = 0; t < program.ops.size(); ++t) {
    addDependencyRows(t);
    addKeepingRows(t);
    if (!bounded)
      continue;
    addMemoryAtOp(t);
    if (!conservative)
      addMemoryInStage(t);
    addMemoryEnteringStage(t, conservative);
  }
  return true;
}

void IlpModel::measureOps() {
  size_t n = program.ops.size();
  bytes.assign(n, 0);
  deps.assign(n, {});
  uint64_t maxFlops = 1;
  for (OpId op = 0; op < n; ++op) {
    const OpInfo &info = program.ops[op];
    for (ValueId v : info.results)
      if (program.values[v].aliasOf == kNone)
        bytes[op] += program.values[v].bytes;
    for (ValueId operand : info.operands) {
      OpId def = program.values[operand].def;
      if (def != kNone && !llvm::is_contained(deps[op], def))
        deps[op].push_back(def);
    }
    maxFlops = std::max(maxFlops, info.flops);
  }
  // Keep objective coefficients in a range CBC handles well.
  flopScale = maxFlops > 1e6 ? 1e6 / double(maxFlops) : 1.0;
}

bool IlpModel::findLastStages() {
  // The last stage in which op i's result can be read: by an original op, or
  // by a recomputation of a consumer, which can happen up to that consumer's
  // own last stage.
  size_t n = program.ops.size();
  lastStage.assign(n, 0);
  output.assign(n, false);
  for (OpId op = n; op-- > 0;) {
    lastStage[op] = std::max(lastStage[op], op);
    for (ValueId v : program.ops[op].results)
      if (program.values[v].isOutput)
        output[op] = true;
    if (output[op])
      lastStage[op] = n - 1;
    for (OpId dep : deps[op])
      lastStage[dep] = std::max(lastStage[dep], lastStage[op]);
  }
  // Recomputable ops that stage t may need: ancestors of op t through
  // recomputable ops, or ops read later (kept from a recomputation here).
  size_t estimate = 0;
  for (OpId i = 0; i < n; ++i)
    estimate += 2 * (lastStage[i] - i);
  return estimate <= kMaxVariables;
}

void IlpModel::addStageVariables() {
  for (OpId i = 0; i < program.ops.size(); ++i) {
    const OpInfo &info = program.ops[i];
    bool recomputable = info.canRecompute();
    for (OpId t = i + 1; t <= lastStage[i]; ++t) {
      sIndex[{t, i}] = addVar(0, output[i] ? 1 : 0, 1);
      if (recomputable)
        rIndex[{t, i}] = addVar(double(info.flops) * flopScale, 0, 1);
    }
  }
}

void IlpModel::addMoveVariables() {
  // Ops that need not run where they stand: materialize drops an original
  // whose readers all read copies (the op moved rather than repeated), so
  // K[t] = 0 lets op t run only as recomputations; the objective counts
  // flops(t) K[t], minus the constant sum of those flops.
  size_t n = program.ops.size();
  std::vector<bool> read(n, false);
  for (OpId op = 0; op < n; ++op)
    for (OpId dep : deps[op])
      read[dep] = true;
  kIndex.assign(n, -1);
  objectiveOffset = 0;
  for (OpId t = 0; t < n; ++t) {
    const OpInfo &info = program.ops[t];
    if (!allowMoves || !info.canRecompute() || output[t] || !read[t] ||
        info.results.empty())
      continue;
    kIndex[t] = addVar(double(info.flops) * flopScale, 0, 1);
    objectiveOffset += double(info.flops);
  }
}

void IlpModel::preferFewerRecomputations() {
  // Tie-break: among plans with the same FLOPs, prefer fewer
  // recomputations (no gratuitous moves). The total stays below half a FLOP,
  // so it never changes which FLOP count is optimal.
  if (rIndex.empty())
    return;
  double epsilon = 0.4 * flopScale / double(rIndex.size() + 1);
  for (auto &entry : rIndex)
    objective[entry.second] += epsilon;
}

void IlpModel::forbidSavingAcrossBoundary() {
  if (program.backwardBegin == kNone)
    return;
  std::vector<bool> notSaveable = notSaveableValues(program);
  for (OpId i = 0; i < program.backwardBegin && i < program.ops.size(); ++i)
    for (ValueId v : program.ops[i].results)
      if (notSaveable[v]) {
        int s = sVar(program.backwardBegin, i);
        if (s >= 0)
          upper[s] = 0;
      }
}

void IlpModel::addAvailability(OpId t, OpId i, int rowCol, double rowCoef) {
  // rowCoef * x_rowCol <= R[t][i] + S[t][i], or 1 <= ... when rowCol < 0.
  int r = rVar(t, i), s = sVar(t, i);
  int row = rowCol >= 0 ? addRow(0, kInfinity) : addRow(1, kInfinity);
  if (rowCol >= 0)
    triplets.push_back({row, rowCol, -rowCoef});
  if (r >= 0)
    triplets.push_back({row, r, 1});
  if (s >= 0)
    triplets.push_back({row, s, 1});
}

void IlpModel::addDependencyRows(OpId t) {
  // Dependencies of op t and of every op that may be recomputed here.
  for (OpId i : deps[t])
    addAvailability(t, i, kIndex[t], 1);
  if (kIndex[t] >= 0)
    if (int s = sVar(t + 1, t); s >= 0) {
      int row = addRow(0, kInfinity);
      triplets.push_back({row, kIndex[t], 1});
      triplets.push_back({row, s, -1});
    }
  for (OpId j = 0; j < t; ++j) {
    int rj = rVar(t, j);
    if (rj < 0)
      continue;
    for (OpId i : deps[j])
      addAvailability(t, i, rj, 1);
  }
}

void IlpModel::addKeepingRows(OpId t) {
  for (OpId i = 0; i + 1 < t; ++i) {
    int s = sVar(t, i);
    if (s < 0)
      continue;
    int row = addRow(0, kInfinity);
    triplets.push_back({row, s, -1});
    if (int prev = sVar(t - 1, i); prev >= 0)
      triplets.push_back({row, prev, 1});
    if (int r = rVar(t - 1, i); r >= 0)
      triplets.push_back({row, r, 1});
  }
}

void IlpModel::addMemoryAtOp(OpId t) {
  size_t n = program.ops.size();
  double scale = byteScale;
  int k = kIndex[t];
  double fixed = inputBytes;
  if (k < 0) {
    fixed += program.ops[t].scratchBytes() + bytes[t];
    for (OpId i : deps[t])
      fixed += bytes[i];
  }
  int row = addRow(-kInfinity, (double(budget) - fixed) * scale);
  if (k >= 0) {
    // Op t's own bytes while it runs; each operand when op t runs or when
    // it is kept past it: L >= K[t], L >= S[t+1][i].
    triplets.push_back(
        {row, k, double(bytes[t] + program.ops[t].scratchBytes()) * scale});
    for (OpId i : deps[t]) {
      if (bytes[i] == 0)
        continue;
      int l = addVar(0, 0, 1);
      continuous.push_back(l);
      triplets.push_back({row, l, double(bytes[i]) * scale});
      int r1 = addRow(0, kInfinity);
      triplets.push_back({r1, l, 1});
      triplets.push_back({r1, k, -1});
      if (int s = sVar(t + 1, i); s >= 0) {
        int r2 = addRow(0, kInfinity);
        triplets.push_back({r2, l, 1});
        triplets.push_back({r2, s, -1});
      }
    }
  }
  for (OpId i = 0; i <= t && t + 1 < n; ++i) {
    if (i == t || llvm::is_contained(deps[t], i))
      continue;
    if (int s = sVar(t + 1, i); s >= 0 && bytes[i] > 0)
      triplets.push_back({row, s, double(bytes[i]) * scale});
  }
  if (t + 1 == n) {
    // Outputs that op t does not touch stay live.
    double outputs = 0;
    for (OpId i = 0; i < t; ++i)
      if (output[i] && !llvm::is_contained(deps[t], i))
        outputs += bytes[i];
    rowUpper[row] -= outputs * scale;
  }
}

void IlpModel::addMemoryInStage(OpId t) {
  // Memory at the recomputed ops of stage t (lower bounds, valid for
  // every plan): at recomputed op j, its operands and result, every value
  // kept into and out of the stage without being recomputed in it
  // (Q >= S[t][i] + S[t+1][i] - 1 - R[t][i]: the same version, live
  // throughout), and every copy made earlier in the stage that is kept out
  // of it (P >= R[t][i] + S[t+1][i] - 1). W and the prefix sums PP share
  // the sums between the ops of the stage.
  size_t n = program.ops.size();
  double scale = byteScale;
  int w = addVar(0, 0, kInfinity);
  continuous.push_back(w);
  int wRow = addRow(0, kInfinity);
  triplets.push_back({wRow, w, 1});
  std::vector<int> q(t, -1), pVar(t, -1);
  for (OpId i = 0; i < t; ++i) {
    if (bytes[i] == 0)
      continue;
    // Still needed after the stage's recomputations: kept out of the
    // stage, or read by op t itself.
    bool readByT = llvm::is_contained(deps[t], i);
    int sIn = sVar(t, i), sOut = t + 1 < n ? sVar(t + 1, i) : -1;
    int r = rVar(t, i);
    if (sOut < 0 && !readByT)
      continue;
    if (sIn >= 0) {
      q[i] = addVar(0, 0, 1);
      continuous.push_back(q[i]);
      int row = addRow(readByT ? 0 : -1, kInfinity);
      triplets.push_back({row, q[i], 1});
      triplets.push_back({row, sIn, -1});
      if (!readByT)
        triplets.push_back({row, sOut, -1});
      if (r >= 0)
        triplets.push_back({row, r, 1});
      triplets.push_back({wRow, q[i], -double(bytes[i]) * scale});
    }
    if (r >= 0) {
      pVar[i] = addVar(0, 0, 1);
      continuous.push_back(pVar[i]);
      int row = addRow(readByT ? 0 : -1, kInfinity);
      triplets.push_back({row, pVar[i], 1});
      triplets.push_back({row, r, -1});
      if (!readByT)
        triplets.push_back({row, sOut, -1});
    }
  }
  int prefix = -1; // PP: sum of b_i P[t][i] over i < j
  for (OpId j = 0; j < t; ++j) {
    int rj = rVar(t, j);
    if (rj >= 0) {
      double own = double(bytes[j] + program.ops[j].scratchBytes());
      for (OpId i : deps[j])
        own += bytes[i];
      int row = addRow(-kInfinity, double(budget) * scale - inputBytes * scale);
      triplets.push_back({row, rj, own * scale});
      triplets.push_back({row, w, 1});
      if (prefix >= 0)
        triplets.push_back({row, prefix, 1});
      for (OpId i : deps[j]) {
        if (i < t && q[i] >= 0)
          triplets.push_back({row, q[i], -double(bytes[i]) * scale});
        if (i < t && pVar[i] >= 0)
          triplets.push_back({row, pVar[i], -double(bytes[i]) * scale});
      }
      if (q[j] >= 0)
        triplets.push_back({row, q[j], -double(bytes[j]) * scale});
    }
    if (pVar[j] >= 0) {
      int next = addVar(0, 0, kInfinity);
      continuous.push_back(next);
      int row = addRow(0, kInfinity);
      triplets.push_back({row, next, 1});
      if (prefix >= 0)
        triplets.push_back({row, prefix, -1});
      triplets.push_back({row, pVar[j], -double(bytes[j]) * scale});
      prefix = next;
    }
  }
}

void IlpModel::addMemoryEnteringStage(OpId t, bool conservative) {
  // Entering stage t, or (conservative) the whole stage.
  double scale = byteScale;
  int k = kIndex[t];
  double stageFixed = inputBytes;
  double own = double(bytes[t] + program.ops[t].scratchBytes());
  if (conservative && k < 0)
    stageFixed += own;
  int row = addRow(-kInfinity, (double(budget) - stageFixed) * scale);
  if (conservative && k >= 0)
    triplets.push_back({row, k, own * scale});
  for (OpId i = 0; i < t; ++i) {
    if (bytes[i] == 0)
      continue;
    if (int s = sVar(t, i); s >= 0)
      triplets.push_back({row, s, double(bytes[i]) * scale});
    if (conservative)
      if (int r = rVar(t, i); r >= 0)
        triplets.push_back({row, r, double(bytes[i]) * scale});
  }
}

// Why moves need more than K: with K[i] = 1/2 and R[u][i] = 1/2 at i's
// backward reader u, half of op i runs in place and half is moved, at no
// cost; the operands i needs at u are "available" at level 1/2 from their own
// in-place halves, so every activation is kept at 1/2 and the LP halves the
// memory for free (its bound is 0). An op's first run is one event in time:
// C[t][i] = "op i has run in some stage <= t" is monotone, steps only where
// op i runs (C[t][i] - C[t-1][i] <= R[t][i]), and an op cannot run before
// its producers first did (C[t][j] <= C[t][i] for every operand producer i
// of j). In the example, the moved half of i at u needs its producer fully
// run by u, which its in-place half alone cannot give. All of these hold in
// every plan, so the MIP stays a relaxation.
//
// Ops that cannot move (outputs, unread ops, not recomputable) have run by
// their own stage; so has, by precedence, every op they read, by the first
// stage at which a consumer chain reaches such an op (`due`). C is the
// constant 1 from there on.
void IlpModel::addFirstComputations(const std::vector<OpId> &lastStage) {
  size_t n = program.ops.size();
  std::vector<std::vector<OpId>> readers(n);
  for (OpId j = 0; j < n; ++j)
    for (OpId i : deps[j])
      readers[i].push_back(j);
  std::vector<OpId> due(n);
  for (OpId i = n; i-- > 0;) {
    due[i] = kIndex[i] < 0 ? i : lastStage[i];
    for (OpId j : readers[i])
      due[i] = std::min(due[i], due[j]);
  }
  cIndex.assign(n, {});
  for (OpId i = 0; i < n; ++i) {
    if (kIndex[i] < 0)
      continue;
    cIndex[i].push_back(kIndex[i]);
    for (OpId t = i + 1; t < due[i]; ++t)
      cIndex[i].push_back(addVar(0, 0, 1));
  }
  auto row = [&](double lo, double hi,
                 std::initializer_list<std::pair<int, double>> terms) {
    int r = addRow(lo, hi);
    for (auto [col, coef] : terms)
      if (col >= 0)
        triplets.push_back({r, col, coef});
  };
  for (OpId i = 0; i < n; ++i) {
    if (kIndex[i] < 0)
      continue;
    for (OpId t = i + 1; t <= due[i]; ++t) {
      int c = cVar(t, i), prev = cVar(t - 1, i), r = rVar(t, i);
      // c is -1 (the constant 1) only at t == due[i]: move it to the bounds.
      double one = c < 0 ? 1 : 0;
      if (c >= 0)
        row(0, kInfinity, {{c, 1}, {prev, -1}});
      row(-kInfinity, -one, {{c, 1}, {prev, -1}, {r, -1}});
      if (c >= 0)
        row(0, kInfinity, {{c, 1}, {r, -1}});
      if (int s = sVar(t, i); s >= 0 && t - 1 > i)
        row(0, kInfinity, {{prev, 1}, {s, -1}});
    }
    for (OpId j : readers[i])
      for (OpId t = j; t < due[i]; ++t)
        if (int cj = cVar(t, j); cj >= 0)
          row(0, kInfinity, {{cVar(t, i), 1}, {cj, -1}});
  }
}

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

bool IlpModel::solve(double cutoffFlops,
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
    if (std::isfinite(cutoffFlops))
      Cbc_setCutoff(model, (cutoffFlops + objectiveOffset - 0.5) * flopScale);
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

/// The MIP's view of a plan: which ops each stage re-executes (R), which
/// results are live entering each stage (S: some version defined before the
/// stage and read, or returned, at or after it), which originals stay (K),
/// and by which stage each op has run (C). A plan that meets the budget
/// satisfies the relaxed MIP, so CBC starts from a feasible solution; CBC
/// checks the start itself and ignores it if it is not.
void IlpModel::setStart(const Plan &plan) {
  startColumns.clear();
  startValues.clear();
  size_t n = program.ops.size();
  MaterializeMap map;
  Program rewritten = materialize(program, plan, map);
  size_t m = rewritten.ops.size();

  // The stage of every op of the rewritten program, and where stages begin.
  std::vector<OpId> stageOf(m, kNone);
  for (OpId t = 0; t < n; ++t)
    if (map.opIndex[t] != kNone)
      stageOf[map.opIndex[t]] = t;
  std::vector<std::vector<OpId>> copyStages(n);
  for (size_t k = 0; k < plan.recomputes.size(); ++k) {
    const Recompute &recompute = plan.recomputes[k];
    OpId last = rewritten.values[map.copies[k]].def;
    for (size_t c = 0; c < recompute.chain.size(); ++c) {
      stageOf[last - (recompute.chain.size() - 1 - c)] = recompute.before;
      copyStages[recompute.chain[c]].push_back(recompute.before);
    }
  }
  std::vector<OpId> stageBegin(n + 1, m);
  for (OpId p = m; p-- > 0;)
    stageBegin[stageOf[p]] = p;
  for (OpId t = n; t-- > 0;)
    stageBegin[t] = std::min(stageBegin[t], stageBegin[t + 1]);

  // Live span of every value of the rewritten program, by original op.
  std::vector<OpId> lastUse(rewritten.values.size(), 0);
  for (OpId p = 0; p < m; ++p)
    for (ValueId operand : rewritten.ops[p].operands)
      lastUse[operand] = std::max(lastUse[operand], p);
  for (ValueId v = 0; v < rewritten.values.size(); ++v)
    if (rewritten.values[v].isOutput)
      lastUse[v] = m;
  // Every version of op i's results: where it is made, where it dies.
  std::vector<std::vector<std::pair<OpId, OpId>>> versions(n);
  for (OpId p = 0; p < m; ++p) {
    OpId last = 0;
    for (ValueId v : rewritten.ops[p].results)
      last = std::max(last, lastUse[v]);
    versions[rewritten.ops[p].origin].push_back({p, last});
  }
  auto keptInto = [&](OpId t, OpId i) {
    return llvm::any_of(versions[i], [&](std::pair<OpId, OpId> version) {
      return version.first < stageBegin[t] && version.second >= stageBegin[t];
    });
  };
  auto set = [&](int column, bool value) {
    if (column < 0)
      return;
    startColumns.push_back(column);
    startValues.push_back(value ? 1.0 : 0.0);
  };
  for (auto [key, column] : rIndex)
    set(column, llvm::is_contained(copyStages[key.second], key.first));
  for (auto [key, column] : sIndex)
    set(column, keptInto(key.first, key.second));
  for (OpId i = 0; i < n; ++i) {
    bool stays = map.opIndex[i] != kNone;
    set(kIndex[i], stays);
    OpId firstRun = stays ? i : kNone;
    for (OpId stage : copyStages[i])
      firstRun = std::min(firstRun, stage);
    for (size_t d = 0; d < cIndex[i].size(); ++d)
      if (cIndex[i][d] != kIndex[i])
        set(cIndex[i][d], firstRun != kNone && firstRun <= i + d);
  }
}

Plan IlpModel::extractPlan() const {
  size_t n = program.ops.size();
  // Stages in which each op is recomputed.
  std::vector<std::vector<OpId>> stages(n);
  for (auto [key, col] : rIndex)
    if (solution[col] > 0.5)
      stages[key.second].push_back(key.first);
  for (auto &list : stages)
    llvm::sort(list);

  // Final placement of each (op, copy index); computed for ops in decreasing
  // order so that consumers are placed first.
  std::vector<std::vector<OpId>> placed(n);
  std::vector<Recompute> recomputes;
  auto copyIndexAt = [&](OpId op, OpId stage) {
    // The copy of `op` an op in `stage` reads: the latest computed at or
    // before it (the one of the same stage counts: it runs first).
    const auto &list = stages[op];
    auto it = std::upper_bound(list.begin(), list.end(), stage);
    return static_cast<int>(it - list.begin()) - 1; // -1: the original
  };
  for (OpId i = n; i-- > 0;) {
    const auto &list = stages[i];
    placed[i].assign(list.size(), kNone);
    if (list.empty())
      continue;
    for (ValueId v : program.ops[i].results) {
      std::vector<OpId> first(list.size(), kNone);
      // Original readers.
      for (OpId j = i + 1; j < n; ++j) {
        if (!llvm::is_contained(program.ops[j].operands, v))
          continue;
        int k = copyIndexAt(i, j);
        if (k >= 0)
          first[k] = std::min(first[k], j);
      }
      // Recomputed readers: in ILP stage s, they read the copy current in s;
      // they run where they were placed.
      for (OpId j = i + 1; j < n; ++j) {
        if (stages[j].empty() ||
            !llvm::is_contained(program.ops[j].operands, v))
          continue;
        for (size_t c = 0; c < stages[j].size(); ++c) {
          if (placed[j][c] == kNone)
            continue;
          int k = copyIndexAt(i, stages[j][c]);
          if (k >= 0)
            first[k] = std::min(first[k], placed[j][c]);
        }
      }
      for (size_t k = 0; k < list.size(); ++k) {
        if (first[k] == kNone)
          continue;
        placed[i][k] = std::min(placed[i][k], first[k]);
        recomputes.push_back({v, first[k], {i}});
      }
    }
  }
  llvm::sort(recomputes, [&](const Recompute &a, const Recompute &b) {
    if (a.before != b.before)
      return a.before < b.before;
    if (a.chain[0] != b.chain[0])
      return a.chain[0] < b.chain[0];
    return a.value < b.value;
  });
  Plan plan;
  plan.recomputes = std::move(recomputes);
  return plan;
}

/// Whether the MIP is a relaxation of every plan. It keeps ops, not values,
/// and pins outputs to the end: an op with two buffers may have one kept by a
/// plan while the other dies, which the MIP charges in full, and an output
/// that a later op reads may be recomputed there, which frees the original
/// while the MIP keeps it. On such programs the MIP still finds plans, but
/// its bound is not a bound, so the solver claims neither optimality nor a
/// gap (none of the generated models has either).
bool IlpModel::boundIsValid(const Program &program) {
  std::vector<bool> read(program.values.size(), false);
  for (const OpInfo &op : program.ops)
    for (ValueId operand : op.operands)
      read[operand] = true;
  for (const OpInfo &op : program.ops) {
    unsigned buffers = llvm::count_if(op.results, [&](ValueId v) {
      return program.values[v].aliasOf == kNone && program.values[v].bytes > 0;
    });
    if (buffers > 1)
      return false;
    bool movableOutput = llvm::any_of(op.results, [&](ValueId v) {
      return program.values[v].isOutput && read[v];
    });
    if (movableOutput && op.canRecompute())
      return false;
  }
  return true;
}
