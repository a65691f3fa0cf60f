// RUN: remat-opt %s --pass-pipeline='builtin.module(func.func(remat-free-after-last-use))' --split-input-file | FileCheck %s

// A buffer is freed right after its last use, a view's use included.
// CHECK-LABEL: func.func @views(
// CHECK: %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK: %[[V:.+]] = memref.expand_shape %[[A]]
// CHECK: %[[B:.+]] = memref.alloc() : memref<1x4xf32>
// CHECK-NEXT: memref.copy %[[V]], %[[B]]
// CHECK-NEXT: memref.dealloc %[[A]] :
// CHECK-NEXT: %[[C:.+]] = memref.alloc() : memref<1x4xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[C]]
// CHECK-NEXT: memref.dealloc %[[B]] :
// CHECK-NEXT: return %[[C]]
func.func @views(%x: memref<4xf32>) -> memref<1x4xf32> {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %v = memref.expand_shape %a [[0, 1]] output_shape [1, 4] : memref<4xf32> into memref<1x4xf32>
  %b = memref.alloc() : memref<1x4xf32>
  memref.copy %v, %b : memref<1x4xf32> to memref<1x4xf32>
  %c = memref.alloc() : memref<1x4xf32>
  memref.copy %b, %c : memref<1x4xf32> to memref<1x4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<1x4xf32>
  return %c : memref<1x4xf32>
}

// -----

// Ops lowered from one source op share its location: its operands live
// until the last of them.
// CHECK-LABEL: func.func @group(
// CHECK: %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK: %[[PAD:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[PAD]]
// CHECK-NEXT: %[[R:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[PAD]], %[[R]]
// CHECK-DAG: memref.dealloc %[[A]] :
// CHECK-DAG: memref.dealloc %[[PAD]] :
// CHECK: return %[[R]]
func.func @group(%x: memref<4xf32>) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32> loc("a")
  memref.copy %x, %a : memref<4xf32> to memref<4xf32> loc("a")
  %pad = memref.alloc() : memref<4xf32> loc("conv")
  memref.copy %a, %pad : memref<4xf32> to memref<4xf32> loc("conv")
  %r = memref.alloc() : memref<4xf32> loc("conv")
  memref.copy %pad, %r : memref<4xf32> to memref<4xf32> loc("conv")
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %pad : memref<4xf32>
  return %r : memref<4xf32>
}

// -----

// A buffer used in another block is left alone.
// CHECK-LABEL: func.func @blocks(
// CHECK: cf.br
// CHECK: memref.copy
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
func.func @blocks(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  cf.br ^next
^next:
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
