//===- LowerRemat.cpp - The remat dialect to func
//--------------------------===//

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Analysis/RematStructure.h"
#include "remat/Conversion/Passes.h"
#include "remat/Dialect/Remat/RematOps.h"
#include "remat/Planning/TargetMemory.h"
#include "remat/Tosa/ScatterKernels.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace remat {
#define GEN_PASS_DEF_LOWERREMATPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-lower"

using namespace mlir;
using namespace remat;

namespace {

struct LowerRematPass final : remat::impl::LowerRematPassBase<LowerRematPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Refuse before changing anything, and report every abstract node.
    bool abstract = false;
    module.walk([&](AbstractOp op) {
      InFlightDiagnostic diag = op.emitError("remat.abstract ");
      if (std::optional<StringRef> label = op.getLabel())
        diag << "\"" << *label << "\" ";
      diag << "cannot be lowered: abstract graphs exist only for planning";
      abstract = true;
    });
    if (abstract)
      return signalPassFailure();
    // A buffer whose size overflows 64 bits cannot be allocated; without
    // this check the allocation size silently wraps.
    bool oversized = false;
    module.walk([&](Operation *op) {
      for (Value result : op->getResults())
        oversized |=
            failed(verifyStaticByteSize(result.getLoc(), result.getType()));
      for (Region &region : op->getRegions())
        for (BlockArgument arg : region.getArguments())
          oversized |=
              failed(verifyStaticByteSize(arg.getLoc(), arg.getType()));
    });
    if (oversized)
      return signalPassFailure();

    for (GraphOp graph : llvm::make_early_inc_range(module.getOps<GraphOp>()))
      lowerGraph(graph);

    module.walk([&](RecomputeOp) { ++numRecomputes; });
    flattenRematOps(module);

    // Planner annotations mean nothing to the lowering, but for the arena
    // a step was planned with (its alignment and buffers), which
    // remat-arena-allocation checks, the scatter-add kernels, which
    // remat-convert-to-linalg turns into loops, and the convolution
    // kernels' windows, which remat-vectorize-kernels runs tap by tap.
    module.walk([](Operation *op) {
      SmallVector<StringAttr> planning;
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (attr.getName().getValue().starts_with("remat.") &&
            attr.getName() != kArenaAlignmentAttrName &&
            attr.getName() != kPlannedArenaAttrName &&
            attr.getName() != kScatterAddAttrName &&
            attr.getName() != kWindowAttrName)
          planning.push_back(attr.getName());
      for (StringAttr name : planning)
        op->removeDiscardableAttr(name);
    });

    // Ops lowered from one op keep its location: a location of its own per
    // op lets remat-free-after-last-use keep the operands of a source op
    // alive until all the ops it became have run, as the memory model
    // counts them.
    module.walk([](func::FuncOp func) {
      int64_t index = 0;
      Builder builder(func.getContext());
      for (Block &block : func.getBody())
        for (Operation &op : block)
          op.setLoc(FusedLoc::get(op.getContext(), {op.getLoc()},
                                  builder.getI64IntegerAttr(index++)));
    });

    // After the locations: an inlined call's ops take the call's.
    module.walk([](func::FuncOp func) { inlineCalls(func); });

    // The tensor types of the entry points survive the lowering to LLVM
    // (function attributes are carried over), so that drivers such as
    // remat-run can build arguments for an already lowered module.
    module.walk([](func::FuncOp func) {
      if (func->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName()))
        func->setAttr(kSignatureAttrName,
                      TypeAttr::get(func.getFunctionType()));
    });
  }

  void lowerGraph(GraphOp graph) {
    OpBuilder builder(graph);
    auto func = func::FuncOp::create(
        builder, graph.getLoc(), graph.getSymName(), graph.getFunctionType());
    func.setSymVisibilityAttr(graph.getSymVisibilityAttr());
    func.setArgAttrsAttr(graph.getArgAttrsAttr());
    func.setResAttrsAttr(graph.getResAttrsAttr());
    for (StringRef planned : {kArenaAlignmentAttrName, kPlannedArenaAttrName})
      if (Attribute attr = graph->getAttr(planned))
        func->setAttr(planned, attr);
    if (emitCInterface)
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    builder.getUnitAttr());
    func.getBody().takeBody(graph.getBody());
    replaceRematReturns(func);
    graph.erase();
    ++numGraphs;
  }

};

} // namespace
