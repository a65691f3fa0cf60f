//===- InPlaceWrites.cpp - Buffers overwritten while the step runs --------===//

#include "remat/Planning/InPlaceWrites.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace remat;

bool remat::hasInPlaceWrites(const Program &program) {
  return llvm::any_of(program.values,
                      [](const ValueInfo &v) { return v.writesInPlace; });
}

std::vector<OpId> remat::overwriteTimes(const Program &program) {
  std::vector<OpId> times(program.values.size(), kNone);
  if (!hasInPlaceWrites(program))
    return times;
  // The ops writing into each buffer, in program order.
  llvm::DenseMap<ValueId, llvm::SmallVector<OpId, 2>> writes;
  for (OpId op = 0; op < program.ops.size(); ++op)
    for (ValueId result : program.ops[op].results)
      if (program.values[result].writesInPlace)
        writes[program.rootOf(result)].push_back(op);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    auto it = writes.find(program.rootOf(v));
    if (it == writes.end())
      continue;
    OpId def = program.values[v].def;
    // The first write after the definition (an input is defined before any
    // op); the op defining `v` in place is its own write, not a later one.
    auto later = def == kNone ? it->second.begin()
                              : llvm::upper_bound(it->second, def);
    if (later != it->second.end())
      times[v] = *later;
  }
  return times;
}

std::vector<std::pair<OpId, OpId>>
remat::inPlaceOrderEdges(const Program &program) {
  std::vector<std::pair<OpId, OpId>> edges;
  if (!hasInPlaceWrites(program))
    return edges;
  std::vector<OpId> times = overwriteTimes(program);
  // Per buffer: the last op so far that wrote into it in place.
  llvm::DenseMap<ValueId, OpId> lastWrite;
  for (OpId op = 0; op < program.ops.size(); ++op) {
    for (ValueId operand : program.ops[op].operands)
      if (times[operand] != kNone && op < times[operand])
        edges.push_back({op, times[operand]});
    for (ValueId result : program.ops[op].results) {
      const ValueInfo &info = program.values[result];
      if (!info.writesInPlace)
        continue;
      OpId destination = program.values[info.aliasOf].def;
      if (destination != kNone && destination != op)
        edges.push_back({destination, op});
      auto [it, first] = lastWrite.try_emplace(program.rootOf(result), op);
      if (!first && it->second != op) {
        edges.push_back({it->second, op});
        it->second = op;
      }
    }
  }
  return edges;
}

/// Whether `op` writes in place into `operand`'s buffer: it then takes the
/// buffer, not what the value held (bufferization writes in place only
/// where the op reads nothing another write replaced).
static bool writesInto(const Program &program, const OpInfo &op,
                       ValueId operand) {
  return llvm::any_of(op.results, [&](ValueId result) {
    const ValueInfo &info = program.values[result];
    return info.writesInPlace && info.aliasOf == operand;
  });
}

std::optional<ClobberedRead> remat::findClobberedRead(const Program &program) {
  std::vector<OpId> times = overwriteTimes(program);
  for (OpId op = 0; op < program.ops.size(); ++op)
    for (ValueId operand : program.ops[op].operands)
      if (times[operand] != kNone && times[operand] < op &&
          !writesInto(program, program.ops[op], operand))
        return ClobberedRead{operand, op, times[operand]};
  OpId end = program.ops.size();
  for (ValueId v = 0; v < program.values.size(); ++v)
    if (program.values[v].isOutput && program.values[v].def != kNone &&
        times[v] != kNone)
      return ClobberedRead{v, end, times[v]};
  return std::nullopt;
}
