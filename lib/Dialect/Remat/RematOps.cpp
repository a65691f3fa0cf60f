//===- RematOps.cpp - remat dialect operations ----------------------------===//

#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace remat;

/// `policy(dots_saveable)`: the policy as a bare keyword.
static ParseResult parsePolicy(OpAsmParser &parser, SavePolicyAttr &policy) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<SavePolicy> value = symbolizeSavePolicy(keyword);
  if (!value)
    return parser.emitError(loc, "unknown checkpoint policy '")
           << keyword << "'";
  policy = SavePolicyAttr::get(parser.getContext(), *value);
  return success();
}

static void printPolicy(OpAsmPrinter &printer, Operation *,
                        SavePolicyAttr policy) {
  printer << stringifySavePolicy(policy.getValue());
}

#define GET_OP_CLASSES
#include "remat/Dialect/Remat/RematOps.cpp.inc"

/// Checks that `actual` values have exactly the `expected` types; `what`
/// names the two sides in the message.
static LogicalResult verifyTypesMatch(Operation *op, TypeRange expected,
                                      TypeRange actual, StringRef what) {
  if (expected.size() != actual.size())
    return op->emitOpError() << what << ": expected " << expected.size()
                             << " values, got " << actual.size();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(expected, actual)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return op->emitOpError()
             << what << ": type of value #" << index << " is "
             << std::get<1>(pair) << ", expected " << std::get<0>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                    FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  SMLoc loc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildFuncType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name)))
    return failure();
  // The budget is a property: storing one of another type would drop it
  // silently, and the graph would be planned without a budget.
  if (Attribute budget = result.attributes.get(getBudgetAttrName(result.name)))
    return verifyRematAttribute(kBudgetAttrName, budget,
                                [&] { return parser.emitError(loc); });
  return success();
}

void GraphOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult GraphOp::verify() {
  if (getBody().empty())
    return emitOpError("requires a body: a training step cannot be external");
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  // Entry-block arguments are checked by FunctionOpInterface.
  if (!getBody().hasOneBlock())
    return emitOpError("must have a single block: program order is the "
                       "schedule, so control flow belongs inside ops");
  return success();
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto graph = (*this)->getParentOfType<GraphOp>();
  return verifyTypesMatch(*this, graph.getResultTypes(),
                          getOperands().getTypes(),
                          "operands must match the graph results");
}

//===----------------------------------------------------------------------===//
// BackwardOp
//===----------------------------------------------------------------------===//

LogicalResult BackwardOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (!isa<FunctionOpInterface>(parent))
    return emitOpError("must be directly inside a remat.graph or another "
                       "function-like op, not in '")
           << parent->getName() << "'";
  // Report the second marker, pointing at the first.
  for (Operation *prev = (*this)->getPrevNode(); prev;
       prev = prev->getPrevNode())
    if (isa<BackwardOp>(prev))
      return emitOpError("a training step has one forward/backward boundary; "
                         "the first one is at ")
             << prev->getLoc();
  return success();
}

//===----------------------------------------------------------------------===//
// NameOp
//===----------------------------------------------------------------------===//

LogicalResult NameOp::verify() {
  if (getTag().empty())
    return emitOpError("tag must not be empty");
  return success();
}

//===----------------------------------------------------------------------===//
// CheckpointOp
//===----------------------------------------------------------------------===//

SavePolicy CheckpointOp::getEffectivePolicy() {
  return getPolicy().value_or(SavePolicy::NothingSaveable);
}

LogicalResult CheckpointOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != 0)
    return emitOpError("region must not have arguments; it uses values from "
                       "above directly");
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return emitOpError("region must end with remat.yield");
  if (failed(verifyTypesMatch(*this, getResultTypes(),
                              yield.getOperands().getTypes(),
                              "remat.yield operands must match the results")))
    return failure();
  SavePolicy policy = getEffectivePolicy();
  bool namesPolicy = policy == SavePolicy::SaveOnlyTheseNames ||
                     policy == SavePolicy::SaveAnyNamesButThese;
  if (namesPolicy && !getNames())
    return emitOpError("policy '")
           << stringifySavePolicy(policy) << "' requires a names(...) list";
  if (!namesPolicy && getNames())
    return emitOpError("names(...) only applies to the policies "
                       "'save_only_these_names' and "
                       "'save_any_names_but_these', not '")
           << stringifySavePolicy(policy) << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// BarrierOp
//===----------------------------------------------------------------------===//

LogicalResult BarrierOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// RecomputeOp
//===----------------------------------------------------------------------===//

LogicalResult RecomputeOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("must recompute at least one value");
  Block &block = getBody().front();
  if (failed(verifyTypesMatch(*this, getInputs().getTypes(),
                              block.getArgumentTypes(),
                              "region arguments must match the operands")))
    return failure();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return emitOpError("region must end with remat.yield");
  return verifyTypesMatch(*this, getResultTypes(),
                          yield.getOperands().getTypes(),
                          "remat.yield operands must match the results");
}

//===----------------------------------------------------------------------===//
// AbstractOp
//===----------------------------------------------------------------------===//

LogicalResult AbstractOp::verify() {
  if (getFlopsAttr().getInt() < 0)
    return emitOpError("flops must not be negative, got ")
           << getFlopsAttr().getInt();
  if (getNumResults() == 0)
    return emitOpError("must produce at least one value");
  return success();
}

std::optional<uint64_t> AbstractOp::estimateFlops() {
  return static_cast<uint64_t>(getFlopsAttr().getInt());
}
