//===- Autodiff.cpp - Forward functions to training steps -----------------===//
//
// Clones the forward function into a remat.graph, appends the loss and a
// remat.backward marker, then walks the forward ops in reverse, calling each
// op's rule (GradientRules) with the adjoints of its results and summing
// the adjoints it returns per operand. Only "active" values are
// differentiated: those that depend on a parameter.
//
// With an optimizer, each parameter is updated as soon as its gradient is
// complete (right after the rule of its first forward reader), into its own
// donated buffer, so that the gradient dies there instead of living to the
// end of the step.
//
//===----------------------------------------------------------------------===//

#include "Optimizers.h"
#include "remat/Autodiff/GradientRules.h"
#include "remat/Autodiff/Passes.h"
#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include <cmath>
#include <cstdio>

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
  /// The optimizer options, or std::nullopt when the step returns raw
  /// gradients; failure (with a diagnostic at `func`) when invalid.
  FailureOr<std::optional<OptimizerOptions>> parseOptimizer(func::FuncOp func);
  LogicalResult differentiate(func::FuncOp func);
  /// Emits `op`'s rule and accumulates the adjoints of its operands.
  LogicalResult differentiateOp(Operation *op, const GradientRules &rules,
                                TosaBuilder &tb,
                                DenseMap<Value, Value> &adjoint,
                                const DenseSet<Value> &active,
                                function_ref<void(Value, Value)> accumulate);
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

FailureOr<std::optional<OptimizerOptions>>
AutodiffPass::parseOptimizer(func::FuncOp func) {
  if (optimizer.empty())
    return std::optional<OptimizerOptions>();
  std::optional<OptimizerKind> kind = parseOptimizerKind(optimizer);
  if (!kind)
    return func.emitError("remat-autodiff: unknown optimizer '")
           << optimizer << "' (expected sgd, momentum or adam)";
  auto check = [&](StringRef name, double value, bool valid,
                   StringRef range) -> LogicalResult {
    if (std::isfinite(value) && valid)
      return success();
    char text[32];
    std::snprintf(text, sizeof(text), "%g", value);
    return func.emitError("remat-autodiff: ")
           << name << "=" << text << " must be " << range;
  };
  if (failed(check("lr", lr, lr > 0, "positive")) ||
      failed(check("momentum", momentum, momentum >= 0 && momentum < 1,
                   "in [0, 1)")) ||
      failed(check("beta1", beta1, beta1 >= 0 && beta1 < 1, "in [0, 1)")) ||
      failed(check("beta2", beta2, beta2 >= 0 && beta2 < 1, "in [0, 1)")) ||
      failed(check("eps", eps, eps > 0, "positive")))
    return failure();
  return std::optional<OptimizerOptions>(
      OptimizerOptions{*kind, lr, momentum, beta1, beta2, eps});
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

  FailureOr<std::optional<OptimizerOptions>> update = parseOptimizer(func);
  if (failed(update))
    return failure();

  // The graph: arguments (+ targets) (+ optimizer state), results (loss,
  // gradients or updated parameters, updated optimizer state).
  SmallVector<Type> inputs(type.getInputs());
  if (loss == "mse")
    inputs.append(type.getResults().begin(), type.getResults().end());
  OpBuilder b(func);
  Location loc = func.getLoc();
  SmallVector<Type> results = {RankedTensorType::get({}, b.getF32Type())};
  for (unsigned p : params)
    results.push_back(type.getInput(p));
  // Optimizer state, one group per kind of state tensor (all momentum
  // buffers; or all first moments, then all second moments), then Adam's
  // step count. Each is an argument donated to the result after it.
  SmallVector<std::pair<unsigned, unsigned>> donated; // (argument, result)
  unsigned firstState = inputs.size();
  if (*update) {
    for (auto [i, p] : llvm::enumerate(params))
      donated.push_back({p, 1 + i});
    unsigned numState = stateTensorsPerParameter((*update)->kind);
    for (unsigned k = 0; k < numState; ++k)
      for (unsigned p : params) {
        donated.push_back({static_cast<unsigned>(inputs.size()),
                           static_cast<unsigned>(results.size())});
        inputs.push_back(type.getInput(p));
        results.push_back(type.getInput(p));
      }
    if (hasStepCount((*update)->kind)) {
      donated.push_back({static_cast<unsigned>(inputs.size()),
                         static_cast<unsigned>(results.size())});
      inputs.push_back(RankedTensorType::get({}, b.getF32Type()));
      results.push_back(inputs.back());
    }
  }
  auto graph = GraphOp::create(b, loc, func.getSymName(),
                               b.getFunctionType(inputs, results));
  SmallVector<Attribute> argAttrs(inputs.size(), b.getDictionaryAttr({}));
  if (ArrayAttr attrs = func.getAllArgAttrs())
    llvm::copy(attrs, argAttrs.begin());
  for (auto [arg, result] : donated) {
    NamedAttrList list(cast<DictionaryAttr>(argAttrs[arg]));
    list.set(kAliasingOutputAttrName, b.getI64IntegerAttr(result));
    argAttrs[arg] = list.getDictionary(b.getContext());
  }
  if (func.getAllArgAttrs() || !donated.empty())
    graph.setAllArgAttrs(argAttrs);
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

  // With an optimizer: the forward op after whose rule each parameter's
  // gradient is complete (its first reader), and the update itself.
  SmallVector<SmallVector<unsigned>> completedAt(forwardOps.size());
  SmallVector<unsigned> unread;
  SmallVector<Value> updated(results.size());
  Value stepCount;
  if (*update && hasStepCount((*update)->kind))
    stepCount = emitStepCountIncrement(b, loc, body->getArguments().back());
  auto emitUpdate = [&](unsigned i) {
    Value param = body->getArgument(params[i]);
    Value g = adjoint.lookup(param);
    if (!g)
      g = tb.splat(shapeOf(param), 0.0);
    unsigned numState = stateTensorsPerParameter((*update)->kind);
    SmallVector<Value> state;
    for (unsigned k = 0; k < numState; ++k)
      state.push_back(body->getArgument(firstState + k * params.size() + i));
    SmallVector<Value> values =
        emitParameterUpdate(b, loc, **update, param, g, state, stepCount);
    updated[1 + i] = values.front();
    for (unsigned k = 0; k < numState; ++k)
      updated[1 + params.size() * (1 + k) + i] = values[1 + k];
  };
  if (*update) {
    DenseMap<Value, unsigned> paramIndex;
    for (auto [i, p] : llvm::enumerate(params))
      paramIndex[body->getArgument(p)] = i;
    SmallVector<bool> seen(params.size(), false);
    for (auto [index, op] : llvm::enumerate(forwardOps)) {
      llvm::SetVector<Value> read(op->operand_begin(), op->operand_end());
      getUsedValuesDefinedAbove(op->getRegions(), read);
      for (Value v : read) {
        auto it = paramIndex.find(v);
        if (it == paramIndex.end() || seen[it->second])
          continue;
        seen[it->second] = true;
        completedAt[index].push_back(it->second);
      }
    }
    for (auto [i, wasRead] : llvm::enumerate(seen))
      if (!wasRead)
        unread.push_back(i);
  }

  // Backward pass.
  const GradientRules &rules = GradientRules::get();
  for (size_t index = forwardOps.size(); index-- > 0;) {
    if (failed(differentiateOp(forwardOps[index], rules, tb, adjoint, active,
                               accumulate)))
      return failure();
    for (unsigned i : completedAt[index]) {
      tb.setLoc(loc);
      emitUpdate(i);
    }
  }
  tb.setLoc(loc);
  if (*update)
    for (unsigned i : unread)
      emitUpdate(i);

  SmallVector<Value> returned = {lossValue};
  if (*update) {
    if (stepCount)
      updated.back() = stepCount;
    returned.append(updated.begin() + 1, updated.end());
  } else {
    for (unsigned p : params) {
      Value g = adjoint.lookup(body->getArgument(p));
      returned.push_back(g ? g
                           : tb.splat(shapeOf(body->getArgument(p)), 0.0));
    }
  }
  ReturnOp::create(b, loc, returned);
  numBackwardOps = body->getOperations().size() - numForwardOps - 1;
  func.erase();
  return success();
}

LogicalResult AutodiffPass::differentiateOp(
    Operation *op, const GradientRules &rules, TosaBuilder &tb,
    DenseMap<Value, Value> &adjoint, const DenseSet<Value> &active,
    function_ref<void(Value, Value)> accumulate) {
  SmallVector<Value> resultGrads;
  bool any = false;
  for (Value r : op->getResults()) {
    Value g = adjoint.lookup(r);
    any |= static_cast<bool>(g);
    resultGrads.push_back(g);
  }
  if (!any)
    return success();
  SmallVector<bool> needed;
  for (Value v : op->getOperands())
    needed.push_back(active.contains(v));
  if (llvm::none_of(needed, [](bool x) { return x; }))
    return success();
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
  return success();
}

void AutodiffPass::runOnOperation() {
  FailureOr<func::FuncOp> func = findFunction();
  if (failed(func) || failed(differentiate(*func)))
    return signalPassFailure();
}

} // namespace
