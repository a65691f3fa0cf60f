//===- Jit.h - The lowered module compiled on every core --------*- C++ -*-===//
//
// The module is translated to LLVM IR once, split into as many parts as
// there are compile threads (functions dealt out by size, so the parts
// weigh about the same), and each part is optimized and compiled on its
// own thread by ORC's LLJIT. A training step is hundreds of independent
// kernel functions: on ResNet-50 optimization and code generation are most
// of the time from the module to the first run, and they divide across
// cores. With one thread the module is compiled whole.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_JIT_H
#define REMAT_TOOLS_REMATRUN_JIT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <memory>

namespace remat::run {

/// A compiled module: the step's packed entry point and the JIT that holds
/// its code (and its constants, which results may point into).
class CompiledModule {
public:
  ~CompiledModule();

  /// Compiles `module`, whose `entry` has a C interface, at LLVM's
  /// `optLevel` on `threads` threads (0: one per core); with `perf`, the
  /// code is announced to perf.
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  compile(mlir::ModuleOp module, llvm::StringRef entry, unsigned optLevel,
          unsigned threads, bool perf);

  /// Calls the entry's C interface with `arguments[i]` pointing at its
  /// argument i.
  void call(void **arguments) const { packedEntry(arguments); }

private:
  CompiledModule() = default;

  std::unique_ptr<llvm::orc::LLJIT> jit;
  void (*packedEntry)(void **) = nullptr;
};

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_JIT_H
