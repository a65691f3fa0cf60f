//===- GradientRules.cpp - The table of derivative rules ------------------===//

#include "remat/Autodiff/GradientRules.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace remat;

const GradientRules &GradientRules::get() {
  static const GradientRules rules = [] {
    GradientRules r;
    addTosaGradients(r);
    addTosaWindowGradients(r);
    addTosaIndexGradients(r);
    addArithMathGradients(r);
    addLinalgGradients(r);
    return r;
  }();
  return rules;
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
