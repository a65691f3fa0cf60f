//===- RematDialect.h - The remat dialect -----------------------*- C++ -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATDIALECT_H
#define REMAT_DIALECT_REMAT_REMATDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "remat/Dialect/Remat/RematOpsDialect.h.inc"

#include <cstdint>
#include <optional>

namespace remat {

/// Attribute overriding the cost of any op: `{remat.flops = 1000 : i64}`.
constexpr llvm::StringLiteral kFlopsAttrName = "remat.flops";

/// Argument attribute of a step donating the argument's buffer to a result:
/// `{remat.aliasing_output = 1 : i64}` says result 1 is the argument's
/// updated value, written into the caller's buffer (JAX's donated
/// arguments, XLA's input/output aliasing).
constexpr llvm::StringLiteral kAliasingOutputAttrName =
    "remat.aliasing_output";

/// The FLOPs a `remat.flops` attribute states: a non-negative integer that
/// fits in 64 unsigned bits (`: ui64` reaches 2^64-1); std::nullopt for
/// anything else.
std::optional<uint64_t> flopsAttrValue(mlir::Attribute attr);

/// Emits what is wrong with a `remat.flops` attribute through `emitError`;
/// success when flopsAttrValue accepts it.
mlir::LogicalResult
verifyFlopsAttr(mlir::Attribute attr,
                llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace remat

#endif // REMAT_DIALECT_REMAT_REMATDIALECT_H
