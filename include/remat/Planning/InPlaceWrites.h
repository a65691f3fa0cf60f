//===- InPlaceWrites.h - Buffers overwritten while the step runs -*- C++ -*-===//
//
// A value written in place (ValueInfo::writesInPlace) reuses the buffer of
// its destination: from its defining op on, the buffer no longer holds what
// was defined in it before. A read of such an older value after that op
// would read the new contents, so bufferization would copy the buffer
// instead, a copy the memory model does not count. Plans and schedules
// therefore read a value only while its buffer still holds it.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_INPLACEWRITES_H
#define REMAT_PLANNING_INPLACEWRITES_H

#include "remat/Planning/Program.h"

#include <optional>
#include <utility>
#include <vector>

namespace remat {

/// For every value, the first op after its definition (after the start, for
/// inputs) that writes in place into its buffer, or kNone: the value may be
/// read up to and including that op, never after it.
std::vector<OpId> overwriteTimes(const Program &program);

/// Whether any value of `program` is written in place (else every value
/// holds until its buffer dies and there is nothing to check).
bool hasInPlaceWrites(const Program &program);

/// The order in-place writes add to the data dependencies, as (before,
/// after) pairs of op ids: an op reading a value runs before the write that
/// replaces it, an op writing into a value's buffer runs after the value's
/// definition, and the writes into one buffer keep their given order (the
/// last one decides what the buffer holds). Any order keeping these pairs
/// and the data dependencies reads every value while its buffer holds it,
/// if the given order does. Empty when nothing is written in place.
std::vector<std::pair<OpId, OpId>> inPlaceOrderEdges(const Program &program);

/// What keeps a recomputed op's result from sharing a buffer that lies
/// outside the recomputation: nothing, a write in place into it (the
/// original would be overwritten), or a view of a buffer an in-place write
/// replaces (the view is read for as long as the copy serves, which may be
/// after the write).
enum class OutsideBufferUse { None, InPlaceWrite, OverwrittenView };

/// The rule above for `result`, an op's result in a recomputation whose
/// chain defines the values for which `definedInChain` holds; `overwritten`
/// is overwriteTimes(program).
template <typename DefinedInChain>
OutsideBufferUse outsideBufferUse(const Program &program, ValueId result,
                                  const std::vector<OpId> &overwritten,
                                  DefinedInChain definedInChain) {
  const ValueInfo &info = program.values[result];
  if (info.aliasOf == kNone || definedInChain(info.aliasOf))
    return OutsideBufferUse::None;
  if (info.writesInPlace)
    return OutsideBufferUse::InPlaceWrite;
  return overwritten[info.aliasOf] != kNone ? OutsideBufferUse::OverwrittenView
                                            : OutsideBufferUse::None;
}

/// A read of `value` by op `reader` (ops.size() for the step's return) after
/// op `writer` overwrote its buffer.
struct ClobberedRead {
  ValueId value;
  OpId reader;
  OpId writer;
};

/// The first read, in program order, of a value whose buffer an earlier op
/// overwrote, or nullopt when every value is read while it holds. An op
/// writing in place into a value does not read it in this sense (a fill
/// into a buffer whose last contents are dead is a write, not a read).
std::optional<ClobberedRead> findClobberedRead(const Program &program);

} // namespace remat

#endif // REMAT_PLANNING_INPLACEWRITES_H
