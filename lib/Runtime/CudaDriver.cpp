//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

using namespace remat::runtime;

namespace {

struct LoadedDriver {
  CudaDriver api;
  bool ok = false;
  std::string error;
};

template <typename Fn>
bool resolve(void *library, Fn &fn, const char *name, std::string &error) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  if (!fn)
    error = std::string("libcuda.so.1 has no ") + name;
  return fn != nullptr;
}

LoadedDriver load() {
  LoadedDriver loaded;
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!library) {
    const char *why = dlerror();
    loaded.error = std::string("no NVIDIA driver: cannot load libcuda.so.1 (") +
                   (why ? why : "unknown error") + ")";
    return loaded;
  }
  CudaDriver &api = loaded.api;
  std::string &error = loaded.error;
  // Versioned names are what cuda.h maps the plain ones to.
  bool ok =
      resolve(library, api.cuInit, "cuInit", error) &&
      resolve(library, api.cuDeviceGetCount, "cuDeviceGetCount", error) &&
      resolve(library, api.cuDeviceGet, "cuDeviceGet", error) &&
      resolve(library, api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",
              error) &&
      resolve(library, api.cuCtxPushCurrent, "cuCtxPushCurrent_v2", error) &&
      resolve(library, api.cuCtxPopCurrent, "cuCtxPopCurrent_v2", error) &&
      resolve(library, api.cuCtxSynchronize, "cuCtxSynchronize", error) &&
      resolve(library, api.cuModuleLoadData, "cuModuleLoadData", error) &&
      resolve(library, api.cuModuleLoadDataEx, "cuModuleLoadDataEx", error) &&
      resolve(library, api.cuModuleUnload, "cuModuleUnload", error) &&
      resolve(library, api.cuModuleGetFunction, "cuModuleGetFunction", error) &&
      resolve(library, api.cuLaunchKernel, "cuLaunchKernel", error) &&
      resolve(library, api.cuStreamCreate, "cuStreamCreate", error) &&
      resolve(library, api.cuStreamDestroy, "cuStreamDestroy_v2", error) &&
      resolve(library, api.cuStreamSynchronize, "cuStreamSynchronize", error) &&
      resolve(library, api.cuStreamWaitEvent, "cuStreamWaitEvent", error) &&
      resolve(library, api.cuEventCreate, "cuEventCreate", error) &&
      resolve(library, api.cuEventDestroy, "cuEventDestroy_v2", error) &&
      resolve(library, api.cuEventSynchronize, "cuEventSynchronize", error) &&
      resolve(library, api.cuEventRecord, "cuEventRecord", error) &&
      resolve(library, api.cuMemAlloc, "cuMemAlloc_v2", error) &&
      resolve(library, api.cuMemAllocManaged, "cuMemAllocManaged", error) &&
      resolve(library, api.cuMemFree, "cuMemFree_v2", error) &&
      resolve(library, api.cuMemcpyAsync, "cuMemcpyAsync", error) &&
      resolve(library, api.cuMemsetD32Async, "cuMemsetD32Async", error) &&
      resolve(library, api.cuMemsetD16Async, "cuMemsetD16Async", error) &&
      resolve(library, api.cuMemHostRegister, "cuMemHostRegister_v2", error) &&
      resolve(library, api.cuMemHostUnregister, "cuMemHostUnregister", error) &&
      resolve(library, api.cuGetErrorName, "cuGetErrorName", error);
  if (!ok)
    return loaded;

  int count = 0;
  CUdevice device = 0;
  if (CUresult result = api.cuInit(0)) {
    error = "cuInit failed with error " + std::to_string(result);
    return loaded;
  }
  if (api.cuDeviceGetCount(&count) || count == 0) {
    error = "the NVIDIA driver sees no GPU";
    return loaded;
  }
  if (api.cuDeviceGet(&device, 0) ||
      api.cuDevicePrimaryCtxRetain(&api.context, device)) {
    error = "cannot retain the primary context of GPU 0";
    return loaded;
  }
  loaded.ok = true;
  return loaded;
}

LoadedDriver &loaded() {
  static LoadedDriver *driver = new LoadedDriver(load());
  return *driver;
}

} // namespace

CudaDriver *remat::runtime::driver() {
  LoadedDriver &d = loaded();
  return d.ok ? &d.api : nullptr;
}

const std::string &remat::runtime::driverError() { return loaded().error; }

CudaDriver &remat::runtime::requireDriver() {
  if (CudaDriver *api = driver())
    return *api;
  std::fprintf(stderr, "remat runtime: cannot run GPU code: %s\n",
               driverError().c_str());
  std::abort();
}

void remat::runtime::report(CUresult result, const char *call) {
  if (!result)
    return;
  const char *name = nullptr;
  if (CudaDriver *api = driver())
    api->cuGetErrorName(result, &name);
  std::fprintf(stderr, "remat runtime: '%s' failed with '%s'\n", call,
               name ? name : "<unknown>");
}

ScopedContext::ScopedContext() {
  CudaDriver &api = requireDriver();
  report(api.cuCtxPushCurrent(api.context), "cuCtxPushCurrent");
}

ScopedContext::~ScopedContext() {
  report(requireDriver().cuCtxPopCurrent(nullptr), "cuCtxPopCurrent");
}
