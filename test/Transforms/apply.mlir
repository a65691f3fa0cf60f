// RUN: remat-opt %s --split-input-file --remat-plan="budget=min" --remat-apply | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-plan="budget=min" --remat-apply --canonicalize --cse | FileCheck %s --check-prefix=SURVIVES

// The copy is made right before the concat, from the inputs; the original
// tile is no longer read after the forward pass.
// CHECK-LABEL: remat.graph @broadcast_concat
// CHECK-NOT:     remat.plan
// CHECK:         %[[TILE:.+]] = tosa.tile %arg0
// CHECK:         tosa.add %[[TILE]], %arg1
// CHECK:         remat.backward
// CHECK-NEXT:    %[[COPY:.+]] = remat.recompute(%arg0) : (tensor<1x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT:    ^bb0(%[[P:.+]]: tensor<1x64xf32>):
// CHECK-NEXT:      %[[SHAPE:.+]] = tosa.const_shape
// CHECK-NEXT:      %[[T:.+]] = tosa.tile %[[P]], %[[SHAPE]]
// CHECK-NEXT:      remat.yield %[[T]] : tensor<64x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tosa.concat %[[COPY]], %{{.+}} {axis = 0 : i32}
// SURVIVES-LABEL: remat.graph @broadcast_concat
// SURVIVES:         tosa.tile %arg0
// SURVIVES:         remat.backward
// SURVIVES-NEXT:    %[[COPY:.+]] = remat.recompute(%arg0)
// SURVIVES:         tosa.tile
// SURVIVES:         tosa.concat %[[COPY]]
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

// One copy serves all three late users.
// CHECK-LABEL: remat.graph @three_users
// CHECK:         remat.backward
// CHECK-NEXT:    %[[COPY:.+]] = remat.recompute(%arg0)
// CHECK:           tosa.tanh
// CHECK:         tosa.mul %[[COPY]]
// CHECK:         tosa.add %[[COPY]]
// CHECK:         tosa.sub %[[COPY]]
// CHECK-NOT:     remat.recompute
// SURVIVES-LABEL: remat.graph @three_users
// SURVIVES:         %[[A:.+]] = tosa.tanh %arg0
// SURVIVES:         remat.backward
// SURVIVES-NEXT:    %[[COPY:.+]] = remat.recompute(%arg0)
// SURVIVES:         tosa.mul %[[COPY]]
// SURVIVES:         tosa.add %[[COPY]]
// SURVIVES:         tosa.sub %[[COPY]]
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

// A remat.name tag does not pin its value: the tagged value is recomputed
// and the late users of the tag read the copy.
// CHECK-LABEL: remat.graph @tagged
// CHECK:         %[[A:.+]] = tosa.tanh %arg0
// CHECK-NEXT:    %[[TAG:.+]] = remat.name "a" %[[A]]
// CHECK:         remat.backward
// CHECK-NEXT:    %[[COPY:.+]] = remat.recompute(%arg0)
// CHECK:         tosa.mul %[[COPY]]
remat.graph @tagged(%x: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %at = remat.name "a" %a : tensor<64x64xf32>
  %b = tosa.exp %at : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.exp %b : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.exp %c : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tosa.reduce_sum %d {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %u1 = tosa.mul %at, %s, %shift : (tensor<64x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %r1 = tosa.reduce_sum %u1 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %u2 = tosa.add %at, %r1 : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %r2 = tosa.reduce_sum %u2 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %u3 = tosa.sub %at, %r2 : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %r3 = tosa.reduce_sum %u3 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.return %r3 : tensor<1x64xf32>
}
