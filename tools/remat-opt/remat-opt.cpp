//===- remat-opt.cpp - The Remat optimizer driver -------------------------===//
//
// An mlir-opt-style driver: the remat dialect, the upstream dialects a
// training step and its lowering use, the upstream passes the lowering
// pipelines are built from, and every Remat pass and pipeline.
//
//===----------------------------------------------------------------------===//

#include "remat/InitRemat.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  remat::registerRematDialects(registry);
  remat::registerUpstreamDialects(registry);
  remat::registerUpstreamPasses();
  remat::registerRematPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Remat: rematerialization for training steps\n", registry));
}
