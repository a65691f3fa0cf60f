//===- Passes.h - Remat passes and pipelines --------------------*- C++ -*-===//

#ifndef REMAT_TRANSFORMS_PASSES_H
#define REMAT_TRANSFORMS_PASSES_H

#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>
#include <vector>

namespace remat {

#define GEN_PASS_DECL
#include "remat/Transforms/Passes.h.inc"

/// Options of the remat-pipeline (inline checkpoints, plan, apply).
struct RematPipelineOptions {
  std::string budget;
  std::string solver = "greedy";
  std::string policy;
  std::vector<std::string> names;
  bool countInputs = false;
  uint64_t minRematBytes = 0;
  bool bestEffort = false;
  /// What the budget bounds: "arena" or "live" (remat-plan's budget-kind).
  std::string budgetKind = "arena";
  /// The target whose memory description (TargetMemory.h) gives the arena's
  /// alignment, unless arenaAlignment (non-zero) overrides it.
  std::string target = "cpu";
  uint64_t arenaAlignment = 0;
  double timeLimit = 60;
  /// Also plan the memory-aware order (remat-plan's `reorder`).
  bool schedule = true;
  std::string report;
  std::string timeline;
  bool summary = false;
};

/// Adds the remat pipeline to a module-level pass manager.
void buildRematPipeline(mlir::OpPassManager &pm,
                        const RematPipelineOptions &options);

/// Registers `remat-pipeline` for textual pipelines and command lines.
void registerRematPipeline();

#define GEN_PASS_REGISTRATION
#include "remat/Transforms/Passes.h.inc"

} // namespace remat

#endif // REMAT_TRANSFORMS_PASSES_H
