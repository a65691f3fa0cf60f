//===- Pipelines.h - Lowering pipelines for planned steps -------*- C++ -*-===//
//
// From a planned training step (remat dialect over TOSA) to the LLVM dialect,
// for the CPU (remat-to-cpu) or for NVIDIA GPUs (remat-to-gpu). Both inline
// the recomputations as the last step before bufferization and run no CSE or
// canonicalization in between, so the program bufferized is the one the
// memory model measured.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PIPELINES_PIPELINES_H
#define REMAT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace remat {

/// What remat-to-cpu and remat-to-gpu share: one struct each is both the C++
/// API and the pipeline's command line.
template <typename Derived>
struct LoweringPipelineOptions : mlir::PassPipelineOptions<Derived> {
  using Base = mlir::PassPipelineOptions<Derived>;
  typename Base::template Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("Give functions made from graphs a _mlir_ciface_ "
                     "wrapper"),
      llvm::cl::init(true)};
  /// Otherwise every buffer is an allocation of its own.
  typename Base::template Option<bool> arena{
      *this, "arena",
      llvm::cl::desc("Place each step's buffers in one arena allocation "
                     "(false: one allocation per buffer)"),
      llvm::cl::init(true)};
};

struct CpuPipelineOptions : LoweringPipelineOptions<CpuPipelineOptions> {
  /// remat-vectorize-kernels after the arena is placed; false keeps the
  /// naive lowering's scalar loop nests, for comparison.
  Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile the linalg ops for the vector registers and "
                     "vectorize them (false: scalar loop nests)"),
      llvm::cl::init(true)};
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width in bits (0: the host's)"),
      llvm::cl::init(0)};
  /// remat-approximate-math: transcendentals as vector arithmetic; false
  /// keeps libm's calls, one per element, for comparison.
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Replace tanh, exp, log, erf and the other "
                     "transcendentals with polynomial approximations that "
                     "vectorize (false: libm calls)"),
      llvm::cl::init(true)};
  /// remat-share-kernels: equivalent linalg ops call one function; false
  /// lowers every op in place, for comparison.
  Option<bool> shareKernels{
      *this, "share-kernels",
      llvm::cl::desc("Lower each kind of linalg op once, as a function every "
                     "op of that kind calls (false: every op in place)"),
      llvm::cl::init(true)};
  /// The large kernels' tile loops as OpenMP work-sharing loops (with
  /// `vectorize`); false: every kernel on the calling thread.
  Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Share the tiles of large kernels across threads "
                     "(OpenMP; with vectorize)"),
      llvm::cl::init(true)};
  /// remat-to-gpu's loops (parallel dimensions outermost, collapsed, in
  /// blocks of threads), run one block and one thread after another: the
  /// GPU kernels' loop structure and index arithmetic, checked on the CPU.
  /// Replaces `vectorize` and `parallel`.
  Option<bool> gpuLoops{
      *this, "gpu-loops",
      llvm::cl::desc("Lower the kernels to remat-to-gpu's loops over blocks "
                     "and threads, run sequentially (no vectorization)"),
      llvm::cl::init(false)};
};

/// remat-to-cpu: remat-lower, TOSA to linalg, one-shot bufferization with
/// unaligned allocations of exactly the tensor's size, ownership-based
/// deallocation, each step's buffers placed in one arena (unless
/// `arena` is false), register tiles and vectors (unless `vectorize` is
/// false), the large kernels' tile loops shared across threads by OpenMP
/// (unless `parallel` is false), loops, and the LLVM dialect. Allocations call
/// `_mlir_memref_to_llvm_alloc`/`_mlir_memref_to_llvm_free`, which the
/// runtime library (lib/Runtime) defines and counts.
void buildRematToCpuPipeline(mlir::OpPassManager &pm,
                             const CpuPipelineOptions &options);

struct GpuPipelineOptions : LoweringPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU architecture"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (sm_90 needs +ptx78 or later)"),
      llvm::cl::init("+ptx80")};
  /// `isa` needs only LLVM; `bin` and `fatbin` need ptxas from a CUDA
  /// toolkit.
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Binary format: isa (PTX), bin or fatbin (need ptxas)"),
      llvm::cl::init("isa")};
};

/// remat-to-gpu: as remat-to-cpu up to bufferization, then allocations on
/// the device (`gpu.alloc host_shared`), linalg to parallel loops mapped to
/// blocks and threads, kernel outlining, NVVM, and a `gpu.binary` per
/// kernel module; the host side calls the `mgpu*` entry points the runtime
/// library defines on the CUDA driver API.
void buildRematToGpuPipeline(mlir::OpPassManager &pm,
                             const GpuPipelineOptions &options);

/// Registers `remat-to-cpu` and `remat-to-gpu`.
void registerLoweringPipelines();

} // namespace remat

#endif // REMAT_PIPELINES_PIPELINES_H
