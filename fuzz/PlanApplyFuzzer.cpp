//===- PlanApplyFuzzer.cpp - libFuzzer target for parse, plan and apply ---===//
//
// Parses arbitrary text as MLIR with the dialects a training step uses, then
// plans it at a tight budget (remat-plan, best effort, a short time limit)
// and applies the plan (remat-apply). Errors are expected; the contracts
// checked are:
//  - no crash, hang or sanitizer report anywhere on the way;
//  - what remat-plan and remat-apply produce verifies;
//  - a plan remat-plan wrote, remat-apply accepts (inputs that carry a
//    hand-written `remat.plan` may be rejected, with a diagnostic).
// The input's length picks the budget, so that fractions and 'min' are all
// covered without spending input bytes on it.
//
//===----------------------------------------------------------------------===//

#include "FuzzDiagnostics.h"

#include "remat/Analysis/CostModel.h"
#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <string>

using namespace mlir;

static const DialectRegistry &stepDialects() {
  static const DialectRegistry registry = [] {
    DialectRegistry r;
    r.insert<remat::RematDialect, arith::ArithDialect, func::FuncDialect,
             linalg::LinalgDialect, math::MathDialect, tensor::TensorDialect,
             tosa::TosaDialect>();
    remat::registerCostModelExternalModels(r);
    return r;
  }();
  return registry;
}

/// Runs one pass on `module`; the pass manager's own verifier is off so that
/// a pass producing invalid IR is told apart from a pass reporting an error.
static LogicalResult runPass(ModuleOp module, std::unique_ptr<Pass> pass,
                             const remat::fuzz::CollectedDiagnostics &diags,
                             llvm::StringRef name) {
  PassManager pm(module.getContext());
  pm.enableVerifier(false);
  pm.addPass(std::move(pass));
  if (failed(pm.run(module)))
    return failure();
  if (failed(verify(module)))
    diags.fail((name + " produced IR that does not verify").str());
  return success();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const budgets[] = {"0.5", "0.8", "min"};
  // The MLIR lexer reads up to a terminating NUL: parse from a copy.
  std::string text(reinterpret_cast<const char *>(data), size);
  MLIRContext context(stepDialects(), MLIRContext::Threading::DISABLED);
  remat::fuzz::CollectedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      text, ParserConfig(&context), "fuzz.mlir");
  if (!module)
    return 0;

  remat::PlanPassOptions plan;
  plan.budget = budgets[size % std::size(budgets)];
  plan.bestEffort = true;
  plan.timeLimit = 1;
  // The order as written: the fuzzer checks planning and applying, not
  // the choice of order.
  plan.schedule = false;
  if (failed(runPass(*module, remat::createPlanPass(plan), diagnostics,
                     "remat-plan")))
    return 0;
  bool handWrittenPlan = text.find("remat.plan") != std::string::npos;
  if (failed(runPass(*module, remat::createApplyPass(), diagnostics,
                     "remat-apply")) &&
      !handWrittenPlan)
    diagnostics.fail("remat-apply rejected the plan remat-plan wrote");
  return 0;
}
