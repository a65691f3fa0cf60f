//===- RematDialect.cpp - The remat dialect -------------------------------===//

#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Dialect/Remat/RematAttributes.h"
#include "remat/Dialect/Remat/RematOps.h"

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

LogicalResult RematDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == kFlopsAttrName)
    return verifyFlopsAttr(attr.getValue(), [&] { return op->emitOpError(); });
  return success();
}
