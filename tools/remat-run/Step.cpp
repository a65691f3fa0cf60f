//===- Step.cpp - The entry point of a module and its tensors -------------===//

#include "Step.h"

#include "remat/Conversion/Passes.h"
#include "remat/Support/ToolFiles.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace remat;
using namespace remat::run;

namespace {

/// A public function with a body, and its tensor signature.
struct Entry {
  Operation *op;
  std::string name;
  FunctionType type;
};

SmallVector<Entry> findEntries(ModuleOp module) {
  SmallVector<Entry> entries;
  for (Operation &op : module.getBody()->getOperations()) {
    auto function = dyn_cast<FunctionOpInterface>(&op);
    if (!function || function.isExternal() || !function.isPublic())
      continue;
    StringRef name = function.getName();
    FunctionType type;
    if (isa<LLVM::LLVMFuncOp>(op)) {
      // Lowered: the signature remat-lower recorded, on the function itself
      // (its _mlir_ciface_ wrapper carries a copy).
      auto signature = op.getAttrOfType<TypeAttr>(kSignatureAttrName);
      if (!signature || name.starts_with("_mlir_ciface_"))
        continue;
      type = dyn_cast<FunctionType>(signature.getValue());
    } else {
      type = dyn_cast<FunctionType>(function.getFunctionType());
    }
    if (type)
      entries.push_back({&op, name.str(), type});
  }
  return entries;
}

/// The specs of `types`, the arguments or results (`what`) of @`entry`.
llvm::Error appendSpecs(TypeRange types, StringRef what, StringRef entry,
                        SmallVectorImpl<TensorSpec> &specs) {
  for (auto [i, type] : llvm::enumerate(types)) {
    llvm::Expected<TensorSpec> spec = specOfType(type);
    if (!spec)
      return llvm::createStringError(what + " #" + llvm::Twine(i) + " of @" +
                                     entry + ": " +
                                     llvm::toString(spec.takeError()));
    specs.push_back(*spec);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Step> remat::run::selectStep(ModuleOp module,
                                            const RunOptions &options) {
  SmallVector<Entry> entries = findEntries(module);
  std::string names;
  for (const Entry &candidate : entries)
    names += (names.empty() ? "@" : ", @") + candidate.name;
  const Entry *entry = nullptr;
  if (!options.entry.empty()) {
    for (const Entry &candidate : entries)
      if (candidate.name == options.entry)
        entry = &candidate;
    if (!entry)
      return llvm::createStringError(
          "no public function @" + options.entry + " to run" +
          (names.empty() ? "" : " (public functions: " + names + ")"));
  } else if (entries.size() == 1) {
    entry = &entries.front();
  } else if (entries.empty()) {
    return llvm::createStringError("the module has no public function to run");
  } else {
    return llvm::createStringError("the module has several public functions (" +
                                   names + "): choose one with --entry");
  }

  Step step{entry->op, entry->name, {}, {}};
  if (llvm::Error error = appendSpecs(entry->type.getInputs(), "argument",
                                      step.entry, step.arguments))
    return std::move(error);
  if (llvm::Error error = appendSpecs(entry->type.getResults(), "result",
                                      step.entry, step.results))
    return std::move(error);
  if (!options.inputFiles.empty() &&
      options.inputFiles.size() != step.arguments.size())
    return llvm::createStringError(
        "@" + step.entry + " takes " + llvm::Twine(step.arguments.size()) +
        " argument(s), but " + llvm::Twine(options.inputFiles.size()) +
        " --input file(s) were given");
  return step;
}

llvm::Error remat::run::claimOutputs(const Step &step,
                                     const RunOptions &options) {
  OutputFiles &outputs = OutputFiles::get();
  outputs.hold();
  if (!options.executablePath.empty())
    return outputs.claim(options.executablePath, "the executable");
  if (!options.outputDir.empty())
    for (size_t i = 0; i < step.results.size(); ++i)
      if (llvm::Error error = outputs.claim(options.resultNpyPath(i),
                                            "result #" + std::to_string(i)))
        return error;
  return llvm::Error::success();
}
