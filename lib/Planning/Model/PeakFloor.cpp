//===- PeakFloor.cpp - A peak no plan goes below --------------------------===//

#include "remat/Planning/PeakFloor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

using namespace remat;

PeakFloor remat::computePeakFloor(const Program &program, bool countInputs) {
  auto isInput = [&](ValueId root) {
    return program.values[root].def == kNone;
  };
  // Inputs that count are live for the whole step: under every op and at
  // the end.
  uint64_t inputs = 0;
  if (countInputs)
    for (ValueId v = 0; v < program.values.size(); ++v)
      if (program.rootOf(v) == v && isInput(v))
        inputs = llvm::SaturatingAdd(inputs, program.values[v].bytes);

  PeakFloor floor;
  uint64_t atEnd = inputs;
  std::vector<bool> counted(program.values.size(), false);
  for (ValueId v = 0; v < program.values.size(); ++v) {
    ValueId root = program.rootOf(v);
    if (program.values[v].isOutput && !isInput(root) && !counted[root]) {
      counted[root] = true;
      atEnd = llvm::SaturatingAdd(atEnd, program.values[root].bytes);
    }
  }
  floor.bytes = atEnd;

  std::vector<bool> seen(program.values.size(), false);
  llvm::SmallVector<ValueId> buffers;
  for (OpId id = 0; id < program.ops.size(); ++id) {
    const OpInfo &op = program.ops[id];
    buffers.clear();
    auto add = [&](ValueId v) {
      ValueId root = program.rootOf(v);
      if (!isInput(root) && !seen[root]) {
        seen[root] = true;
        buffers.push_back(root);
      }
    };
    llvm::for_each(op.operands, add);
    llvm::for_each(op.results, add);
    uint64_t bytes = llvm::SaturatingAdd(inputs, op.scratchBytes());
    for (ValueId root : buffers) {
      bytes = llvm::SaturatingAdd(bytes, program.values[root].bytes);
      seen[root] = false;
    }
    if (bytes > floor.bytes)
      floor = {bytes, id};
  }
  return floor;
}
