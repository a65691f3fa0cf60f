//===- PlanAttr.h - A plan recorded on the IR -------------------*- C++ -*-===//
//
// remat-plan records its decisions on the function as
//
//   remat.plan = {ops = 12, values = 20, peak = 4096, count_inputs = false,
//                 recompute = [{value = 3, before = 9,
//                               chain = array<i64: 2, 3>}]}
//
// where `value` and `before`/`chain` are ids in the Program buildProgram
// makes of the function (values: arguments then results in program order;
// ops: program order). `ops` and `values` fingerprint that Program, so that
// remat-apply can refuse a plan the IR no longer matches.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_TRANSFORMS_PLANATTR_H
#define REMAT_LIB_TRANSFORMS_PLANATTR_H

#include "remat/Planning/Plan.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <string>

namespace remat {

struct PlanOutcome;

constexpr llvm::StringLiteral kPlanAttrName = "remat.plan";

struct DecodedPlan {
  Plan plan;
  uint64_t predictedPeak = 0;
  bool countInputs = false;
};

mlir::DictionaryAttr encodePlan(mlir::MLIRContext *context,
                                const PlanOutcome &outcome);

/// Decodes and checks a recorded plan against `program`; on failure returns
/// std::nullopt and sets `error`.
std::optional<DecodedPlan> decodePlan(mlir::DictionaryAttr attr,
                                      const Program &program,
                                      std::string &error);

} // namespace remat

#endif // REMAT_LIB_TRANSFORMS_PLANATTR_H
