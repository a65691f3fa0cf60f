//===- Locations.h - Locations for people -----------------------*- C++ -*-===//

#ifndef REMAT_SUPPORT_LOCATIONS_H
#define REMAT_SUPPORT_LOCATIONS_H

#include "mlir/IR/Location.h"

#include <string>

namespace remat {

/// "file.mlir:12:5" for the first file location found inside `loc` (through
/// fused, named and call-site locations); the printed location otherwise.
std::string formatLoc(mlir::Location loc);

} // namespace remat

#endif // REMAT_SUPPORT_LOCATIONS_H
