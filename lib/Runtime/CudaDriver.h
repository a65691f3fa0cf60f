//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The few driver entry points the GPU lowering needs, resolved with dlopen
// and dlsym so that the runtime library builds and loads without CUDA. Types
// are the driver's, spelled as opaque handles.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_RUNTIME_CUDADRIVER_H
#define REMAT_LIB_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace remat::runtime {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uintptr_t;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;

struct CudaDriver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxPushCurrent)(CUcontext);
  CUresult (*cuCtxPopCurrent)(CUcontext *);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
  CUresult (*cuMemHostUnregister)(void *);
  CUresult (*cuGetErrorName)(CUresult, const char **);

  /// The primary context of device 0, made current by ScopedContext.
  CUcontext context = nullptr;
};

/// The driver, loaded and initialized on first use; nullptr when libcuda.so.1
/// is missing, lacks an entry point, or sees no device (driverError() says
/// which).
CudaDriver *driver();
const std::string &driverError();

/// The driver, or a clear message on stderr and abort(): for the mgpu* entry
/// points, which have no way to report an error to the lowered code.
CudaDriver &requireDriver();

/// Prints a failed driver call to stderr.
void report(CUresult result, const char *call);

/// Makes the primary context current for its lifetime.
class ScopedContext {
public:
  ScopedContext();
  ~ScopedContext();
};

} // namespace remat::runtime

#endif // REMAT_LIB_RUNTIME_CUDADRIVER_H
