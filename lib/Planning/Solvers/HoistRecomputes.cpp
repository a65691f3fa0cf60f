//===- HoistRecomputes.cpp - Recomputations ahead of their reader's buffers -===//
//
// A recomputation is placed right before the op that reads its copy. That
// op's destination is often opened by the ops just before it (a
// `tensor.empty`, a fill of it): placed after them, the chain runs with that
// buffer already allocated, although nothing reads it until the reader runs.
// On a transformer's loss this is the peak: the logits' gradient buffer
// (1.5 GiB at GPT-2-small's size) was open while the softmax's sub and exp
// were recomputed into it.
//
// Moving the recomputations of a reader above such ops never raises the
// peak: no buffer dies in the stretch the chain moves across, so everything
// live there is live at the reader too, together with the copies; the chain
// now runs without the stretch's buffers, and what it reads last dies
// earlier. An op is crossed only when it is not ordered (the
// forward/backward boundary, side effects), needs no scratch buffers, is no
// other recomputation's reader, is in no chain, is not read by the moving
// chains, reads no value they copy, and ends no buffer: each buffer it reads
// or writes is one the plan copies nowhere and is read again at or after the
// reader (or returned). So the copies and the values the chains read are
// the same, and the plan stays valid.
//
//===----------------------------------------------------------------------===//

#include "SolverSupport.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace remat;

namespace {

/// For every buffer-owning value, the last op reading it or one of its views
/// (the op count for a returned one, which lives to the end).
std::vector<OpId> lastUsesOfBuffers(const Program &program) {
  OpId end = program.ops.size();
  std::vector<OpId> lastUse(program.values.size(), 0);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    const ValueInfo &info = program.values[v];
    ValueId root = program.rootOf(v);
    if (info.isOutput)
      lastUse[root] = end;
    else if (info.def != kNone)
      lastUse[root] = std::max(lastUse[root], info.def);
  }
  for (OpId op = 0; op < end; ++op)
    for (ValueId operand : program.ops[op].operands) {
      ValueId root = program.rootOf(operand);
      lastUse[root] = std::max(lastUse[root], op);
    }
  return lastUse;
}

class Hoister {
public:
  Hoister(const Program &program, const Plan &plan)
      : program(program), lastUse(lastUsesOfBuffers(program)),
        isReader(program.ops.size(), false),
        inChain(program.ops.size(), false),
        copiedBuffer(program.values.size(), false) {
    for (const Recompute &recompute : plan.recomputes) {
      isReader[recompute.before] = true;
      copiedBuffer[program.rootOf(recompute.value)] = true;
      for (OpId op : recompute.chain)
        inChain[op] = true;
    }
  }

  /// The earliest op the recomputations in front of `reader` (`moving`)
  /// can go in front of instead.
  OpId hoistedPosition(OpId reader,
                       const std::vector<const Recompute *> &moving) const {
    std::vector<OpId> chainNeeds;
    std::vector<ValueId> copied;
    for (const Recompute *recompute : moving) {
      copied.push_back(recompute->value);
      for (OpId op : recompute->chain) {
        chainNeeds.push_back(op);
        for (ValueId operand : program.ops[op].operands) {
          chainNeeds.push_back(program.values[operand].def);
          chainNeeds.push_back(
              program.values[program.rootOf(operand)].def);
        }
      }
    }
    OpId position = reader;
    while (position > 0 &&
           canCross(position - 1, reader, chainNeeds, copied))
      --position;
    return position;
  }

private:
  bool canCross(OpId op, OpId reader, const std::vector<OpId> &chainNeeds,
                const std::vector<ValueId> &copied) const {
    const OpInfo &info = program.ops[op];
    if (info.ordered || !info.scratchBuffers.empty() || isReader[op] ||
        inChain[op] || llvm::is_contained(chainNeeds, op))
      return false;
    // An op placed after a copy reads it instead of the original.
    if (llvm::any_of(info.operands, [&](ValueId operand) {
          return llvm::is_contained(copied, operand);
        }))
      return false;
    // The plan's copies take over later reads of what they copy, and an
    // op in a chain may be dropped with its reads (its readers moved to
    // copies): the original program's last uses hold for other buffers.
    auto keepsBuffer = [&](ValueId v) {
      ValueId root = program.rootOf(v);
      return program.values[root].bytes == 0 ||
             (!copiedBuffer[root] && lastUse[root] >= reader);
    };
    return llvm::all_of(info.operands, keepsBuffer) &&
           llvm::all_of(info.results, keepsBuffer);
  }

  const Program &program;
  std::vector<OpId> lastUse;
  std::vector<bool> isReader;
  std::vector<bool> inChain;
  std::vector<bool> copiedBuffer;
};

} // namespace

Plan remat::hoistAboveReaderBuffers(const Program &program, Plan plan) {
  if (plan.recomputes.empty())
    return plan;
  // The recomputations in front of each reader move together: a later one
  // may read a copy an earlier one made.
  std::map<OpId, std::vector<Recompute *>> byReader;
  for (Recompute &recompute : plan.recomputes)
    byReader[recompute.before].push_back(&recompute);
  Hoister hoister(program, plan);
  for (auto &[reader, moving] : byReader) {
    std::vector<const Recompute *> chains(moving.begin(), moving.end());
    OpId position = hoister.hoistedPosition(reader, chains);
    for (Recompute *recompute : moving)
      recompute->before = position;
  }
  return plan;
}
