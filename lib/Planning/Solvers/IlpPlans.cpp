//===- IlpPlans.cpp - Between the rematerialization MIP and plans ---------===//
//
// A plan as a MIP start (setStart), the MIP's solution as a plan
// (extractPlan), and whether the MIP's bound is a bound on the program at
// hand (boundIsValid). The formulation: IlpModel.cpp.
//
//===----------------------------------------------------------------------===//

#include "IlpModel.h"
#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace remat;

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
