//===- Codegen.h - How the step's machine code is generated -----*- C++ -*-===//
//
// The step function holds every view, descriptor move and kernel call of
// the step in one basic block: about 94k lines of LLVM IR on ResNet-50.
// remat-share-kernels marks such a function `optnone`; two things make the
// code generation of that block honour it and stay near-linear:
// - LLVM's optimization pipeline skips `optnone` functions only where the
//   pass builder has the standard instrumentations registered, which
//   upstream's optimizing transformer (mlir/ExecutionEngine/OptUtils.h)
//   does not do: the block was optimized all the same, and instruction
//   selection of what that made took most of the JIT's time;
// - LLVM's post-RA list scheduler, which the scheduling models of some
//   hosts (AMD Zen) enable, takes time that grows with the square of a
//   block's length. The kernels, where scheduling pays, are small
//   functions that the machine scheduler before register allocation still
//   schedules.
// The JIT and the executable emitter both generate code this way.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMAT_RUN_CODEGEN_H
#define REMAT_TOOLS_REMAT_RUN_CODEGEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace remat::run {

/// The LLVM option that turns the post-RA list scheduler off, as clang's
/// `-mllvm` passes it.
constexpr llvm::StringLiteral kNoPostRaSchedulingOption =
    "-post-RA-scheduler=false";

/// Sets that option in this process, for the JIT's code generator.
void disablePostRaScheduling();

/// LLVM's default pipeline at `optLevel` for `targetMachine`, skipping
/// `optnone` functions as clang and opt do.
std::function<llvm::Error(llvm::Module *)>
makeOptimizer(unsigned optLevel, llvm::TargetMachine *targetMachine);

} // namespace remat::run

#endif // REMAT_TOOLS_REMAT_RUN_CODEGEN_H
