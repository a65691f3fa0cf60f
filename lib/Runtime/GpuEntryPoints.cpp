//===- GpuEntryPoints.cpp - mgpu* on the CUDA driver API ------------------===//
//
// The host-side entry points MLIR 22's GPU lowering calls (gpu-to-llvm and
// the translation of gpu.launch_func / gpu.binary), with the signatures of
// upstream's CudaRuntimeWrappers.cpp, plus device-memory counting.
//
//===----------------------------------------------------------------------===//

#include "AllocationCounter.h"
#include "CudaDriver.h"
#include "remat/Runtime/RematRuntime.h"

using namespace remat::runtime;

namespace {

/// CU_JIT_OPTIMIZATION_LEVEL, CU_STREAM_NON_BLOCKING, CU_EVENT_DISABLE_TIMING
/// and CU_MEM_ATTACH_GLOBAL of cuda.h.
constexpr CUjit_option kJitOptimizationLevel = 7;
constexpr unsigned kStreamNonBlocking = 1;
constexpr unsigned kEventDisableTiming = 2;
constexpr unsigned kMemAttachGlobal = 1;

AllocationCounter &deviceCounter() {
  static AllocationCounter *counter = new AllocationCounter();
  return *counter;
}

#define CHECK(call) report(api.call, #call)

} // namespace

extern "C" {

CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CUmodule module = nullptr;
  CHECK(cuModuleLoadData(&module, data));
  return module;
}

CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CUmodule module = nullptr;
  CUjit_option options[] = {kJitOptimizationLevel};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CHECK(cuModuleLoadDataEx(&module, data, 1, options, values));
  return module;
}

void mgpuModuleUnload(CUmodule module) {
  CudaDriver &api = requireDriver();
  CHECK(cuModuleUnload(module));
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CudaDriver &api = requireDriver();
  CUfunction function = nullptr;
  CHECK(cuModuleGetFunction(&function, module, name));
  return function;
}

void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, CUstream stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CHECK(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                       smem, stream, params, extra));
}

CUstream mgpuStreamCreate() {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CUstream stream = nullptr;
  CHECK(cuStreamCreate(&stream, kStreamNonBlocking));
  return stream;
}

void mgpuStreamDestroy(CUstream stream) {
  CudaDriver &api = requireDriver();
  CHECK(cuStreamDestroy(stream));
}

void mgpuStreamSynchronize(CUstream stream) {
  CudaDriver &api = requireDriver();
  CHECK(cuStreamSynchronize(stream));
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  CudaDriver &api = requireDriver();
  CHECK(cuStreamWaitEvent(stream, event, 0));
}

CUevent mgpuEventCreate() {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CUevent event = nullptr;
  CHECK(cuEventCreate(&event, kEventDisableTiming));
  return event;
}

void mgpuEventDestroy(CUevent event) {
  CudaDriver &api = requireDriver();
  CHECK(cuEventDestroy(event));
}

void mgpuEventSynchronize(CUevent event) {
  CudaDriver &api = requireDriver();
  CHECK(cuEventSynchronize(event));
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  CudaDriver &api = requireDriver();
  CHECK(cuEventRecord(event, stream));
}

/// host_shared buffers are managed memory: the host code between kernels
/// (copies, loops the lowering left on the host) reads them too.
void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/, bool isHostShared) {
  // The driver refuses empty allocations, and the memory model counts none.
  if (sizeBytes == 0)
    return remat::runtime::emptyBlock();
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CUdeviceptr ptr = 0;
  if (isHostShared)
    CHECK(cuMemAllocManaged(&ptr, sizeBytes, kMemAttachGlobal));
  else
    CHECK(cuMemAlloc(&ptr, sizeBytes));
  void *result = reinterpret_cast<void *>(ptr);
  // What the driver was asked for; its own granularity is not visible.
  deviceCounter().allocated(result, sizeBytes, sizeBytes);
  return result;
}

void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (!ptr || ptr == remat::runtime::emptyBlock())
    return;
  CudaDriver &api = requireDriver();
  deviceCounter().freed(ptr);
  CHECK(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, CUstream stream) {
  if (sizeBytes == 0)
    return;
  CudaDriver &api = requireDriver();
  CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                      reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream));
}

void mgpuMemset32(void *dst, unsigned value, size_t count, CUstream stream) {
  if (count == 0)
    return;
  CudaDriver &api = requireDriver();
  CHECK(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  if (count == 0)
    return;
  CudaDriver &api = requireDriver();
  CHECK(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream));
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CHECK(cuMemHostRegister(ptr, sizeBytes, 0));
}

void mgpuMemHostUnregister(void *ptr) {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CHECK(cuMemHostUnregister(ptr));
}

void mgpuSetDefaultDevice(int32_t /*device*/) {
  // Only device 0 is used; see CudaDriver.cpp.
}

int remat_runtime_device_free_if_owned(void *ptr) {
  if (!deviceCounter().owns(ptr))
    return 0;
  mgpuMemFree(ptr, nullptr);
  return 1;
}

void remat_runtime_device_reset(void) { deviceCounter().reset(); }
uint64_t remat_runtime_device_peak_bytes(void) {
  return deviceCounter().peakBytes();
}
uint64_t remat_runtime_device_live_bytes(void) {
  return deviceCounter().liveBytes();
}
uint64_t remat_runtime_device_alloc_count(void) {
  return deviceCounter().allocCount();
}
uint64_t remat_runtime_device_padded_peak_bytes(void) {
  return deviceCounter().peakReservedBytes();
}
uint64_t remat_runtime_device_extent_bytes(void) {
  return deviceCounter().extentBytes();
}

int remat_runtime_cuda_available(void) { return driver() != nullptr; }

const char *remat_runtime_cuda_error(void) { return driverError().c_str(); }

void *remat_runtime_shared_alloc(size_t size) {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CUdeviceptr ptr = 0;
  CHECK(cuMemAllocManaged(&ptr, size ? size : 1, kMemAttachGlobal));
  return reinterpret_cast<void *>(ptr);
}

void remat_runtime_shared_free(void *ptr) {
  CudaDriver &api = requireDriver();
  CHECK(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

void remat_runtime_device_synchronize(void) {
  ScopedContext scope;
  CudaDriver &api = requireDriver();
  CHECK(cuCtxSynchronize());
}

} // extern "C"
