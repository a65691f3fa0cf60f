//===- CpuPipeline.cpp - remat-to-cpu -------------------------------------===//

#include "Frontend.h"
#include "remat/Conversion/Passes.h"
#include "remat/Pipelines/Pipelines.h"
#include "remat/Planning/TargetMemory.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void remat::buildRematToCpuPipeline(OpPassManager &pm,
                                    const CpuPipelineOptions &options) {
  buildBufferizedFrontend(pm, options.emitCInterface);
  if (options.arena)
    pm.addPass(createArenaAllocationPass({kCpuTargetMemory.alignment}));
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Math ops become LLVM intrinsics where LLVM has one; the rest (math.erf
  // of Gelu) become libm calls. In that order: libm has no rsqrtf.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
