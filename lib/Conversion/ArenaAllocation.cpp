//===- ArenaAllocation.cpp - A step's buffers as views of one arena -------===//

#include "remat/Conversion/Passes.h"
#include "remat/Planning/ArenaPlacement.h"
#include "remat/Planning/TargetMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Remarks.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"


namespace remat {
#define GEN_PASS_DEF_ARENAALLOCATIONPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-arena-allocation"

using namespace mlir;

namespace {

/// An allocation of the step's block that can become a view of the arena,
/// with its deallocation (null for a buffer that lives to the return).
struct Candidate {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  remat::ArenaBuffer buffer;
};

struct ArenaAllocationPass final
    : remat::impl::ArenaAllocationPassBase<ArenaAllocationPass> {
  using ArenaAllocationPassBase::ArenaAllocationPassBase;

  void runOnOperation() override {
    if (std::string problem = remat::checkArenaAlignment(alignment);
        !problem.empty()) {
      emitError(getOperation().getLoc())
          << "remat-arena-allocation: alignment " << problem;
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    for (auto function : module.getOps<func::FuncOp>()) {
      if (!isStep(function, module))
        continue;
      if (failed(placeInArena(function)))
        return signalPassFailure();
    }
  }

  /// Public functions nobody in the module calls: their results go to a
  /// caller outside, which frees the arena once. A function called inside
  /// the module would see its caller free each result.
  static bool isStep(func::FuncOp function, ModuleOp module) {
    return function.isPublic() && !function.isExternal() &&
           function.getBody().hasOneBlock() &&
           SymbolTable::symbolKnownUseEmpty(function, module);
  }

  LogicalResult placeInArena(func::FuncOp function) {
    // The offsets must be the plan's: placed with the alignment the step
    // was planned with (remat-plan records it).
    if (auto planned =
            function->getAttrOfType<IntegerAttr>(remat::kArenaAlignmentAttrName);
        planned && planned.getValue().getZExtValue() != alignment)
      return function.emitError()
             << "was planned for an arena alignment of "
             << planned.getValue().getZExtValue()
             << " bytes but is lowered with " << alignment.getValue()
             << ": plan it for the target it is lowered for (remat-plan's "
                "target, or arena-alignment)";
    Block &body = function.getBody().front();
    DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(body.getOperations()))
      position[&op] = index;
    int64_t end = position.lookup(body.getTerminator());

    DataLayout layout = DataLayout::closest(function);
    SmallVector<Candidate> candidates;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      std::optional<Candidate> candidate =
          asCandidate(alloc, position, end, layout);
      if (!candidate) {
        ++numKept;
        continue;
      }
      candidates.push_back(*candidate);
    }
    function.getBody().walk([&](memref::AllocOp alloc) {
      if (alloc->getBlock() != &body) {
        keep(alloc, "in a nested region");
        ++numKept;
      }
    });
    if (candidates.empty())
      return success();

    SmallVector<remat::ArenaBuffer> buffers;
    for (const Candidate &candidate : candidates)
      buffers.push_back(candidate.buffer);
    if (failed(checkPlannedBuffers(function, candidates)))
      return failure();
    FailureOr<std::optional<remat::ArenaLayout>> planned =
        plannedLayout(function, candidates);
    if (failed(planned))
      return failure();
    remat::ArenaLayout placed;
    if (*planned) {
      placed = std::move(**planned);
    } else if (failed(placeAgain(function, buffers, placed))) {
      return failure();
    }

    OpBuilder builder(&body, body.begin());
    auto arenaType = MemRefType::get(
        {static_cast<int64_t>(placed.arenaBytes)}, builder.getI8Type());
    // No alignment attribute: finalize-memref-to-llvm would allocate that
    // much more and align by hand, and the allocator would not see the
    // arena's size. The allocator aligns instead (the runtime's host
    // allocator to 64 bytes, CUDA to 256).
    Value arena =
        memref::AllocOp::create(builder, function.getLoc(), arenaType);
    bool resultsInArena = false;
    for (auto [candidate, offset] : llvm::zip(candidates, placed.offsets)) {
      memref::AllocOp alloc = candidate.alloc;
      builder.setInsertionPoint(alloc);
      Value shift = arith::ConstantIndexOp::create(
          builder, alloc.getLoc(), static_cast<int64_t>(offset));
      Value view = memref::ViewOp::create(builder, alloc.getLoc(),
                                          alloc.getType(), arena, shift,
                                          ValueRange());
      if (candidate.dealloc)
        candidate.dealloc.erase();
      else
        resultsInArena = true;
      alloc.replaceAllUsesWith(view);
      alloc.erase();
      ++numPlaced;
    }
    // Every buffer was freed before the return: so is the arena.
    if (!resultsInArena) {
      builder.setInsertionPoint(body.getTerminator());
      memref::DeallocOp::create(builder, function.getLoc(), arena);
    }

    remark::analysis(function.getLoc(),
                     remark::RemarkOpts::name("Arena")
                         .category("remat")
                         .function(function.getName()))
        << llvm::formatv("arena {0} bytes for {1} buffer(s), live peak {2} "
                         "bytes (aligned to {3})",
                         placed.arenaBytes, candidates.size(),
                         placed.liveBytes, alignment.getValue())
               .str();
    return success();
  }

  /// The plan's own offsets for the lowered buffers, when the plan records
  /// them and they are a placement of the buffers as the lowering sees
  /// them: the arena is then the plan's by construction. Buffers are matched
  /// size for size in program order (checkPlannedBuffers saw the sizes
  /// agree). Nothing when there is no plan, or the lowering orders or
  /// times two equal buffers differently (a remark says so): the caller
  /// places them again.
  static FailureOr<std::optional<remat::ArenaLayout>>
  plannedLayout(func::FuncOp function, ArrayRef<Candidate> candidates) {
    DictionaryAttr planned = plannedArena(function);
    if (!planned || !planned.get("offsets"))
      return std::optional<remat::ArenaLayout>();
    auto sizes = planned.getAs<DenseI64ArrayAttr>("buffers");
    auto offsets = planned.getAs<DenseI64ArrayAttr>("offsets");
    auto bytes = planned.getAs<IntegerAttr>("bytes");
    if (!offsets || !bytes || offsets.size() != sizes.size() ||
        llvm::any_of(offsets.asArrayRef(), [](int64_t o) { return o < 0; }))
      return function.emitError() << "has a malformed "
                                  << remat::kPlannedArenaAttrName
                                  << ": its offsets are not one non-negative offset per buffer";
    // The plan's offsets per size, in its order.
    DenseMap<uint64_t, SmallVector<uint64_t>> bySize;
    for (auto [size, offset] :
         llvm::zip(sizes.asArrayRef(), offsets.asArrayRef()))
      if (size > 0)
        bySize[size].push_back(offset);
    DenseMap<uint64_t, size_t> taken;
    remat::ArenaLayout layout;
    SmallVector<remat::ArenaBuffer> buffers;
    for (const Candidate &candidate : candidates) {
      buffers.push_back(candidate.buffer);
      uint64_t size = candidate.buffer.bytes;
      layout.offsets.push_back(size ? bySize[size][taken[size]++] : 0);
    }
    layout.arenaBytes = bytes.getValue().getZExtValue();
    layout.liveBytes = remat::arenaLiveBytes(buffers);
    std::string problem =
        remat::arenaLayoutProblem(buffers, layout.offsets, layout.arenaBytes);
    if (problem.empty())
      return std::optional<remat::ArenaLayout>(std::move(layout));
    remark::missed(function.getLoc(), remark::RemarkOpts::name("Arena")
                                          .category("remat")
                                          .function(function.getName()))
        << ("the plan's offsets are not a placement of the lowered buffers (" +
            problem + "): placed again");
    return std::optional<remat::ArenaLayout>();
  }

  /// Places the buffers without the plan's offsets; the arena must still be
  /// the plan's size, if the step has a plan.
  LogicalResult placeAgain(func::FuncOp function,
                           ArrayRef<remat::ArenaBuffer> buffers,
                           remat::ArenaLayout &placed) {
    placed = remat::placeArena(buffers);
    if (placed.overflow)
      return function.emitError()
             << "the " << buffers.size()
             << " buffers of this step do not fit in one arena of at most "
             << remat::kMaxArenaBytes << " bytes (aligned to "
             << alignment.getValue() << "): its size overflows";
    if (auto planned = plannedArena(function)) {
      auto bytes = planned.getAs<IntegerAttr>("bytes");
      if (bytes && bytes.getValue().getZExtValue() != placed.arenaBytes)
        return function.emitError()
               << "the lowered step's buffers take an arena of "
               << placed.arenaBytes << " bytes, but its plan's arena is "
               << bytes.getValue().getZExtValue()
               << " bytes: the lowering no longer allocates what the "
                  "memory model describes";
    }
    return success();
  }

  /// The arena remat-plan recorded on the step, if any.
  static DictionaryAttr plannedArena(func::FuncOp function) {
    return function->getAttrOfType<DictionaryAttr>(
        remat::kPlannedArenaAttrName);
  }

  /// The allocations the lowering made are the plan's buffers, size for
  /// size (in size order: the two orders of allocation may differ); else an
  /// error at the first allocation or plan buffer without a match.
  static LogicalResult checkPlannedBuffers(func::FuncOp function,
                                           ArrayRef<Candidate> candidates) {
    DictionaryAttr planned = plannedArena(function);
    if (!planned)
      return success();
    auto sizes = planned.getAs<DenseI64ArrayAttr>("buffers");
    if (!sizes)
      return function.emitError() << "has a malformed "
                                  << remat::kPlannedArenaAttrName;
    // Empty buffers take no arena bytes, planned or not.
    SmallVector<uint64_t> plan;
    for (int64_t size : sizes.asArrayRef())
      if (size > 0)
        plan.push_back(static_cast<uint64_t>(size));
    SmallVector<const Candidate *> lowered;
    for (const Candidate &candidate : candidates)
      if (candidate.buffer.bytes > 0)
        lowered.push_back(&candidate);
    llvm::sort(plan);
    // By size, then in program order: the error names the earliest.
    llvm::sort(lowered, [](const Candidate *a, const Candidate *b) {
      return std::make_pair(a->buffer.bytes, a->buffer.first) <
             std::make_pair(b->buffer.bytes, b->buffer.first);
    });
    for (size_t i = 0; i < std::max(plan.size(), lowered.size()); ++i) {
      if (i < plan.size() && i < lowered.size() &&
          plan[i] == lowered[i]->buffer.bytes)
        continue;
      if (i < lowered.size() &&
          (i >= plan.size() || lowered[i]->buffer.bytes < plan[i]))
        return lowered[i]->alloc->emitError()
               << "the lowering allocates a buffer of "
               << lowered[i]->buffer.bytes
               << " bytes here that the step's plan does not have (the "
                  "plan has "
               << plan.size() << " buffers, the lowering " << lowered.size()
               << ")";
      return function.emitError()
             << "the step's plan has a buffer of " << plan[i]
             << " bytes that the lowering does not allocate (the plan has "
             << plan.size() << " buffers, the lowering " << lowered.size()
             << ")";
    }
    return success();
  }

  /// Says why an allocation stays one of its own.
  static void keep(memref::AllocOp alloc, StringRef why) {
    std::string type;
    llvm::raw_string_ostream(type) << alloc.getType();
    remark::missed(alloc.getLoc(),
                   remark::RemarkOpts::name("Arena").category("remat").function(
                       alloc->getParentOfType<func::FuncOp>().getName()))
        << ("allocation of " + type + " kept out of the arena: " + why).str();
  }

  /// The allocation as a buffer to place, or nothing when it must stay an
  /// allocation of its own (a remark says why).
  std::optional<Candidate>
  asCandidate(memref::AllocOp alloc,
              const DenseMap<Operation *, int64_t> &position, int64_t end,
              const DataLayout &layout) {
    MemRefType type = alloc.getType();
    auto keep = [&](StringRef why) -> std::optional<Candidate> {
      ArenaAllocationPass::keep(alloc, why);
      return std::nullopt;
    };
    if (!type.hasStaticShape())
      return keep("dynamic shape");
    if (!type.getLayout().isIdentity())
      return keep("non-identity layout");
    if (type.getMemorySpace())
      return keep("memory space");

    memref::DeallocOp dealloc;
    for (Operation *user : alloc->getUsers()) {
      auto free = dyn_cast<memref::DeallocOp>(user);
      if (!free)
        continue;
      if (dealloc || free->getBlock() != alloc->getBlock())
        return keep("freed more than once or in a nested region");
      dealloc = free;
    }

    if (alloc.getAlignment().value_or(0) > alignment)
      return keep("asks for a larger alignment than the arena's");
    uint64_t elementBytes =
        layout.getTypeSize(type.getElementType()).getFixedValue();
    bool overflow = false;
    uint64_t bytes = llvm::SaturatingMultiply(
        static_cast<uint64_t>(type.getNumElements()), elementBytes, &overflow);
    if (overflow)
      return keep("size overflows 64 bits");
    int64_t first = position.lookup(alloc);
    int64_t last = dealloc ? position.lookup(dealloc) : end;
    return Candidate{alloc, dealloc, {bytes, alignment, first, last}};
  }
};

} // namespace
