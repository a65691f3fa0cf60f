//===- ProgramBuilder.cpp - From a graph's IR to a Program ----------------===//

#include "remat/Analysis/ProgramBuilder.h"

#include "remat/Analysis/CostModel.h"
#include "remat/Analysis/InPlaceAnalysis.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Interfaces/ScratchBuffersOpInterface.h"
#include "remat/Support/Budget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;

/// Bits one element of `element` takes in a buffer, or std::nullopt for an
/// element type the memory model cannot size.
static std::optional<uint64_t> bufferElementBits(Type element) {
  uint64_t bits;
  if (element.isIntOrFloat())
    bits = element.getIntOrFloatBitWidth();
  else if (isa<IndexType>(element))
    bits = 64;
  else if (auto complex = dyn_cast<ComplexType>(element);
           complex && complex.getElementType().isIntOrFloat())
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  else
    return std::nullopt;
  // Buffers store each element in whole bytes (an i1 takes one), as the
  // lowering to LLVM lays memrefs out.
  return llvm::alignTo(bits, 8);
}

std::optional<uint64_t> remat::bytesOfType(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor)
    return 0;
  auto ranked = dyn_cast<RankedTensorType>(tensor);
  if (!ranked || !ranked.hasStaticShape())
    return std::nullopt;
  std::optional<uint64_t> bits = bufferElementBits(ranked.getElementType());
  if (!bits)
    return std::nullopt;
  std::optional<uint64_t> count = staticElementCount(ranked.getShape());
  if (!count)
    return std::nullopt;
  return denseBytes(*count, *bits);
}

LogicalResult remat::verifyStaticByteSize(Location loc, Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape() || bytesOfType(type))
    return success();
  std::optional<uint64_t> bits = bufferElementBits(ranked.getElementType());
  if (!bits)
    return success();
  InFlightDiagnostic diag = mlir::emitError(loc) << type << " has ";
  if (std::optional<uint64_t> count = staticElementCount(ranked.getShape()))
    diag << *count << " elements";
  else
    diag << "more than 2^64 elements";
  return diag << " of " << *bits / 8 << (*bits == 8 ? " byte" : " bytes")
              << ": its size overflows 64 bits";
}

Location GraphProgram::locOfValue(ValueId value) const {
  return values[value].getLoc();
}

static std::optional<Value> aliasedOperand(Operation *op, unsigned index);

/// The value whose buffer `value` uses: itself, or the source of the views
/// and in-place results it comes from.
static Value bufferRoot(Value value) {
  while (auto result = dyn_cast<OpResult>(value)) {
    std::optional<Value> source =
        aliasedOperand(result.getOwner(), result.getResultNumber());
    if (!source)
      break;
    value = *source;
  }
  return value;
}

/// Whether `callee`, or a function it calls, calls `target`.
static bool reaches(func::FuncOp callee, func::FuncOp target,
                    llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (!seen.insert(callee).second)
    return false;
  WalkResult walk = callee.walk([&](func::CallOp call) {
    auto next = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (next && (next == target || reaches(next, target, seen)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

func::FuncOp remat::inlinedCallee(func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
    return nullptr;
  llvm::SmallPtrSet<Operation *, 8> seen;
  return reaches(callee, callee, seen) ? nullptr : callee;
}

/// TOSA ops that its lowering (convertToLinalg) turns into views of their
/// first operand: a reshape into a tensor reshape, a slice into an
/// extract_slice, an identity into nothing. TOSA has no bufferization
/// models to ask; ProgramBuilderTest checks this list against the lowering.
static bool isTosaView(Operation *op) {
  return isa<tosa::ReshapeOp, tosa::SliceOp, tosa::IdentityOp>(op);
}

/// The operand whose buffer result `index` of `op` reuses, and whether
/// the op writes into it, as One-Shot Bufferize's models
/// (BufferizableOpInterface) say for an op bufferized in place: the source
/// of a view (a slice, reshape or cast), the destination a
/// destination-passing op writes into. Where bufferization copies instead
/// is InPlaceAnalysis.h's question. An op with several possible sources (a
/// select of tensors) is not an alias of any one of them.
struct ReusedBuffer {
  Value operand;
  bool written;
};

static std::optional<ReusedBuffer> bufferizationAlias(Operation *op,
                                                      unsigned index) {
  auto bufferizable = dyn_cast<bufferization::BufferizableOpInterface>(op);
  Value result = op->getResult(index);
  if (!bufferizable || !isa<TensorType>(result.getType()))
    return std::nullopt;
  bufferization::OneShotBufferizationOptions options =
      stepBufferizationOptions();
  bufferization::AnalysisState state(options);
  bufferization::AliasingOpOperandList aliases =
      bufferizable.getAliasingOpOperands(result, state);
  if (aliases.getNumAliases() != 1 || !aliases.getAliases()[0].isDefinite)
    return std::nullopt;
  OpOperand *operand = aliases.getAliases()[0].opOperand;
  return ReusedBuffer{operand->get(),
                      bufferizable.bufferizesToMemoryWrite(*operand, state)};
}

/// bufferizationAlias, for every op the memory model sees: also TOSA's
/// views, the barrier's pass-through results, and a call's result that is
/// (a view of) an argument of the inlined callee.
static std::optional<ReusedBuffer> reusedBuffer(Operation *op,
                                                unsigned index) {
  if (auto call = dyn_cast<func::CallOp>(op)) {
    func::FuncOp callee = inlinedCallee(call);
    if (!callee)
      return std::nullopt;
    Block &body = callee.getBody().front();
    auto arg = dyn_cast<BlockArgument>(
        bufferRoot(body.getTerminator()->getOperand(index)));
    if (arg && arg.getOwner() == &body)
      return ReusedBuffer{call.getOperand(arg.getArgNumber()), false};
    return std::nullopt;
  }
  if (isTosaView(op))
    return ReusedBuffer{op->getOperand(0), false};
  if (isa<BarrierOp>(op))
    return ReusedBuffer{op->getOperand(index), false};
  return bufferizationAlias(op, index);
}

/// The operand whose buffer result `index` of `op` reuses where
/// bufferization makes no copy (reusedBuffer).
static std::optional<Value> aliasedOperand(Operation *op, unsigned index) {
  if (std::optional<ReusedBuffer> reused = reusedBuffer(op, index))
    return reused->operand;
  return std::nullopt;
}

static std::vector<uint64_t> inlinedCallScratchBuffers(func::FuncOp callee);

/// The bytes of each buffer the lowering allocates for `op` beyond its
/// results and frees right after it, in allocation order: what the op's
/// ScratchBuffersOpInterface says its lowering allocates; for a call the
/// lowering inlines, the callee's buffers.
static std::vector<uint64_t> scratchBuffersOf(Operation *op) {
  std::vector<uint64_t> buffers;
  if (auto scratch = dyn_cast<ScratchBuffersOpInterface>(op))
    for (RankedTensorType type : scratch.getScratchBufferTypes())
      buffers.push_back(bytesOfType(type).value_or(0));
  if (auto call = dyn_cast<func::CallOp>(op))
    if (func::FuncOp callee = inlinedCallee(call))
      buffers = inlinedCallScratchBuffers(callee);
  return buffers;
}

/// Constants bufferize to read-only globals: no allocation while running.
static bool isGlobalConstant(Operation *op) {
  return isa<arith::ConstantOp, tosa::ConstOp, tosa::ConstShapeOp>(op);
}

/// The buffers a call to `callee` allocates beyond its results. The
/// lowering inlines the call with one location for all the callee's ops, so
/// each of its buffers lives until the call's last op has run: the scratch
/// is every buffer (and scratch buffer) of the body but the returned ones,
/// each an allocation of its own.
static std::vector<uint64_t> inlinedCallScratchBuffers(func::FuncOp callee) {
  Block &body = callee.getBody().front();
  llvm::SmallPtrSet<Value, 4> returned;
  for (Value value : body.getTerminator()->getOperands())
    returned.insert(bufferRoot(value));
  std::vector<uint64_t> buffers;
  for (Operation &op : body.without_terminator()) {
    llvm::append_range(buffers, scratchBuffersOf(&op));
    if (isGlobalConstant(&op))
      continue;
    for (OpResult result : op.getResults())
      if (!returned.contains(result) &&
          !aliasedOperand(&op, result.getResultNumber()))
        if (uint64_t bytes = bytesOfType(result.getType()).value_or(0))
          buffers.push_back(bytes);
  }
  return buffers;
}

namespace {

class ProgramAssembler {
public:
  ProgramAssembler(GraphProgram &graph, const llvm::DenseSet<Value> &copied)
      : graph(graph), copied(copied) {}

  LogicalResult addInput(BlockArgument arg) {
    std::optional<uint64_t> bytes = bytesOfType(arg.getType());
    if (!bytes)
      return unsized(arg.getLoc(), arg.getType(),
                     "argument #" + std::to_string(arg.getArgNumber()));
    ValueId id = graph.program.addInput(*bytes);
    record(arg, id);
    return success();
  }

  LogicalResult addOp(Operation *op) {
    if (auto recompute = dyn_cast<RecomputeOp>(op))
      return addRecompute(recompute);
    if (auto tag = dyn_cast<NameOp>(op))
      return addTag(tag);

    std::vector<ValueId> operands;
    llvm::SetVector<Value> used;
    for (Value v : op->getOperands())
      used.insert(v);
    // Values captured by nested regions are read while the op runs.
    getUsedValuesDefinedAbove(op->getRegions(), used);
    for (Value v : used) {
      auto it = graph.valueIds.find(v);
      if (it != graph.valueIds.end())
        operands.push_back(it->second);
    }

    std::vector<uint64_t> resultBytes;
    for (OpResult result : op->getResults()) {
      std::optional<uint64_t> bytes = bytesOfType(result.getType());
      if (!bytes)
        return unsized(op->getLoc(), result.getType(),
                       "result #" + std::to_string(result.getResultNumber()));
      resultBytes.push_back(isGlobalConstant(op) ? 0 : *bytes);
    }
    if (Attribute attr = op->getAttr(kFlopsAttrName))
      if (failed(verifyFlopsAttr(attr, [&] { return op->emitError(); })))
        return failure();
    std::optional<uint64_t> flops = getFlops(op);
    if (!flops)
      return op->emitError("cannot compute the cost of this op: its shapes "
                           "are not static");

    bool recomputable = isRecomputable(op);
    OpId id = graph.program.addOp(std::move(operands), std::move(resultBytes),
                                  *flops, recomputable,
                                  op->getName().getStringRef().str());
    graph.ops.push_back(op);
    OpInfo &info = graph.program.ops[id];
    info.ordered = isa<BackwardOp>(op) || !isMemoryEffectFree(op);
    info.mustKeep = op->hasAttr(kNeverAttrName);
    std::vector<uint64_t> scratch = scratchBuffersOf(op);
    info.scratchBuffers.assign(scratch.begin(), scratch.end());
    if (auto save = op->getAttrOfType<BoolAttr>(kSaveAttrName))
      info.mustRecompute = recomputable && !save.getValue();
    if (isa<BackwardOp>(op) && graph.program.backwardBegin == kNone)
      graph.program.backwardBegin = id;

    for (auto [index, result] : llvm::enumerate(op->getResults())) {
      ValueId value = info.results[index];
      record(result, value);
      std::optional<Value> root = aliasedOperand(op, index);
      if (root && !copied.contains(result)) {
        auto it = graph.valueIds.find(*root);
        if (it == graph.valueIds.end())
          continue;
        if (reusedBuffer(op, index)->written)
          graph.program.setInPlaceWrite(value, it->second);
        else
          graph.program.setAlias(value, it->second);
      }
    }
    return success();
  }

private:
  /// A tag is the tagged value under another name, not an op: sharing its id
  /// keeps the value recomputable (a view would pin its buffer) and makes
  /// uses of the tag uses of the value, while the tag itself reads nothing
  /// (lowering erases it).
  LogicalResult addTag(NameOp tag) {
    auto it = graph.valueIds.find(tag.getInput());
    if (it == graph.valueIds.end())
      return success();
    ValueId value = it->second;
    graph.valueIds[tag.getResult()] = value;
    std::string &name = tagNames[value];
    name += (name.empty() ? "" : ",") + ("\"" + tag.getTag().str() + "\"");
    return success();
  }

  /// Flattens the region as if inlined: block arguments are the operands,
  /// results are the yielded values.
  LogicalResult addRecompute(RecomputeOp recompute) {
    graph.hasRecomputes = true;
    Block &body = recompute.getBody().front();
    for (auto [arg, operand] :
         llvm::zip(body.getArguments(), recompute.getInputs()))
      graph.valueIds[arg] = graph.valueIds.lookup(operand);
    for (Operation &inner : body.without_terminator())
      if (failed(addOp(&inner)))
        return failure();
    auto yield = cast<YieldOp>(body.getTerminator());
    for (auto [result, yielded] :
         llvm::zip(recompute.getResults(), yield.getOperands()))
      graph.valueIds[result] = graph.valueIds.lookup(yielded);
    return success();
  }

  void record(Value value, ValueId id) {
    graph.valueIds[value] = id;
    if (graph.values.size() <= id)
      graph.values.resize(id + 1);
    graph.values[id] = value;
  }

  LogicalResult unsized(Location loc, Type type, const std::string &what) {
    if (failed(verifyStaticByteSize(loc, type)))
      return failure();
    return mlir::emitError(loc, "the memory model needs static shapes: ")
           << what << " has type " << type
           << " whose size is not known at compile time";
  }

  GraphProgram &graph;
  /// Results the lowering copies rather than aliases (InPlaceAnalysis.h).
  const llvm::DenseSet<Value> &copied;

public:
  /// remat.name tags of each value, for reports.
  llvm::DenseMap<ValueId, std::string> tagNames;
};

/// Names values as the printer does ("%12", "%arg0"), and by their
/// remat.name tag where they have one.
void nameValues(FunctionOpInterface function, GraphProgram &graph,
                const llvm::DenseMap<ValueId, std::string> &tagNames) {
  AsmState state(function, OpPrintingFlags().useLocalScope());
  for (auto [id, value] : llvm::enumerate(graph.values)) {
    if (!value)
      continue;
    std::string name;
    llvm::raw_string_ostream os(name);
    value.printAsOperand(os, state);
    graph.program.values[id].name = name;
  }
  for (const auto &[id, tags] : tagNames)
    graph.program.values[id].name += " " + tags;
}

} // namespace

LogicalResult remat::makeBufferCopiesExplicit(FunctionOpInterface function) {
  return makeCopiesExplicit(function, aliasedOperand);
}

FailureOr<GraphProgram> remat::buildProgram(FunctionOpInterface function) {
  Region &body = function.getFunctionBody();
  if (body.empty())
    return mlir::emitError(function.getLoc(), "has no body to plan");
  if (!body.hasOneBlock())
    return mlir::emitError(function.getLoc(), "the planner needs a single-block body; "
                              "program order is the schedule");
  FailureOr<llvm::DenseSet<Value>> copied =
      copiedAliases(function, aliasedOperand);
  if (failed(copied))
    return failure();
  GraphProgram graph;
  ProgramAssembler builder(graph, *copied);
  Block &block = body.front();
  for (BlockArgument arg : block.getArguments())
    if (failed(builder.addInput(arg)))
      return failure();
  for (Operation &op : block.without_terminator())
    if (failed(builder.addOp(&op)))
      return failure();
  for (Value returned : block.getTerminator()->getOperands()) {
    auto it = graph.valueIds.find(returned);
    if (it != graph.valueIds.end())
      graph.program.markOutput(it->second);
  }
  nameValues(function, graph, builder.tagNames);
  return graph;
}
