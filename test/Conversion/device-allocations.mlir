// RUN: remat-opt %s --remat-device-allocations | FileCheck %s

// Host buffers move to managed device memory; a global a kernel reads is
// read from inside the kernel.
// CHECK-LABEL: func.func @step(
// CHECK: %[[A:.+]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK: gpu.launch
// CHECK-NEXT: %[[C:.+]] = memref.get_global @cst : memref<4xf32>
// CHECK: memref.load %[[C]]
// CHECK: %[[T0:.+]] = gpu.wait async
// CHECK-NEXT: %[[T1:.+]] = gpu.dealloc async [%[[T0]]] %[[A]] : memref<4xf32>
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
func.func @step(%x: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  %c = memref.get_global @cst : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %c[%tx] : memref<4xf32>
    memref.store %v, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  memref.copy %a, %x : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
