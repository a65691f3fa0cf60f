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
//   minimize sum cost(i) * R[t][i] + sum cost(t) * (K[t] - 1)
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
// minRematBytes is not applied to recomputations inside the MIP. CBC runs it
// in IlpCbcRun.cpp; plans go in and come out in IlpPlans.cpp.
//
//===----------------------------------------------------------------------===//

#include "IlpModel.h"
#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
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
  uint64_t maxCost = 1;
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
    maxCost = std::max(maxCost, info.cost);
  }
  // Keep objective coefficients in a range CBC handles well.
  flopScale = maxCost > 1e6 ? 1e6 / double(maxCost) : 1.0;
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
        rIndex[{t, i}] = addVar(double(info.cost) * flopScale, 0, 1);
    }
  }
}

void IlpModel::addMoveVariables() {
  // Ops that need not run where they stand: materialize drops an original
  // whose readers all read copies (the op moved rather than repeated), so
  // K[t] = 0 lets op t run only as recomputations; the objective counts
  // cost(t) K[t], minus the constant sum of those cost.
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
    kIndex[t] = addVar(double(info.cost) * flopScale, 0, 1);
    objectiveOffset += double(info.cost);
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
  // Every value of a policy, not only the residuals the backward part
  // reads: a chain there must not read one that only the forward part read
  // either (it would be kept for the chain), but recompute it too.
  std::vector<bool> notSaveable = unsaveableByPolicy(program);
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
