// RUN: remat-opt %s --remat-to-gpu | FileCheck %s
// RUN: remat-opt %s --remat-to-gpu="chip=sm_80 features=+ptx70" | FileCheck %s --check-prefix=SM80

// Kernels are outlined into a gpu.binary holding PTX for sm_90; the host
// allocates in device memory through the runtime's mgpuMemAlloc (managed:
// host_shared = 1) and frees through mgpuMemFree.
// CHECK-LABEL: llvm.func @step(
// CHECK: %[[SHARED:.+]] = llvm.mlir.constant(1 : i8) : i8
// CHECK: llvm.call @mgpuMemAlloc(%{{.+}}, %{{.+}}, %[[SHARED]])
// CHECK: gpu.launch_func @step_kernel
// CHECK: llvm.call @mgpuMemFree
// CHECK: llvm.return
// CHECK-NOT: memref.
// CHECK-NOT: tosa.
// CHECK: gpu.binary @step_kernel
// CHECK-SAME: #nvvm.target<chip = "sm_90", features = "+ptx80">
// CHECK-SAME: .target sm_90
// SM80: .target sm_80
remat.graph @step(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  %t = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = tosa.add %t, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  remat.return %y : tensor<4x8xf32>
}
