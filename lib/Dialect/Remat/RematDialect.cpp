//===- RematDialect.cpp - The remat dialect -------------------------------===//

#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Dialect/Remat/RematAttributes.h"
#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace remat;

#include "remat/Dialect/Remat/RematOpsDialect.cpp.inc"

void RematDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "remat/Dialect/Remat/RematOps.cpp.inc"
      >();
  registerAttributes();
}

std::optional<uint64_t> remat::flopsAttrValue(Attribute attr) {
  auto integer = dyn_cast<IntegerAttr>(attr);
  if (!integer || !isa<IntegerType, IndexType>(integer.getType()))
    return std::nullopt;
  const APInt &value = integer.getValue();
  // Signless integers read as signed, as the parser wrote `-5 : i64`.
  if (!integer.getType().isUnsignedInteger() && value.isNegative())
    return std::nullopt;
  if (value.getActiveBits() > 64)
    return std::nullopt;
  return value.getZExtValue();
}

LogicalResult
remat::verifyFlopsAttr(Attribute attr,
                       function_ref<InFlightDiagnostic()> emitError) {
  if (flopsAttrValue(attr))
    return success();
  return emitError() << "'" << kFlopsAttrName
                     << "' must be a non-negative integer of at most 64 "
                        "bits, got "
                     << attr;
}

LogicalResult
remat::verifyRematAttribute(StringRef name, Attribute value,
                            function_ref<InFlightDiagnostic()> emitError) {
  if (name == kBudgetAttrName && !isa<BudgetAttr>(value))
    return emitError() << "the budget attribute must be a #remat.budget<...> "
                          "such as #remat.budget<0.5>, #remat.budget<64MiB> "
                          "or #remat.budget<min>, not "
                       << value;
  if (name == kFlopsAttrName)
    return verifyFlopsAttr(value, emitError);
  if (name == kSaveAttrName && !isa<BoolAttr>(value))
    return emitError() << "'" << kSaveAttrName
                       << "' must be true (the results may be kept) or false "
                          "(they are recomputed), got "
                       << value;
  if ((name == kSoftmaxAttrName || name == kLogSoftmaxAttrName) &&
      !isa<IntegerAttr>(value))
    return emitError() << "'" << name << "' is the softmax's axis, got "
                       << value;
  if (name == kTanhGeluAttrName && !isa<UnitAttr>(value))
    return emitError() << "'" << kTanhGeluAttrName
                       << "' is a unit attribute, got " << value;
  if (name == kNeverAttrName && !isa<UnitAttr>(value))
    return emitError() << "'" << kNeverAttrName
                       << "' is a unit attribute, written {" << kNeverAttrName
                       << "}, got " << value;
  return success();
}

LogicalResult remat::verifyStepAttributes(FunctionOpInterface step) {
  if (Attribute budget = step->getAttr(kBudgetAttrName))
    if (failed(verifyRematAttribute(kBudgetAttrName, budget,
                                    [&] { return step.emitError(); })))
      return failure();
  // The dialect verifier checks these too; a pass that runs without
  // verification (or IR built in C++) meets them here first.
  WalkResult walk = step->walk([&](Operation *op) {
    if (op == step.getOperation())
      return WalkResult::advance();
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (failed(verifyRematAttribute(attr.getName(), attr.getValue(),
                                      [&] { return op->emitOpError(); })))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult RematDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  return verifyRematAttribute(attr.getName(), attr.getValue(),
                              [&] { return op->emitOpError(); });
}

LogicalResult RematDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned argIndex,
                                                     NamedAttribute attr) {
  if (attr.getName() != kAliasingOutputAttrName)
    return success();
  auto function = dyn_cast<FunctionOpInterface>(op);
  auto index = dyn_cast<IntegerAttr>(attr.getValue());
  if (!function || regionIndex != 0)
    return op->emitOpError("'")
           << kAliasingOutputAttrName << "' belongs on a function's argument";
  ArrayRef<Type> results = function.getResultTypes();
  if (!index || index.getValue().isNegative() ||
      index.getValue().uge(results.size()))
    return op->emitOpError("argument #")
           << argIndex << ": '" << kAliasingOutputAttrName
           << "' must be the index of a result (0 to "
           << static_cast<int64_t>(results.size()) - 1 << "), got "
           << attr.getValue();
  uint64_t result = index.getValue().getZExtValue();
  Type argType = function.getArgumentTypes()[argIndex];
  if (argType != results[result])
    return op->emitOpError("argument #")
           << argIndex << " of type " << argType << " is donated to result #"
           << result << " of another type, " << results[result];
  for (unsigned other = 0; other < argIndex; ++other)
    if (auto same = function.getArgAttrOfType<IntegerAttr>(
            other, kAliasingOutputAttrName);
        same && same.getValue() == index.getValue())
      return op->emitOpError("arguments #")
             << other << " and #" << argIndex << " are both donated to result #"
             << result;
  return success();
}
