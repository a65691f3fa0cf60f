//===- Passes.h - Remat autodiff passes -------------------------*- C++ -*-===//

#ifndef REMAT_AUTODIFF_PASSES_H
#define REMAT_AUTODIFF_PASSES_H

#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace remat {

#define GEN_PASS_DECL
#include "remat/Autodiff/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "remat/Autodiff/Passes.h.inc"

} // namespace remat

#endif // REMAT_AUTODIFF_PASSES_H
