//===- ApproximateMath.cpp - Transcendentals as vector arithmetic ---------===//
//
// Upstream's polynomial approximations of the math ops that LLVM would
// otherwise call libm for, one element at a time.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"

namespace remat {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

/// The ops approximated: those upstream approximates in f32 without
/// target intrinsics (rsqrt's approximation needs AVX2's and stays an
/// LLVM intrinsic, which is already a vector instruction).
bool isApproximated(StringRef name) {
  return llvm::is_contained(
      {"math.tanh", "math.erf", "math.erfc", "math.exp", "math.expm1",
       "math.log", "math.log1p", "math.log2", "math.sin", "math.cos",
       "math.atan", "math.atan2", "math.asin", "math.acos", "math.cbrt"},
      name);
}

struct ApproximateMathPass final
    : remat::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
