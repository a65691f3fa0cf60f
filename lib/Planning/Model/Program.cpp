//===- Program.cpp - IR-free model of one training step -------------------===//
//
// Builders for Program. Every value and op built here is its own origin;
// only `materialize` creates copies that point elsewhere.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Program.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

using namespace remat;

namespace {

std::string defaultValueName(ValueId id, std::string name) {
  if (name.empty())
    return "%" + std::to_string(id);
  return name;
}

} // namespace

ValueId Program::addInput(uint64_t bytes, std::string name) {
  ValueId id = values.size();
  ValueInfo info;
  info.bytes = bytes;
  info.origin = id;
  info.name = defaultValueName(id, std::move(name));
  values.push_back(std::move(info));
  inputs.push_back(id);
  return id;
}

OpId Program::addOp(std::vector<ValueId> operands,
                    std::vector<uint64_t> resultBytes, uint64_t flops,
                    bool recomputable, std::string name) {
  OpId id = ops.size();
  OpInfo op;
  assert(std::all_of(operands.begin(), operands.end(),
                     [&](ValueId v) { return v < values.size(); }) &&
         "operands must be defined first");
  op.operands.assign(operands.begin(), operands.end());
  for (uint64_t bytes : resultBytes) {
    ValueId result = values.size();
    ValueInfo info;
    info.bytes = bytes;
    info.def = id;
    info.origin = result;
    info.name = defaultValueName(result, {});
    values.push_back(std::move(info));
    op.results.push_back(result);
  }
  op.flops = flops;
  op.cost = flops;
  op.recomputable = recomputable;
  op.origin = id;
  op.name = std::move(name);
  ops.push_back(std::move(op));
  return id;
}

void Program::setAlias(ValueId view, ValueId root) {
  assert(view != root && "a value cannot be a view of itself");
  values[view].aliasOf = root;
  values[view].bytes = 0;
}

void Program::setInPlaceWrite(ValueId result, ValueId destination) {
  setAlias(result, destination);
  values[result].writesInPlace = true;
}

uint64_t OpInfo::scratchBytes() const {
  uint64_t total = 0;
  for (uint64_t bytes : scratchBuffers)
    total = llvm::SaturatingAdd(total, bytes);
  return total;
}

ValueId Program::rootOf(ValueId v) const {
  while (values[v].aliasOf != kNone)
    v = values[v].aliasOf;
  return v;
}

std::vector<OpId> Program::firstUsesFrom(OpId begin) const {
  std::vector<OpId> first(values.size(), kNone);
  // Backwards, so that the earliest reader is written last.
  for (OpId op = ops.size(); op-- > begin;)
    for (ValueId operand : ops[op].operands)
      first[operand] = op;
  return first;
}

std::vector<bool> Program::rootsWithViews() const {
  std::vector<bool> hasViews(values.size(), false);
  for (ValueId v = 0; v < values.size(); ++v)
    if (values[v].aliasOf != kNone)
      hasViews[rootOf(v)] = true;
  return hasViews;
}
