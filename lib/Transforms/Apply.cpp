//===- Apply.cpp - Materialize a plan as remat.recompute regions ----------===//
//
// Performs on IR exactly the rewrite `materialize` performs on the Program
// (Planning/Plan.h), then re-analyses the result: the peak of the rewritten
// IR must be the peak the planner predicted.
//
//===----------------------------------------------------------------------===//

#include "Graphs.h"
#include "PlanAttr.h"

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace remat {
#define GEN_PASS_DEF_APPLYPASS
#include "remat/Transforms/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-apply"

using namespace mlir;
using namespace remat;

namespace {

/// Mirrors `materialize` on IR. Values are tracked by ValueId, because
/// several IR values share one (a remat.name tag and the value it tags).
class PlanRewriter {
public:
  PlanRewriter(const GraphProgram &graph, Block &block)
      : graph(graph), block(block) {
    // Block order, tags included (they are not ops of the program).
    for (auto [index, op] : llvm::enumerate(block))
      position[&op] = index;
    for (const auto &[value, id] : graph.valueIds)
      irValues[id].push_back(value);
  }

  /// Creates the regions in program order, then points every later use at
  /// the latest copy placed before it.
  void apply(const Plan &plan) {
    std::vector<SmallVector<const Recompute *>> groups(graph.ops.size());
    for (const Recompute &r : plan.recomputes)
      groups[r.before].push_back(&r);
    for (OpId op = 0; op < graph.ops.size(); ++op)
      for (const Recompute *r : groups[op])
        createRegion(*r);
    SmallVector<NameOp> usedTags;
    for (NameOp tag : block.getOps<NameOp>())
      if (!tag->use_empty())
        usedTags.push_back(tag);
    for (auto &[value, copies] : versions)
      for (Value original : irValues[value])
        redirectUses(original, copies);
    // A tag whose readers all moved to a copy names nothing any more. Tags
    // are not ops of the program, so erasing them changes no peak.
    for (NameOp tag : usedTags)
      if (tag->use_empty())
        tag->erase();
    eraseMovedOriginals();
  }

  unsigned regionsCreated() const { return created.size(); }

private:
  /// Erases the originals `materialize` drops: recomputable ops whose
  /// results were read before the rewrite and are read by nothing but unused
  /// tags after it, in reverse order so that producers that only fed them
  /// follow.
  void eraseMovedOriginals() {
    const Program &program = graph.program;
    std::vector<bool> usedOriginally(program.values.size(), false);
    for (const OpInfo &op : program.ops)
      for (ValueId operand : op.operands)
        usedOriginally[operand] = true;
    auto onlyUnusedTags = [](Value v) {
      return llvm::all_of(v.getUsers(), [](Operation *user) {
        return isa<NameOp>(user) && user->use_empty();
      });
    };
    for (OpId id = graph.ops.size(); id-- > 0;) {
      const OpInfo &info = program.ops[id];
      Operation *op = graph.ops[id];
      if (!info.recomputable || info.results.empty() ||
          !llvm::any_of(info.results,
                        [&](ValueId r) { return usedOriginally[r]; }) ||
          !llvm::all_of(op->getResults(), onlyUnusedTags))
        continue;
      for (Value result : op->getResults())
        for (Operation *tag : llvm::make_early_inc_range(result.getUsers()))
          tag->erase();
      op->erase();
    }
  }

public:

private:
  ValueId idOf(Value v) const { return graph.valueIds.lookup(v); }

  Value currentVersion(ValueId value) const {
    auto it = current.find(value);
    return it == current.end() ? graph.values[value] : it->second;
  }

  /// Operands of `op` and values its regions capture.
  static SmallVector<Value> readsOf(Operation *op) {
    SmallVector<Value> reads(op->getOperands());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    llvm::append_range(reads, captured);
    return reads;
  }

  void createRegion(const Recompute &r) {
    const Program &program = graph.program;
    llvm::SmallDenseSet<OpId> chain(r.chain.begin(), r.chain.end());
    auto inChain = [&](ValueId value) {
      OpId def = program.values[value].def;
      return def != kNone && chain.contains(def);
    };

    // Values the chain reads from outside itself, by id, in first-read
    // order. Constants are rematerialized inside the region instead: some
    // ops (tosa.reshape's shape) need them to be visible constants.
    llvm::SetVector<ValueId> externals;
    SmallVector<Operation *> constants;
    llvm::SmallDenseSet<Operation *> seenConstants;
    for (OpId op : r.chain)
      for (Value v : readsOf(graph.ops[op])) {
        if (!graph.valueIds.count(v) || inChain(idOf(v)))
          continue;
        Operation *def = v.getDefiningOp();
        if (def && def->hasTrait<OpTrait::ConstantLike>()) {
          if (seenConstants.insert(def).second)
            constants.push_back(def);
          continue;
        }
        externals.insert(idOf(v));
      }

    Value target = graph.values[r.value];
    Operation *user = graph.ops[r.before];
    OpBuilder builder(user);
    SmallVector<Value> inputs;
    SmallVector<Location> argLocs;
    for (ValueId value : externals) {
      inputs.push_back(currentVersion(value));
      argLocs.push_back(graph.values[value].getLoc());
    }
    auto recompute = RecomputeOp::create(builder, target.getLoc(),
                                         TypeRange{target.getType()}, inputs);
    Block *body = builder.createBlock(&recompute.getBody(), {},
                                      ValueRange(inputs).getTypes(), argLocs);
    IRMapping mapping;
    llvm::DenseMap<ValueId, Value> inside;
    for (auto [value, arg] : llvm::zip(externals, body->getArguments()))
      inside[value] = arg;
    for (Operation *constant : constants)
      builder.clone(*constant, mapping);
    for (OpId op : r.chain) {
      Operation *original = graph.ops[op];
      for (Value v : readsOf(original))
        if (!mapping.contains(v) && graph.valueIds.count(v))
          mapping.map(v, inside.lookup(idOf(v)));
      Operation *copy = builder.clone(*original, mapping);
      for (auto [result, copied] :
           llvm::zip(original->getResults(), copy->getResults()))
        inside[idOf(result)] = copied;
    }
    YieldOp::create(builder, target.getLoc(), inside.lookup(r.value));

    Value copy = recompute.getResult(0);
    current[r.value] = copy;
    versions[r.value].push_back({position.lookup(user), copy});
    created.insert(recompute);
  }

  /// `copies` are in placement order, hence sorted by block position.
  void redirectUses(Value original,
                    ArrayRef<std::pair<size_t, Value>> copies) {
    for (OpOperand &use : llvm::make_early_inc_range(original.getUses())) {
      Operation *top = block.findAncestorOpInBlock(*use.getOwner());
      if (!top || created.contains(top))
        continue;
      size_t at = position.lookup(top);
      Value latest;
      for (const auto &[before, copy] : copies) {
        if (before > at)
          break;
        latest = copy;
      }
      if (latest)
        use.set(latest);
    }
  }

  const GraphProgram &graph;
  Block &block;
  llvm::DenseMap<Operation *, size_t> position;
  llvm::DenseMap<ValueId, SmallVector<Value>> irValues;
  llvm::DenseMap<ValueId, Value> current;
  /// Per recomputed value: the block position of the op each copy was
  /// placed before, and the copy.
  llvm::MapVector<ValueId, SmallVector<std::pair<size_t, Value>>> versions;
  llvm::SmallDenseSet<Operation *> created;
};

} // namespace

namespace {

struct ApplyPass final : remat::impl::ApplyPassBase<ApplyPass> {
  void runOnOperation() override {
    auto applyGraph = [&](FunctionOpInterface graph) -> LogicalResult {
      Attribute attr = graph->getAttr(kPlanAttrName);
      if (!attr)
        return success();
      auto plan = dyn_cast<DictionaryAttr>(attr);
      if (!plan)
        return graph.emitError("malformed remat.plan: expected the "
                               "dictionary remat-plan writes, not ")
               << attr;
      graph->removeAttr(kPlanAttrName);
      return applyPlan(graph, plan);
    };
    if (failed(forEachGraph(getOperation(), applyGraph)))
      signalPassFailure();
  }

  LogicalResult applyPlan(FunctionOpInterface function,
                          DictionaryAttr planAttr) {
    FailureOr<GraphProgram> graph = buildProgram(function);
    if (failed(graph))
      return failure();
    if (graph->hasRecomputes)
      return mlir::emitError(function.getLoc(), "remat.plan found on a graph that is already "
                                "rematerialized");
    std::string error;
    std::optional<DecodedPlan> decoded =
        decodePlan(planAttr, graph->program, error);
    if (!decoded)
      return mlir::emitError(function.getLoc(), error);

    PlanRewriter rewriter(*graph, function.getFunctionBody().front());
    rewriter.apply(decoded->plan);
    numRegions += rewriter.regionsCreated();

    // The promise: what the planner predicted is what the IR now holds.
    FailureOr<GraphProgram> rewritten = buildProgram(function);
    if (failed(rewritten))
      return failure();
    uint64_t peak =
        computeMemoryProfile(rewritten->program, decoded->countInputs)
            .peakBytes;
    if (peak != decoded->predictedPeak)
      return mlir::emitError(function.getLoc(), "the rewritten graph peaks at ")
             << peak << " bytes, but the plan predicted "
             << decoded->predictedPeak << " bytes";
    return success();
  }
};

} // namespace
