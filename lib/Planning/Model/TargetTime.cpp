//===- TargetTime.cpp - How long a target takes to run an op --------------===//

#include "remat/Planning/TargetTime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace remat;

llvm::StringRef remat::kernelKindKey(KernelKind kind) {
  switch (kind) {
  case KernelKind::MatrixProduct:
    return "matrix_product";
  case KernelKind::Convolution:
    return "convolution";
  case KernelKind::Window:
    return "window";
  case KernelKind::Streaming:
    return "streaming";
  }
  return "";
}

double TargetTime::seconds(KernelKind kind, uint64_t flops,
                           uint64_t bytes) const {
  if (flops == 0 && bytes == 0)
    return 0;
  double compute =
      double(flops) / (peakFlopsPerSecond * efficiency[unsigned(kind)]);
  double traffic = double(bytes) / bytesPerSecond;
  return secondsPerOp + std::max(compute, traffic);
}

uint64_t TargetTime::cost(KernelKind kind, uint64_t flops,
                          uint64_t bytes) const {
  double time = seconds(kind, flops, bytes);
  if (time == 0)
    return 0;
  double units = std::max(1.0, std::round(time * peakFlopsPerSecond));
  // 2^64 is the first double above every uint64_t.
  if (!(units < 18446744073709551616.0))
    return std::numeric_limits<uint64_t>::max();
  return static_cast<uint64_t>(units);
}

std::optional<TargetTime> remat::lookupTargetTime(llvm::StringRef name) {
  if (name != "cpu")
    return std::nullopt;
  // Measured by `python3 bench/calibrate-time.py` on the reference machine
  // (docs/time-model.md): one thread of an AVX-512 core.
  TargetTime time;
  time.name = "cpu";
  time.peakFlopsPerSecond = 2.2e11;
  time.bytesPerSecond = 5.0e10;
  time.secondsPerOp = 1e-8;
  time.efficiency[unsigned(KernelKind::MatrixProduct)] = 0.77;
  time.efficiency[unsigned(KernelKind::Convolution)] = 0.31;
  time.efficiency[unsigned(KernelKind::Window)] = 0.0025;
  time.efficiency[unsigned(KernelKind::Streaming)] = 0.072;
  return time;
}

std::string remat::checkTargetTime(const TargetTime &time) {
  auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  if (!positive(time.peakFlopsPerSecond))
    return "peak_flops_per_second must be a positive number";
  if (!positive(time.bytesPerSecond))
    return "bytes_per_second must be a positive number";
  if (!std::isfinite(time.secondsPerOp) || time.secondsPerOp < 0)
    return "seconds_per_op must be a number at least 0";
  for (unsigned k = 0; k < kNumKernelKinds; ++k)
    if (!positive(time.efficiency[k]) || time.efficiency[k] > 1)
      return ("efficiency." + kernelKindKey(KernelKind(k)) +
              " must be in (0, 1]")
          .str();
  return "";
}

llvm::Expected<TargetTime> remat::parseTargetTime(llvm::StringRef json) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return fail("not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return fail("expected a JSON object");
  TargetTime time;
  if (std::optional<llvm::StringRef> target = root->getString("target"))
    time.name = target->str();
  else
    return fail("missing \"target\" (a string)");
  for (auto [key, field] :
       {std::pair("peak_flops_per_second", &time.peakFlopsPerSecond),
        std::pair("bytes_per_second", &time.bytesPerSecond),
        std::pair("seconds_per_op", &time.secondsPerOp)}) {
    std::optional<double> number = root->getNumber(key);
    if (!number)
      return fail(llvm::Twine("missing \"") + key + "\" (a number)");
    *field = *number;
  }
  const llvm::json::Object *efficiency = root->getObject("efficiency");
  if (!efficiency)
    return fail("missing \"efficiency\" (an object with matrix_product, "
                "convolution, window and streaming)");
  for (unsigned k = 0; k < kNumKernelKinds; ++k) {
    llvm::StringRef key = kernelKindKey(KernelKind(k));
    std::optional<double> share = efficiency->getNumber(key);
    if (!share)
      return fail("missing \"efficiency\"." + key + " (a number)");
    time.efficiency[k] = *share;
  }
  static constexpr llvm::StringLiteral kFields[] = {
      "target", "peak_flops_per_second", "bytes_per_second", "seconds_per_op",
      "efficiency"};
  for (const auto &entry : *root)
    if (!llvm::is_contained(kFields, llvm::StringRef(entry.first)))
      return fail("unknown field \"" + llvm::StringRef(entry.first) + "\"");
  if (std::string problem = checkTargetTime(time); !problem.empty())
    return fail(problem);
  return time;
}
