//===- ReachSearch.cpp - Local search towards a budget greedy misses ------===//
//
// Greedy judges a recomputation by what it frees at the current peak. On
// graphs where memory stays high over a long stretch (random layered DAGs
// without a backward part: every value is read again soon), each single
// step that lowers the peak raises memory a little further on, and greedy
// stops short of budgets that are reachable. This search judges a move by
// the *excess area* instead: the sum over the ops of the materialized
// program of (live bytes - budget), where positive. A move that lowers the
// excess anywhere is progress even when the peak stays, and the search ends
// at zero excess: the budget holds.
//
// A move recomputes one value live across an op over the budget, right
// before its next reader after that op. Its chain goes back to operands
// whose current version is live at that point (re-executing the others, up
// to kMaxChainOps, or keeping them alive when they cannot be recomputed).
// Every move is evaluated exactly (shared copies, materialize, profile), so
// what the search accepts is what the plan does. Plans found are pruned of
// needless recomputations before they are returned.
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

using namespace remat;

namespace {

/// Longest chain a move re-executes.
constexpr unsigned kMaxChainOps = 64;
/// Chains tried per move: how many producer levels are re-executed rather
/// than kept alive.
constexpr unsigned kChainDepths[] = {0, 1, 2, 4, kMaxChainOps};
/// Ops over the budget whose live values are tried first, the worst ones;
/// all of them when none of those moves lowers the excess.
constexpr unsigned kPositionsPerStep = 3;
/// Steps that do not lower the excess, taken when no step does.
constexpr unsigned kMaxSidewaysSteps = 8;
/// Moves evaluated exactly before the best one found is taken; four times
/// as many again while none lowers the excess.
constexpr size_t kFirstBatch = 32;

struct Evaluated {
  Plan plan;
  Program program;
  MaterializeMap map;
  MemoryProfile profile;
  uint64_t excess = 0;
  uint64_t cost = 0;
  /// Per original value, its versions in the materialized program in
  /// program order (the original first when it stays).
  std::vector<std::vector<ValueId>> versions;
  /// Per materialized op, the original op it is (kNone for copies).
  std::vector<OpId> originalAt;
};

/// `plan` with `added` ahead of the recomputations already in front of the
/// same op, so that their chains read its copy.
Plan withRecompute(const Plan &plan, Recompute added) {
  Plan result = plan;
  auto at = llvm::find_if(result.recomputes, [&](const Recompute &r) {
    return r.before == added.before;
  });
  result.recomputes.insert(at, std::move(added));
  return result;
}

class ReachSearch {
public:
  ReachSearch(const Program &program, const SolverOptions &options,
              uint64_t budget, std::chrono::steady_clock::time_point deadline,
              uint64_t &evaluationsLeft)
      : base(program), options(options), budget(budget), deadline(deadline),
        evaluationsLeft(evaluationsLeft) {}

  /// Returns the plan with the least excess found (zero: the budget holds).
  Plan run(Plan start);

private:
  Evaluated evaluate(Plan plan) const;
  bool better(const Evaluated &a, const Evaluated &b) const {
    return a.excess != b.excess ? a.excess < b.excess : a.cost < b.cost;
  }
  /// Which of two moves from `state` to take: among moves that lower the
  /// excess, the most excess removed per extra FLOP (as greedy weighs bytes
  /// per FLOP); otherwise the least excess.
  bool betterMove(const Evaluated &a, const Evaluated &b,
                  const Evaluated &state) const {
    bool aLowers = a.excess < state.excess, bLowers = b.excess < state.excess;
    if (aLowers != bLowers)
      return aLowers;
    if (!aLowers)
      return better(a, b);
    auto rate = [&](const Evaluated &e) {
      double removed = double(state.excess - e.excess);
      double extra = std::max(0.0, double(e.cost) - double(state.cost));
      return removed / (extra + 1.0);
    };
    double ra = rate(a), rb = rate(b);
    return ra != rb ? ra > rb : better(a, b);
  }
  struct Move {
    Recompute recompute;
    /// The excess the freed stretch covers (the chain's own bytes aside):
    /// moves are evaluated exactly in this order.
    uint64_t gain = 0;
  };
  /// The moves that recompute `live` after `position`, one per chain depth
  /// of kChainDepths (in that order) that makes a move: the reader, the
  /// insertion point and the gain do not depend on the depth.
  llvm::SmallVector<Move, 5> movesFor(const Evaluated &state, OpId position,
                                      ValueId live) const;
  /// Evaluates `moves` best estimate first, in growing batches, and returns
  /// the best state of the first batch that lowers the excess, else the
  /// best of all (which does not).
  std::optional<Evaluated> bestMove(const Evaluated &state,
                                    std::vector<Move> moves) const;
  /// Out of evaluations (the effort limit, which keeps results the same
  /// from run to run) or out of time (the user's limit).
  bool timeUp() const {
    return evaluationsLeft == 0 || std::chrono::steady_clock::now() > deadline;
  }

  const Program &base;
  const SolverOptions &options;
  uint64_t budget;
  std::chrono::steady_clock::time_point deadline;
  uint64_t &evaluationsLeft;
};

Evaluated ReachSearch::evaluate(Plan plan) const {
  if (evaluationsLeft > 0)
    --evaluationsLeft;
  Evaluated e;
  e.plan = shareRecomputedCopies(base, std::move(plan));
  e.program = materialize(base, e.plan, e.map);
  e.profile = computeMemoryProfile(e.program, options.countInputs);
  for (uint64_t live : e.profile.liveBytes)
    e.excess += live > budget ? live - budget : 0;
  for (const OpInfo &op : e.program.ops)
    e.cost = llvm::SaturatingAdd(e.cost, op.cost);
  e.versions.assign(base.values.size(), {});
  for (ValueId input : e.program.inputs)
    e.versions[input].push_back(input);
  for (const OpInfo &op : e.program.ops)
    for (ValueId v : op.results) {
      ValueId origin = e.program.values[v].origin;
      e.versions[origin == kNone ? v : origin].push_back(v);
    }
  e.originalAt.assign(e.program.ops.size(), kNone);
  for (OpId op = 0; op < e.map.opIndex.size(); ++op)
    if (e.map.opIndex[op] != kNone)
      e.originalAt[e.map.opIndex[op]] = op;
  return e;
}

llvm::SmallVector<ReachSearch::Move, 5>
ReachSearch::movesFor(const Evaluated &state, OpId position,
                      ValueId live) const {
  const Program &program = state.program;
  const ValueInfo &info = program.values[live];
  ValueId origin = info.origin == kNone ? live : info.origin;
  OpId def = base.values[origin].def;
  if (!base.canRecompute(def) ||
      base.values[origin].bytes < options.minRematBytes)
    return {};

  // The next reader after `position`, as an original op: an original op
  // itself, or the op in front of which the copy that reads it is made.
  size_t numOps = program.ops.size();
  const std::vector<OpId> &originalAt = state.originalAt;
  OpId reader = kNone;
  for (OpId p = position + 1; p < numOps && reader == kNone; ++p)
    if (llvm::is_contained(program.ops[p].operands, live))
      reader = p;
  if (reader == kNone)
    return {};
  // Copies sit in front of the next original op that stays.
  OpId before = kNone;
  for (OpId p = reader; p < numOps && before == kNone; ++p)
    before = originalAt[p];
  if (before == kNone || before <= def)
    return {};
  OpId insertAt = state.map.opIndex[before];
  // The new copy goes ahead of the copies already in front of `before`.
  while (insertAt > 0 && state.map.isCopy[insertAt - 1])
    --insertAt;

  // The current version of an original value at the insertion point, and
  // whether its buffer is still live there.
  auto liveVersionAt = [&](ValueId value) {
    ValueId version = kNone;
    for (ValueId v : state.versions[value]) {
      OpId at = program.values[v].def;
      if (at != kNone && at >= insertAt)
        break;
      version = v;
    }
    if (version == kNone)
      return false;
    ValueId root = program.rootOf(version);
    if (program.values[root].def == kNone)
      return true;
    const LiveRange &range = state.profile.ranges[root];
    return range.end != kNone && range.end >= insertAt;
  };

  // `live` dies at its last reader up to `position` (or where it is made)
  // instead of at `insertAt`.
  const LiveRange &range = state.profile.ranges[live];
  OpId from = range.begin == kNone ? 0 : range.begin;
  for (OpId p = position; p > from; --p)
    if (llvm::is_contained(program.ops[p].operands, live)) {
      from = p;
      break;
    }
  uint64_t gain = 0;
  for (OpId p = from + 1; p < insertAt; ++p) {
    uint64_t bytes = state.profile.liveBytes[p];
    gain += std::min<uint64_t>(info.bytes, bytes > budget ? bytes - budget : 0);
  }

  llvm::SmallVector<Move, 5> moves;
  for (unsigned depth : kChainDepths) {
    // Breadth-first back from the value, `depth` levels at most: operands
    // whose producers lie deeper are kept alive instead.
    std::vector<OpId> chain{def};
    std::vector<unsigned> level{0};
    for (size_t i = 0; i < chain.size(); ++i)
      for (ValueId operand : base.ops[chain[i]].operands) {
        OpId producer = base.values[operand].def;
        if (producer == kNone || llvm::is_contained(chain, producer) ||
            liveVersionAt(operand))
          continue;
        const OpInfo &op = base.ops[producer];
        if (op.canRecompute() && level[i] < depth &&
            chain.size() < kMaxChainOps) {
          chain.push_back(producer);
          level.push_back(level[i] + 1);
        }
      }
    llvm::sort(chain);
    moves.push_back(Move{Recompute{origin, before, std::move(chain)}, gain});
  }
  return moves;
}

std::optional<Evaluated>
ReachSearch::bestMove(const Evaluated &state, std::vector<Move> moves) const {
  // Best estimate first; ties in the order the moves were found.
  std::vector<size_t> rank(moves.size());
  std::iota(rank.begin(), rank.end(), 0);
  llvm::sort(rank, [&](size_t a, size_t b) {
    return moves[a].gain != moves[b].gain ? moves[a].gain > moves[b].gain
                                          : a < b;
  });
  std::optional<Evaluated> best;
  size_t batch = kFirstBatch;
  for (size_t i = 0; i < rank.size() && !timeUp(); ++i) {
    if (i == batch) {
      if (best && better(*best, state))
        break;
      batch *= 4;
    }
    Plan plan = withRecompute(state.plan, moves[rank[i]].recompute);
    if (!verifyPlanShape(base, plan).empty())
      continue;
    Evaluated candidate = evaluate(std::move(plan));
    if (!best || betterMove(candidate, *best, state))
      best = std::move(candidate);
  }
  return best;
}

Plan ReachSearch::run(Plan start) {
  Evaluated state = evaluate(std::move(start));
  Evaluated found = state;
  unsigned sideways = 0;
  while (state.excess > 0 && !timeUp()) {
    // The ops furthest over the budget, worst first.
    std::vector<OpId> over;
    for (OpId p = 0; p < state.profile.liveBytes.size(); ++p)
      if (state.profile.liveBytes[p] > budget)
        over.push_back(p);
    llvm::sort(over, [&](OpId a, OpId b) {
      return state.profile.liveBytes[a] > state.profile.liveBytes[b];
    });

    std::optional<Evaluated> best;
    std::set<std::tuple<ValueId, OpId, std::vector<OpId>>> tried;
    std::vector<Move> moves;
    for (size_t p = 0; p < over.size() && !timeUp(); ++p) {
      OpId position = over[p];
      for (ValueId live : state.profile.liveAt(state.program, position)) {
        const OpInfo &op = state.program.ops[position];
        if (state.program.values[live].isOutput ||
            state.program.values[live].def == position ||
            llvm::is_contained(op.operands, live))
          continue;
        for (Move &added : movesFor(state, position, live)) {
          // The same move comes up from several positions and depths.
          if (tried.insert({added.recompute.value, added.recompute.before,
                            added.recompute.chain})
                  .second)
            moves.push_back(std::move(added));
        }
      }
      // The worst few positions first, then all of them.
      if (p + 1 == kPositionsPerStep || p + 1 == over.size()) {
        std::optional<Evaluated> candidate = bestMove(state, std::move(moves));
        moves.clear();
        if (candidate && (!best || betterMove(*candidate, *best, state)))
          best = std::move(candidate);
        if (best && better(*best, state))
          break;
      }
    }
    if (!best)
      break;
    // A step that does not lower the excess may still lead somewhere a few
    // steps on: a bounded number are taken, and the best state kept.
    if (!better(*best, state) && ++sideways > kMaxSidewaysSteps)
      break;
    state = std::move(*best);
    if (better(state, found))
      found = state;
  }
  return std::move(found.plan);
}

} // namespace

std::optional<Plan>
remat::searchForBudget(const Program &program, Plan start,
                       const SolverOptions &options,
                       std::chrono::steady_clock::time_point deadline,
                       uint64_t &evaluationsLeft, PruneEffort prune) {
  // Checkpoint policies are greedy's to honour: the search's moves may keep
  // an operand alive across the boundary, and its restarts may drop the
  // recomputation that moved a not-saveable value into the backward part.
  if (!options.budgetBytes || options.minimize ||
      llvm::any_of(program.ops,
                   [](const OpInfo &op) { return op.mustRecompute; }))
    return std::nullopt;
  Plan found = ReachSearch(program, options, *options.budgetBytes, deadline,
                           evaluationsLeft)
                   .run(std::move(start));
  if (prune == PruneEffort::None)
    return found;
  return dropNeedlessRecomputes(
      program, std::move(found), options, deadline,
      prune == PruneEffort::Spent ? &evaluationsLeft : nullptr);
}
