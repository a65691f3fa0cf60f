//===- RematAttributes.h - remat dialect attributes -------------*- C++ -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATATTRIBUTES_H
#define REMAT_DIALECT_REMAT_REMATATTRIBUTES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "remat/Support/Budget.h"

#include "remat/Dialect/Remat/RematEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "remat/Dialect/Remat/RematAttributes.h.inc"

#endif // REMAT_DIALECT_REMAT_REMATATTRIBUTES_H
