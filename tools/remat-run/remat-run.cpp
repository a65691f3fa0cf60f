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

#include "Arguments.h"
#include "Lower.h"
#include "Report.h"
#include "RunOptions.h"
#include "Runner.h"
#include "Step.h"

#include "remat/InitRemat.h"
#include "remat/Runtime/RematRuntime.h"
#include "remat/Support/ShortSourceLines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <omp.h>

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
cl::opt<unsigned> threads(
    "step-threads",
    cl::desc("Threads that share the step's parallel kernels (default 0: the "
             "OpenMP runtime's choice, OMP_NUM_THREADS or one per core)"),
    cl::init(0), cl::cat(category));
cl::opt<bool> perf(
    "perf",
    cl::desc("Announce the compiled code to perf (jitdump files under "
             "~/.debug/jit, for `perf record -k 1` then `perf inject --jit`)"),
    cl::init(false), cl::cat(category));
cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("Threads that optimize and compile the step's LLVM IR, each a "
             "part of its functions (default 0: one per core)"),
    cl::init(0), cl::cat(category));
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

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "remat-run") << message << "\n";
  return 1;
}

int fail(llvm::Error error) { return fail(llvm::toString(std::move(error))); }

RunOptions readOptions() {
  RunOptions options;
  options.entry = entryName;
  options.seed = seed;
  options.inputFiles.assign(inputFiles.begin(), inputFiles.end());
  options.json = json;
  options.gpu = device == Device::Gpu;
  options.gpuChip = gpuChip;
  options.gpuFormat = gpuFormat;
  options.arena = arena;
  options.vectorize = vectorize;
  options.optLevel = optLevel;
  options.compileThreads = compileThreads;
  options.perf = perf;
  options.threads = threads;
  options.repeat = repeat.getNumOccurrences() ? unsigned(repeat) : 0;
  options.executablePath = emitExecutablePath;
  options.outputDir = outputDir;
  options.runtimeDir = runtimeDir;
  return options;
}

/// The module of the input file, with diagnostics about it reported
/// against its source through `sourceMgr`.
OwningOpRef<ModuleOp> parseModule(MLIRContext &context,
                                  llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &error);
  if (!file) {
    fail(error);
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  shortenEchoedLines(sourceMgr);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    fail("cannot parse " + inputFilename);
  return module;
}

/// Bind, run and report: the step JIT-compiled in this process.
int runLoweredStep(ModuleOp module, const Step &step,
                   const RunOptions &options) {
  if (options.gpu && !remat_runtime_cuda_available())
    return fail(llvm::Twine("--device=gpu needs an NVIDIA GPU: ") +
                remat_runtime_cuda_error());
  // The runtime's threads, before the step's first parallel region
  // starts them.
  if (options.threads)
    omp_set_num_threads(int(options.threads));
  Arguments arguments(options.gpu);
  if (llvm::Error error =
          arguments.bind(step, options, /*keepInitialValues=*/options.repeat > 0))
    return fail(std::move(error));
  llvm::Expected<std::unique_ptr<CompiledModule>> compiled =
      CompiledModule::compile(module, step.entry, options.optLevel,
                              options.compileThreads, options.perf);
  if (!compiled)
    return fail(compiled.takeError());
  llvm::Expected<Measurement> measurement =
      runStep(**compiled, step, arguments, options);
  if (!measurement)
    return fail(measurement.takeError());
  if (llvm::Error error = report(step, *measurement, options))
    return fail(std::move(error));
  return 0;
}

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
  RunOptions options = readOptions();

  DialectRegistry registry;
  registerRematDialects(registry);
  registerUpstreamDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseModule(context, sourceMgr);
  if (!module)
    return 1;
  llvm::Expected<Step> step = selectStep(*module, options);
  if (!step)
    return fail(step.takeError());
  if (llvm::Error error = claimOutputs(*step, options))
    return fail(std::move(error));

  if (llvm::Error error = lowerModule(*module, *step, options))
    return fail(std::move(error));
  if (!options.executablePath.empty()) {
    if (llvm::Error error =
            emitStepExecutable(*module, *step, options, argv[0]))
      return fail(std::move(error));
    return 0;
  }
  return runLoweredStep(*module, *step, options);
}
