//===- ShareGpuKernels.cpp - One module per distinct outlined kernel ------===//
//
// Kernel outlining makes a gpu.module per launch, and each module is then
// lowered and compiled to PTX on its own, although a step's layers launch
// the same kernels over and over. Modules with the same body are merged
// before that work: buckets by a hash of every op's name, attributes and
// types, then an exact comparison of the bodies (regions included).
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/OperationSupport.h"

namespace remat {
#define GEN_PASS_DEF_SHAREGPUKERNELSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

/// A hash of the module's body that equal bodies share: every op's name,
/// attributes and result types, in order, values and locations left out.
llvm::hash_code bodyHash(gpu::GPUModuleOp module) {
  llvm::hash_code hash(0);
  module.getBodyRegion().walk([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, OperationEquivalence::computeHash(
                  op, OperationEquivalence::ignoreHashValue,
                  OperationEquivalence::ignoreHashValue,
                  OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

struct ShareGpuKernelsPass final
    : remat::impl::ShareGpuKernelsPassBase<ShareGpuKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The module each duplicate's launches go to, by the duplicate's name.
    llvm::DenseMap<StringAttr, StringAttr> replacement;
    llvm::DenseMap<llvm::hash_code, SmallVector<gpu::GPUModuleOp, 1>> kept;
    SmallVector<gpu::GPUModuleOp> duplicates;
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      SmallVector<gpu::GPUModuleOp, 1> &bucket = kept[bodyHash(kernels)];
      auto same = llvm::find_if(bucket, [&](gpu::GPUModuleOp other) {
        return OperationEquivalence::isRegionEquivalentTo(
            &kernels.getBodyRegion(), &other.getBodyRegion(),
            OperationEquivalence::IgnoreLocations);
      });
      if (same == bucket.end()) {
        bucket.push_back(kernels);
        ++numModules;
        continue;
      }
      replacement[kernels.getSymNameAttr()] = same->getSymNameAttr();
      duplicates.push_back(kernels);
    }
    if (duplicates.empty())
      return;
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr kernel = launch.getKernel();
      auto to = replacement.find(kernel.getRootReference());
      if (to != replacement.end())
        launch.setKernelAttr(
            SymbolRefAttr::get(to->second, kernel.getNestedReferences()));
    });
    for (gpu::GPUModuleOp duplicate : duplicates) {
      duplicate.erase();
      ++numShared;
    }
  }
};

} // namespace
