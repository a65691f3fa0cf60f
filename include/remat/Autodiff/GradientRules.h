//===- GradientRules.h - Derivative rules of ops ----------------*- C++ -*-===//
//
// The vector-Jacobian product of each differentiable op, as a rule in a
// table keyed by the op's name, filled by the files of lib/Autodiff/Rules/. A
// rule receives the forward op (its operands and results are forward values of
// the training step) and the adjoint of each result, and emits the adjoint of
// each operand that needs one.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_AUTODIFF_GRADIENTRULES_H
#define REMAT_AUTODIFF_GRADIENTRULES_H

#include "remat/Tosa/Builder.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>

namespace remat {

struct GradientRequest {
  mlir::Operation *op;
  /// Adjoint of each result; a zero tensor for results the loss does not
  /// reach.
  llvm::ArrayRef<mlir::Value> resultGrads;
  /// Whether operand i needs an adjoint (it depends on a parameter).
  llvm::ArrayRef<bool> needed;
  TosaBuilder &tosa;
  /// Out: the adjoint of each operand (null: none, or not needed).
  llvm::SmallVector<mlir::Value> operandGrads;

  mlir::OpBuilder &builder() { return tosa.builder(); }
  mlir::Value operand(unsigned i) { return op->getOperand(i); }
  mlir::Value result(unsigned i = 0) { return op->getResult(i); }
  mlir::Value grad(unsigned i = 0) { return resultGrads[i]; }
  void set(unsigned i, mlir::Value v) {
    if (needed[i])
      operandGrads[i] = v;
  }
};

using GradientRule = std::function<mlir::LogicalResult(GradientRequest &)>;

class GradientRules {
public:
  /// Every rule: TOSA, linalg, arith and math.
  static const GradientRules &get();

  const GradientRule *lookup(llvm::StringRef opName) const {
    auto it = rules.find(opName);
    return it == rules.end() ? nullptr : &it->second;
  }
  /// One rule per op: a second one for the same op is a fatal error.
  void add(llvm::StringRef opName, GradientRule rule);

private:
  llvm::StringMap<GradientRule> rules;
};

/// For a binary op of which exactly one operand is a splat constant, the
/// index of the other operand. Min/max rules against such a bound read their
/// mask from the result instead of that operand.
std::optional<unsigned> operandAgainstSplat(mlir::Operation *op);

} // namespace remat

/// Opens the function that adds the rules of lib/Autodiff/Rules/<Name>.cpp,
/// `add` being add<Name>: GradientRules::get calls it for every file in that
/// folder (the list is made when the build is configured), so a rule, with
/// a kernel only it uses, is one new file there and nothing else to edit.
#define REMAT_GRADIENT_RULES_FILE(add)                                         \
  namespace remat {                                                            \
  void add(GradientRules &rules);                                              \
  }                                                                            \
  void remat::add(GradientRules &rules)

#endif // REMAT_AUTODIFF_GRADIENTRULES_H
