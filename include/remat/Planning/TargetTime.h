//===- TargetTime.h - How long a target takes to run an op ------*- C++ -*-===//
//
// A roofline per kind of kernel, calibrated on the target: an op takes a
// fixed cost plus the longer of its FLOPs at the share of the peak rate its
// kind of kernel reaches and its bytes at the bandwidth the kernels reach.
// The planner prices a recomputation with it (OpInfo::cost), so that a
// memory-bound elementwise op is not taken for free and a convolution whose
// kernel runs far below peak is not taken for a matrix product of the same
// FLOPs. `bench/calibrate-time.py` measures the numbers for the machine it
// runs on and writes them as JSON (parseTargetTime's format).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_TARGETTIME_H
#define REMAT_PLANNING_TARGETTIME_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace remat {

/// The kinds of kernel the lowering emits, which reach different shares of
/// the peak: register-tiled matrix products, convolutions run tap by tap,
/// pooling windows (scalar loops over each window), and everything else
/// (elementwise, reductions, copies), which streams its operands.
enum class KernelKind : unsigned {
  MatrixProduct,
  Convolution,
  Window,
  Streaming
};
constexpr unsigned kNumKernelKinds = 4;

/// The JSON key of a kind ("matrix_product", "convolution", "window",
/// "streaming").
llvm::StringRef kernelKindKey(KernelKind kind);

struct TargetTime {
  /// What the numbers describe (a target name, or the file's "target").
  std::string name;
  /// FLOPs per second the target's vector unit can issue (one thread).
  double peakFlopsPerSecond = 0;
  /// Bytes per second a streaming kernel reads and writes.
  double bytesPerSecond = 0;
  /// What every op costs beyond its FLOPs and bytes (loop set-up, a call).
  double secondsPerOp = 0;
  /// The share of peakFlopsPerSecond each kind of kernel reaches, in (0, 1].
  std::array<double, kNumKernelKinds> efficiency = {1, 1, 1, 1};

  /// Estimated seconds of one execution of an op of `kind` with `flops`
  /// FLOPs that reads and writes `bytes` bytes. An op of no FLOPs and no
  /// bytes (a view, a constant) runs no kernel and takes no time.
  double seconds(KernelKind kind, uint64_t flops, uint64_t bytes) const;
  /// The same in cost units (OpInfo::cost): FLOP-equivalents of the peak
  /// rate, to the nearest unit and at least 1 for an op that takes time,
  /// saturating at 2^64-1.
  uint64_t cost(KernelKind kind, uint64_t flops, uint64_t bytes) const;
};

/// The built-in description named `name`: "cpu" (measured on the reference
/// machine of docs/time-model.md). There is none for "gpu": no device has
/// calibrated one.
std::optional<TargetTime> lookupTargetTime(llvm::StringRef name);

/// Empty when every number of `time` is positive and finite and every
/// efficiency at most 1; otherwise what is wrong, naming the field.
std::string checkTargetTime(const TargetTime &time);

/// Reads a description written as JSON:
///   {"target": "cpu", "peak_flops_per_second": 2.3e11,
///    "bytes_per_second": 1.2e10, "seconds_per_op": 1e-7,
///    "efficiency": {"matrix_product": 0.5, "convolution": 0.1,
///                   "window": 0.003, "streaming": 0.05}}
/// An error names the field that is missing or wrong.
llvm::Expected<TargetTime> parseTargetTime(llvm::StringRef json);

} // namespace remat

#endif // REMAT_PLANNING_TARGETTIME_H
