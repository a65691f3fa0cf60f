//===- Lower.cpp - The module lowered for the device ----------------------===//

#include "Lower.h"

#include "ExecutableEmitter.h"

#include "remat/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace remat;
using namespace remat::run;

namespace {

/// Whether the module still needs lowering: anything but the LLVM dialect
/// (and the GPU binaries the GPU lowering leaves).
bool needsLowering(ModuleOp module) {
  WalkResult result = module.walk([&](Operation *op) {
    if (op == module.getOperation() || isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    if (op->getName().getStringRef() == "gpu.binary")
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return result.wasInterrupted();
}

std::string defaultRuntimeDir(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&defaultRuntimeDir));
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(dir, "..", "lib");
  return std::string(dir);
}

} // namespace

llvm::Error remat::run::lowerModule(ModuleOp module, const Step &step,
                                    const RunOptions &options) {
  if (!needsLowering(module))
    return llvm::Error::success();
  if (auto func = dyn_cast<func::FuncOp>(step.op))
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(module.getContext()));
  PassManager pm(module.getContext());
  if (options.gpu) {
    GpuPipelineOptions gpu;
    gpu.chip = options.gpuChip;
    gpu.format = options.gpuFormat;
    gpu.arena = options.arena;
    buildRematToGpuPipeline(pm, gpu);
  } else {
    CpuPipelineOptions cpu;
    cpu.arena = options.arena;
    cpu.vectorize = options.vectorize;
    buildRematToCpuPipeline(pm, cpu);
  }
  if (failed(pm.run(module)))
    return llvm::createStringError(
        llvm::Twine("cannot lower the module with ") +
        (options.gpu ? "remat-to-gpu" : "remat-to-cpu"));
  return llvm::Error::success();
}

llvm::Error remat::run::emitStepExecutable(ModuleOp module, const Step &step,
                                           const RunOptions &options,
                                           const char *argv0) {
  ExecutableRequest request;
  request.module = module;
  request.entry = step.entry;
  request.arguments = step.arguments;
  request.results = step.results;
  request.seed = options.seed;
  request.gpu = options.gpu;
  request.runtimeDir = options.runtimeDir.empty() ? defaultRuntimeDir(argv0)
                                                  : options.runtimeDir;
  request.output = options.executablePath;
  return emitExecutable(request);
}
