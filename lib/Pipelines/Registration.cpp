//===- Registration.cpp - remat-to-cpu and remat-to-gpu -------------------===//

#include "remat/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace remat;

namespace {

struct CpuCLOptions : PassPipelineOptions<CpuCLOptions> {
  Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("Give functions made from graphs a _mlir_ciface_ "
                     "wrapper"),
      llvm::cl::init(true)};
  Option<bool> arena{
      *this, "arena",
      llvm::cl::desc("Place each step's buffers in one arena allocation "
                     "(false: one allocation per buffer)"),
      llvm::cl::init(true)};
  Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile the linalg ops for the vector registers and "
                     "vectorize them (false: scalar loop nests)"),
      llvm::cl::init(true)};
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width in bits (0: the host's)"),
      llvm::cl::init(0)};

  CpuPipelineOptions toOptions() const {
    CpuPipelineOptions options;
    options.emitCInterface = emitCInterface;
    options.arena = arena;
    options.vectorize = vectorize;
    options.vectorBits = vectorBits;
    return options;
  }
};

struct GpuCLOptions : PassPipelineOptions<GpuCLOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU architecture"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (sm_90 needs +ptx78 or later)"),
      llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Binary format: isa (PTX), bin or fatbin (need ptxas)"),
      llvm::cl::init("isa")};
  Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("Give functions made from graphs a _mlir_ciface_ "
                     "wrapper"),
      llvm::cl::init(true)};
  Option<bool> arena{
      *this, "arena",
      llvm::cl::desc("Place each step's buffers in one arena allocation "
                     "(false: one allocation per buffer)"),
      llvm::cl::init(true)};

  GpuPipelineOptions toOptions() const {
    GpuPipelineOptions options;
    options.chip = chip;
    options.features = features;
    options.format = format;
    options.emitCInterface = emitCInterface;
    options.arena = arena;
    return options;
  }
};

} // namespace

void remat::registerLoweringPipelines() {
  PassPipelineRegistration<CpuCLOptions>(
      "remat-to-cpu",
      "Lower planned training steps to the LLVM dialect for the CPU, with "
      "allocations through _mlir_memref_to_llvm_alloc/_free",
      [](OpPassManager &pm, const CpuCLOptions &options) {
        buildRematToCpuPipeline(pm, options.toOptions());
      });
  PassPipelineRegistration<GpuCLOptions>(
      "remat-to-gpu",
      "Lower planned training steps to the LLVM dialect with NVVM kernels "
      "(gpu.binary) and device allocations",
      [](OpPassManager &pm, const GpuCLOptions &options) {
        buildRematToGpuPipeline(pm, options.toOptions());
      });
}
