// RUN: remat-opt %s --gpu-kernel-outlining --remat-share-gpu-kernels | FileCheck %s

// Three launches, the first and the third of the same kernel: outlining
// gives each a module, and the third's launch goes to the first's module,
// whose duplicate is erased. The second (a multiply, not an add) keeps
// its own.
// CHECK-LABEL: func.func @step(
// CHECK: gpu.launch_func @step_kernel::@step_kernel
// CHECK: gpu.launch_func @step_kernel_0::@step_kernel
// CHECK: gpu.launch_func @step_kernel::@step_kernel
// CHECK: gpu.module @step_kernel
// CHECK: arith.addf
// CHECK: gpu.module @step_kernel_0
// CHECK: arith.mulf
// CHECK-NOT: gpu.module
func.func @step(%x: memref<32xf32>, %y: memref<32xf32>, %z: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.load %x[%tx] : memref<32xf32>
    %b = arith.addf %a, %a : f32
    memref.store %b, %y[%tx] : memref<32xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.load %y[%tx] : memref<32xf32>
    %b = arith.mulf %a, %a : f32
    memref.store %b, %z[%tx] : memref<32xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.load %z[%tx] : memref<32xf32>
    %b = arith.addf %a, %a : f32
    memref.store %b, %x[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
