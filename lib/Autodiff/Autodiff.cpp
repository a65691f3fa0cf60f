//===- Autodiff.cpp - Forward functions to training steps -----------------===//
//
// Clones the forward function into a remat.graph, appends the loss and a
// remat.backward marker, then walks the forward ops in reverse, calling each
// op's rule (GradientRules) with the adjoints of its results and summing
// the adjoints it returns per operand. Only "active" values are
// differentiated: those that depend on a parameter.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"
#include "remat/Autodiff/Passes.h"
#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "remat-autodiff"

namespace remat {
#define GEN_PASS_DEF_AUTODIFFPASS
#include "remat/Autodiff/Passes.h.inc"
} // namespace remat

using namespace mlir;
using namespace remat;

namespace {

bool isDifferentiableType(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.hasStaticShape() && isa<FloatType>(t.getElementType());
}

struct AutodiffPass final
    : remat::impl::AutodiffPassBase<AutodiffPass> {
  using AutodiffPassBase::AutodiffPassBase;

  void runOnOperation() override;

private:
  FailureOr<func::FuncOp> findFunction();
  LogicalResult differentiate(func::FuncOp func);
};

FailureOr<func::FuncOp> AutodiffPass::findFunction() {
  ModuleOp module = getOperation();
  if (!function.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(function);
    if (!func || func.isExternal())
      return module.emitError("remat-autodiff: no function '")
             << function << "' with a body";
    return func;
  }
  func::FuncOp found;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (found)
      return module.emitError("remat-autodiff: several functions; choose one "
                              "with function=<name>");
    found = func;
  }
  if (!found)
    return module.emitError("remat-autodiff: no function to differentiate");
  return found;
}

LogicalResult AutodiffPass::differentiate(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("remat-autodiff: the function must have one block");
  if (loss != "sum" && loss != "mse")
    return func.emitError("remat-autodiff: unknown loss '")
           << loss << "' (expected sum or mse)";
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() == 0)
    return func.emitError("remat-autodiff: the function returns nothing");
  if (numBatchArgs > type.getNumInputs())
    return func.emitError("remat-autodiff: num-batch-args=")
           << numBatchArgs << " but the function has " << type.getNumInputs()
           << " arguments";
  for (auto [i, t] : llvm::enumerate(type.getResults()))
    if (!isDifferentiableType(t))
      return func.emitError("remat-autodiff: result ")
             << i << " is not a statically shaped float tensor";
  SmallVector<unsigned> params;
  for (unsigned i = numBatchArgs; i < type.getNumInputs(); ++i) {
    if (!isDifferentiableType(type.getInput(i)))
      return func.emitError("remat-autodiff: parameter ")
             << i << " is not a statically shaped float tensor";
    params.push_back(i);
  }

  // The graph: arguments (+ targets), results (loss, gradients).
  SmallVector<Type> inputs(type.getInputs());
  if (loss == "mse")
    inputs.append(type.getResults().begin(), type.getResults().end());
  OpBuilder b(func);
  Location loc = func.getLoc();
  SmallVector<Type> results = {RankedTensorType::get({}, b.getF32Type())};
  for (unsigned p : params)
    results.push_back(type.getInput(p));
  auto graph = GraphOp::create(b, loc, func.getSymName(),
                               b.getFunctionType(inputs, results));
  if (ArrayAttr attrs = func.getAllArgAttrs()) {
    SmallVector<Attribute> all(attrs.begin(), attrs.end());
    all.resize(inputs.size(), b.getDictionaryAttr({}));
    graph.setAllArgAttrs(all);
  }
  Block *body = b.createBlock(&graph.getBody());
  for (Type t : inputs)
    body->addArgument(t, loc);

  // Forward pass.
  IRMapping map;
  Block &fwd = func.getBody().front();
  for (auto [from, to] : llvm::zip(fwd.getArguments(), body->getArguments()))
    map.map(from, to);
  b.setInsertionPointToEnd(body);
  SmallVector<Operation *> forwardOps;
  Operation *terminator = fwd.getTerminator();
  for (Operation &op : fwd.without_terminator()) {
    if (op.getNumRegions() && !isa<linalg::LinalgOp>(op))
      return op.emitError("remat-autodiff: cannot differentiate an op with "
                          "regions: '")
             << op.getName() << "'";
    forwardOps.push_back(b.clone(op, map));
  }
  SmallVector<Value> outputs;
  for (Value v : terminator->getOperands())
    outputs.push_back(map.lookup(v));

  // Active values: those that depend on a parameter.
  DenseSet<Value> active;
  for (unsigned p : params)
    active.insert(body->getArgument(p));
  for (Operation *op : forwardOps)
    if (llvm::any_of(op->getOperands(),
                     [&](Value v) { return active.contains(v); }))
      for (Value r : op->getResults())
        if (isDifferentiableType(r.getType()))
          active.insert(r);

  // Loss and the adjoints of the outputs.
  TosaBuilder tb(b, loc);
  Value total;
  SmallVector<Value> seeds;
  for (auto [i, y] : llvm::enumerate(outputs)) {
    Value term, seed;
    double n = static_cast<double>(numElements(shapeOf(y)));
    if (loss == "mse") {
      Value target = body->getArgument(type.getNumInputs() + i);
      Value diff = tb.sub(y, target);
      term = tb.scale(tb.reduceAll(tb.mul(diff, diff)), 1.0 / n);
      seed = diff; // Scaled by 2/n after remat.backward.
    } else {
      term = tb.reduceAll(y);
    }
    term = tb.reshape(term, {1});
    total = total ? tb.add(total, term) : term;
    seeds.push_back(seed);
  }
  Value lossValue = tb.reshape(total, {});
  numForwardOps = body->getOperations().size();

  BackwardOp::create(b, loc);
  // The backward pass makes its own constants: reusing the forward's would
  // turn them into residuals.
  tb.forgetConstants();
  DenseMap<Value, Value> adjoint;
  auto accumulate = [&](Value v, Value g) {
    Value &slot = adjoint[v];
    slot = slot ? tb.add(slot, g) : g;
  };
  for (auto [i, y] : llvm::enumerate(outputs)) {
    if (!active.contains(y))
      continue;
    double n = static_cast<double>(numElements(shapeOf(y)));
    accumulate(y, loss == "mse" ? tb.scale(seeds[i], 2.0 / n)
                                : tb.splat(shapeOf(y), 1.0));
  }

  // Backward pass.
  const GradientRules &rules = GradientRules::get();
  for (Operation *op : llvm::reverse(forwardOps)) {
    SmallVector<Value> resultGrads;
    bool any = false;
    for (Value r : op->getResults()) {
      Value g = adjoint.lookup(r);
      any |= static_cast<bool>(g);
      resultGrads.push_back(g);
    }
    if (!any)
      continue;
    SmallVector<bool> needed;
    for (Value v : op->getOperands())
      needed.push_back(active.contains(v));
    if (llvm::none_of(needed, [](bool x) { return x; }))
      continue;
    const GradientRule *rule = rules.lookup(op->getName().getStringRef());
    if (!rule)
      return op->emitError("remat-autodiff: no derivative rule for '")
             << op->getName() << "'";
    for (auto [r, g] : llvm::zip(op->getResults(), resultGrads))
      if (!g)
        g = tb.splat(shapeOf(r), 0.0);
    tb.setLoc(op->getLoc());
    GradientRequest request{op, resultGrads, needed, tb, {}};
    request.operandGrads.resize(op->getNumOperands());
    if (failed((*rule)(request)))
      return failure();
    for (auto [v, g] : llvm::zip(op->getOperands(), request.operandGrads))
      if (g && active.contains(v))
        accumulate(v, g);
  }
  tb.setLoc(loc);

  SmallVector<Value> returned = {lossValue};
  for (unsigned p : params) {
    Value g = adjoint.lookup(body->getArgument(p));
    returned.push_back(g ? g : tb.splat(shapeOf(body->getArgument(p)), 0.0));
  }
  ReturnOp::create(b, loc, returned);
  numBackwardOps = body->getOperations().size() - numForwardOps - 1;
  func.erase();
  return success();
}

void AutodiffPass::runOnOperation() {
  FailureOr<func::FuncOp> func = findFunction();
  if (failed(func) || failed(differentiate(*func)))
    return signalPassFailure();
}

} // namespace
