//===- Registration.cpp - remat-to-cpu and remat-to-gpu -------------------===//

#include "remat/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace remat;

void remat::registerLoweringPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "remat-to-cpu",
      "Lower planned training steps to the LLVM dialect for the CPU, with "
      "allocations through _mlir_memref_to_llvm_alloc/_free",
      buildRematToCpuPipeline);
  PassPipelineRegistration<GpuPipelineOptions>(
      "remat-to-gpu",
      "Lower planned training steps to the LLVM dialect with NVVM kernels "
      "(gpu.binary) and device allocations",
      buildRematToGpuPipeline);
}
