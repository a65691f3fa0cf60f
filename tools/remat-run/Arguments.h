//===- Arguments.h - The buffers a step is called with ----------*- C++ -*-===//
//
// Bind phase: argument buffers filled from the seed or from .npy files, and
// the memref descriptors the C interface takes.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_ARGUMENTS_H
#define REMAT_TOOLS_REMATRUN_ARGUMENTS_H

#include "RunOptions.h"
#include "Step.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace remat::run {

/// The step's arguments: host memory, or managed memory kernels can read.
/// When the step runs more than once, each run starts from the same values:
/// a step may update donated arguments in place.
class Arguments {
public:
  explicit Arguments(bool gpu) : gpu(gpu) {}
  Arguments(const Arguments &) = delete;
  ~Arguments();

  /// Allocates and fills a buffer per argument of `step`; with
  /// `keepInitialValues`, keeps a copy for restore().
  llvm::Error bind(const Step &step, const RunOptions &options,
                   bool keepInitialValues);

  /// Puts back the values the arguments were bound with.
  void restore();

  llvm::SmallVector<void *> &pointers() { return descriptorPointers; }

private:
  bool gpu;
  std::vector<void *> buffers;
  std::vector<std::vector<uint8_t>> initialValues;
  llvm::SmallVector<llvm::SmallVector<int64_t>> descriptors;
  llvm::SmallVector<void *> descriptorPointers;
};

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_ARGUMENTS_H
