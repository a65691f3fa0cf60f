//===- JsonNumbers.h - Floating-point numbers in JSON -----------*- C++ -*-===//
//
// JSON has no literal for infinity or NaN, and llvm::json prints them as
// `inf` and `nan`, which no parser accepts. Every JSON the project writes
// (remat-run --json, the plan report) goes through jsonNumber instead.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_SUPPORT_JSONNUMBERS_H
#define REMAT_SUPPORT_JSONNUMBERS_H

#include "llvm/Support/JSON.h"

namespace remat {

/// `value` as a JSON number when it is finite; otherwise the string "inf",
/// "-inf" or "nan" (Python's float() reads each back as the same value).
llvm::json::Value jsonNumber(double value);

} // namespace remat

#endif // REMAT_SUPPORT_JSONNUMBERS_H
