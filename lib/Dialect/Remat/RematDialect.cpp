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
