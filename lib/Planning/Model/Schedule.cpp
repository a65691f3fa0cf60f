//===- Schedule.cpp - Memory-aware topological ordering -------------------===//
//
// List scheduling: among the ops whose dependencies have run, run the one
// that grows live memory the least (bytes it allocates minus bytes it frees),
// breaking ties by original position. Forward ops all run before backward
// ops (two phases), and `ordered` ops keep their relative order.
//
// Greedy choice runs an op whose result outweighs everything it reads as soon
// as it is the cheapest ready op: a fully connected layer's weight gradient
// (a small activation and adjoint in, the weight's bytes out) runs in front
// of the convolutions' backward, whose activation-sized adjoints it then
// sits through. A second pass sinks such ops, with the views of their
// results, to just before their first reader (the end of their phase when
// they only produce step results), keeping each move that lowers the live
// bytes summed over the program without raising the peak.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Schedule.h"

#include "remat/Planning/InPlaceWrites.h"
#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <numeric>
#include <queue>

using namespace remat;

namespace {

class ListScheduler {
public:
  explicit ListScheduler(const Program &program);

  std::vector<OpId> run();

private:
  /// Bytes allocated minus bytes freed if `op` ran now.
  int64_t growth(OpId op) const;
  unsigned phaseOf(OpId op) const {
    return program.backwardBegin != kNone && op < program.backwardBegin ? 0 : 1;
  }
  void push(OpId op) { ready[phaseOf(op)].push({growth(op), op}); }
  void schedule(OpId op, std::vector<OpId> &order);

  const Program &program;
  /// Per op: the distinct buffers it reads (or creates a view of).
  std::vector<llvm::SmallVector<ValueId, 4>> touched;
  /// Per buffer: the ops that touch it, and how many have not run yet.
  std::vector<llvm::SmallVector<OpId, 4>> users;
  std::vector<unsigned> usersLeft;
  /// Buffers that are never freed during the step (inputs, outputs).
  std::vector<bool> pinned;
  std::vector<llvm::SmallVector<OpId, 4>> successors;
  std::vector<unsigned> predecessorsLeft;
  std::vector<bool> done;
  /// Min-heaps of (growth, op), one per phase. Growth only decreases while
  /// scheduling, so stale entries are re-pushed and skipped when popped.
  using Entry = std::pair<int64_t, OpId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready[2];
};

ListScheduler::ListScheduler(const Program &program) : program(program) {
  size_t numOps = program.ops.size();
  size_t numValues = program.values.size();
  std::vector<ValueId> roots(numValues);
  for (ValueId v = 0; v < numValues; ++v)
    roots[v] = program.rootOf(v);

  pinned.assign(numValues, false);
  for (ValueId v = 0; v < numValues; ++v)
    if (program.values[v].isOutput || program.values[v].def == kNone)
      pinned[roots[v]] = true;

  touched.resize(numOps);
  users.resize(numValues);
  usersLeft.assign(numValues, 0);
  successors.resize(numOps);
  predecessorsLeft.assign(numOps, 0);
  done.assign(numOps, false);
  OpId lastOrdered = kNone;
  // The last op that touched each buffer: an op's operands are deduplicated
  // in O(1) each (a 100k-op random layered DAG's ops read 69 each).
  std::vector<OpId> touchedBy(numValues, kNone);
  for (OpId op = 0; op < numOps; ++op) {
    const OpInfo &info = program.ops[op];
    auto touch = [&](ValueId v) {
      ValueId root = roots[v];
      if (touchedBy[root] == op)
        return;
      touchedBy[root] = op;
      touched[op].push_back(root);
      users[root].push_back(op);
      ++usersLeft[root];
    };
    for (ValueId operand : info.operands) {
      touch(operand);
      OpId def = program.values[operand].def;
      if (def != kNone) {
        successors[def].push_back(op);
        ++predecessorsLeft[op];
      }
    }
    for (ValueId result : info.results)
      if (roots[result] != result)
        touch(result);
    if (info.ordered) {
      if (lastOrdered != kNone) {
        successors[lastOrdered].push_back(op);
        ++predecessorsLeft[op];
      }
      lastOrdered = op;
    }
  }
  // In-place writes order ops that share no value: a reader of a buffer's
  // old contents runs before the write that replaces them.
  for (auto [before, after] : inPlaceOrderEdges(program)) {
    successors[before].push_back(after);
    ++predecessorsLeft[after];
  }
  // The boundary marker opens the backward phase: no backward op runs before
  // it, even one that reads only forward values.
  if (OpId marker = program.backwardBegin; marker != kNone)
    for (OpId op = marker + 1; op < numOps; ++op) {
      successors[marker].push_back(op);
      ++predecessorsLeft[op];
    }
}

int64_t ListScheduler::growth(OpId op) const {
  int64_t bytes = 0;
  for (ValueId result : program.ops[op].results) {
    const ValueInfo &info = program.values[result];
    if (info.aliasOf != kNone)
      continue;
    bytes += static_cast<int64_t>(info.bytes);
    // A result nobody reads dies with its op.
    if (usersLeft[result] == 0 && !pinned[result])
      bytes -= static_cast<int64_t>(info.bytes);
  }
  for (ValueId root : touched[op])
    if (usersLeft[root] == 1 && !pinned[root])
      bytes -= static_cast<int64_t>(program.values[root].bytes);
  return bytes;
}

void ListScheduler::schedule(OpId op, std::vector<OpId> &order) {
  done[op] = true;
  order.push_back(op);
  for (ValueId root : touched[op]) {
    if (--usersLeft[root] != 1)
      continue;
    // The last user of this buffer now frees it: it became cheaper.
    for (OpId user : users[root])
      if (!done[user] && predecessorsLeft[user] == 0)
        push(user);
  }
  for (OpId next : successors[op])
    if (--predecessorsLeft[next] == 0)
      push(next);
}

std::vector<OpId> ListScheduler::run() {
  std::vector<OpId> order;
  order.reserve(program.ops.size());
  for (OpId op = 0; op < program.ops.size(); ++op)
    if (predecessorsLeft[op] == 0)
      push(op);
  for (auto &heap : ready) {
    while (!heap.empty()) {
      auto [bytes, op] = heap.top();
      heap.pop();
      if (done[op] || bytes != growth(op))
        continue;
      schedule(op, order);
    }
  }
  assert(order.size() == program.ops.size() &&
         "ops must be in a topological order with forward before backward");
  return order;
}

/// Bytes of the buffers `op` creates (views excluded).
uint64_t createdBytes(const Program &program, OpId op) {
  uint64_t bytes = 0;
  for (ValueId result : program.ops[op].results)
    if (program.values[result].aliasOf == kNone)
      bytes += program.values[result].bytes;
  return bytes;
}

/// Bytes of the distinct buffers `op` reads; `readBy` holds, per buffer,
/// the last op whose reads were counted (kNone at first): one call per op,
/// in any order, deduplicates in O(1) per operand.
uint64_t readBytes(const Program &program, OpId op,
                   std::vector<OpId> &readBy) {
  uint64_t bytes = 0;
  for (ValueId operand : program.ops[op].operands) {
    ValueId root = program.rootOf(operand);
    if (readBy[root] == op)
      continue;
    readBy[root] = op;
    bytes += program.values[root].bytes;
  }
  return bytes;
}

/// Whether every result of `op` is a view (a reshape).
bool createsOnlyViews(const Program &program, OpId op) {
  const OpInfo &info = program.ops[op];
  return !info.results.empty() &&
         llvm::all_of(info.results, [&](ValueId v) {
           return program.values[v].aliasOf != kNone;
         });
}

struct Footprint {
  uint64_t peak = 0;
  /// Live bytes summed over the ops.
  uint64_t area = 0;
};

Footprint footprintOf(const Program &program, const std::vector<OpId> &order,
                      bool countInputs) {
  MemoryProfile profile = computeMemoryProfile(program, order, countInputs);
  Footprint footprint{profile.peakBytes, 0};
  for (uint64_t live : profile.liveBytes)
    footprint.area = llvm::SaturatingAdd(footprint.area, live);
  return footprint;
}

std::vector<OpId> sinkGrowingOps(const Program &program,
                                 std::vector<OpId> order, bool countInputs) {
  size_t numOps = order.size();
  // Per buffer: the ops that read it or create a view of it.
  std::vector<llvm::SmallVector<OpId, 2>> readers(program.values.size());
  for (OpId op = 0; op < numOps; ++op) {
    for (ValueId operand : program.ops[op].operands)
      readers[program.rootOf(operand)].push_back(op);
    for (ValueId result : program.ops[op].results)
      if (program.rootOf(result) != result)
        readers[program.rootOf(result)].push_back(op);
  }
  // Ops that must stay ahead of others without reading their results (the
  // in-place writes' order): a block may not sink past them.
  std::vector<llvm::SmallVector<OpId, 2>> mustPrecede(numOps);
  for (auto [before, after] : inPlaceOrderEdges(program))
    mustPrecede[before].push_back(after);
  std::vector<size_t> position(numOps);
  auto renumber = [&] {
    for (size_t i = 0; i < numOps; ++i)
      position[order[i]] = i;
  };
  renumber();
  // Forward ops fill the positions before the first backward op.
  size_t forwardEnd = numOps;
  if (program.backwardBegin != kNone)
    forwardEnd = llvm::count_if(
        order, [&](OpId op) { return op < program.backwardBegin; });

  Footprint best = footprintOf(program, order, countInputs);
  // Each trial costs a profile of the whole program, so only the
  // kMaxTrials ops that outweigh their reads the most are tried, the latest
  // first: a move shifts only ops after it, so the positions of the
  // candidates still to try stay as they were.
  constexpr size_t kMaxTrials = 32;
  std::vector<std::pair<uint64_t, OpId>> candidates;
  std::vector<OpId> readBy(program.values.size(), kNone);
  for (OpId op = 0; op < numOps; ++op) {
    uint64_t created = createdBytes(program, op),
             read = readBytes(program, op, readBy);
    if (!program.ops[op].ordered && !createsOnlyViews(program, op) &&
        created > read)
      candidates.push_back({created - read, op});
  }
  if (candidates.size() > kMaxTrials) {
    std::nth_element(candidates.begin(), candidates.begin() + kMaxTrials,
                     candidates.end(), std::greater<>());
    candidates.resize(kMaxTrials);
  }
  llvm::sort(candidates, [&](const auto &a, const auto &b) {
    return position[a.second] > position[b.second];
  });
  for (auto [gain, op] : candidates) {
    size_t i = position[op];
    const OpInfo &info = program.ops[op];
    // The op moves with the (unordered) views of its results, to just
    // before the first other reader.
    llvm::SmallVector<OpId, 4> block = {op};
    size_t target = i < forwardEnd ? forwardEnd : numOps;
    for (ValueId result : info.results)
      for (OpId reader : readers[program.rootOf(result)]) {
        if (reader == op || llvm::is_contained(block, reader))
          continue;
        if (createsOnlyViews(program, reader) && !program.ops[reader].ordered)
          block.push_back(reader);
        else
          target = std::min(target, position[reader]);
      }
    for (OpId view : llvm::drop_begin(block))
      for (ValueId v : program.ops[view].results)
        for (OpId reader : readers[program.rootOf(v)])
          if (!llvm::is_contained(block, reader))
            target = std::min(target, position[reader]);
    for (OpId moving : block)
      for (OpId later : mustPrecede[moving])
        if (!llvm::is_contained(block, later))
          target = std::min(target, position[later]);
    if (target <= i + 1)
      continue;
    llvm::sort(block, [&](OpId a, OpId b) { return position[a] < position[b]; });
    // A view already past the target stays: moving it earlier is no sink.
    if (position[block.back()] >= target)
      continue;
    std::vector<OpId> moved;
    moved.reserve(numOps);
    for (size_t p = 0; p < numOps; ++p) {
      if (p == target)
        moved.insert(moved.end(), block.begin(), block.end());
      if (!llvm::is_contained(block, order[p]))
        moved.push_back(order[p]);
    }
    if (target == numOps)
      moved.insert(moved.end(), block.begin(), block.end());
    Footprint footprint = footprintOf(program, moved, countInputs);
    if (footprint.peak > best.peak || footprint.area >= best.area)
      continue;
    order = std::move(moved);
    best = footprint;
    renumber();
  }
  return order;
}

} // namespace

std::vector<OpId> remat::scheduleForMemory(const Program &program,
                                           bool countInputs) {
  std::vector<OpId> identity(program.ops.size());
  std::iota(identity.begin(), identity.end(), 0);
  // A lower peak, or the same peak with fewer bytes live over the step: the
  // planner, which recomputes below the peak, gains from the second too.
  auto better = [](const Footprint &a, const Footprint &b) {
    return a.peak < b.peak || (a.peak == b.peak && a.area < b.area);
  };
  std::vector<OpId> best = identity;
  Footprint bestFootprint = footprintOf(program, identity, countInputs);
  // The list schedule can raise the peak where the given order sinks well.
  for (std::vector<OpId> start : {ListScheduler(program).run(), identity}) {
    std::vector<OpId> order =
        sinkGrowingOps(program, std::move(start), countInputs);
    Footprint footprint = footprintOf(program, order, countInputs);
    if (better(footprint, bestFootprint)) {
      best = std::move(order);
      bestFootprint = footprint;
    }
  }
  return best;
}

bool remat::isIdentityOrder(const std::vector<OpId> &order) {
  for (size_t position = 0; position < order.size(); ++position)
    if (order[position] != position)
      return false;
  return true;
}

Program remat::reorder(const Program &program, const std::vector<OpId> &order) {
  size_t numOps = program.ops.size();
  assert(order.size() == numOps && "order must be a permutation of the ops");
  std::vector<OpId> newIndex(numOps, kNone);
  for (OpId position = 0; position < numOps; ++position)
    newIndex[order[position]] = position;
  assert(llvm::none_of(newIndex, [](OpId i) { return i == kNone; }) &&
         "order must be a permutation of the ops");

  Program result;
  result.values = program.values;
  result.inputs = program.inputs;
  result.costPerSecond = program.costPerSecond;
  result.ops.reserve(numOps);
  for (OpId op : order) {
    result.ops.push_back(program.ops[op]);
    // An op that is its own origin stays so; copies keep pointing at the
    // program they were materialized from.
    if (program.ops[op].origin == op)
      result.ops.back().origin = newIndex[op];
  }
  for (ValueInfo &value : result.values)
    if (value.def != kNone)
      value.def = newIndex[value.def];

  // The boundary moves to the first position holding a backward op.
  result.backwardBegin = program.backwardBegin;
  if (program.backwardBegin != kNone && program.backwardBegin < numOps) {
    result.backwardBegin = numOps;
    for (OpId op = program.backwardBegin; op < numOps; ++op)
      result.backwardBegin = std::min(result.backwardBegin, newIndex[op]);
  }
  return result;
}
