//===- Lower.h - The module lowered for the device --------------*- C++ -*-===//
//
// Lower phase: remat-to-cpu or remat-to-gpu, unless the module is in the
// LLVM dialect already; or, instead of running, an executable that runs
// the step.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_LOWER_H
#define REMAT_TOOLS_REMATRUN_LOWER_H

#include "RunOptions.h"
#include "Step.h"

namespace remat::run {

llvm::Error lowerModule(mlir::ModuleOp module, const Step &step,
                        const RunOptions &options);

/// Writes options.executablePath; `argv0` finds the runtime library when
/// options.runtimeDir does not say where it is.
llvm::Error emitStepExecutable(mlir::ModuleOp module, const Step &step,
                               const RunOptions &options, const char *argv0);

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_LOWER_H
