//===- ExecutableEmitter.h - Ahead-of-time executables ----------*- C++ -*-===//

#ifndef REMAT_TOOLS_REMATRUN_EXECUTABLEEMITTER_H
#define REMAT_TOOLS_REMATRUN_EXECUTABLEEMITTER_H

#include "Tensors.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace remat::run {

struct ExecutableRequest {
  /// The module, lowered to the LLVM dialect.
  mlir::ModuleOp module;
  /// The function whose `_mlir_ciface_` wrapper the driver calls.
  std::string entry;
  llvm::SmallVector<TensorSpec> arguments;
  llvm::SmallVector<TensorSpec> results;
  uint64_t seed = 0;
  /// Inputs in managed memory, device counters in the report.
  bool gpu = false;
  /// Where libremat_runtime.a is.
  std::string runtimeDir;
  std::string output;
};

/// Translates the module to LLVM IR, generates a C driver that fills the
/// arguments from the seed exactly as remat-run does, calls the entry once
/// and prints remat-run's JSON, and links both with the static runtime
/// library into `request.output` with clang.
llvm::Error emitExecutable(const ExecutableRequest &request);

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_EXECUTABLEEMITTER_H
