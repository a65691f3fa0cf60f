//===- MemoryProfile.cpp - Live bytes over program order ------------------===//
//
// Live ranges are computed on buffers (the roots of alias chains): every use
// of a view, and the definition of a view, extends its root. Live bytes per op
// are then a prefix sum over range begin/end events.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/MemoryProfile.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

using namespace remat;

namespace {

bool contains(const LiveRange &range, OpId op) {
  if (range.end == kNone)
    return false;
  return (range.begin == kNone || range.begin <= op) && op <= range.end;
}

/// The profile with op `op` run at position(op), and opAt(p) the op at
/// position p: the identity for the program's own order (inlined to it), a
/// permutation's table for another order.
template <typename PositionOf, typename OpAt>
MemoryProfile profileInOrder(const Program &program, bool countInputs,
                             PositionOf position, OpAt opAt) {
  MemoryProfile profile;
  size_t numOps = program.ops.size();
  size_t numValues = program.values.size();
  profile.ranges.assign(numValues, LiveRange());
  profile.liveBytes.assign(numOps, 0);
  if (numOps == 0)
    return profile;
  OpId lastOp = numOps - 1;

  std::vector<ValueId> roots(numValues);
  for (ValueId v = 0; v < numValues; ++v)
    roots[v] = program.rootOf(v);

  auto extend = [&](ValueId root, OpId op) {
    LiveRange &range = profile.ranges[root];
    if (range.end == kNone || range.end < op)
      range.end = op;
  };
  for (ValueId v = 0; v < numValues; ++v) {
    const ValueInfo &info = program.values[v];
    if (info.def == kNone)
      continue;
    if (roots[v] == v)
      profile.ranges[v].begin = position(info.def);
    // A view is born with its defining op, even if that op does not read the
    // root.
    extend(roots[v], position(info.def));
  }
  for (OpId op = 0; op < numOps; ++op)
    for (ValueId operand : program.ops[op].operands)
      extend(roots[operand], position(op));
  for (ValueId v = 0; v < numValues; ++v)
    if (program.values[v].isOutput)
      extend(roots[v], lastOp);

  // Inputs exist before the first op. Without countInputs they occupy no
  // memory of the step, so they get an empty range and never appear live.
  for (ValueId input : program.inputs) {
    LiveRange &range = profile.ranges[input];
    range.begin = kNone;
    range.end = countInputs ? lastOp : kNone;
  }

  // Difference array over ops: +bytes at begin, -bytes after end, in 128
  // bits so that no sum of 64-bit sizes wraps; a load past 2^64 - 1
  // saturates.
  std::vector<__int128> delta(numOps + 1, 0);
  for (ValueId v = 0; v < numValues; ++v) {
    const LiveRange &range = profile.ranges[v];
    uint64_t bytes = program.values[v].bytes;
    if (roots[v] != v || range.end == kNone || bytes == 0)
      continue;
    OpId begin = range.begin == kNone ? 0 : range.begin;
    delta[begin] += bytes;
    delta[range.end + 1] -= bytes;
  }
  __int128 live = 0;
  for (OpId op = 0; op < numOps; ++op) {
    live += delta[op];
    unsigned __int128 bytes = static_cast<unsigned __int128>(live) +
                              program.ops[opAt(op)].scratchBytes();
    profile.liveBytes[op] = static_cast<uint64_t>(
        std::min<unsigned __int128>(bytes, UINT64_MAX));
    if (profile.peakOp == kNone || profile.liveBytes[op] > profile.peakBytes) {
      profile.peakBytes = profile.liveBytes[op];
      profile.peakOp = op;
    }
  }

  // Views report the range of their buffer.
  for (ValueId v = 0; v < numValues; ++v)
    if (roots[v] != v)
      profile.ranges[v] = profile.ranges[roots[v]];
  return profile;
}

} // namespace

MemoryProfile remat::computeMemoryProfile(const Program &program,
                                          bool countInputs) {
  auto identity = [](OpId op) { return op; };
  return profileInOrder(program, countInputs, identity, identity);
}

MemoryProfile remat::computeMemoryProfile(const Program &program,
                                          llvm::ArrayRef<OpId> order,
                                          bool countInputs) {
  assert(order.size() == program.ops.size() &&
         "order must be a permutation of the ops");
  std::vector<OpId> positions(order.size());
  for (OpId p = 0; p < order.size(); ++p)
    positions[order[p]] = p;
  return profileInOrder(
      program, countInputs, [&](OpId op) { return positions[op]; },
      [&](OpId p) { return order[p]; });
}

std::vector<ValueId> MemoryProfile::liveAt(const Program &program,
                                           OpId op) const {
  // Only values that contribute to liveBytes[op]: buffers with bytes.
  std::vector<ValueId> live;
  for (ValueId v = 0; v < program.values.size(); ++v) {
    const ValueInfo &info = program.values[v];
    if (info.aliasOf == kNone && info.bytes > 0 && contains(ranges[v], op))
      live.push_back(v);
  }
  llvm::sort(live, [&](ValueId a, ValueId b) {
    uint64_t bytesA = program.values[a].bytes;
    uint64_t bytesB = program.values[b].bytes;
    return bytesA != bytesB ? bytesA > bytesB : a < b;
  });
  return live;
}
