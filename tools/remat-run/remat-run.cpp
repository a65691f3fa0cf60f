//===- remat-run.cpp - Run a training step and measure its memory ---------===//
//
// Lowers a module (remat.graph or func.func over TOSA) with remat-to-cpu or
// remat-to-gpu unless it is already in the LLVM dialect, JIT-compiles it,
// calls one entry point through its C interface with arguments drawn from a
// seed or read from .npy files, and prints a digest of every result with the
// peak of live bytes the runtime library's counting allocator measured. With
// --emit-executable it writes a self-contained executable doing the same.
//
//===----------------------------------------------------------------------===//

#include "ExecutableEmitter.h"
#include "Npy.h"
#include "Tensors.h"

#include "remat/Conversion/Passes.h"
#include "remat/InitRemat.h"
#include "remat/Pipelines/Pipelines.h"
#include "remat/Runtime/RematRuntime.h"
#include "remat/Support/ShortSourceLines.h"
#include "remat/Support/ToolFiles.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace remat;
using namespace remat::run;
namespace cl = llvm::cl;

namespace {

enum class Device { Cpu, Gpu };

cl::OptionCategory category("remat-run options");
cl::opt<std::string> inputFilename(cl::Positional,
                                   cl::desc("<module.mlir or - for stdin>"),
                                   cl::init("-"), cl::cat(category));
cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: the only public one)"),
              cl::cat(category));
cl::opt<uint64_t> seed("seed",
                       cl::desc("Seed of the generated arguments (splitmix64; "
                                "floats in [-0.5, 0.5))"),
                       cl::init(0), cl::cat(category));
cl::list<std::string> inputFiles(
    "input", cl::desc("A .npy file per argument, in order (instead of --seed)"),
    cl::cat(category));
cl::opt<bool> json("json", cl::desc("Print the report as JSON"),
                   cl::cat(category));
cl::opt<Device> device(
    "device", cl::desc("Where to run"), cl::init(Device::Cpu),
    cl::values(clEnumValN(Device::Cpu, "cpu", "lower with remat-to-cpu"),
               clEnumValN(Device::Gpu, "gpu",
                          "lower with remat-to-gpu (needs an NVIDIA GPU to "
                          "run)")),
    cl::cat(category));
cl::opt<std::string> gpuChip("gpu-chip", cl::desc("remat-to-gpu chip"),
                             cl::init("sm_90"), cl::cat(category));
cl::opt<std::string>
    gpuFormat("gpu-format",
              cl::desc("remat-to-gpu binary format (isa, bin, fatbin)"),
              cl::init("isa"), cl::cat(category));
cl::opt<bool> arena(
    "arena",
    cl::desc("Lower each step to one arena allocation (the pipelines' "
             "default); false: one allocation per buffer"),
    cl::init(true), cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level"),
                           cl::init(2), cl::Prefix, cl::cat(category));
cl::opt<std::string> emitExecutablePath(
    "emit-executable",
    cl::desc("Write a self-contained executable instead of running"),
    cl::value_desc("path"), cl::cat(category));
cl::opt<std::string> outputDir(
    "output-dir",
    cl::desc("Also write each result as <dir>/result-<i>.npy (the directory "
             "must exist)"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> runtimeDir(
    "runtime-dir",
    cl::desc("Directory of libremat_runtime.a (default: ../lib next to "
             "remat-run)"),
    cl::cat(category));

/// Where --output-dir puts result #i.
std::string resultNpyPath(size_t i) {
  return outputDir + "/result-" + std::to_string(i) + ".npy";
}

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "remat-run") << message << "\n";
  return 1;
}

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

std::string defaultRuntimeDir(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&defaultRuntimeDir));
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(dir, "..", "lib");
  return std::string(dir);
}

/// Memref descriptors, as 64-bit words: allocated and aligned pointers,
/// offset, sizes, strides (row-major).
void appendDescriptor(SmallVectorImpl<int64_t> &words, void *data,
                      const TensorSpec &spec) {
  words.push_back(reinterpret_cast<int64_t>(data));
  words.push_back(reinterpret_cast<int64_t>(data));
  words.push_back(0);
  for (int64_t dim : spec.shape)
    words.push_back(dim);
  int64_t stride = 1;
  SmallVector<int64_t> strides(spec.shape.size());
  for (int64_t i = spec.shape.size() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= spec.shape[i];
  }
  words.append(strides.begin(), strides.end());
}

/// Copies a result into a dense row-major buffer, following its strides.
std::vector<uint8_t> denseCopy(const int64_t *descriptor,
                               const TensorSpec &spec) {
  const auto *base = reinterpret_cast<const uint8_t *>(descriptor[1]);
  int64_t offset = descriptor[2];
  size_t rank = spec.shape.size();
  const int64_t *strides = descriptor + 3 + rank;
  int64_t elementBytes = spec.elementBytes();
  std::vector<uint8_t> dense(spec.numBytes());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t linear = 0, e = spec.numElements(); linear < e; ++linear) {
    int64_t position = offset;
    for (size_t d = 0; d < rank; ++d)
      position += index[d] * strides[d];
    std::memcpy(dense.data() + linear * elementBytes,
                base + position * elementBytes, elementBytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < spec.shape[d])
        break;
      index[d] = 0;
    }
  }
  return dense;
}

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

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "remat-run: run a training step and measure its peak memory\n");

  DialectRegistry registry;
  registerRematDialects(registry);
  registerUpstreamDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  shortenEchoedLines(sourceMgr);
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse " + inputFilename);

  // The entry point and its tensor signature.
  SmallVector<Entry> entries = findEntries(*module);
  std::string names;
  for (const Entry &candidate : entries)
    names += (names.empty() ? "@" : ", @") + candidate.name;
  const Entry *entry = nullptr;
  if (!entryName.empty()) {
    for (const Entry &candidate : entries)
      if (candidate.name == entryName)
        entry = &candidate;
    if (!entry)
      return fail("no public function @" + entryName + " to run" +
                  (names.empty() ? "" : " (public functions: " + names + ")"));
  } else if (entries.size() == 1) {
    entry = &entries.front();
  } else if (entries.empty()) {
    return fail("the module has no public function to run");
  } else {
    return fail("the module has several public functions (" + names +
                "): choose one with --entry");
  }
  std::string entryFunction = entry->name;

  SmallVector<TensorSpec> argumentSpecs, resultSpecs;
  for (auto [i, type] : llvm::enumerate(entry->type.getInputs())) {
    llvm::Expected<TensorSpec> spec = specOfType(type);
    if (!spec)
      return fail("argument #" + llvm::Twine(i) + " of @" + entryFunction +
                  ": " + llvm::toString(spec.takeError()));
    argumentSpecs.push_back(*spec);
  }
  for (auto [i, type] : llvm::enumerate(entry->type.getResults())) {
    llvm::Expected<TensorSpec> spec = specOfType(type);
    if (!spec)
      return fail("result #" + llvm::Twine(i) + " of @" + entryFunction + ": " +
                  llvm::toString(spec.takeError()));
    resultSpecs.push_back(*spec);
  }
  if (!inputFiles.empty() && inputFiles.size() != argumentSpecs.size())
    return fail("@" + entryFunction + " takes " +
                llvm::Twine(argumentSpecs.size()) + " argument(s), but " +
                llvm::Twine(inputFiles.size()) + " --input file(s) were given");

  // Every output path before any work; the results are written at the end,
  // all of them or none (remat/Support/ToolFiles.h).
  OutputFiles &outputs = OutputFiles::get();
  outputs.hold();
  if (!emitExecutablePath.empty())
    if (llvm::Error error =
            outputs.claim(emitExecutablePath, "the executable"))
      return fail(llvm::toString(std::move(error)));
  if (!outputDir.empty() && emitExecutablePath.empty())
    for (size_t i = 0; i < resultSpecs.size(); ++i)
      if (llvm::Error error = outputs.claim(resultNpyPath(i),
                                            "result #" + std::to_string(i)))
        return fail(llvm::toString(std::move(error)));

  bool gpu = device == Device::Gpu;
  if (needsLowering(*module)) {
    if (auto func = dyn_cast<func::FuncOp>(entry->op))
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(&context));
    PassManager pm(&context);
    if (gpu) {
      GpuPipelineOptions options;
      options.chip = gpuChip;
      options.format = gpuFormat;
      options.arena = arena;
      buildRematToGpuPipeline(pm, options);
    } else {
      CpuPipelineOptions options;
      options.arena = arena;
      buildRematToCpuPipeline(pm, options);
    }
    if (failed(pm.run(*module)))
      return fail(llvm::Twine("cannot lower the module with ") +
                  (gpu ? "remat-to-gpu" : "remat-to-cpu"));
  }

  if (!emitExecutablePath.empty()) {
    ExecutableRequest request;
    request.module = *module;
    request.entry = entryFunction;
    request.arguments = argumentSpecs;
    request.results = resultSpecs;
    request.seed = seed;
    request.gpu = gpu;
    request.runtimeDir =
        runtimeDir.empty() ? defaultRuntimeDir(argv[0]) : runtimeDir;
    request.output = emitExecutablePath;
    if (llvm::Error error = emitExecutable(request))
      return fail(llvm::toString(std::move(error)));
    return 0;
  }

  if (gpu && !remat_runtime_cuda_available())
    return fail(llvm::Twine("--device=gpu needs an NVIDIA GPU: ") +
                remat_runtime_cuda_error());

  // Arguments: host memory, or managed memory kernels can read.
  std::vector<void *> buffers;
  for (auto [i, spec] : llvm::enumerate(argumentSpecs)) {
    size_t bytes = std::max<int64_t>(spec.numBytes(), 1);
    void *data = gpu ? remat_runtime_shared_alloc(bytes)
                     : std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    buffers.push_back(data);
  }
  // Freed on every way out: a sanitizer build checks for leaks at exit.
  llvm::scope_exit freeBuffers([&] {
    for (void *data : buffers)
      gpu ? remat_runtime_shared_free(data) : std::free(data);
  });
  uint64_t state = seed;
  for (auto [i, spec] : llvm::enumerate(argumentSpecs)) {
    if (inputFiles.empty()) {
      fillFromSeed(spec, buffers[i], state);
    } else if (llvm::Error error = readNpy(inputFiles[i], spec, buffers[i])) {
      return fail("argument #" + llvm::Twine(i) + " of @" + entryFunction +
                  ": " + llvm::toString(std::move(error)));
    }
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  engineOptions.transformer = transformer;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return fail("cannot JIT-compile the module: " +
                llvm::toString(engine.takeError()));
  // The allocator the counters belong to: the copy linked into this tool.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](const char *name, auto *function) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                                 llvm::JITSymbolFlags::Exported};
    };
    add("_mlir_memref_to_llvm_alloc", &_mlir_memref_to_llvm_alloc);
    add("_mlir_memref_to_llvm_aligned_alloc",
        &_mlir_memref_to_llvm_aligned_alloc);
    add("_mlir_memref_to_llvm_free", &_mlir_memref_to_llvm_free);
    add("memrefCopy", &memrefCopy);
    return symbols;
  });

  // _mlir_ciface_f(results*, arg0*, arg1*, ...): several results come back
  // as one struct of descriptors, laid out like consecutive descriptors.
  SmallVector<SmallVector<int64_t>> argumentWords(argumentSpecs.size());
  SmallVector<void *> argumentPointers;
  for (auto [i, spec] : llvm::enumerate(argumentSpecs)) {
    appendDescriptor(argumentWords[i], buffers[i], spec);
    argumentPointers.push_back(argumentWords[i].data());
  }
  size_t resultWordCount = 0;
  for (const TensorSpec &spec : resultSpecs)
    resultWordCount += 3 + 2 * spec.shape.size();
  SmallVector<int64_t> resultWords(resultWordCount, 0);
  void *resultPointer = resultWords.data();
  SmallVector<void *> packed;
  if (!resultSpecs.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : argumentPointers)
    packed.push_back(&pointer);

  // Compile (and load GPU modules) before measuring.
  std::string wrapper = "_mlir_ciface_" + entryFunction;
  if (llvm::Expected<void (*)(void **)> function =
          (*engine)->lookupPacked(wrapper);
      !function)
    return fail("cannot compile @" + entryFunction + " (" + wrapper +
                "): " + llvm::toString(function.takeError()));
  (*engine)->initialize();

  remat_runtime_reset();
  remat_runtime_device_reset();
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = (*engine)->invokePacked(wrapper, packed))
    return fail("calling @" + entryFunction +
                " failed: " + llvm::toString(std::move(error)));
  if (gpu)
    remat_runtime_device_synchronize();
  auto stop = std::chrono::steady_clock::now();
  double milliseconds =
      std::chrono::duration<double, std::milli>(stop - start).count();

  uint64_t peak =
      gpu ? remat_runtime_device_peak_bytes() : remat_runtime_peak_bytes();
  uint64_t allocations =
      gpu ? remat_runtime_device_alloc_count() : remat_runtime_alloc_count();
  // What the allocator saw, not what the compiler planned: the span of the
  // addresses it handed out (the arena's size when the step has one) and
  // its blocks with their alignment padding.
  uint64_t extent =
      gpu ? remat_runtime_device_extent_bytes() : remat_runtime_extent_bytes();
  uint64_t paddedPeak = gpu ? remat_runtime_device_padded_peak_bytes()
                            : remat_runtime_padded_peak_bytes();

  SmallVector<Digest> digests;
  size_t word = 0;
  for (auto [i, spec] : llvm::enumerate(resultSpecs)) {
    std::vector<uint8_t> dense = denseCopy(resultWords.data() + word, spec);
    word += 3 + 2 * spec.shape.size();
    digests.push_back(digest(spec, dense.data()));
    if (!outputDir.empty())
      if (llvm::Error error =
              outputs.stage(resultNpyPath(i), encodeNpy(spec, dense.data())))
        return fail("result #" + llvm::Twine(i) + ": " +
                    llvm::toString(std::move(error)));
  }
  if (llvm::Error error = outputs.commit())
    return fail(llvm::toString(std::move(error)));
  if (json) {
    // Streamed in this key order (llvm::json::Object would sort the keys);
    // docs/lowering.md describes it.
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::json::OStream report(os);
    report.object([&] {
      report.attributeArray("outputs", [&] {
        for (auto [spec, result] : llvm::zip(resultSpecs, digests))
          writeDigestJson(report, spec, result);
      });
      report.attribute("peak_bytes", peak);
      report.attribute("alloc_count", allocations);
      report.attribute("arena_bytes", extent);
      report.attribute("padded_peak_bytes", paddedPeak);
      report.attributeBegin("time_ms");
      report.rawValue(llvm::formatv("{0:F3}", milliseconds).str());
      report.attributeEnd();
    });
    std::printf("%s\n", text.c_str());
  } else {
    for (auto [i, spec, result] :
         llvm::enumerate(resultSpecs, digests))
      std::printf("result #%zu: %s %s sum %.9g hash %016llx\n", i,
                  spec.shapeString().c_str(), dtypeName(spec.dtype), result.sum,
                  static_cast<unsigned long long>(result.hash));
    std::printf("peak: %llu bytes in %llu allocations (%s)\n"
                "arena: %llu bytes (extent of the allocations), padded peak: "
                "%llu bytes\ntime: %.3f ms\n",
                static_cast<unsigned long long>(peak),
                static_cast<unsigned long long>(allocations),
                gpu ? "device" : "host", static_cast<unsigned long long>(extent),
                static_cast<unsigned long long>(paddedPeak), milliseconds);
  }
  return 0;
}
