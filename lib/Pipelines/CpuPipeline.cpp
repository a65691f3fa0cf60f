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
#include "mlir/Transforms/Passes.h"

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
  bool vectorize = options.vectorize && !options.gpuLoops;
  bool parallel = vectorize && options.parallel;
  if (vectorize)
    pm.nest<func::FuncOp>().addPass(
        createVectorizeKernelsPass({options.vectorBits, parallel}));
  if (options.gpuLoops)
    addGpuLoopMapping(pm.nest<func::FuncOp>());
  // Work-sharing loops in a parallel region each; the OpenMP runtime's
  // threads run them, with OMP_NUM_THREADS or the runtime's default.
  if (parallel) {
    pm.addPass(createConvertSCFToOpenMPPass());
    // The pass scopes each iteration's stack allocations; there are none,
    // and a scope must stay one block, which the loops inside it will not.
    // Only that pattern: no folding after the arena is placed.
    GreedyRewriteConfig inlineOnly;
    inlineOnly.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    pm.addPass(createCanonicalizerPass(inlineOnly, /*disabledPatterns=*/{},
                                       /*enabledPatterns=*/{
                                           "AllocaScopeInliner"}));
  }
  pm.addPass(createConvertLinalgToLoopsPass());
  if (vectorize) {
    // Transfers of rank 2 or more, unrolled: without unrolling they go
    // through a stack buffer.
    pm.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
  }
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Transcendentals as arithmetic that stays in vector registers; then the
  // math ops left become LLVM intrinsics where LLVM has one and libm calls
  // otherwise. In that order: libm has no rsqrtf.
  if (options.approximateMath)
    pm.addPass(createApproximateMathPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  if (vectorize)
    pm.addPass(createConvertVectorToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  if (parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Mask buffers hold a byte per i1; LLVM's vectors of i1 a bit.
  if (vectorize)
    pm.addPass(createByteMasksPass());
}
