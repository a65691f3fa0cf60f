//===- Codegen.h - How the step's machine code is generated -----*- C++ -*-===//
//
// The step function holds every view, descriptor move and kernel call of
// the step in one basic block: about 94k lines of LLVM IR on ResNet-50.
// LLVM's post-RA list scheduler, which the scheduling models of some hosts
// enable (AMD Zen), takes time that grows with the square of a block's
// length: 22 of the 36 CPU seconds of code generation there. The kernels,
// where scheduling pays, are small functions that the machine scheduler
// before register allocation still schedules. The JIT and the executable
// emitter both generate code without it.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMAT_RUN_CODEGEN_H
#define REMAT_TOOLS_REMAT_RUN_CODEGEN_H

#include "llvm/ADT/StringRef.h"

namespace remat::run {

/// The LLVM option that turns the post-RA list scheduler off, as clang's
/// `-mllvm` passes it.
constexpr llvm::StringLiteral kNoPostRaSchedulingOption =
    "-post-RA-scheduler=false";

/// Sets that option in this process, for the JIT's code generator.
void disablePostRaScheduling();

} // namespace remat::run

#endif // REMAT_TOOLS_REMAT_RUN_CODEGEN_H
