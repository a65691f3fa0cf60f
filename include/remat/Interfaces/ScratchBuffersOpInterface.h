//===- ScratchBuffersOpInterface.h - Buffers an op's lowering needs -*- C++ -*-===//

#ifndef REMAT_INTERFACES_SCRATCHBUFFERSOPINTERFACE_H
#define REMAT_INTERFACES_SCRATCHBUFFERSOPINTERFACE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

#include "remat/Interfaces/ScratchBuffersOpInterface.h.inc"

#endif // REMAT_INTERFACES_SCRATCHBUFFERSOPINTERFACE_H
