//===- DeviceAllocations.cpp - Host buffers into device memory ------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace remat {
#define GEN_PASS_DEF_DEVICEALLOCATIONSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-device-allocations"

using namespace mlir;

namespace {

struct DeviceAllocationsPass final
    : remat::impl::DeviceAllocationsPassBase<DeviceAllocationsPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](Operation *op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
    });
    OpBuilder builder(&getContext());
    for (memref::AllocOp alloc : allocs) {
      builder.setInsertionPoint(alloc);
      auto device = gpu::AllocOp::create(
          builder, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), builder.getUnitAttr());
      alloc.replaceAllUsesWith(device.getMemref());
      alloc.erase();
      ++numAllocations;
    }
    // gpu-to-llvm lowers only the asynchronous form of gpu.dealloc: free on
    // a stream of its own and wait for it.
    Type token = gpu::AsyncTokenType::get(&getContext());
    for (memref::DeallocOp dealloc : deallocs) {
      builder.setInsertionPoint(dealloc);
      Location loc = dealloc.getLoc();
      Value stream = gpu::WaitOp::create(builder, loc, token, ValueRange())
                         .getAsyncToken();
      Value freed = gpu::DeallocOp::create(builder, loc, token, stream,
                                           dealloc.getMemref())
                        .getAsyncToken();
      gpu::WaitOp::create(builder, loc, Type(), freed);
      dealloc.erase();
    }

    getOperation().walk([&](gpu::LaunchOp launch) { sinkGlobals(launch); });
  }

  /// Kernels cannot read host globals: read the global from inside instead.
  void sinkGlobals(gpu::LaunchOp launch) {
    OpBuilder builder = OpBuilder::atBlockBegin(&launch.getBody().front());
    launch.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands()) {
        auto global = operand.get().getDefiningOp<memref::GetGlobalOp>();
        if (!global || launch->isProperAncestor(global))
          continue;
        operand.set(builder.clone(*global)->getResult(0));
      }
    });
  }
};

} // namespace
