//===- Report.cpp - What a run of the step printed and wrote --------------===//

#include "Report.h"

#include "Npy.h"

#include "remat/Support/ToolFiles.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace remat;
using namespace remat::run;

namespace {

/// Copies a result into a dense row-major buffer, following its strides.
std::vector<uint8_t> denseCopy(const int64_t *descriptor,
                               const TensorSpec &spec) {
  const auto *base = reinterpret_cast<const uint8_t *>(descriptor[1]);
  int64_t offset = descriptor[2];
  size_t rank = spec.shape.size();
  const int64_t *strides = descriptor + 3 + rank;
  int64_t elementBytes = spec.elementBytes();
  std::vector<uint8_t> dense(spec.numBytes());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t linear = 0, e = spec.numElements(); linear < e; ++linear) {
    int64_t position = offset;
    for (size_t d = 0; d < rank; ++d)
      position += index[d] * strides[d];
    std::memcpy(dense.data() + linear * elementBytes,
                base + position * elementBytes, elementBytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < spec.shape[d])
        break;
      index[d] = 0;
    }
  }
  return dense;
}

void printJson(const Step &step, const Measurement &measurement,
               ArrayRef<Digest> digests) {
  // Streamed in this key order (llvm::json::Object would sort the keys);
  // docs/lowering.md describes it.
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream report(os);
  auto milliseconds = [&](double value) {
    report.rawValue(llvm::formatv("{0:F3}", value).str());
  };
  report.object([&] {
    report.attributeArray("outputs", [&] {
      for (auto [spec, result] : llvm::zip(step.results, digests))
        writeDigestJson(report, spec, result);
    });
    report.attribute("peak_bytes", measurement.peak);
    report.attribute("alloc_count", measurement.allocations);
    report.attribute("arena_bytes", measurement.extent);
    report.attribute("padded_peak_bytes", measurement.paddedPeak);
    report.attributeBegin("time_ms");
    milliseconds(measurement.medianMs());
    report.attributeEnd();
    report.attributeArray("times_ms", [&] {
      for (double time : measurement.timesMs)
        milliseconds(time);
    });
  });
  std::printf("%s\n", text.c_str());
}

void printText(const Step &step, const Measurement &measurement,
               ArrayRef<Digest> digests, bool gpu) {
  for (auto [i, spec, result] : llvm::enumerate(step.results, digests))
    std::printf("result #%zu: %s %s sum %.9g hash %016llx\n", i,
                spec.shapeString().c_str(), dtypeName(spec.dtype), result.sum,
                static_cast<unsigned long long>(result.hash));
  std::printf("peak: %llu bytes in %llu allocations (%s)\n"
              "arena: %llu bytes (extent of the allocations), padded peak: "
              "%llu bytes\ntime: %.3f ms",
              static_cast<unsigned long long>(measurement.peak),
              static_cast<unsigned long long>(measurement.allocations),
              gpu ? "device" : "host",
              static_cast<unsigned long long>(measurement.extent),
              static_cast<unsigned long long>(measurement.paddedPeak),
              measurement.medianMs());
  if (measurement.timesMs.size() > 1)
    std::printf(" (median of %zu runs after a warm-up)",
                measurement.timesMs.size());
  std::printf("\n");
}

} // namespace

llvm::Error remat::run::report(const Step &step, const Measurement &measurement,
                               const RunOptions &options) {
  OutputFiles &outputs = OutputFiles::get();
  SmallVector<Digest> digests;
  size_t word = 0;
  for (auto [i, spec] : llvm::enumerate(step.results)) {
    std::vector<uint8_t> dense =
        denseCopy(measurement.resultWords.data() + word, spec);
    word += 3 + 2 * spec.shape.size();
    digests.push_back(digest(spec, dense.data()));
    if (!options.outputDir.empty())
      if (llvm::Error error = outputs.stage(options.resultNpyPath(i),
                                            encodeNpy(spec, dense.data())))
        return llvm::createStringError("result #" + llvm::Twine(i) + ": " +
                                       llvm::toString(std::move(error)));
  }
  if (llvm::Error error = outputs.commit())
    return error;
  if (options.json)
    printJson(step, measurement, digests);
  else
    printText(step, measurement, digests, options.gpu);
  return llvm::Error::success();
}
