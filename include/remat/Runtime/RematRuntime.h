/*===- RematRuntime.h - Counting allocator and GPU entry points ---*- C -*-===//
 *
 * The runtime library (libremat_runtime.so, libremat_runtime.a) of code
 * lowered by remat-to-cpu and remat-to-gpu. It has no MLIR dependency and a
 * C ABI.
 *
 * Host memory: remat-to-cpu lowers every allocation to
 * `_mlir_memref_to_llvm_alloc`/`_mlir_memref_to_llvm_free`; this library
 * defines them, records the size of each live pointer and keeps the live
 * bytes and their high-water mark: the measured peak the planner's
 * prediction is checked against.
 *
 * Device memory: remat-to-gpu calls the `mgpu*` entry points of MLIR's GPU
 * lowering. This library implements them on the CUDA driver API, loaded at
 * run time with dlopen("libcuda.so.1"), so that nothing CUDA is needed to
 * build or to run on the CPU. Device allocations are counted like host ones.
 *
 *===----------------------------------------------------------------------===*/

#ifndef REMAT_RUNTIME_REMATRUNTIME_H
#define REMAT_RUNTIME_REMATRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Allocation hooks of finalize-memref-to-llvm{use-generic-functions}. The
 * returned memory is 64-byte aligned; the size counted is the one asked. */
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);

/* Strided copy finalize-memref-to-llvm calls for memref.copy between
 * non-contiguous memrefs; the operands are unranked descriptors
 * ({rank, descriptor*}). */
void memrefCopy(int64_t elementSize, void *source, void *target);

/* Frees a block this allocator handed out and returns 1; returns 0 and does
 * nothing for any other pointer (an argument's, a constant's). A caller
 * that runs a step again frees its results this way. */
int remat_runtime_free_if_owned(void *ptr);

/* Host counters: zero the peak and the count (live bytes stay: buffers
 * allocated before a reset are still live). */
void remat_runtime_reset(void);
/* High-water mark of live host bytes since the last reset. */
uint64_t remat_runtime_peak_bytes(void);
uint64_t remat_runtime_live_bytes(void);
/* Host allocations since the last reset. */
uint64_t remat_runtime_alloc_count(void);
/* High-water mark of live host bytes as allocated: each block's size rounded
 * up to its alignment (64 bytes or more). */
uint64_t remat_runtime_padded_peak_bytes(void);
/* The span of addresses the blocks allocated since the last reset reached,
 * from the lowest start to the highest end (padding included); 0 when none
 * was. A step lowered to one arena: the arena's size. */
uint64_t remat_runtime_extent_bytes(void);
/* Freed host blocks of 1 MiB or more are kept (up to 8) for the next
 * allocation of the same size: a step's arena, allocated and freed once per
 * step, keeps its pages mapped from one step to the next instead of
 * faulting each of them in again. The bytes kept that way (not counted as
 * live), and a call that gives them back to the system. */
uint64_t remat_runtime_cached_bytes(void);
void remat_runtime_release_cached(void);

/* Device counters (mgpuMemAlloc/mgpuMemFree), same meaning. */
int remat_runtime_device_free_if_owned(void *ptr);
void remat_runtime_device_reset(void);
uint64_t remat_runtime_device_peak_bytes(void);
uint64_t remat_runtime_device_live_bytes(void);
uint64_t remat_runtime_device_alloc_count(void);
/* Device blocks count the size asked of the driver (1 for an empty one). */
uint64_t remat_runtime_device_padded_peak_bytes(void);
uint64_t remat_runtime_device_extent_bytes(void);

/* 1 when libcuda.so.1 loads and a device is present, else 0; then
 * remat_runtime_cuda_error() says why. */
int remat_runtime_cuda_available(void);
const char *remat_runtime_cuda_error(void);
/* Managed memory for a step's inputs and for reading its outputs on the
 * host; not counted (the memory model does not count inputs). */
void *remat_runtime_shared_alloc(size_t size);
void remat_runtime_shared_free(void *ptr);
/* Waits for all work on the device. */
void remat_runtime_device_synchronize(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* REMAT_RUNTIME_REMATRUNTIME_H */
