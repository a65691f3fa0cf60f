//===- GradientRules.cpp - The table of derivative rules ------------------===//

#include "remat/Autodiff/GradientRules.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace remat;

// GradientRuleFiles.inc, generated from lib/Autodiff/Rules/, holds one
// REMAT_GRADIENT_RULES(add<Name>) per file there.
#define REMAT_GRADIENT_RULES(add)                                              \
  namespace remat {                                                            \
  void add(GradientRules &rules);                                              \
  }
#include "GradientRuleFiles.inc"
#undef REMAT_GRADIENT_RULES

const GradientRules &GradientRules::get() {
  static const GradientRules rules = [] {
    GradientRules r;
#define REMAT_GRADIENT_RULES(add) add(r);
#include "GradientRuleFiles.inc"
#undef REMAT_GRADIENT_RULES
    return r;
  }();
  return rules;
}

void GradientRules::add(StringRef opName, GradientRule rule) {
  // Two files differentiating one op would make the table depend on the
  // order the files are listed in.
  if (!rules.try_emplace(opName, std::move(rule)).second)
    llvm::report_fatal_error(Twine("two gradient rules for ") + opName);
}

static bool isSplatConstant(Value v) {
  DenseElementsAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.isSplat();
}

std::optional<unsigned> remat::operandAgainstSplat(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  bool first = isSplatConstant(op->getOperand(0));
  bool second = isSplatConstant(op->getOperand(1));
  if (first == second)
    return std::nullopt;
  return first ? 1 : 0;
}
