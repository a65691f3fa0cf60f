//===- RematDialect.h - The remat dialect -----------------------*- C++ -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATDIALECT_H
#define REMAT_DIALECT_REMAT_REMATDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "remat/Dialect/Remat/RematOpsDialect.h.inc"

#endif // REMAT_DIALECT_REMAT_REMATDIALECT_H
