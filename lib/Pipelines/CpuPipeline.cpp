//===- CpuPipeline.cpp - remat-to-cpu -------------------------------------===//

#include "Frontend.h"
#include "remat/Conversion/Passes.h"
#include "remat/Pipelines/Pipelines.h"
#include "remat/Planning/TargetMemory.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void remat::buildRematToCpuPipeline(OpPassManager &pm,
                                    const CpuPipelineOptions &options) {
  buildBufferizedFrontend(pm, options.emitCInterface);
  if (options.arena)
    pm.addPass(createArenaAllocationPass({kCpuTargetMemory.alignment}));
  // Each kind of kernel is lowered and compiled once, not once per use.
  if (options.shareKernels)
    pm.addPass(createShareKernelsPass());
  // After the arena: the vector code reads tiles into registers and
  // allocates nothing the plan has not placed.
  if (options.vectorize)
    pm.nest<func::FuncOp>().addPass(
        createVectorizeKernelsPass({options.vectorBits}));
  pm.addPass(createConvertLinalgToLoopsPass());
  if (options.vectorize) {
    // Transfers of rank 2 or more, unrolled: without unrolling they go
    // through a stack buffer.
    pm.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
  }
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Math ops become LLVM intrinsics where LLVM has one; the rest (math.erf
  // of Gelu) become libm calls. In that order: libm has no rsqrtf.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  if (options.vectorize)
    pm.addPass(createConvertVectorToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
