// RUN: remat-opt %s --remat-to-gpu | FileCheck %s
// RUN: remat-opt %s --remat-to-gpu="chip=sm_80 features=+ptx70" | FileCheck %s --check-prefix=SM80
// RUN: remat-opt %s --remat-to-gpu="arena=false" | FileCheck %s --check-prefix=MALLOC

// Kernels are outlined into a gpu.binary holding PTX for sm_90; the host
// allocates one arena in device memory through the runtime's mgpuMemAlloc
// (managed: host_shared = 1), 512 bytes for two 128-byte buffers padded to
// 256, and hands it to the caller with the result.
// CHECK-LABEL: llvm.func @step(
// CHECK: %[[SHARED:.+]] = llvm.mlir.constant(1 : i8) : i8
// CHECK: llvm.getelementptr %{{.+}}[512] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.call @mgpuMemAlloc(%{{.+}}, %{{.+}}, %[[SHARED]])
// CHECK-NOT: llvm.call @mgpuMemAlloc
// Each loop's 32 elements run on one block of a warp (threads 32).
// CHECK: gpu.launch_func @step_kernel::@step_kernel blocks in (%[[ONE:.+]], %[[ONE]], %[[ONE]]) threads in (%[[WARP:.+]], %[[ONE]], %[[ONE]])
// CHECK-NOT: llvm.call @mgpuMemFree
// CHECK: llvm.return
// With arena=false each buffer is a device allocation, freed through
// mgpuMemFree.
// MALLOC-LABEL: llvm.func @step(
// MALLOC-COUNT-2: llvm.call @mgpuMemAlloc
// MALLOC: gpu.launch_func @step_kernel
// MALLOC: llvm.call @mgpuMemFree
// MALLOC: llvm.return
// CHECK-NOT: memref.
// CHECK-NOT: tosa.
// CHECK: gpu.binary @step_kernel
// CHECK-SAME: #nvvm.target<chip = "sm_90", features = "+ptx80">
// CHECK-SAME: .target sm_90
// Each thread takes the element of its thread index (one block: the
// block index is known to be 0).
// CHECK-SAME: %tid.x
// SM80: .target sm_80
remat.graph @step(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  %t = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = tosa.add %t, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  remat.return %y : tensor<4x8xf32>
}
