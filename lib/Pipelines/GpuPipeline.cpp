//===- GpuPipeline.cpp - remat-to-gpu -------------------------------------===//

#include "Frontend.h"
#include "remat/Conversion/Passes.h"
#include "remat/Pipelines/Pipelines.h"
#include "remat/Planning/TargetMemory.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void remat::buildRematToGpuPipeline(OpPassManager &pm,
                                    const GpuPipelineOptions &options) {
  buildBufferizedFrontend(pm, options.emitCInterface);
  if (options.arena)
    pm.addPass(createArenaAllocationPass({kGpuTargetMemory.alignment}));

  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(createConvertLinalgToParallelLoopsPass());
  func.addPass(createGpuMapParallelLoopsPass());
  func.addPass(createConvertParallelLoopToGpuPass());
  func.addPass(createLowerAffinePass());
  pm.addPass(createDeviceAllocationsPass());

  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip.getValue();
  nvvm.cubinFeatures = options.features.getValue();
  nvvm.cubinFormat = options.format.getValue();
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}
