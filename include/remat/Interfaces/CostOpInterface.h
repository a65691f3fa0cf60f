//===- CostOpInterface.h - Cost of executing an op --------------*- C++ -*-===//

#ifndef REMAT_INTERFACES_COSTOPINTERFACE_H
#define REMAT_INTERFACES_COSTOPINTERFACE_H

#include "mlir/IR/OpDefinition.h"

#include <cstdint>
#include <optional>

#include "remat/Interfaces/CostOpInterface.h.inc"

#endif // REMAT_INTERFACES_COSTOPINTERFACE_H
