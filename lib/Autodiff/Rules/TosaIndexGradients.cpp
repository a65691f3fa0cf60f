//===- TosaIndexGradients.cpp - Derivative of tosa.gather -----------------===//
//
// The adjoint of a gather (an embedding lookup) is a scatter-add of the
// result's adjoint into the table: every table row receives the sum of the
// adjoint rows of the positions that picked it. It reads the indices (i32)
// and the adjoint, never the table, makes no one-hot tensor, and runs as
// loops over the positions (remat/Tosa/ScatterKernels.h).
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"
#include "remat/Tosa/ScatterKernels.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace remat;

namespace {

LogicalResult gatherRule(GradientRequest &r) {
  if (r.needed[1])
    return r.op->emitError("cannot differentiate a gather by its indices");
  r.set(0, buildScatterAdd(r.builder(), r.tosa.getLoc(), r.operand(1), r.grad(),
                           shapeOf(r.operand(0))));
  return success();
}

} // namespace

REMAT_GRADIENT_RULES_FILE(addTosaIndexGradients) {
  rules.add(tosa::GatherOp::getOperationName(), gatherRule);
}
