//===- RunOptions.h - What remat-run was asked to do ------------*- C++ -*-===//
//
// The command line as one value, so that each phase takes what it reads
// instead of reaching for global options.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_RUNOPTIONS_H
#define REMAT_TOOLS_REMATRUN_RUNOPTIONS_H

#include <cstdint>
#include <string>
#include <vector>

namespace remat::run {

struct RunOptions {
  /// The function to run; empty: the only public one.
  std::string entry;
  /// Seed of the generated arguments, unless inputFiles gives them.
  uint64_t seed = 0;
  std::vector<std::string> inputFiles;
  bool json = false;
  bool gpu = false;
  std::string gpuChip;
  std::string gpuFormat;
  bool arena = true;
  bool vectorize = true;
  unsigned optLevel = 2;
  /// Threads of the step's parallel kernels; 0: the OpenMP runtime's
  /// default.
  unsigned threads = 0;
  /// Threads compiling the JIT's parts; 0: one per core.
  unsigned compileThreads = 0;
  /// Announce the compiled code to perf.
  bool perf = false;
  /// Timed runs after a warm-up; 0: one cold run.
  unsigned repeat = 0;
  /// Where --emit-executable writes, or empty to run.
  std::string executablePath;
  std::string outputDir;
  std::string runtimeDir;

  /// Where --output-dir puts result #i.
  std::string resultNpyPath(size_t i) const {
    return outputDir + "/result-" + std::to_string(i) + ".npy";
  }
};

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_RUNOPTIONS_H
