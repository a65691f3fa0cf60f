//===- Passes.h - Remat conversion passes -----------------------*- C++ -*-===//

#ifndef REMAT_CONVERSION_PASSES_H
#define REMAT_CONVERSION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace remat {

/// Set by remat-lower on every function it gives a C interface: the
/// function's type before bufferization (tensors), kept through the lowering
/// to LLVM so that a driver can build the arguments of a lowered module.
constexpr llvm::StringLiteral kSignatureAttrName = "remat.signature";

#define GEN_PASS_DECL
#include "remat/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "remat/Conversion/Passes.h.inc"

} // namespace remat

#endif // REMAT_CONVERSION_PASSES_H
