//===- RematOps.h - remat dialect operations --------------------*- C++ -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATOPS_H
#define REMAT_DIALECT_REMAT_REMATOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "remat/Dialect/Remat/RematAttributes.h"
#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Interfaces/CostOpInterface.h"

#define GET_OP_CLASSES
#include "remat/Dialect/Remat/RematOps.h.inc"

#endif // REMAT_DIALECT_REMAT_REMATOPS_H
