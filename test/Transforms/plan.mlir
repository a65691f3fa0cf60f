// RUN: remat-opt %s --split-input-file --remat-plan="budget=56KiB" | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-plan="budget=70000" | FileCheck %s --check-prefix=LOOSE
// RUN: remat-opt %s --split-input-file --remat-plan="budget=min" | FileCheck %s --check-prefix=MIN

// A broadcast (tosa.tile) used early and by a late concat. Peak 64 KiB while
// the forward pass runs; without the broadcast kept, 48 KiB. A budget in
// between recomputes the tile (op #1, value #3; its constant shape op #0 is
// never recomputed) right before the concat (op #8); a budget above the peak
// leaves the graph alone.
// CHECK-LABEL: remat.graph @broadcast_concat
// CHECK-SAME:    remat.plan = {count_inputs = false, ops = 9 : i64, peak = 49152 : i64,
// CHECK-SAME:    recompute = [{before = 8 : i64, chain = array<i64: 1>, value = 3 : i64}]
// LOOSE-LABEL: remat.graph @broadcast_concat
// LOOSE-NOT:     remat.plan
// LOOSE:         remat.return
// MIN-LABEL:   remat.graph @broadcast_concat
// MIN-SAME:      peak = 49152 : i64
remat.graph @broadcast_concat(%p: tensor<1x64xf32>, %x: tensor<64x64xf32>) -> tensor<65x64xf32> {
  %m = tosa.const_shape {values = dense<[64, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bc = tosa.tile %p, %m : (tensor<1x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %u = tosa.add %bc, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %v = tosa.tanh %u : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %w = tosa.exp %v : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = tosa.add %v, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %y {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %cat = tosa.concat %bc, %s {axis = 0 : i32} : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<65x64xf32>
  remat.return %cat : tensor<65x64xf32>
}

// -----

// One residual needed by three late users: at `min` it is recomputed once,
// before the first of them, and the copy serves all three.
// CHECK-LABEL: remat.graph @three_users
// CHECK-NOT:     remat.plan
// MIN-LABEL:   remat.graph @three_users
// MIN-SAME:      recompute = [{before = 7 : i64, chain = array<i64: 1>, value = 2 : i64}]
remat.graph @three_users(%x: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.exp %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.exp %b : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.exp %c : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %d {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %u1 = tosa.mul %a, %s, %shift : (tensor<64x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %r1 = tosa.reduce_sum %u1 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %u2 = tosa.add %a, %r1 : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %r2 = tosa.reduce_sum %u2 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %u3 = tosa.sub %a, %r2 : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %r3 = tosa.reduce_sum %u3 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.return %r3 : tensor<1x64xf32>
}

// -----

// Budgets on the graph apply when the command line gives none; the option
// wins when both are given (here 56KiB recomputes, the attribute would not).
// CHECK-LABEL: remat.graph @budget_attribute
// CHECK-SAME:    remat.plan
remat.graph @budget_attribute(%p: tensor<1x64xf32>, %x: tensor<64x64xf32>) -> tensor<65x64xf32>
    attributes {budget = #remat.budget<1.0>} {
  %m = tosa.const_shape {values = dense<[64, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bc = tosa.tile %p, %m : (tensor<1x64xf32>, !tosa.shape<2>) -> tensor<64x64xf32>
  %u = tosa.add %bc, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %v = tosa.tanh %u : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %w = tosa.exp %v : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = tosa.add %v, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %y {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %cat = tosa.concat %bc, %s {axis = 0 : i32} : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<65x64xf32>
  remat.return %cat : tensor<65x64xf32>
}

