//===- RematRegistration.cpp - Remat dialects and passes ------------------===//

#include "remat/InitRemat.h"

#include "remat/Analysis/CostModel.h"
#include "remat/Analysis/InPlaceAnalysis.h"
#include "remat/Autodiff/Passes.h"
#include "remat/Conversion/Passes.h"
#include "remat/Conversion/ScratchBuffers.h"
#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Pipelines/Pipelines.h"
#include "remat/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void remat::registerRematDialects(mlir::DialectRegistry &registry) {
  registry.insert<RematDialect>();
  registerCostModelExternalModels(registry);
  registerInPlaceAnalysisExternalModels(registry);
  registerScratchBufferModels(registry);
}

void remat::registerRematPasses() {
  registerRematTransformsPasses();
  registerRematAutodiffPasses();
  registerRematPipeline();
  registerRematConversionPasses();
  registerLoweringPipelines();
}
