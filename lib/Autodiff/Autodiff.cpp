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

#include "Losses.h"
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
  /// Fails, with a diagnostic, unless `func` can be differentiated with the
  /// pass's options.
  LogicalResult checkFunction(func::FuncOp func);
  LogicalResult differentiate(func::FuncOp func);

public:
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

/// The training step built from one forward function, phase by phase:
/// the signature, the forward clone, the loss, the backward pass (with the
/// optimizer's updates), the results.
class StepBuilder {
public:
  StepBuilder(func::FuncOp func, StringRef loss, unsigned numBatchArgs,
              std::optional<OptimizerOptions> update)
      : func(func), type(func.getFunctionType()), loss(loss),
        numBatchArgs(numBatchArgs), update(update), b(func),
        loc(func.getLoc()), tb(b, loc) {}

  /// Arguments: the batch, the labels (cross-entropy), the parameters, the
  /// targets (mse), the optimizer state. Results: the loss, then the
  /// gradients or the updated parameters and state.
  void buildSignature();
  /// The remat.graph with that signature and a clone of the forward ops.
  LogicalResult cloneForward();
  /// The values that depend on a parameter.
  void findActive();
  /// The loss at the end of the forward pass.
  void emitLoss();
  /// The remat.backward marker, the adjoints of the outputs and every op's
  /// rule in reverse, each parameter updated once its gradient is complete.
  LogicalResult emitBackward(AutodiffPass &pass);
  void emitReturn();

  size_t numBodyOps() { return body->getOperations().size(); }

private:
  bool crossEntropy() const { return loss == "cross-entropy"; }
  /// The graph argument of forward argument `i` (the labels come between
  /// the batch and the parameters).
  unsigned graphArgument(unsigned i) const {
    return i < numBatchArgs || !crossEntropy() ? i : i + 1;
  }
  void seedOutputs();
  void planUpdates();
  void emitUpdate(unsigned i);

  func::FuncOp func;
  FunctionType type;
  StringRef loss;
  unsigned numBatchArgs;
  std::optional<OptimizerOptions> update;
  OpBuilder b;
  Location loc;
  TosaBuilder tb;

  SmallVector<Type> inputs, results;
  /// The graph argument of each parameter.
  SmallVector<unsigned> params;
  unsigned firstTarget = 0, firstState = 0;
  SmallVector<std::pair<unsigned, unsigned>> donated; // (argument, result)
  Block *body = nullptr;
  SmallVector<Operation *> forwardOps;
  SmallVector<Value> outputs;
  DenseSet<Value> active;

  Value lossValue;
  /// mse: the differences, scaled by 2/n after the marker.
  SmallVector<Value> differences;
  CrossEntropy crossEntropyParts;

  DenseMap<Value, Value> adjoint;
  /// With an optimizer: the parameters whose gradient is complete after
  /// each forward op's rule (its first reader), and those nothing reads.
  SmallVector<SmallVector<unsigned>> completedAt;
  SmallVector<unsigned> unread;
  SmallVector<Value> updated;
  Value stepCount;
};

void StepBuilder::buildSignature() {
  inputs.assign(type.getInputs().begin(),
                type.getInputs().begin() + numBatchArgs);
  if (crossEntropy()) {
    // Class ids: the first output's shape without its class axis.
    ArrayRef<int64_t> logits =
        cast<RankedTensorType>(type.getResult(0)).getShape();
    inputs.push_back(
        RankedTensorType::get(logits.drop_back(), b.getI32Type()));
  }
  for (unsigned i = numBatchArgs; i < type.getNumInputs(); ++i) {
    params.push_back(inputs.size());
    inputs.push_back(type.getInput(i));
  }
  firstTarget = inputs.size();
  if (loss == "mse")
    inputs.append(type.getResults().begin(), type.getResults().end());
  results = {RankedTensorType::get({}, b.getF32Type())};
  for (unsigned p : params)
    results.push_back(inputs[p]);
  // Optimizer state, one group per kind of state tensor (all momentum
  // buffers; or all first moments, then all second moments), then Adam's
  // step count. Each is an argument donated to the result after it.
  firstState = inputs.size();
  if (!update)
    return;
  for (auto [i, p] : llvm::enumerate(params))
    donated.push_back({p, 1 + i});
  unsigned numState = stateTensorsPerParameter(update->kind);
  for (unsigned k = 0; k < numState; ++k)
    for (unsigned p : params) {
      donated.push_back({static_cast<unsigned>(inputs.size()),
                         static_cast<unsigned>(results.size())});
      inputs.push_back(inputs[p]);
      results.push_back(inputs[p]);
    }
  if (hasStepCount(update->kind)) {
    donated.push_back({static_cast<unsigned>(inputs.size()),
                       static_cast<unsigned>(results.size())});
    inputs.push_back(RankedTensorType::get({}, b.getF32Type()));
    results.push_back(inputs.back());
  }
}

LogicalResult StepBuilder::cloneForward() {
  auto graph = GraphOp::create(b, loc, func.getSymName(),
                               b.getFunctionType(inputs, results));
  SmallVector<Attribute> argAttrs(inputs.size(), b.getDictionaryAttr({}));
  if (ArrayAttr attrs = func.getAllArgAttrs())
    for (auto [i, attr] : llvm::enumerate(attrs))
      argAttrs[graphArgument(i)] = attr;
  for (auto [arg, result] : donated) {
    NamedAttrList list(cast<DictionaryAttr>(argAttrs[arg]));
    list.set(kAliasingOutputAttrName, b.getI64IntegerAttr(result));
    argAttrs[arg] = list.getDictionary(b.getContext());
  }
  if (func.getAllArgAttrs() || !donated.empty() || crossEntropy())
    graph.setAllArgAttrs(argAttrs);
  body = b.createBlock(&graph.getBody());
  for (Type t : inputs)
    body->addArgument(t, loc);

  IRMapping map;
  Block &fwd = func.getBody().front();
  for (auto [i, from] : llvm::enumerate(fwd.getArguments()))
    map.map(from, body->getArgument(graphArgument(i)));
  b.setInsertionPointToEnd(body);
  for (Operation &op : fwd.without_terminator()) {
    if (op.getNumRegions() && !isa<linalg::LinalgOp>(op))
      return op.emitError("remat-autodiff: cannot differentiate an op with "
                          "regions: '")
             << op.getName() << "'";
    forwardOps.push_back(b.clone(op, map));
  }
  for (Value v : fwd.getTerminator()->getOperands())
    outputs.push_back(map.lookup(v));
  return success();
}

void StepBuilder::findActive() {
  for (unsigned p : params)
    active.insert(body->getArgument(p));
  for (Operation *op : forwardOps)
    if (llvm::any_of(op->getOperands(),
                     [&](Value v) { return active.contains(v); }))
      for (Value r : op->getResults())
        if (isDifferentiableType(r.getType()))
          active.insert(r);
}

void StepBuilder::emitLoss() {
  if (crossEntropy()) {
    // Only the first output (the logits) has a loss.
    crossEntropyParts = emitCrossEntropy(tb, outputs.front(),
                                         body->getArgument(numBatchArgs));
    lossValue = tb.reshape(crossEntropyParts.loss, {});
    return;
  }
  Value total;
  for (auto [i, y] : llvm::enumerate(outputs)) {
    Value term;
    double n = static_cast<double>(numElements(shapeOf(y)));
    if (loss == "mse") {
      Value diff = tb.sub(y, body->getArgument(firstTarget + i));
      term = tb.scale(tb.reduceAll(tb.mul(diff, diff)), 1.0 / n);
      differences.push_back(diff);
    } else {
      term = tb.reduceAll(y);
    }
    term = tb.reshape(term, {1});
    total = total ? tb.add(total, term) : term;
  }
  lossValue = tb.reshape(total, {});
}

void StepBuilder::seedOutputs() {
  auto seed = [&](Value y, Value g) {
    if (active.contains(y))
      adjoint[y] = adjoint.lookup(y) ? tb.add(adjoint[y], g) : g;
  };
  if (crossEntropy()) {
    Value logits = outputs.front();
    if (active.contains(logits))
      seed(logits, emitCrossEntropyGradient(
                       tb, logits, body->getArgument(numBatchArgs),
                       crossEntropyParts.logNormalizer));
    return;
  }
  for (auto [i, y] : llvm::enumerate(outputs)) {
    if (!active.contains(y))
      continue;
    double n = static_cast<double>(numElements(shapeOf(y)));
    seed(y, loss == "mse" ? tb.scale(differences[i], 2.0 / n)
                          : tb.splat(shapeOf(y), 1.0));
  }
}

void StepBuilder::planUpdates() {
  completedAt.resize(forwardOps.size());
  updated.resize(results.size());
  if (!update)
    return;
  if (hasStepCount(update->kind))
    stepCount = emitStepCountIncrement(b, loc, body->getArguments().back());
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

void StepBuilder::emitUpdate(unsigned i) {
  Value param = body->getArgument(params[i]);
  Value g = adjoint.lookup(param);
  if (!g)
    g = tb.splat(shapeOf(param), 0.0);
  unsigned numState = stateTensorsPerParameter(update->kind);
  SmallVector<Value> state;
  for (unsigned k = 0; k < numState; ++k)
    state.push_back(body->getArgument(firstState + k * params.size() + i));
  SmallVector<Value> values =
      emitParameterUpdate(b, loc, *update, param, g, state, stepCount);
  updated[1 + i] = values.front();
  for (unsigned k = 0; k < numState; ++k)
    updated[1 + params.size() * (1 + k) + i] = values[1 + k];
}

LogicalResult StepBuilder::emitBackward(AutodiffPass &pass) {
  BackwardOp::create(b, loc);
  // The backward pass makes its own constants: reusing the forward's would
  // turn them into residuals.
  tb.forgetConstants();
  seedOutputs();
  planUpdates();
  auto accumulate = [&](Value v, Value g) {
    Value &slot = adjoint[v];
    slot = slot ? tb.add(slot, g) : g;
  };
  const GradientRules &rules = GradientRules::get();
  for (size_t index = forwardOps.size(); index-- > 0;) {
    if (failed(pass.differentiateOp(forwardOps[index], rules, tb, adjoint,
                                    active, accumulate)))
      return failure();
    for (unsigned i : completedAt[index]) {
      tb.setLoc(loc);
      emitUpdate(i);
    }
  }
  tb.setLoc(loc);
  if (update)
    for (unsigned i : unread)
      emitUpdate(i);
  return success();
}

void StepBuilder::emitReturn() {
  SmallVector<Value> returned = {lossValue};
  if (update) {
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
}

LogicalResult AutodiffPass::checkFunction(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("remat-autodiff: the function must have one block");
  if (loss != "sum" && loss != "mse" && loss != "cross-entropy")
    return func.emitError("remat-autodiff: unknown loss '")
           << loss << "' (expected sum, mse or cross-entropy)";
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
  if (loss == "cross-entropy" &&
      cast<RankedTensorType>(type.getResult(0)).getRank() < 2)
    return func.emitError("remat-autodiff: loss=cross-entropy needs logits "
                          "with a class axis after at least one other axis, "
                          "got ")
           << type.getResult(0);
  for (unsigned i = numBatchArgs; i < type.getNumInputs(); ++i)
    if (!isDifferentiableType(type.getInput(i)))
      return func.emitError("remat-autodiff: parameter ")
             << i << " is not a statically shaped float tensor";
  return success();
}

LogicalResult AutodiffPass::differentiate(func::FuncOp func) {
  if (failed(checkFunction(func)))
    return failure();
  FailureOr<std::optional<OptimizerOptions>> update = parseOptimizer(func);
  if (failed(update))
    return failure();
  StepBuilder step(func, loss, numBatchArgs, *update);
  step.buildSignature();
  if (failed(step.cloneForward()))
    return failure();
  step.findActive();
  step.emitLoss();
  numForwardOps = step.numBodyOps();
  if (failed(step.emitBackward(*this)))
    return failure();
  step.emitReturn();
  numBackwardOps = step.numBodyOps() - numForwardOps - 1;
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
