//===- InPlaceAnalysis.cpp - What bufferization writes in place -----------===//

#include "remat/Analysis/InPlaceAnalysis.h"

#include "remat/Analysis/RematStructure.h"
#include "remat/Tosa/LinalgLowering.h"

#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace remat;

bufferization::OneShotBufferizationOptions remat::stepBufferizationOptions() {
  bufferization::OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = StepBufferization::kFunctionBoundaries;
  options.setFunctionBoundaryTypeConversion(StepBufferization::kBoundaryLayout);
  options.bufferAlignment = StepBufferization::kBufferAlignment;
  return options;
}

void remat::registerInPlaceAnalysisExternalModels(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}

/// The func.func symbols `function` calls, directly or through them.
static void collectCallees(Operation *function,
                           llvm::SetVector<func::FuncOp> &callees) {
  function->walk([&](func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (callee && callees.insert(callee))
      collectCallees(callee, callees);
  });
}

FailureOr<llvm::DenseSet<OpOperand *>>
remat::outOfPlaceDestinations(FunctionOpInterface function) {
  llvm::DenseSet<OpOperand *> outOfPlace;
  SmallVector<OpOperand *> destinations;
  function->walk([&](DestinationStyleOpInterface op) {
    if (op.hasPureTensorSemantics())
      for (OpOperand &init : op.getDpsInitsMutable())
        destinations.push_back(&init);
  });
  // Every other op the lowering makes writes into a new tensor.empty.
  if (destinations.empty())
    return outOfPlace;

  // The step as a func.func in a module of its own, with the functions it
  // calls; `mapping` relates the copy's ops to the step's.
  MLIRContext *context = function->getContext();
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(function.getLoc());
  builder.setInsertionPointToEnd(scratch->getBody());
  llvm::SetVector<func::FuncOp> callees;
  collectCallees(function, callees);
  for (func::FuncOp callee : callees)
    builder.clone(*callee);
  auto type = dyn_cast<FunctionType>(function.getFunctionType());
  if (!type)
    return outOfPlace;
  auto copy = func::FuncOp::create(builder, function.getLoc(), "step", type);
  copy.setArgAttrsAttr(function.getArgAttrsAttr());
  IRMapping mapping;
  function.getFunctionBody().cloneInto(&copy.getBody(), mapping);
  Block &body = copy.getBody().front();
  Operation *terminator = body.getTerminator();
  if (!isa<func::ReturnOp>(terminator)) {
    builder.setInsertionPoint(terminator);
    func::ReturnOp::create(builder, terminator->getLoc(),
                           terminator->getOperands());
    terminator->erase();
  }
  flattenRematOps(copy);
  if (failed(convertToLinalg(copy)))
    return failure();

  bufferization::OneShotBufferizationOptions options =
      stepBufferizationOptions();
  // Ops the lowering leaves for later passes are not this analysis' concern.
  options.allowUnknownOps = true;
  bufferization::OneShotAnalysisState state(*scratch, options);
  if (failed(bufferization::analyzeModuleOp(*scratch, state)))
    return mlir::emitError(function.getLoc(),
                           "bufferization cannot analyze this step");
  for (OpOperand *destination : destinations) {
    Operation *op = mapping.lookupOrNull(destination->getOwner());
    if (!op)
      continue;
    OpOperand &copied = op->getOpOperand(destination->getOperandNumber());
    // An op the analysis does not know gets a buffer of its own.
    if (!options.dynCastBufferizableOp(op) || !state.isInPlace(copied))
      outOfPlace.insert(destination);
  }
  return outOfPlace;
}
