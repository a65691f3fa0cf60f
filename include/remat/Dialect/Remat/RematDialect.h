//===- RematDialect.h - The remat dialect -----------------------*- C++ -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATDIALECT_H
#define REMAT_DIALECT_REMAT_REMATDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

/// Unit attribute forbidding recomputation of an op: `{remat.never}`.
constexpr llvm::StringLiteral kNeverAttrName = "remat.never";

/// A checkpoint policy's verdict on an op: `{remat.save = false}` means its
/// results must be recomputed for the backward pass, `true` that they may be
/// kept.
constexpr llvm::StringLiteral kSaveAttrName = "remat.save";

/// Marks the linalg.generic producing a softmax (`{remat.softmax = axis}`)
/// or a log-softmax (`{remat.log_softmax = axis}`) along an axis, with the
/// softmax's input as operand 0 (remat/Tosa/SoftmaxKernels.h): its
/// derivative rule differentiates the whole softmax from the result.
constexpr llvm::StringLiteral kSoftmaxAttrName = "remat.softmax";
constexpr llvm::StringLiteral kLogSoftmaxAttrName = "remat.log_softmax";
/// Marks the linalg.generic computing the tanh approximation of GELU of its
/// operand 0 (remat/Tosa/ActivationKernels.h), a unit attribute: its
/// derivative rule reads only that operand.
constexpr llvm::StringLiteral kTanhGeluAttrName = "remat.tanh_gelu";

/// A step's peak-memory budget, a `#remat.budget<...>`: inherent on
/// `remat.graph`, a discardable attribute on any other function-like op
/// (`func.func`), hence without the dialect prefix.
constexpr llvm::StringLiteral kBudgetAttrName = "budget";

/// The FLOPs a `remat.flops` attribute states: a non-negative integer that
/// fits in 64 unsigned bits (`: ui64` reaches 2^64-1); std::nullopt for
/// anything else.
std::optional<uint64_t> flopsAttrValue(mlir::Attribute attr);

/// Emits what is wrong with a `remat.flops` attribute through `emitError`;
/// success when flopsAttrValue accepts it.
mlir::LogicalResult
verifyFlopsAttr(mlir::Attribute attr,
                llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The one place that says what each attribute the Remat passes read on an
/// op must be: `budget` (a #remat.budget), `remat.flops`, `remat.save` (a
/// boolean) and `remat.never` (a unit attribute). Emits what is wrong with
/// `name` = `value` through `emitError`; success for any other name. The
/// dialect verifier, remat.graph's parser and verifyStepAttributes call it.
mlir::LogicalResult
verifyRematAttribute(llvm::StringRef name, mlir::Attribute value,
                     llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Checks the attributes the passes read on `step`, whatever kind of
/// function-like op it is (remat.graph, func.func, ...): its budget and the
/// attributes of the ops in its body. The dialect verifier sees `remat.*`
/// attributes, but not the unprefixed `budget` of a func.func; remat-plan
/// calls this on every step before planning any.
mlir::LogicalResult verifyStepAttributes(mlir::FunctionOpInterface step);

} // namespace remat

#endif // REMAT_DIALECT_REMAT_REMATDIALECT_H
