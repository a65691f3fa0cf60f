// RUN: remat-opt %s --split-input-file --remat-schedule | FileCheck %s

// Two independent tanh/reduce pairs: running each reduction right after its
// tanh frees the 256-byte tanh result before the second one is made
// (peak 516 -> 264 bytes).
// CHECK-LABEL: func.func @interleave
// CHECK:         %[[A:.+]] = tosa.tanh %arg0
// CHECK-NEXT:    %[[C:.+]] = tosa.reduce_sum %[[A]]
// CHECK-NEXT:    %[[B:.+]] = tosa.tanh %arg1
// CHECK-NEXT:    %[[D:.+]] = tosa.reduce_sum %[[B]]
// CHECK-NEXT:    return %[[C]], %[[D]]
func.func @interleave(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %a = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  %b = tosa.tanh %y : (tensor<64xf32>) -> tensor<64xf32>
  %c = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  %d = tosa.reduce_sum %b {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  return %c, %d : tensor<1xf32>, tensor<1xf32>
}

// -----

// Already the best order: left exactly as it is.
// CHECK-LABEL: func.func @already_good
// CHECK:         tosa.tanh %arg0
// CHECK-NEXT:    tosa.reduce_sum
// CHECK-NEXT:    tosa.tanh %arg1
// CHECK-NEXT:    tosa.reduce_sum
func.func @already_good(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %a = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  %c = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  %b = tosa.tanh %y : (tensor<64xf32>) -> tensor<64xf32>
  %d = tosa.reduce_sum %b {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  return %c, %d : tensor<1xf32>, tensor<1xf32>
}

// -----

// Nothing crosses the forward/backward boundary, even when that would lower
// the peak.
// CHECK-LABEL: remat.graph @boundary
// CHECK:         tosa.tanh %arg0
// CHECK-NEXT:    tosa.tanh %arg1
// CHECK-NEXT:    remat.backward
// CHECK-NEXT:    tosa.reduce_sum
// CHECK-NEXT:    tosa.reduce_sum
remat.graph @boundary(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %a = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  %b = tosa.tanh %y : (tensor<64xf32>) -> tensor<64xf32>
  remat.backward
  %c = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  %d = tosa.reduce_sum %b {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  remat.return %c, %d : tensor<1xf32>, tensor<1xf32>
}

// -----

// Side-effecting ops keep their relative order; the pure ops around them may
// move.
// CHECK-LABEL: func.func @effects
// CHECK:         call @log(%arg0)
// CHECK:         call @log(%arg1)
func.func private @log(tensor<64xf32>)
func.func @effects(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %a = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  %b = tosa.tanh %y : (tensor<64xf32>) -> tensor<64xf32>
  func.call @log(%x) : (tensor<64xf32>) -> ()
  func.call @log(%y) : (tensor<64xf32>) -> ()
  %c = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  %d = tosa.reduce_sum %b {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1xf32>
  return %c, %d : tensor<1xf32>, tensor<1xf32>
}
