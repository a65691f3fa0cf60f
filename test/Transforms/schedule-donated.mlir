// RUN: remat-opt %s --split-input-file --remat-schedule | FileCheck %s

// %p is donated: the update writes into its buffer. Running the update first
// would free the 256-byte %g before the reduction's result is made (peak
// 260 -> 256 bytes), but the reduction reads the old %p:
// ops that touch a donated buffer keep their order.
// CHECK-LABEL: remat.graph @donated
// CHECK:         %[[G:.+]] = tosa.tanh %arg0
// CHECK-NEXT:    remat.backward
// CHECK-NEXT:    %[[R:.+]] = tosa.reduce_sum %arg1
// CHECK-NEXT:    %[[U:.+]] = linalg.generic
// CHECK:         remat.return %[[R]], %[[U]]
#id = affine_map<(d0) -> (d0)>
remat.graph @donated(%x: tensor<64xf32>, %p: tensor<64xf32> {remat.aliasing_output = 1 : i64}) -> (tensor<1xf32>, tensor<64xf32>) {
  %g = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  remat.backward
  %r = tosa.reduce_sum %p {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g : tensor<64xf32>) outs(%p : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.subf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<64xf32>
  remat.return %r, %u : tensor<1xf32>, tensor<64xf32>
}

// -----

// The same step without donation: bufferization still writes the update
// into the argument's buffer (function arguments are writable), so the
// reduction still reads %p first. (Running the update first would make
// bufferization copy %p, a buffer the model did not count.)
// CHECK-LABEL: remat.graph @not_donated
// CHECK:         tosa.tanh %arg0
// CHECK-NEXT:    remat.backward
// CHECK-NEXT:    tosa.reduce_sum %arg1
// CHECK-NEXT:    linalg.generic
#id = affine_map<(d0) -> (d0)>
remat.graph @not_donated(%x: tensor<64xf32>, %p: tensor<64xf32>) -> (tensor<1xf32>, tensor<64xf32>) {
  %g = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  remat.backward
  %r = tosa.reduce_sum %p {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g : tensor<64xf32>) outs(%p : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.subf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<64xf32>
  remat.return %r, %u : tensor<1xf32>, tensor<64xf32>
}

// -----

// An intermediate buffer written in place: the generic writes into %a,
// which dies there, and reads %c for the last time. Running it before the
// add would free %c's 1 KiB first (peak 2304 -> 1280 bytes), but the add
// reads the old %a: the add runs first and nothing is copied.
// CHECK-LABEL: func.func @reader_before_overwrite
// CHECK:         %[[A:.+]] = tosa.exp %arg0
// CHECK:         %[[R:.+]] = tosa.add %[[A]], %arg1
// CHECK-NOT:     linalg.copy
// CHECK:         %[[W:.+]] = linalg.generic
// CHECK-SAME:      outs(%[[A]] : tensor<1x64xf32>)
// CHECK:         return %[[R]], %[[W]]
#row = affine_map<(d0, d1) -> (0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reader_before_overwrite(%x: tensor<1x64xf32>, %d: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<1x64xf32>) {
  %a = tosa.exp %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %c = tosa.tanh %d : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %r = tosa.add %a, %d : (tensor<1x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %w = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<4x64xf32>) outs(%a : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<1x64xf32>
  return %r, %w : tensor<4x64xf32>, tensor<1x64xf32>
}
