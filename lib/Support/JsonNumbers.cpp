//===- JsonNumbers.cpp - Floating-point numbers in JSON -------------------===//

#include "remat/Support/JsonNumbers.h"

#include <cmath>

llvm::json::Value remat::jsonNumber(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  return value;
}
