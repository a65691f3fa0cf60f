//===- Plan.cpp - Applying and checking rematerialization plans -----------===//
//
// materialize() walks the original ops once, keeping for every original value
// its "current version": the latest copy that a recomputation placed so far,
// else the value itself. remat-apply performs the same walk on IR.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Plan.h"

#include "remat/Planning/InPlaceWrites.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <numeric>

using namespace remat;

namespace {

ValueId valueOrigin(const Program &program, ValueId v) {
  ValueId origin = program.values[v].origin;
  return origin == kNone ? v : origin;
}

OpId opOrigin(const Program &program, OpId op) {
  OpId origin = program.ops[op].origin;
  return origin == kNone ? op : origin;
}

/// Whether the version of `value` that a chain in front of op `before`
/// reads, for the `index`th recomputation, is a copy made after op
/// `written`: a recomputation of `value` placed ahead of the chain and
/// behind that op. (An in-place write goes into whichever version is
/// current when it runs, so a copy made before it is overwritten too.)
bool readsCopyMadeAfter(const Plan &plan, unsigned index, ValueId value,
                        OpId written, OpId before) {
  for (unsigned k = 0; k < plan.recomputes.size(); ++k) {
    const Recompute &other = plan.recomputes[k];
    if (other.value == value && other.before > written &&
        (other.before < before || (other.before == before && k < index)))
      return true;
  }
  return false;
}

/// What is wrong with the buffers the `index`th recomputation reads and
/// writes (InPlaceWrites.h), or an empty string: a chain op that writes in
/// place may only write into a buffer the chain itself creates, a view it
/// makes of a buffer from outside may not be of one that is overwritten,
/// and a value the chain reads from outside must still hold at `before`,
/// unless the chain reads a copy of it made after the overwrite.
std::string checkOverwrites(const Program &program, const Plan &plan,
                            unsigned index,
                            const std::vector<OpId> &overwritten) {
  const Recompute &recompute = plan.recomputes[index];
  auto inChain = [&](ValueId v) {
    OpId def = program.values[v].def;
    return def != kNone && llvm::is_contained(recompute.chain, def);
  };
  std::string message;
  llvm::raw_string_ostream os(message);
  for (OpId c : recompute.chain) {
    for (ValueId result : program.ops[c].results) {
      OutsideBufferUse use =
          outsideBufferUse(program, result, overwritten, inChain);
      if (use == OutsideBufferUse::None)
        continue;
      ValueId outside = program.values[result].aliasOf;
      if (use == OutsideBufferUse::InPlaceWrite)
        os << "op " << c << " in the chain writes in place into "
           << program.values[outside].name
           << ", a buffer the chain does not create";
      else
        os << "op " << c << " in the chain makes a view of "
           << program.values[outside].name << ", whose buffer op "
           << overwritten[outside] << " overwrites";
      return message;
    }
    for (ValueId operand : program.ops[c].operands) {
      OpId written = overwritten[operand];
      if (inChain(operand) || written == kNone ||
          written >= recompute.before ||
          readsCopyMadeAfter(plan, index, operand, written, recompute.before))
        continue;
      os << "the chain reads " << program.values[operand].name
         << " at op " << recompute.before << ", after op "
         << overwritten[operand] << " overwrote its buffer";
      return message;
    }
  }
  return message;
}

/// Returns what is wrong with the `index`th recomputation, or an empty
/// string.
std::string checkRecompute(const Program &program, const Plan &plan,
                           unsigned index) {
  const Recompute &recompute = plan.recomputes[index];
  std::string message;
  llvm::raw_string_ostream os(message);
  if (recompute.value >= program.values.size()) {
    os << "value " << recompute.value << " does not exist";
    return message;
  }
  const ValueInfo &value = program.values[recompute.value];
  if (value.def == kNone) {
    os << value.name << " is an input and cannot be recomputed";
    return message;
  }
  if (recompute.before >= program.ops.size()) {
    os << "op " << recompute.before << " does not exist";
    return message;
  }
  if (recompute.chain.empty() || recompute.chain.back() != value.def) {
    os << "chain does not end with the definition of " << value.name;
    return message;
  }
  for (unsigned j = 0; j < recompute.chain.size(); ++j) {
    OpId c = recompute.chain[j];
    if (c >= program.ops.size()) {
      os << "op " << c << " does not exist";
      return message;
    }
    if (j > 0 && c <= recompute.chain[j - 1]) {
      os << "chain is not in program order";
      return message;
    }
    const OpInfo &op = program.ops[c];
    if (!op.canRecompute()) {
      os << "op " << c << " in the chain may not be recomputed";
      return message;
    }
    if (j + 1 == recompute.chain.size())
      continue;
    // An op that feeds nothing in the chain would only waste work.
    bool feeds = llvm::any_of(
        llvm::ArrayRef<OpId>(recompute.chain).drop_front(j + 1),
        [&](OpId later) {
          return llvm::any_of(program.ops[later].operands, [&](ValueId v) {
            return program.values[v].def == c;
          });
        });
    if (!feeds) {
      os << "op " << c << " in the chain feeds no later chain op";
      return message;
    }
  }
  if (recompute.before <= value.def) {
    os << "op " << recompute.before << " does not come after " << value.name;
    return message;
  }
  return message;
}

} // namespace

/// An original op whose every reader moved to copies is dead: the copy moved
/// it rather than repeated it. Dropping it (and producers that only fed it)
/// is what remat-apply does on IR, so that canonicalization finds nothing
/// left to change. Ops whose results were unused to begin with stay.
static void dropDeadOriginals(const Program &program, Program &result,
                              MaterializeMap &map) {
  std::vector<bool> usedOriginally(program.values.size(), false);
  for (const OpInfo &op : program.ops)
    for (ValueId operand : op.operands)
      usedOriginally[operand] = true;
  std::vector<unsigned> uses(result.values.size(), 0);
  for (const OpInfo &op : result.ops)
    for (ValueId operand : op.operands)
      ++uses[operand];

  std::vector<bool> dead(result.ops.size(), false);
  bool any = false;
  for (OpId i = result.ops.size(); i-- > 0;) {
    const OpInfo &op = result.ops[i];
    if (map.isCopy[i] || !op.recomputable || op.results.empty())
      continue;
    bool wasUsed = llvm::any_of(op.results, [&](ValueId r) {
      return r < usedOriginally.size() && usedOriginally[r];
    });
    bool unused = llvm::all_of(op.results, [&](ValueId r) {
      return uses[r] == 0 && !result.values[r].isOutput;
    });
    if (!wasUsed || !unused)
      continue;
    dead[i] = true;
    any = true;
    for (ValueId operand : op.operands)
      --uses[operand];
  }
  if (!any)
    return;

  // Compacted in place: the ops that stay move down over the dead ones.
  std::vector<OpId> newIndex(result.ops.size(), kNone);
  OpId kept = 0;
  for (OpId i = 0; i < result.ops.size(); ++i) {
    if (dead[i]) {
      for (ValueId r : result.ops[i].results)
        result.values[r].def = kNone;
      continue;
    }
    newIndex[i] = kept;
    for (ValueId r : result.ops[i].results)
      result.values[r].def = kept;
    if (kept != i)
      result.ops[kept] = std::move(result.ops[i]);
    map.isCopy[kept] = map.isCopy[i];
    ++kept;
  }
  // The first backward op may have been dropped: the next one that stays.
  if (result.backwardBegin != kNone) {
    OpId begin = result.backwardBegin;
    while (begin < newIndex.size() && newIndex[begin] == kNone)
      ++begin;
    result.backwardBegin = begin < newIndex.size() ? newIndex[begin] : kept;
  }
  for (OpId &index : map.opIndex)
    index = index == kNone ? kNone : newIndex[index];
  result.ops.erase(result.ops.begin() + kept, result.ops.end());
  map.isCopy.resize(kept);
}

bool remat::samePlan(const Plan &a, const Plan &b) {
  return a.recomputes.size() == b.recomputes.size() &&
         llvm::all_of(llvm::zip(a.recomputes, b.recomputes), [](auto pair) {
           const Recompute &x = std::get<0>(pair), &y = std::get<1>(pair);
           return x.value == y.value && x.before == y.before &&
                  x.chain == y.chain;
         });
}

Program remat::materialize(const Program &program, const Plan &plan) {
  MaterializeMap map;
  return materialize(program, plan, map);
}

Program remat::materialize(const Program &program, const Plan &plan,
                           MaterializeMap &map) {
  Program result;
  materialize(program, plan, map, result);
  return result;
}

/// Makes room for `size` elements, growing by half at least: a solver's
/// plans grow a few recomputations at a time, and room for exactly the
/// next one would be a fresh allocation (on a large program, megabytes
/// faulted in anew) for every plan it tries.
template <typename T>
static void reserveGrowing(std::vector<T> &vector, size_t size) {
  if (vector.capacity() < size)
    vector.reserve(std::max(size, vector.capacity() + vector.capacity() / 2));
}

void remat::materialize(const Program &program, const Plan &plan,
                        MaterializeMap &map, Program &result) {
  size_t numOps = program.ops.size();
  // Solvers materialize once per step they try: growing these one op at a
  // time, or copying the values before making room for the copies, showed
  // up in their profiles.
  size_t numCopyOps = 0;
  for (const Recompute &recompute : plan.recomputes)
    numCopyOps += recompute.chain.size();
  result.values.clear();
  reserveGrowing(result.values, program.values.size() + numCopyOps);
  result.values.insert(result.values.end(), program.values.begin(),
                       program.values.end());
  result.ops.clear();
  reserveGrowing(result.ops, numOps + numCopyOps);
  result.inputs = program.inputs;
  result.backwardBegin = kNone;
  result.costPerSecond = program.costPerSecond;
  for (ValueId v = 0; v < result.values.size(); ++v)
    result.values[v].origin = valueOrigin(program, v);

  std::vector<llvm::SmallVector<unsigned, 1>> groups(numOps);
  for (unsigned k = 0; k < plan.recomputes.size(); ++k) {
    assert(plan.recomputes[k].before < numOps && "invalid plan");
    groups[plan.recomputes[k].before].push_back(k);
  }

  std::vector<ValueId> current(program.values.size());
  std::iota(current.begin(), current.end(), 0);

  map.opIndex.assign(numOps, kNone);
  map.isCopy.clear();
  reserveGrowing(map.isCopy, numOps + numCopyOps);
  map.copies.assign(plan.recomputes.size(), kNone);

  for (OpId i = 0; i < numOps; ++i) {
    // Recomputations in front of the first backward op belong to the
    // backward part: that is where their results are needed.
    if (i == program.backwardBegin)
      result.backwardBegin = result.ops.size();

    for (unsigned k : groups[i]) {
      const Recompute &recompute = plan.recomputes[k];
      // Results of earlier ops of this chain, which shadow current versions
      // (inline for the usual short chains: one map per recomputation).
      llvm::SmallDenseMap<ValueId, ValueId, 8> chainCopies;
      auto read = [&](ValueId v) {
        auto it = chainCopies.find(v);
        return it != chainCopies.end() ? it->second : current[v];
      };
      for (OpId c : recompute.chain) {
        // Copied once, into place (the storage was reserved above): a copy
        // then a move was a second pass over every op of every plan.
        OpId newOp = result.ops.size();
        OpInfo &op = result.ops.emplace_back(program.ops[c]);
        op.origin = opOrigin(program, c);
        for (ValueId &operand : op.operands)
          operand = read(operand);
        for (ValueId &res : op.results) {
          ValueId newValue = result.values.size();
          ValueInfo &copy = result.values.emplace_back(program.values[res]);
          copy.def = newOp;
          copy.isOutput = false;
          copy.origin = valueOrigin(program, res);
          if (copy.aliasOf != kNone)
            copy.aliasOf = read(copy.aliasOf);
          chainCopies[res] = newValue;
          res = newValue;
        }
        map.isCopy.push_back(true);
      }
      auto it = chainCopies.find(recompute.value);
      assert(it != chainCopies.end() && "chain must define the value");
      current[recompute.value] = it->second;
      map.copies[k] = it->second;
    }

    OpId newOp = result.ops.size();
    OpInfo &op = result.ops.emplace_back(program.ops[i]);
    op.origin = opOrigin(program, i);
    for (ValueId &operand : op.operands)
      operand = current[operand];
    for (ValueId res : op.results) {
      ValueInfo &info = result.values[res];
      info.def = newOp;
      if (info.aliasOf != kNone)
        info.aliasOf = current[info.aliasOf];
    }
    map.isCopy.push_back(false);
    map.opIndex[i] = newOp;
  }
  if (program.backwardBegin != kNone && program.backwardBegin >= numOps)
    result.backwardBegin = result.ops.size();

  // The step returns whatever version its terminator reads: the latest one.
  for (ValueId v = 0; v < program.values.size(); ++v) {
    if (!program.values[v].isOutput || current[v] == v)
      continue;
    result.values[v].isOutput = false;
    result.values[current[v]].isOutput = true;
  }
  dropDeadOriginals(program, result, map);
}

/// The recomputations of a well-formed plan whose copy nothing reads in the
/// materialized program: not `before`, not a later chain, not a later op
/// before another copy takes over, and it is no output. Leaves that
/// program in `planned`.
static std::vector<unsigned> unreadCopies(const Program &program,
                                          const Plan &plan, Program &planned) {
  MaterializeMap map;
  materialize(program, plan, map, planned);
  std::vector<bool> read(planned.values.size(), false);
  for (const OpInfo &op : planned.ops)
    for (ValueId operand : op.operands)
      read[operand] = true;
  std::vector<unsigned> unread;
  for (unsigned k = 0; k < plan.recomputes.size(); ++k) {
    ValueId copy = map.copies[k];
    if (!read[copy] && !planned.values[copy].isOutput)
      unread.push_back(k);
  }
  return unread;
}

std::string remat::verifyPlanShape(const Program &program, const Plan &plan) {
  for (unsigned k = 0; k < plan.recomputes.size(); ++k) {
    std::string problem = checkRecompute(program, plan, k);
    if (!problem.empty())
      return "recompute #" + std::to_string(k) + ": " + problem;
  }
  if (plan.recomputes.empty() || !hasInPlaceWrites(program))
    return {};
  std::vector<OpId> overwritten = overwriteTimes(program);
  for (unsigned k = 0; k < plan.recomputes.size(); ++k) {
    std::string problem = checkOverwrites(program, plan, k, overwritten);
    if (!problem.empty())
      return "recompute #" + std::to_string(k) + ": " + problem;
  }
  return {};
}

void remat::dropOverwrittenReads(const Program &program, Plan &plan) {
  if (!hasInPlaceWrites(program))
    return;
  std::vector<OpId> overwritten = overwriteTimes(program);
  // Dropping one can make a later chain read the original instead of the
  // dropped copy: check again until none is left.
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (unsigned k = plan.recomputes.size(); k-- > 0;) {
      if (checkOverwrites(program, plan, k, overwritten).empty())
        continue;
      plan.recomputes.erase(plan.recomputes.begin() + k);
      dropped = true;
    }
  }
  // The rule above decides chain by chain; where copies taking over for
  // their originals still leave a read after an overwrite in the program
  // the plan makes (which verifyPlan checks), the last recomputations go
  // until none is left: a plan that recomputes less, never an invalid one.
  while (!plan.recomputes.empty() &&
         findClobberedRead(materialize(program, plan)))
    plan.recomputes.pop_back();
}

std::string remat::verifyPlan(const Program &program, const Plan &plan) {
  if (std::string problem = verifyPlanShape(program, plan); !problem.empty())
    return problem;
  // The rule above decides by recomputation; this one checks the program
  // the plan makes (copies taking over, originals dropped).
  if (hasInPlaceWrites(program)) {
    Program planned = materialize(program, plan);
    if (std::optional<ClobberedRead> read = findClobberedRead(planned)) {
      std::string reader = read->reader == planned.ops.size()
                               ? std::string("the return")
                               : "op " + std::to_string(read->reader);
      return reader + " of the planned step reads " +
             planned.values[read->value].name + " after op " +
             std::to_string(read->writer) + " overwrote its buffer";
    }
  }
  Program planned;
  std::vector<unsigned> unread = unreadCopies(program, plan, planned);
  if (!unread.empty()) {
    const Recompute &recompute = plan.recomputes[unread.front()];
    return "recompute #" + std::to_string(unread.front()) +
           ": nothing reads its copy of " +
           program.values[recompute.value].name;
  }
  return {};
}

void remat::dropUnreadRecomputes(const Program &program, Plan &plan,
                                 Program &planned) {
  // Dropping a copy can leave the copies its chain read unread in turn.
  // The last check found none: `planned` is then the final plan's program.
  while (true) {
    std::vector<unsigned> unread = unreadCopies(program, plan, planned);
    if (unread.empty())
      return;
    for (unsigned k : llvm::reverse(unread))
      plan.recomputes.erase(plan.recomputes.begin() + k);
  }
}

void remat::dropUnreadRecomputes(const Program &program, Plan &plan) {
  Program planned;
  dropUnreadRecomputes(program, plan, planned);
}

void remat::dropInvalidRecomputes(const Program &program, Plan &plan,
                                  Program &planned) {
  while (true) {
    dropOverwrittenReads(program, plan);
    size_t left = plan.recomputes.size();
    dropUnreadRecomputes(program, plan, planned);
    if (plan.recomputes.size() == left)
      return;
  }
}

void remat::dropInvalidRecomputes(const Program &program, Plan &plan) {
  Program planned;
  dropInvalidRecomputes(program, plan, planned);
}
