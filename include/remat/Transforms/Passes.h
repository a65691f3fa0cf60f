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
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace remat {

#define GEN_PASS_DECL
#include "remat/Transforms/Passes.h.inc"

/// The options of remat-pipeline, both its C++ API and its command line.
/// They are remat-plan's, under the same names and with the same defaults
/// (planOptions projects them onto the pass).
struct RematPipelineOptions
    : public mlir::PassPipelineOptions<RematPipelineOptions> {
  Option<std::string> budget{
      *this, "budget",
      llvm::cl::desc("Peak-memory budget: bytes (67108864), a size (64MiB, "
                     "1.5GiB), a fraction of the unrematerialized peak (0.5), "
                     "or 'min'")};
  Option<std::string> solver{
      *this, "solver", llvm::cl::desc("Solver deciding what to recompute"),
      llvm::cl::init("greedy")};
  Option<std::string> policy{
      *this, "policy",
      llvm::cl::desc("Checkpoint policy for the whole graph "
                     "(everything_saveable, nothing_saveable, dots_saveable, "
                     "dots_with_no_batch_dims_saveable, save_only_these_names, "
                     "save_any_names_but_these)")};
  ListOption<std::string> names{
      *this, "names",
      llvm::cl::desc("Names (remat.name tags) for the name-based policies")};
  Option<bool> countInputs{
      *this, "count-inputs",
      llvm::cl::desc("Count the step's inputs as live memory"),
      llvm::cl::init(false)};
  Option<uint64_t> minRematBytes{
      *this, "min-remat-bytes",
      llvm::cl::desc("Never recompute values smaller than this many bytes"),
      llvm::cl::init(0)};
  Option<bool> bestEffort{
      *this, "best-effort",
      llvm::cl::desc("Warn instead of failing when the budget cannot be met"),
      llvm::cl::init(false)};
  Option<std::string> budgetKind{
      *this, "budget-kind",
      llvm::cl::desc("What the budget bounds: 'arena' (the step's buffers "
                     "placed in one arena, alignment padding and "
                     "fragmentation included) or 'live' (the sum of live "
                     "bytes)"),
      llvm::cl::init("arena")};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The target the step is lowered for, whose memory "
                     "description (TargetMemory.h) gives the arena's "
                     "alignment: 'cpu' (64 bytes) or 'gpu' (256 bytes)"),
      llvm::cl::init("cpu")};
  Option<uint64_t> arenaAlignment{
      *this, "arena-alignment",
      llvm::cl::desc("Overrides the target's arena alignment: a power of "
                     "two, at most 4096 (0: the target's)"),
      llvm::cl::init(0)};
  Option<std::string> costModel{
      *this, "cost-model",
      llvm::cl::desc("What a recomputation costs: 'flops', or 'time' "
                     "(each op's estimated time on the target); empty: "
                     "'time' when time-model is given, else 'flops'")};
  Option<std::string> timeModel{
      *this, "time-model",
      llvm::cl::desc("A JSON time model (bench/calibrate-time.py writes one) "
                     "in place of the target's built-in one")};
  Option<double> timeLimit{
      *this, "time-limit",
      llvm::cl::desc("Seconds the planning of each graph may take, all of "
                     "it: both orders with schedule and every arena re-plan "
                     "share them"),
      llvm::cl::init(60)};
  Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("Also plan the memory-aware order of remat-schedule and "
                     "keep the order that plans better (the IR is reordered "
                     "only then)"),
      llvm::cl::init(true)};
  Option<bool> isolateSearch{
      *this, "isolate-search",
      llvm::cl::desc("Run the ilp solver's CBC search in a forked child "
                     "killed at the time limit; false runs it in this process "
                     "(for hosts that must not fork), where CBC's own limit "
                     "applies"),
      llvm::cl::init(true)};
  Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write a JSON report of every decision to this file")};
  Option<std::string> timeline{
      *this, "timeline",
      llvm::cl::desc("Write an SVG memory timeline (before/after) to this "
                     "file")};
  Option<bool> summary{
      *this, "summary",
      llvm::cl::desc("Print a human-readable summary of each graph's plan to "
                     "stderr"),
      llvm::cl::init(false)};

  /// The same options, for remat-plan.
  PlanPassOptions planOptions() const;
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
