//===- Arguments.cpp - The buffers a step is called with ------------------===//

#include "Arguments.h"

#include "Npy.h"

#include "remat/Runtime/RematRuntime.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace remat;
using namespace remat::run;

namespace {

/// Memref descriptors, as 64-bit words: allocated and aligned pointers,
/// offset, sizes, strides (row-major).
void appendDescriptor(SmallVectorImpl<int64_t> &words, void *data,
                      const TensorSpec &spec) {
  words.push_back(reinterpret_cast<int64_t>(data));
  words.push_back(reinterpret_cast<int64_t>(data));
  words.push_back(0);
  for (int64_t dim : spec.shape)
    words.push_back(dim);
  int64_t stride = 1;
  SmallVector<int64_t> strides(spec.shape.size());
  for (int64_t i = spec.shape.size() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= spec.shape[i];
  }
  words.append(strides.begin(), strides.end());
}

} // namespace

Arguments::~Arguments() {
  // Freed on every way out: a sanitizer build checks for leaks at exit.
  for (void *data : buffers)
    gpu ? remat_runtime_shared_free(data) : std::free(data);
}

llvm::Error Arguments::bind(const Step &step, const RunOptions &options,
                            bool keepInitialValues) {
  for (const TensorSpec &spec : step.arguments) {
    size_t bytes = std::max<int64_t>(spec.numBytes(), 1);
    buffers.push_back(gpu ? remat_runtime_shared_alloc(bytes)
                          : std::aligned_alloc(64, (bytes + 63) / 64 * 64));
  }
  uint64_t state = options.seed;
  for (auto [i, spec] : llvm::enumerate(step.arguments)) {
    if (options.inputFiles.empty()) {
      fillFromSeed(spec, buffers[i], state);
    } else if (llvm::Error error =
                   readNpy(options.inputFiles[i], spec, buffers[i])) {
      return llvm::createStringError("argument #" + llvm::Twine(i) + " of @" +
                                     step.entry + ": " +
                                     llvm::toString(std::move(error)));
    }
  }
  for (auto [i, spec] : llvm::enumerate(step.arguments)) {
    if (keepInitialValues) {
      const auto *data = static_cast<const uint8_t *>(buffers[i]);
      initialValues.emplace_back(data, data + spec.numBytes());
    }
    descriptors.emplace_back();
    appendDescriptor(descriptors.back(), buffers[i], spec);
  }
  for (SmallVector<int64_t> &words : descriptors)
    descriptorPointers.push_back(words.data());
  return llvm::Error::success();
}

void Arguments::restore() {
  for (auto [data, values] : llvm::zip(buffers, initialValues))
    std::memcpy(data, values.data(), values.size());
}
