//===- ProgramBuilder.h - From a graph's IR to a Program --------*- C++ -*-===//
//
// Builds the IR-free Program the planner works on from the single block of a
// function-like op (remat.graph or func.func), applying the memory model of
// docs/memory-model.md: bytes from static shapes, views and in-place results
// as aliases, constants as read-only globals, `remat.recompute` regions
// flattened as if inlined (which is what the lowering does).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_ANALYSIS_PROGRAMBUILDER_H
#define REMAT_ANALYSIS_PROGRAMBUILDER_H

#include "remat/Planning/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace remat {

struct GraphProgram {
  Program program;
  /// The op behind each OpId (ops nested in remat.recompute included;
  /// remat.name tags are not ops of the program).
  std::vector<mlir::Operation *> ops;
  /// The IR value behind each ValueId.
  std::vector<mlir::Value> values;
  llvm::DenseMap<mlir::Value, ValueId> valueIds;
  /// Whether the block holds remat.recompute ops (so OpIds are not block
  /// positions).
  bool hasRecomputes = false;

  mlir::Location locOf(OpId op) const { return ops[op]->getLoc(); }
  mlir::Location locOfValue(ValueId value) const;
};

/// Builds the Program of `function`'s body. Emits a diagnostic and fails on
/// what the memory model cannot size (dynamic shapes, unknown element types)
/// and on bodies that are not a single block.
mlir::FailureOr<GraphProgram> buildProgram(mlir::FunctionOpInterface function);

/// The function `call` calls when the lowering inlines it (remat-lower):
/// one defined in the module with a single-block body that does not call
/// itself, directly or not; nullptr otherwise. The memory model counts such
/// a call as the callee's ops run in place of the call.
mlir::func::FuncOp inlinedCallee(mlir::func::CallOp call);

/// Makes the copies the lowering would make of the step's destinations
/// explicit ops (makeCopiesExplicit in InPlaceAnalysis.h, with the aliases
/// the model reads); run before buildProgram by the passes that reorder or
/// plan a step.
mlir::LogicalResult makeBufferCopiesExplicit(mlir::FunctionOpInterface function);

/// Bytes of the buffer a value of this type needs, or std::nullopt when the
/// type has no static size. Non-tensor values (scalars, shapes) take 0 bytes:
/// they live in registers.
std::optional<uint64_t> bytesOfType(mlir::Type type);

/// Emits an error at `loc` when `type` is a statically shaped tensor whose
/// buffer size does not fit in 64 bits ("tensor<...> has N elements of B
/// bytes: its size overflows 64 bits"); success for every other type.
mlir::LogicalResult verifyStaticByteSize(mlir::Location loc, mlir::Type type);

} // namespace remat

#endif // REMAT_ANALYSIS_PROGRAMBUILDER_H
