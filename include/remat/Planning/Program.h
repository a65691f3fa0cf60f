//===- Program.h - IR-free model of one training step -----------*- C++ -*-===//
//
// The planner, the scheduler and the peak analysis all work on this small,
// IR-free representation so that they can be unit-tested and benchmarked
// without MLIR. The IR adapter (Analysis/ProgramBuilder) builds a Program from
// a graph's block; remat-apply mirrors `materialize` back into IR, so that
// re-analysing the rewritten IR yields exactly the Program the planner saw.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_PROGRAM_H
#define REMAT_PLANNING_PROGRAM_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace remat {

using ValueId = unsigned;
using OpId = unsigned;
constexpr unsigned kNone = ~0u;

/// One SSA value of the step.
struct ValueInfo {
  /// Bytes of the buffer this value owns (0 for views and scalars).
  uint64_t bytes = 0;
  /// Defining op, or kNone for graph inputs.
  OpId def = kNone;
  /// The value whose buffer this one is a view of, or kNone. Views keep their
  /// root's buffer alive until their own last use.
  ValueId aliasOf = kNone;
  /// With aliasOf: the defining op writes this value into aliasOf's buffer
  /// (a destination-passing op the lowering bufferizes in place, a donated
  /// argument's update) rather than viewing it. From that op on, the buffer
  /// no longer holds the values defined in it before (InPlaceWrites.h).
  bool writesInPlace = false;
  /// Returned by the step: live until the end of the program.
  bool isOutput = false;
  /// The original value this one is a recomputed copy of (itself when it is
  /// not a copy). Set by `materialize`.
  ValueId origin = kNone;
  /// Human-readable name for reports ("%3", "%x", or a `remat.name` tag).
  std::string name;
};

/// One operation, in program order.
struct OpInfo {
  /// Inline for the usual few: solvers copy every op once per plan they
  /// evaluate (materialize), and heap vectors made half of that time
  /// allocation.
  llvm::SmallVector<ValueId, 4> operands;
  llvm::SmallVector<ValueId, 2> results;
  /// FLOPs of executing the op once (docs/memory-model.md).
  uint64_t flops = 0;
  /// What executing the op once costs, in the unit every solver minimizes:
  /// its FLOPs, unless a time model priced it (applyTimeModel), when it is
  /// the estimated time in FLOP-equivalents of the target's peak rate
  /// (Program::costPerSecond per second), so that a memory-bound op costs
  /// what the target could have computed while it ran.
  uint64_t cost = 0;
  /// The op may be executed again: it has no side effects, is not a call and
  /// is not marked `remat.never`.
  bool recomputable = false;
  /// The op's results must not be kept across the forward/backward boundary
  /// (a checkpoint policy said "not saveable"). Only meaningful for
  /// recomputable ops.
  bool mustRecompute = false;
  /// The op's results may not be recomputed even though the op could be
  /// (e.g. `remat.never`, or a policy constraint).
  bool mustKeep = false;
  /// Whether a plan may execute the op again: it can be, and no constraint
  /// forbids it. The one recompute predicate of every solver.
  bool canRecompute() const { return recomputable && !mustKeep; }
  /// The op orders against other such ops (side effects, the forward/backward
  /// boundary): the scheduler never reorders two of them.
  bool ordered = false;
  /// Buffers the op needs only while it runs, beyond its operands and
  /// results (e.g. the padded copy of a convolution's input and the
  /// accumulator that the lowering allocates and frees around the op), one
  /// entry per allocation, in the order the lowering allocates them. Live
  /// during the op; each is a buffer of its own in the arena.
  llvm::SmallVector<uint64_t, 1> scratchBuffers;
  /// The sum of scratchBuffers (saturating).
  uint64_t scratchBytes() const;
  /// For ops created by `materialize`: the original op this is a copy of
  /// (itself otherwise).
  OpId origin = kNone;
  std::string name;
};

/// A straight-line program: values and ops in program order. The terminator
/// is not an op; returned values carry `isOutput`.
struct Program {
  std::vector<ValueInfo> values;
  std::vector<OpInfo> ops;
  /// Values that are inputs of the step (no defining op).
  std::vector<ValueId> inputs;
  /// Index of the first backward op (the op after the forward/backward
  /// boundary), or kNone when the graph has no boundary.
  OpId backwardBegin = kNone;
  /// Cost units per second of the target (its peak FLOP/s) when a time
  /// model priced the ops; 0 when OpInfo::cost is FLOPs.
  double costPerSecond = 0;

  ValueId addInput(uint64_t bytes, std::string name = {});
  /// Appends an op with results of the given sizes; returns its id.
  OpId addOp(std::vector<ValueId> operands, std::vector<uint64_t> resultBytes,
             uint64_t flops, bool recomputable, std::string name = {});
  /// Makes `view` a view of `root`'s buffer (and gives it 0 bytes).
  void setAlias(ValueId view, ValueId root);
  /// Makes `result` the contents its defining op writes in place into
  /// `destination`'s buffer (and gives it 0 bytes).
  void setInPlaceWrite(ValueId result, ValueId destination);
  void markOutput(ValueId v) { values[v].isOutput = true; }
  /// Follows aliasOf to the buffer-owning value.
  ValueId rootOf(ValueId v) const;
  /// Whether a plan may execute `op` again (kNone, an input's definer:
  /// never).
  bool canRecompute(OpId op) const {
    return op != kNone && ops[op].canRecompute();
  }
  /// For every value, the first op at or after `begin` that reads it, or
  /// kNone (with `begin` = backwardBegin: its first backward use).
  std::vector<OpId> firstUsesFrom(OpId begin) const;
  /// For every value, whether it is the root of a view: such a buffer is
  /// also kept alive by its views, so recomputing it alone frees nothing.
  std::vector<bool> rootsWithViews() const;
};

} // namespace remat

#endif // REMAT_PLANNING_PROGRAM_H
