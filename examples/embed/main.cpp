//===- main.cpp - A compiler embedding the Remat passes -------------------===//
//
// Registers the remat dialect and passes in its own context, parses a small
// training step, runs the Remat pipeline on it through a PassManager, and
// prints the result: what an MLIR-based compiler does to use Remat.
//
//===----------------------------------------------------------------------===//

#include "remat/InitRemat.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *kStep = R"mlir(
remat.graph @step(%x: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.exp %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.exp %b : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %c {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %d = tosa.mul %a, %s, %shift : (tensor<64x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %r = tosa.reduce_sum %d {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.return %r : tensor<1x64xf32>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  remat::registerRematDialects(registry);
  remat::registerUpstreamDialects(registry);
  remat::registerRematPasses();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kStep, &context);
  if (!module)
    return 1;

  auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
  if (mlir::failed(mlir::parsePassPipeline(
          "remat-pipeline{budget=0.75}", pm, llvm::errs())))
    return 1;
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
