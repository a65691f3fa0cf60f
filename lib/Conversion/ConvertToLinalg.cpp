//===- ConvertToLinalg.cpp - TOSA and elementwise ops to linalg -----------===//

#include "remat/Conversion/Passes.h"
#include "remat/Tosa/LinalgLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace remat {
#define GEN_PASS_DEF_CONVERTTOLINALGPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-convert-to-linalg"

using namespace mlir;

namespace {

struct ConvertToLinalgPass final
    : remat::impl::ConvertToLinalgPassBase<ConvertToLinalgPass> {
  void runOnOperation() override {
    if (failed(remat::convertToLinalg(getOperation())))
      signalPassFailure();
  }
};

} // namespace
