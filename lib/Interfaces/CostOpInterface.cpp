//===- CostOpInterface.cpp - Cost of executing an op ----------------------===//

#include "remat/Interfaces/CostOpInterface.h"

#include "remat/Interfaces/CostOpInterface.cpp.inc"
