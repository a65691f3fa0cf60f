// RUN: remat-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(remat-donated-results))" --verify-diagnostics | FileCheck %s

// The deallocation pipeline's clone of a donated argument goes: the result
// is the argument's buffer, updated in place. The attribute is consumed.
// CHECK-LABEL: func.func @in_place(
// CHECK-SAME:    %[[P:[^:]+]]: memref<4xf32>, %[[G:[^:]+]]: memref<4xf32>)
// CHECK-NOT:     remat.aliasing_output
// CHECK-NOT:     bufferization.clone
// CHECK:         return %[[P]] : memref<4xf32>
func.func @in_place(%p: memref<4xf32> {remat.aliasing_output = 0 : i64}, %g: memref<4xf32>) -> memref<4xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%g : memref<4xf32>) outs(%p : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.subf %out, %in : f32
    linalg.yield %0 : f32
  }
  %0 = bufferization.clone %p : memref<4xf32> to memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

// An update bufferization could not write in place (the old value is read
// after it) is a new buffer: an error at the return.
func.func @copied(%p: memref<4xf32> {remat.aliasing_output = 0 : i64}) -> memref<4xf32> {
  %new = memref.alloc() : memref<4xf32>
  memref.copy %p, %new : memref<4xf32> to memref<4xf32>
  // expected-error @below {{result #0 is not written into the buffer of argument #0, which is donated to it: bufferization could not update the argument in place (is it read after its update?)}}
  return %new : memref<4xf32>
}
