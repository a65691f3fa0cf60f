//===- ScratchBuffersOpInterface.cpp - Buffers an op's lowering needs -----===//

#include "remat/Interfaces/ScratchBuffersOpInterface.h"

#include "remat/Interfaces/ScratchBuffersOpInterface.cpp.inc"
