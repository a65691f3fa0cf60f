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

#include <cstdint>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace remat {

struct CpuPipelineOptions {
  /// Give the functions made from graphs a `_mlir_ciface_` wrapper.
  bool emitCInterface = true;
  /// Place each step's buffers in one arena (remat-arena-allocation);
  /// otherwise every buffer is an allocation of its own.
  bool arena = true;
  /// Tile and vectorize the linalg ops after the arena is placed
  /// (remat-vectorize-kernels); false: scalar loop nests (the naive
  /// lowering, kept for comparison).
  bool vectorize = true;
  /// Vector register width for remat-vectorize-kernels; 0: the host's.
  unsigned vectorBits = 0;
};

/// remat-to-cpu: remat-lower, TOSA to linalg, one-shot bufferization with
/// unaligned allocations of exactly the tensor's size, ownership-based
/// deallocation, each step's buffers placed in one arena (unless
/// `arena` is false), register tiles and vectors (unless `vectorize` is
/// false), loops, and the LLVM dialect. Allocations call
/// `_mlir_memref_to_llvm_alloc`/`_mlir_memref_to_llvm_free`, which the
/// runtime library (lib/Runtime) defines and counts.
void buildRematToCpuPipeline(mlir::OpPassManager &pm,
                             const CpuPipelineOptions &options);

struct GpuPipelineOptions {
  /// Target GPU architecture.
  std::string chip = "sm_90";
  /// PTX features; sm_90 needs PTX 7.8 or later.
  std::string features = "+ptx80";
  /// gpu-module-to-binary format: `isa` (PTX text, needs only LLVM),
  /// `bin`/`fatbin` (need ptxas from a CUDA toolkit).
  std::string format = "isa";
  bool emitCInterface = true;
  /// As CpuPipelineOptions::arena, with the GPU's alignment.
  bool arena = true;
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
