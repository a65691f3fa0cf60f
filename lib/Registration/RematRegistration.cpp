//===- RematRegistration.cpp - Remat dialects and passes ------------------===//

#include "remat/InitRemat.h"

#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/IR/DialectRegistry.h"

void remat::registerRematDialects(mlir::DialectRegistry &registry) {
  registry.insert<RematDialect>();
}

void remat::registerRematPasses() {}
