//===- ExecutableEmitter.cpp - Ahead-of-time executables ------------------===//
//
// The executable is the lowered module compiled by clang from LLVM IR, a
// generated C driver, and libremat_runtime.a. The driver repeats remat-run's
// argument generation and digest in C, so that its JSON equals remat-run's
// for the same seed (time_ms aside). It supports what remat-run's --seed
// mode supports: statically shaped tensor arguments and results of the
// element types of Tensors.h; not .npy inputs.
//
//===----------------------------------------------------------------------===//

#include "ExecutableEmitter.h"

#include "Codegen.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace remat::run;

namespace {

/// The C driver's own copy of Tensors.cpp: generation, digest, report.
constexpr const char *kDriverPrelude = R"C(
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void remat_runtime_reset(void);
uint64_t remat_runtime_peak_bytes(void);
uint64_t remat_runtime_alloc_count(void);
uint64_t remat_runtime_extent_bytes(void);
uint64_t remat_runtime_padded_peak_bytes(void);
void remat_runtime_device_reset(void);
uint64_t remat_runtime_device_peak_bytes(void);
uint64_t remat_runtime_device_alloc_count(void);
uint64_t remat_runtime_device_extent_bytes(void);
uint64_t remat_runtime_device_padded_peak_bytes(void);
int remat_runtime_cuda_available(void);
const char *remat_runtime_cuda_error(void);
void *remat_runtime_shared_alloc(size_t size);
void remat_runtime_device_synchronize(void);

enum { F32, F64, I32, I64, I8, I1 };
static const int element_bytes[] = {4, 8, 4, 8, 1, 1};
static const char *dtype_names[] = {"f32", "f64", "i32", "i64", "i8", "i1"};

static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void fill(int dtype, void *data, int64_t count, uint64_t *state) {
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = next_random(state);
    double real = (double)(bits >> 40) / 16777216.0 - 0.5;
    int64_t integer = (int64_t)(bits >> 60) - 8;
    switch (dtype) {
    case F32: ((float *)data)[i] = (float)real; break;
    case F64: ((double *)data)[i] = real; break;
    case I32: ((int32_t *)data)[i] = (int32_t)integer; break;
    case I64: ((int64_t *)data)[i] = integer; break;
    case I8: ((int8_t *)data)[i] = (int8_t)integer; break;
    case I1: ((uint8_t *)data)[i] = (uint8_t)(bits >> 63); break;
    }
  }
}

static double element(int dtype, const uint8_t *p) {
  switch (dtype) {
  case F32: { float v; memcpy(&v, p, 4); return v; }
  case F64: { double v; memcpy(&v, p, 8); return v; }
  case I32: { int32_t v; memcpy(&v, p, 4); return v; }
  case I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
  case I8: return (int8_t)*p;
  default: return *p & 1;
  }
}

/* Prints the digest of the result whose descriptor starts at `words`;
 * returns the number of descriptor words. */
static int64_t print_result(const int64_t *words, int dtype, int rank,
                            const int64_t *shape) {
  const uint8_t *base = (const uint8_t *)(intptr_t)words[1];
  int64_t offset = words[2];
  const int64_t *strides = words + 3 + rank;
  int64_t count = 1, index[16] = {0};
  for (int d = 0; d < rank; ++d)
    count *= shape[d];
  int width = element_bytes[dtype];
  uint64_t hash = 0xcbf29ce484222325ULL;
  double sum = 0;
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t position = offset;
    for (int d = 0; d < rank; ++d)
      position += index[d] * strides[d];
    const uint8_t *p = base + position * width;
    for (int b = 0; b < width; ++b) {
      hash ^= p[b];
      hash *= 0x100000001b3ULL;
    }
    sum += element(dtype, p);
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  printf("{\"shape\":[");
  for (int d = 0; d < rank; ++d)
    printf(d ? ",%" PRId64 : "%" PRId64, shape[d]);
  printf("],\"dtype\":\"%s\",\"sum\":", dtype_names[dtype]);
  /* JSON has no infinity or NaN: remat-run's strings (jsonNumber). */
  if (isnan(sum))
    printf("\"nan\"");
  else if (isinf(sum))
    printf(sum > 0 ? "\"inf\"" : "\"-inf\"");
  else
    printf("%.17g", sum);
  printf(",\"hash\":\"%016" PRIx64 "\"}", hash);
  return 3 + 2 * (int64_t)rank;
}
)C";

int dtypeIndex(DType dtype) { return static_cast<int>(dtype); }

std::string shapeInitializer(const TensorSpec &spec) {
  std::string text = "{";
  for (int64_t dim : spec.shape)
    text += std::to_string(dim) + ",";
  return text + "0}";
}

std::string generateDriver(const ExecutableRequest &request) {
  std::string code;
  llvm::raw_string_ostream os(code);
  os << kDriverPrelude << "\n";
  size_t numArgs = request.arguments.size();
  size_t numResults = request.results.size();

  os << "void _mlir_ciface_" << request.entry << "(";
  llvm::SmallVector<std::string> params;
  if (numResults)
    params.push_back("void *");
  for (size_t i = 0; i < numArgs; ++i)
    params.push_back("void *");
  if (params.empty())
    os << "void";
  os << llvm::join(params, ", ") << ");\n\n";

  os << "int main(void) {\n";
  os << "  const int gpu = " << (request.gpu ? 1 : 0) << ";\n";
  os << "  uint64_t state = " << request.seed << "ULL;\n";
  if (request.gpu)
    os << "  if (!remat_runtime_cuda_available()) {\n"
          "    fprintf(stderr, \"error: needs an NVIDIA GPU: %s\\n\",\n"
          "            remat_runtime_cuda_error());\n"
          "    return 1;\n  }\n";
  for (auto [i, spec] : llvm::enumerate(request.arguments)) {
    size_t rank = spec.shape.size();
    os << "  static const int64_t shape" << i
       << "[] = " << shapeInitializer(spec) << ";\n";
    os << "  size_t bytes" << i << " = "
       << std::max<int64_t>(spec.numBytes(), 1) << ";\n";
    os << "  void *data" << i << " = gpu ? remat_runtime_shared_alloc(bytes"
       << i << ") : aligned_alloc(64, (bytes" << i << " + 63) / 64 * 64);\n";
    os << "  fill(" << dtypeIndex(spec.dtype) << ", data" << i << ", "
       << spec.numElements() << ", &state);\n";
    os << "  int64_t desc" << i << "[" << 3 + 2 * rank << "] = {"
       << "(int64_t)(intptr_t)data" << i << ", (int64_t)(intptr_t)data" << i
       << ", 0";
    for (size_t d = 0; d < rank; ++d)
      os << ", shape" << i << "[" << d << "]";
    int64_t stride = 1;
    llvm::SmallVector<int64_t> strides(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= spec.shape[d];
    }
    for (int64_t s : strides)
      os << ", " << s;
    os << "};\n";
  }
  size_t resultWords = 0;
  for (const TensorSpec &spec : request.results)
    resultWords += 3 + 2 * spec.shape.size();
  os << "  static int64_t results[" << std::max<size_t>(resultWords, 1)
     << "];\n";
  os << "  remat_runtime_reset();\n  remat_runtime_device_reset();\n";
  os << "  struct timespec start, stop;\n"
        "  clock_gettime(CLOCK_MONOTONIC, &start);\n";
  os << "  _mlir_ciface_" << request.entry << "(";
  llvm::SmallVector<std::string> arguments;
  if (numResults)
    arguments.push_back("results");
  for (size_t i = 0; i < numArgs; ++i)
    arguments.push_back("desc" + std::to_string(i));
  os << llvm::join(arguments, ", ") << ");\n";
  os << "  if (gpu)\n    remat_runtime_device_synchronize();\n";
  os << "  clock_gettime(CLOCK_MONOTONIC, &stop);\n";
  os << "  double ms = (stop.tv_sec - start.tv_sec) * 1e3 +\n"
        "              (stop.tv_nsec - start.tv_nsec) / 1e6;\n";
  os << "  uint64_t peak = gpu ? remat_runtime_device_peak_bytes() : "
        "remat_runtime_peak_bytes();\n";
  os << "  uint64_t count = gpu ? remat_runtime_device_alloc_count() : "
        "remat_runtime_alloc_count();\n";
  os << "  uint64_t extent = gpu ? remat_runtime_device_extent_bytes() : "
        "remat_runtime_extent_bytes();\n";
  os << "  uint64_t padded = gpu ? remat_runtime_device_padded_peak_bytes() : "
        "remat_runtime_padded_peak_bytes();\n";
  os << "  const int64_t *words = results;\n";
  os << "  printf(\"{\\\"outputs\\\":[\");\n";
  for (auto [i, spec] : llvm::enumerate(request.results)) {
    os << "  {\n    static const int64_t shape[] = " << shapeInitializer(spec)
       << ";\n";
    if (i)
      os << "    printf(\",\");\n";
    os << "    words += print_result(words, " << dtypeIndex(spec.dtype) << ", "
       << spec.shape.size() << ", shape);\n  }\n";
  }
  os << "  (void)words;\n";
  os << "  printf(\"],\\\"peak_bytes\\\":%\" PRIu64 \",\\\"alloc_count\\\":%\" "
        "PRIu64 \",\\\"arena_bytes\\\":%\" PRIu64 "
        "\",\\\"padded_peak_bytes\\\":%\" PRIu64 "
        "\",\\\"time_ms\\\":%.3f,\\\"times_ms\\\":[%.3f]}\\n\", peak, "
        "count, extent, padded, ms, ms);\n";
  os << "  return 0;\n}\n";
  return code;
}

llvm::Error writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError("cannot write " + path + ": " +
                                   ec.message());
  os << text;
  return llvm::Error::success();
}

/// A temporary file removed when this goes away.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

} // namespace

llvm::Error remat::run::emitExecutable(const ExecutableRequest &request) {
  std::string runtime = request.runtimeDir + "/libremat_runtime.a";
  if (!llvm::sys::fs::exists(runtime))
    return llvm::createStringError("cannot find the static runtime library " +
                                   runtime + " (use --runtime-dir)");
  llvm::ErrorOr<std::string> clang = llvm::sys::findProgramByName("clang-22");
  if (!clang)
    clang = llvm::sys::findProgramByName("clang", {"/usr/lib/llvm-22/bin"});
  if (!clang)
    return llvm::createStringError("cannot find clang-22 to link the "
                                   "executable");

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(request.module, llvmContext, "remat");
  if (!llvmModule)
    return llvm::createStringError("cannot translate the lowered module to "
                                   "LLVM IR");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  auto machine = builder->createTargetMachine();
  if (!machine)
    return machine.takeError();
  mlir::ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(),
                                                        machine->get());

  TempFile ir, driver;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("remat-module", "ll", fd, ir.path))
    return llvm::createStringError("cannot create a temporary file: " +
                                   ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    llvmModule->print(os, nullptr);
  }
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "remat-driver", "c", fd, driver.path))
    return llvm::createStringError("cannot create a temporary file: " +
                                   ec.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  if (llvm::Error error = writeFile(driver.path, generateDriver(request)))
    return error;

  llvm::SmallVector<llvm::StringRef> args = {
      *clang,      "-O2",     "-march=native", "-mllvm",
      kNoPostRaSchedulingOption, "-w", ir.path, driver.path,
      runtime,     "-o",      request.output,  "-lstdc++",
      "-lm",       "-ldl",    "-fopenmp"};
  std::string message;
  int status =
      llvm::sys::ExecuteAndWait(*clang, args, std::nullopt, {}, 0, 0, &message);
  if (status != 0)
    return llvm::createStringError("linking the executable with " + *clang +
                                   " failed" +
                                   (message.empty() ? "" : ": " + message));
  return llvm::Error::success();
}
