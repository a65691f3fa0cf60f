//===- Runner.cpp - The step JIT-compiled, run and measured ---------------===//

#include "Runner.h"

#include "remat/Runtime/RematRuntime.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <chrono>

using namespace mlir;
using namespace remat;
using namespace remat::run;

namespace {

/// Frees what one run returned, before the next: every block the runtime
/// allocated once (results in one arena share it), not arguments or
/// constants returned as they are.
void freeResults(ArrayRef<int64_t> resultWords, const Step &step, bool gpu) {
  llvm::SmallPtrSet<void *, 8> seen;
  size_t word = 0;
  for (const TensorSpec &spec : step.results) {
    auto *allocated = reinterpret_cast<void *>(resultWords[word]);
    word += 3 + 2 * spec.shape.size();
    if (seen.insert(allocated).second)
      gpu ? remat_runtime_device_free_if_owned(allocated)
          : remat_runtime_free_if_owned(allocated);
  }
}

} // namespace

llvm::Expected<Measurement> remat::run::runStep(const CompiledModule &compiled,
                                                const Step &step,
                                                Arguments &arguments,
                                                const RunOptions &options) {
  bool gpu = options.gpu;
  // _mlir_ciface_f(results*, arg0*, arg1*, ...): several results come back
  // as one struct of descriptors, laid out like consecutive descriptors.
  Measurement measurement;
  size_t resultWordCount = 0;
  for (const TensorSpec &spec : step.results)
    resultWordCount += 3 + 2 * spec.shape.size();
  measurement.resultWords.assign(resultWordCount, 0);
  void *resultPointer = measurement.resultWords.data();
  SmallVector<void *> packed;
  if (!step.results.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : arguments.pointers())
    packed.push_back(&pointer);

  bool warmUp = options.repeat > 0;
  unsigned runs = warmUp ? options.repeat + 1 : 1;
  for (unsigned run = 0; run < runs; ++run) {
    if (run > 0) {
      freeResults(measurement.resultWords, step, gpu);
      arguments.restore();
    }
    remat_runtime_reset();
    remat_runtime_device_reset();
    auto start = std::chrono::steady_clock::now();
    compiled.call(packed.data());
    if (gpu)
      remat_runtime_device_synchronize();
    auto stop = std::chrono::steady_clock::now();
    if (!warmUp || run > 0)
      measurement.timesMs.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
  }

  measurement.peak =
      gpu ? remat_runtime_device_peak_bytes() : remat_runtime_peak_bytes();
  measurement.allocations =
      gpu ? remat_runtime_device_alloc_count() : remat_runtime_alloc_count();
  // What the allocator saw, not what the compiler planned: the span of the
  // addresses it handed out (the arena's size when the step has one) and
  // its blocks with their alignment padding.
  measurement.extent =
      gpu ? remat_runtime_device_extent_bytes() : remat_runtime_extent_bytes();
  measurement.paddedPeak = gpu ? remat_runtime_device_padded_peak_bytes()
                               : remat_runtime_padded_peak_bytes();
  return measurement;
}
