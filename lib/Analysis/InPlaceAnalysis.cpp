//===- InPlaceAnalysis.cpp - What bufferization writes in place -----------===//

#include "remat/Analysis/InPlaceAnalysis.h"

#include "remat/Analysis/RematStructure.h"
#include "remat/Tosa/LinalgLowering.h"

#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/StringMap.h"

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

/// Whether `init`, the destination `op` writes into, is a buffer no other op
/// reads: a tensor.empty, or the result of a destination-passing op (a
/// fill) writing into such a buffer, that only `op` reads. A write there
/// overwrites nothing anybody else reads, so bufferization never copies
/// because of it.
static bool isPrivateDestination(Value init) {
  for (unsigned depth = 0; depth < 8; ++depth) {
    if (!init.hasOneUse())
      return false;
    Operation *def = init.getDefiningOp();
    if (isa_and_nonnull<tensor::EmptyOp>(def))
      return true;
    auto dps = dyn_cast_or_null<DestinationStyleOpInterface>(def);
    if (!dps || !dps.hasPureTensorSemantics())
      return false;
    init = dps.getTiedOpOperand(cast<OpResult>(init))->get();
  }
  return false;
}

namespace {

/// The name of the location that marks the ops a step op became.
std::string markOf(unsigned index) {
  return "remat.alias." + std::to_string(index);
}

/// Whether `value`, a result of the ops marked `group` (the ops one step op
/// became), shares the buffer its group reads: each op from `value` back to
/// the first value defined outside the group passes its operand's buffer
/// on, as the analysis decided. Ops the analysis does not know keep the
/// model's view.
bool sharesBuffer(Value value, const llvm::DenseSet<Operation *> &group,
                  const bufferization::OneShotAnalysisState &state) {
  const bufferization::BufferizationOptions &options = state.getOptions();
  for (unsigned steps = 0; steps < 16; ++steps) {
    Operation *op = value.getDefiningOp();
    if (!op || !group.contains(op))
      return true;
    // A view of a constant that the lowering folds into a constant of its
    // own is a global too: nothing is allocated for it.
    if (op->hasTrait<OpTrait::ConstantLike>())
      return true;
    if (!options.dynCastBufferizableOp(op))
      return true;
    OpOperand *source = nullptr;
    for (const bufferization::AliasingOpOperand &alias :
         state.getAliasingOpOperands(value))
      if (alias.isDefinite) {
        source = alias.opOperand;
        break;
      }
    if (!source || !state.isInPlace(*source))
      return false;
    value = source->get();
  }
  return true;
}

} // namespace

FailureOr<llvm::DenseSet<Value>>
remat::copiedAliases(FunctionOpInterface function, AliasOf aliasOf) {
  llvm::DenseSet<Value> copied;
  llvm::SetVector<func::FuncOp> callees;
  collectCallees(function, callees);
  // Every other op the lowering makes writes into a new tensor.empty, and a
  // view only needs a copy of a buffer something overwrites: without a
  // write into a buffer another op reads, bufferization copies nothing, and
  // its analysis (superlinear in the step's size) need not run. The
  // lowering inlines calls, so a callee's writes count as the step's.
  bool writes = false;
  auto findWrites = [&](DestinationStyleOpInterface op) {
    if (op.hasPureTensorSemantics())
      for (OpOperand &init : op.getDpsInitsMutable())
        writes |= !isPrivateDestination(init.get());
  };
  function->walk(findWrites);
  for (func::FuncOp callee : callees)
    callee->walk(findWrites);
  if (!writes)
    return copied;

  // The step as a func.func in a module of its own, with the functions it
  // calls; `mapping` relates the copy's ops to the step's.
  MLIRContext *context = function->getContext();
  // Passes that build programs declare these dialects, so they are loaded
  // before any thread runs; a direct caller gets them loaded here.
  context->loadDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                       func::FuncDialect, linalg::LinalgDialect,
                       math::MathDialect, scf::SCFDialect,
                       tensor::TensorDialect>();
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(function.getLoc());
  builder.setInsertionPointToEnd(scratch->getBody());
  for (func::FuncOp callee : callees)
    builder.clone(*callee);
  auto type = dyn_cast<FunctionType>(function.getFunctionType());
  if (!type)
    return copied;
  auto copy = func::FuncOp::create(builder, function.getLoc(), "step", type);
  copy.setArgAttrsAttr(function.getArgAttrsAttr());
  IRMapping mapping;
  function.getFunctionBody().cloneInto(&copy.getBody(), mapping);

  // Each op with a result the model takes for an alias marks, through its
  // location, the ops the lowering turns it into (patterns give the ops
  // they create the location of the op they replace).
  SmallVector<Operation *> aliasing;
  function->walk([&](Operation *op) {
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      if (aliasOf(op, i)) {
        Operation *clone = mapping.lookupOrNull(op);
        if (!clone)
          break;
        clone->setLoc(NameLoc::get(
            StringAttr::get(context, markOf(aliasing.size())),
            clone->getLoc()));
        aliasing.push_back(op);
        break;
      }
  });
  if (aliasing.empty())
    return copied;

  // Lowered as remat-lower lowers the step: remat ops flattened, calls
  // inlined, then TOSA to linalg.
  replaceRematReturns(copy);
  flattenRematOps(copy);
  inlineCalls(copy);
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

  // The ops each marked step op became.
  std::vector<llvm::DenseSet<Operation *>> groups(aliasing.size());
  llvm::StringMap<unsigned> marks;
  for (unsigned k = 0; k < aliasing.size(); ++k)
    marks[markOf(k)] = k;
  copy.walk([&](Operation *op) {
    if (auto name = dyn_cast<NameLoc>(op->getLoc())) {
      auto it = marks.find(name.getName().getValue());
      if (it != marks.end())
        groups[it->second].insert(op);
    }
  });
  for (auto [k, op] : llvm::enumerate(aliasing)) {
    const llvm::DenseSet<Operation *> &group = groups[k];
    // The group's results that ops outside it read, in order.
    SmallVector<Value> results;
    if (group.size() == 1 &&
        (*group.begin())->getNumResults() == op->getNumResults()) {
      llvm::append_range(results, (*group.begin())->getResults());
    } else {
      for (Operation *member : group)
        for (Value result : member->getResults())
          if (llvm::any_of(result.getUsers(), [&](Operation *user) {
                return !group.contains(user);
              }))
            results.push_back(result);
      // Not one value per result: the model's view stands.
      if (results.size() != op->getNumResults())
        continue;
    }
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      if (aliasOf(op, i) && !sharesBuffer(results[i], group, state))
        copied.insert(op->getResult(i));
  }
  return copied;
}

/// The static offsets of a slice, when known, and its source's shape.
static std::optional<std::pair<SmallVector<int64_t>, ArrayRef<int64_t>>>
sliceOffsets(Operation *op) {
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    if (!llvm::all_of(slice.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }) ||
        ShapedType::isDynamicShape(slice.getStaticOffsets()))
      return std::nullopt;
    return std::make_pair(SmallVector<int64_t>(slice.getStaticOffsets()),
                          slice.getSourceType().getShape());
  }
  if (auto slice = dyn_cast<tosa::SliceOp>(op)) {
    auto start = slice.getStart().getDefiningOp<tosa::ConstShapeOp>();
    if (!start)
      return std::nullopt;
    SmallVector<int64_t> offsets;
    for (const APInt &offset : start.getValues().getValues<APInt>())
      offsets.push_back(offset.getSExtValue());
    return std::make_pair(
        offsets, cast<ShapedType>(slice.getInput1().getType()).getShape());
  }
  return std::nullopt;
}

/// Whether the slice `op` makes is a buffer the function's results can
/// take as they are: starting at its source's first byte, contiguous (every
/// dimension after the first whole) and with the identity layout. Others
/// bufferize to a strided view that the identity-layout result cannot hold.
static bool isIdentityLayoutSlice(Operation *op) {
  auto known = sliceOffsets(op);
  if (!known)
    return false;
  auto [offsets, sourceShape] = *known;
  ArrayRef<int64_t> shape = cast<ShapedType>(op->getResult(0).getType())
                                .getShape();
  if (llvm::any_of(offsets, [](int64_t offset) { return offset != 0; }))
    return false;
  for (size_t dim = 1; dim < shape.size(); ++dim)
    if (shape[dim] != sourceShape[dim])
      return false;
  return true;
}

/// Whether `value` bufferizes to a strided view: on its chain of aliases
/// (views, in-place writes) back to a buffer of its own, a slice that is not
/// the identity layout.
static bool isStridedView(Value value, AliasOf aliasOf) {
  while (Operation *op = value.getDefiningOp()) {
    if (isa<tensor::ExtractSliceOp, tosa::SliceOp>(op) &&
        !isIdentityLayoutSlice(op))
      return true;
    std::optional<Value> source =
        aliasOf(op, cast<OpResult>(value).getResultNumber());
    if (!source)
      return false;
    value = *source;
  }
  return false;
}

/// Replaces `use`'s value with a copy of it in a buffer of its own, made
/// right after the value.
static void copyIntoFreshBuffer(OpOperand &use) {
  Value value = use.get();
  auto type = cast<RankedTensorType>(value.getType());
  OpBuilder builder(value.getContext());
  builder.setInsertionPointAfterValue(value);
  Value fresh = tensor::EmptyOp::create(builder, value.getLoc(),
                                        type.getShape(), type.getElementType());
  use.set(linalg::CopyOp::create(builder, value.getLoc(), value, fresh)
              .getResult(0));
}

/// Copies the strided views whose buffers bufferization would copy, where
/// the model would take them for views: the source of a reshape (a strided
/// buffer cannot always be collapsed, and tensor.reshape takes the identity
/// layout only), and a result of `function` (the identity-layout results
/// cannot hold it; bufferization copies it at the return). Made explicit,
/// each copy is counted, and a returned slice's source may die before the
/// end.
static void copyStridedViews(FunctionOpInterface function, AliasOf aliasOf) {
  SmallVector<OpOperand *> uses;
  function->walk([&](Operation *op) {
    if (isa<tensor::CollapseShapeOp, tensor::ReshapeOp, tosa::ReshapeOp>(op) &&
        isStridedView(op->getOperand(0), aliasOf))
      uses.push_back(&op->getOpOperand(0));
  });
  for (OpOperand *use : uses)
    copyIntoFreshBuffer(*use);
  // After the reshapes: a reshape of a copy is no strided view.
  for (Block &block : function.getFunctionBody())
    for (OpOperand &returned : block.getTerminator()->getOpOperands())
      if (isa<RankedTensorType>(returned.get().getType()) &&
          isStridedView(returned.get(), aliasOf))
        copyIntoFreshBuffer(returned);
}

LogicalResult remat::makeCopiesExplicit(FunctionOpInterface function,
                                        AliasOf aliasOf) {
  copyStridedViews(function, aliasOf);
  FailureOr<llvm::DenseSet<Value>> copied = copiedAliases(function, aliasOf);
  if (failed(copied))
    return failure();
  SmallVector<OpOperand *> destinations;
  function->walk([&](DestinationStyleOpInterface op) {
    if (!op.hasPureTensorSemantics())
      return;
    for (OpOperand &init : op.getDpsInitsMutable())
      if (copied->contains(op.getTiedOpResult(&init)))
        destinations.push_back(&init);
  });
  OpBuilder builder(function->getContext());
  for (OpOperand *init : destinations) {
    Operation *op = init->getOwner();
    auto type = cast<RankedTensorType>(init->get().getType());
    builder.setInsertionPoint(op);
    Value fresh = tensor::EmptyOp::create(builder, op->getLoc(),
                                          type.getShape(),
                                          type.getElementType());
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || linalgOp.payloadUsesValueFromOperand(init))
      fresh = linalg::CopyOp::create(builder, op->getLoc(), init->get(), fresh)
                  .getResult(0);
    init->set(fresh);
  }
  // A view bufferization copies (its source is overwritten before the view
  // is read) gets that copy right after it, and every reader reads the
  // copy. Left implicit, the copy would come and go with the plan: a plan
  // that moves the write elsewhere (a recomputed destination) turns it back
  // into a view that keeps its source alive.
  SmallVector<Value> views;
  function->walk([&](Operation *op) {
    if (isa<DestinationStyleOpInterface>(op))
      return;
    for (Value result : op->getResults())
      if (copied->contains(result))
        views.push_back(result);
  });
  for (Value view : views) {
    if (view.use_empty())
      continue;
    OpOperand &use = *view.getUses().begin();
    copyIntoFreshBuffer(use);
    Value copy = use.get();
    view.replaceAllUsesExcept(copy, copy.getDefiningOp());
  }
  return success();
}
