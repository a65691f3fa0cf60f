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
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
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
cl::opt<bool> vectorize(
    "vectorize",
    cl::desc("Tile and vectorize the step's kernels (remat-to-cpu's "
             "default); false: scalar loop nests"),
    cl::init(true), cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level"),
                           cl::init(2), cl::Prefix, cl::cat(category));
cl::opt<unsigned> repeat(
    "repeat",
    cl::desc("Run the step once to warm up, then this many times; time_ms is "
             "the median (--json also lists every time)"),
    cl::init(1), cl::cat(category));
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

//===----------------------------------------------------------------------===//
// Parse: the module, the entry point and the tensors it takes and returns.
//===----------------------------------------------------------------------===//

/// The function to run and its tensor signature.
struct Step {
  Operation *op;
  std::string entry;
  SmallVector<TensorSpec> arguments;
  SmallVector<TensorSpec> results;
};

llvm::Expected<Step> selectStep(ModuleOp module) {
  SmallVector<Entry> entries = findEntries(module);
  std::string names;
  for (const Entry &candidate : entries)
    names += (names.empty() ? "@" : ", @") + candidate.name;
  const Entry *entry = nullptr;
  if (!entryName.empty()) {
    for (const Entry &candidate : entries)
      if (candidate.name == entryName)
        entry = &candidate;
    if (!entry)
      return llvm::createStringError(
          "no public function @" + entryName + " to run" +
          (names.empty() ? "" : " (public functions: " + names + ")"));
  } else if (entries.size() == 1) {
    entry = &entries.front();
  } else if (entries.empty()) {
    return llvm::createStringError(
        "the module has no public function to run");
  } else {
    return llvm::createStringError("the module has several public functions (" +
                                   names + "): choose one with --entry");
  }

  Step step{entry->op, entry->name, {}, {}};
  for (auto [i, type] : llvm::enumerate(entry->type.getInputs())) {
    llvm::Expected<TensorSpec> spec = specOfType(type);
    if (!spec)
      return llvm::createStringError(
          "argument #" + llvm::Twine(i) + " of @" + step.entry + ": " +
          llvm::toString(spec.takeError()));
    step.arguments.push_back(*spec);
  }
  for (auto [i, type] : llvm::enumerate(entry->type.getResults())) {
    llvm::Expected<TensorSpec> spec = specOfType(type);
    if (!spec)
      return llvm::createStringError("result #" + llvm::Twine(i) + " of @" +
                                     step.entry + ": " +
                                     llvm::toString(spec.takeError()));
    step.results.push_back(*spec);
  }
  if (!inputFiles.empty() && inputFiles.size() != step.arguments.size())
    return llvm::createStringError(
        "@" + step.entry + " takes " + llvm::Twine(step.arguments.size()) +
        " argument(s), but " + llvm::Twine(inputFiles.size()) +
        " --input file(s) were given");
  return step;
}

/// Every output path before any work; the results are written at the end,
/// all of them or none (remat/Support/ToolFiles.h).
llvm::Error claimOutputs(const Step &step) {
  OutputFiles &outputs = OutputFiles::get();
  outputs.hold();
  if (!emitExecutablePath.empty())
    return outputs.claim(emitExecutablePath, "the executable");
  if (!outputDir.empty())
    for (size_t i = 0; i < step.results.size(); ++i)
      if (llvm::Error error =
              outputs.claim(resultNpyPath(i), "result #" + std::to_string(i)))
        return error;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Lower: remat-to-cpu or remat-to-gpu, unless the module is lowered already.
//===----------------------------------------------------------------------===//

llvm::Error lowerModule(ModuleOp module, const Step &step, bool gpu) {
  if (!needsLowering(module))
    return llvm::Error::success();
  if (auto func = dyn_cast<func::FuncOp>(step.op))
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(module.getContext()));
  PassManager pm(module.getContext());
  if (gpu) {
    GpuPipelineOptions options;
    options.chip = gpuChip;
    options.format = gpuFormat;
    options.arena = arena;
    buildRematToGpuPipeline(pm, options);
  } else {
    CpuPipelineOptions options;
    options.arena = arena;
    options.vectorize = vectorize;
    buildRematToCpuPipeline(pm, options);
  }
  if (failed(pm.run(module)))
    return llvm::createStringError(
        llvm::Twine("cannot lower the module with ") +
        (gpu ? "remat-to-gpu" : "remat-to-cpu"));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Or instead of running: an executable that runs the step.
//===----------------------------------------------------------------------===//

llvm::Error emitStepExecutable(ModuleOp module, const Step &step, bool gpu,
                               const char *argv0) {
  ExecutableRequest request;
  request.module = module;
  request.entry = step.entry;
  request.arguments = step.arguments;
  request.results = step.results;
  request.seed = seed;
  request.gpu = gpu;
  request.runtimeDir =
      runtimeDir.empty() ? defaultRuntimeDir(argv0) : runtimeDir;
  request.output = emitExecutablePath;
  return emitExecutable(request);
}

//===----------------------------------------------------------------------===//
// Bind: argument buffers and the descriptors the C interface takes.
//===----------------------------------------------------------------------===//

/// The step's arguments: host memory, or managed memory kernels can read.
/// When the step runs more than once, each run starts from the same values:
/// a step may update donated arguments in place.
class Arguments {
public:
  Arguments(bool gpu) : gpu(gpu) {}
  Arguments(const Arguments &) = delete;
  ~Arguments() {
    // Freed on every way out: a sanitizer build checks for leaks at exit.
    for (void *data : buffers)
      gpu ? remat_runtime_shared_free(data) : std::free(data);
  }

  llvm::Error bind(const Step &step, bool keepInitialValues) {
    for (const TensorSpec &spec : step.arguments) {
      size_t bytes = std::max<int64_t>(spec.numBytes(), 1);
      buffers.push_back(gpu ? remat_runtime_shared_alloc(bytes)
                            : std::aligned_alloc(64, (bytes + 63) / 64 * 64));
    }
    uint64_t state = seed;
    for (auto [i, spec] : llvm::enumerate(step.arguments)) {
      if (inputFiles.empty()) {
        fillFromSeed(spec, buffers[i], state);
      } else if (llvm::Error error =
                     readNpy(inputFiles[i], spec, buffers[i])) {
        return llvm::createStringError(
            "argument #" + llvm::Twine(i) + " of @" + step.entry + ": " +
            llvm::toString(std::move(error)));
      }
    }
    for (auto [i, spec] : llvm::enumerate(step.arguments)) {
      if (keepInitialValues) {
        const auto *data = static_cast<const uint8_t *>(buffers[i]);
        initialValues.emplace_back(data, data + spec.numBytes());
      }
      descriptors.emplace_back();
      appendDescriptor(descriptors.back(), buffers[i], spec);
    }
    for (SmallVector<int64_t> &words : descriptors)
      descriptorPointers.push_back(words.data());
    return llvm::Error::success();
  }

  /// Puts back the values the arguments were bound with.
  void restore() {
    for (auto [data, values] : llvm::zip(buffers, initialValues))
      std::memcpy(data, values.data(), values.size());
  }

  SmallVector<void *> &pointers() { return descriptorPointers; }

private:
  bool gpu;
  std::vector<void *> buffers;
  std::vector<std::vector<uint8_t>> initialValues;
  SmallVector<SmallVector<int64_t>> descriptors;
  SmallVector<void *> descriptorPointers;
};

//===----------------------------------------------------------------------===//
// Run: JIT-compile, warm up, run and time, measure the allocations.
//===----------------------------------------------------------------------===//

/// What one invocation of the step returned and what the runtime measured.
struct Measurement {
  SmallVector<int64_t> resultWords;
  uint64_t peak = 0;
  uint64_t allocations = 0;
  uint64_t extent = 0;
  uint64_t paddedPeak = 0;
  /// The timed runs, warm-up excluded.
  SmallVector<double> timesMs;

  double medianMs() const {
    SmallVector<double> sorted(timesMs);
    llvm::sort(sorted);
    size_t middle = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[middle]
                             : (sorted[middle - 1] + sorted[middle]) / 2;
  }
};

/// A JIT-compiled module, with what its optimizer uses: the JIT compiles
/// when a function is first looked up, after compile() has returned.
struct CompiledModule {
  /// The host's CPU and features, so that LLVM's vectorizers and code
  /// generation use its vector unit (AVX-512 where it has it).
  std::unique_ptr<llvm::TargetMachine> host;
  std::function<llvm::Error(llvm::Module *)> optimize;
  std::unique_ptr<ExecutionEngine> engine;
};

llvm::Expected<std::unique_ptr<CompiledModule>> compile(ModuleOp module) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto compiled = std::make_unique<CompiledModule>();
  auto hostMachine = [] {
    llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
        llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder)
      return llvm::Expected<std::unique_ptr<llvm::TargetMachine>>(
          builder.takeError());
    return builder->createTargetMachine();
  };
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> host = hostMachine();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> codegen = hostMachine();
  if (!host || !codegen)
    return llvm::createStringError(
        "cannot describe the host CPU: " +
        llvm::toString(host ? codegen.takeError() : host.takeError()));
  compiled->host = std::move(*host);
  compiled->optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                                 compiled->host.get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = compiled->optimize;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, engineOptions, std::move(*codegen));
  if (!engine)
    return llvm::createStringError("cannot JIT-compile the module: " +
                                   llvm::toString(engine.takeError()));
  compiled->engine = std::move(*engine);
  // The allocator the counters belong to: the copy linked into this tool.
  compiled->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
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
  return compiled;
}

/// Frees what one run returned, before the next: every block the runtime
/// allocated once (results in one arena share it), not arguments or
/// constants returned as they are.
void freeResults(ArrayRef<int64_t> resultWords, const Step &step, bool gpu) {
  llvm::SmallPtrSet<void *, 8> seen;
  size_t word = 0;
  for (const TensorSpec &spec : step.results) {
    auto *allocated = reinterpret_cast<void *>(resultWords[word]);
    word += 3 + 2 * spec.shape.size();
    if (seen.insert(allocated).second)
      gpu ? remat_runtime_device_free_if_owned(allocated)
          : remat_runtime_free_if_owned(allocated);
  }
}

/// Without --repeat the step runs once, cold; with it, once to warm up and
/// then --repeat times. The memory figures are the last run's. The results
/// may point into the compiled module (a returned constant): it must stay
/// alive until they are read.
llvm::Expected<Measurement> runStep(ExecutionEngine &engine, const Step &step,
                                    Arguments &arguments, bool gpu) {

  // _mlir_ciface_f(results*, arg0*, arg1*, ...): several results come back
  // as one struct of descriptors, laid out like consecutive descriptors.
  Measurement measurement;
  size_t resultWordCount = 0;
  for (const TensorSpec &spec : step.results)
    resultWordCount += 3 + 2 * spec.shape.size();
  measurement.resultWords.assign(resultWordCount, 0);
  void *resultPointer = measurement.resultWords.data();
  SmallVector<void *> packed;
  if (!step.results.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : arguments.pointers())
    packed.push_back(&pointer);

  // Compile (and load GPU modules) before measuring.
  std::string wrapper = "_mlir_ciface_" + step.entry;
  if (llvm::Expected<void (*)(void **)> function =
          engine.lookupPacked(wrapper);
      !function)
    return llvm::createStringError("cannot compile @" + step.entry + " (" +
                                   wrapper + "): " +
                                   llvm::toString(function.takeError()));
  engine.initialize();

  bool warmUp = repeat.getNumOccurrences() > 0;
  unsigned runs = warmUp ? repeat + 1 : 1;
  for (unsigned run = 0; run < runs; ++run) {
    if (run > 0) {
      freeResults(measurement.resultWords, step, gpu);
      arguments.restore();
    }
    remat_runtime_reset();
    remat_runtime_device_reset();
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = engine.invokePacked(wrapper, packed))
      return llvm::createStringError("calling @" + step.entry + " failed: " +
                                     llvm::toString(std::move(error)));
    if (gpu)
      remat_runtime_device_synchronize();
    auto stop = std::chrono::steady_clock::now();
    if (!warmUp || run > 0)
      measurement.timesMs.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
  }

  measurement.peak =
      gpu ? remat_runtime_device_peak_bytes() : remat_runtime_peak_bytes();
  measurement.allocations =
      gpu ? remat_runtime_device_alloc_count() : remat_runtime_alloc_count();
  // What the allocator saw, not what the compiler planned: the span of the
  // addresses it handed out (the arena's size when the step has one) and
  // its blocks with their alignment padding.
  measurement.extent =
      gpu ? remat_runtime_device_extent_bytes() : remat_runtime_extent_bytes();
  measurement.paddedPeak = gpu ? remat_runtime_device_padded_peak_bytes()
                               : remat_runtime_padded_peak_bytes();
  return measurement;
}

//===----------------------------------------------------------------------===//
// Report: digests of the results, .npy files, the text or JSON report.
//===----------------------------------------------------------------------===//

void printJson(const Step &step, const Measurement &measurement,
               ArrayRef<Digest> digests) {
  // Streamed in this key order (llvm::json::Object would sort the keys);
  // docs/lowering.md describes it.
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream report(os);
  auto milliseconds = [&](double value) {
    report.rawValue(llvm::formatv("{0:F3}", value).str());
  };
  report.object([&] {
    report.attributeArray("outputs", [&] {
      for (auto [spec, result] : llvm::zip(step.results, digests))
        writeDigestJson(report, spec, result);
    });
    report.attribute("peak_bytes", measurement.peak);
    report.attribute("alloc_count", measurement.allocations);
    report.attribute("arena_bytes", measurement.extent);
    report.attribute("padded_peak_bytes", measurement.paddedPeak);
    report.attributeBegin("time_ms");
    milliseconds(measurement.medianMs());
    report.attributeEnd();
    report.attributeArray("times_ms", [&] {
      for (double time : measurement.timesMs)
        milliseconds(time);
    });
  });
  std::printf("%s\n", text.c_str());
}

void printText(const Step &step, const Measurement &measurement,
               ArrayRef<Digest> digests, bool gpu) {
  for (auto [i, spec, result] : llvm::enumerate(step.results, digests))
    std::printf("result #%zu: %s %s sum %.9g hash %016llx\n", i,
                spec.shapeString().c_str(), dtypeName(spec.dtype), result.sum,
                static_cast<unsigned long long>(result.hash));
  std::printf("peak: %llu bytes in %llu allocations (%s)\n"
              "arena: %llu bytes (extent of the allocations), padded peak: "
              "%llu bytes\ntime: %.3f ms",
              static_cast<unsigned long long>(measurement.peak),
              static_cast<unsigned long long>(measurement.allocations),
              gpu ? "device" : "host",
              static_cast<unsigned long long>(measurement.extent),
              static_cast<unsigned long long>(measurement.paddedPeak),
              measurement.medianMs());
  if (measurement.timesMs.size() > 1)
    std::printf(" (median of %zu runs after a warm-up)",
                measurement.timesMs.size());
  std::printf("\n");
}

llvm::Error report(const Step &step, const Measurement &measurement,
                   bool gpu) {
  OutputFiles &outputs = OutputFiles::get();
  SmallVector<Digest> digests;
  size_t word = 0;
  for (auto [i, spec] : llvm::enumerate(step.results)) {
    std::vector<uint8_t> dense =
        denseCopy(measurement.resultWords.data() + word, spec);
    word += 3 + 2 * spec.shape.size();
    digests.push_back(digest(spec, dense.data()));
    if (!outputDir.empty())
      if (llvm::Error error =
              outputs.stage(resultNpyPath(i), encodeNpy(spec, dense.data())))
        return llvm::createStringError("result #" + llvm::Twine(i) + ": " +
                                       llvm::toString(std::move(error)));
  }
  if (llvm::Error error = outputs.commit())
    return error;
  if (json)
    printJson(step, measurement, digests);
  else
    printText(step, measurement, digests, gpu);
  return llvm::Error::success();
}

int fail(llvm::Error error) { return fail(llvm::toString(std::move(error))); }

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "remat-run: run a training step and measure its peak memory\n");
  if (repeat == 0)
    return fail("--repeat must be at least 1");
  if (repeat.getNumOccurrences() && !emitExecutablePath.empty())
    return fail("--repeat times the JIT-compiled step; an executable from "
                "--emit-executable runs once");
  bool gpu = device == Device::Gpu;

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
  llvm::Expected<Step> step = selectStep(*module);
  if (!step)
    return fail(step.takeError());
  if (llvm::Error error = claimOutputs(*step))
    return fail(std::move(error));

  if (llvm::Error error = lowerModule(*module, *step, gpu))
    return fail(std::move(error));

  if (!emitExecutablePath.empty()) {
    if (llvm::Error error = emitStepExecutable(*module, *step, gpu, argv[0]))
      return fail(std::move(error));
    return 0;
  }
  if (gpu && !remat_runtime_cuda_available())
    return fail(llvm::Twine("--device=gpu needs an NVIDIA GPU: ") +
                remat_runtime_cuda_error());

  Arguments arguments(gpu);
  bool runsAgain = repeat.getNumOccurrences() > 0;
  if (llvm::Error error = arguments.bind(*step, runsAgain))
    return fail(std::move(error));
  llvm::Expected<std::unique_ptr<CompiledModule>> compiled = compile(*module);
  if (!compiled)
    return fail(compiled.takeError());
  llvm::Expected<Measurement> measurement =
      runStep(*(*compiled)->engine, *step, arguments, gpu);
  if (!measurement)
    return fail(measurement.takeError());
  if (llvm::Error error = report(*step, *measurement, gpu))
    return fail(std::move(error));
  return 0;
}
