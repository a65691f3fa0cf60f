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

void remat::addGpuLoopMapping(OpPassManager &funcPm) {
  funcPm.addPass(createParallelDimsOutermostPass());
  funcPm.addPass(createConvertLinalgToParallelLoopsPass());
  funcPm.addPass(createGpuMapLoopsPass());
}

void remat::buildRematToGpuPipeline(OpPassManager &pm,
                                    const GpuPipelineOptions &options) {
  buildBufferizedFrontend(pm, options.emitCInterface);
  if (options.arena)
    pm.addPass(createArenaAllocationPass({kGpuTargetMemory.alignment}));

  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(createGpuSharedContractionsPass());
  addGpuLoopMapping(func);
  func.addPass(createConvertParallelLoopToGpuPass());
  func.addPass(createLowerAffinePass());
  pm.addPass(createDeviceAllocationsPass());
  // Constants and index arithmetic into the kernels: a collapsed loop's
  // divisors passed as kernel arguments would cost a 64-bit division per
  // index, where a constant divisor is a multiply-high.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());

  // Outlined here, before upstream's NVVM pipeline (whose own outlining
  // then finds nothing), so that kernels launched again and again are
  // lowered and compiled to PTX once.
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createShareGpuKernelsPass());

  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip.getValue();
  nvvm.cubinFeatures = options.features.getValue();
  nvvm.cubinFormat = options.format.getValue();
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}
