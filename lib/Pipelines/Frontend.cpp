//===- Frontend.cpp - From planned steps to deallocated buffers -----------===//

#include "Frontend.h"

#include "remat/Analysis/InPlaceAnalysis.h"
#include "remat/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void remat::buildBufferizedFrontend(OpPassManager &pm, bool emitCInterface) {
  pm.addPass(createLowerRematPass({emitCInterface}));

  // Folds nothing: the memory model counts the planned ops as written.
  pm.nest<func::FuncOp>().addPass(createConvertToLinalgPass());

  // The options the memory model's in-place analysis runs with.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = StepBufferization::kFunctionBoundaries;
  bufferize.functionBoundaryTypeConversion = StepBufferization::kBoundaryLayout;
  bufferize.bufferAlignment = StepBufferization::kBufferAlignment;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.nest<func::FuncOp>().addPass(createDonatedResultsPass());
  pm.nest<func::FuncOp>().addPass(createUncopiedResultsPass());
  pm.nest<func::FuncOp>().addPass(createFreeAfterLastUsePass());
  pm.addPass(createConvertBufferizationToMemRefPass());
}
