// RUN: remat-opt %s --remat-plan="budget=min" --remat-apply | FileCheck %s
// RUN: remat-opt %s --remat-plan="budget=min" --remat-apply --canonicalize --cse | FileCheck %s --check-prefix=SURVIVES

// Three residual blocks (elementwise "layers": c1 = in * w1, h = relu(c1),
// s = h * w2 + in, y = relu(s)) and their backward pass, which reads h for
// w2's gradient and, later, c1 for relu's mask. At the smallest peak the
// planner recomputes block 1's h from block 0's s through y0 and c1; c1's
// copy is shared: the chain is split after it, so it is a region of its own
// whose result feeds h's region and the later relu mask, and the original
// c1 is not kept alive for that mask. test/E2E/share-copies.test runs it.

// CHECK-LABEL: remat.graph @res_blocks
// CHECK:         remat.backward
// CHECK:         %[[C1:.+]] = remat.recompute(%{{.+}}, %arg3)
// CHECK:           tosa.clamp
// CHECK-NEXT:      %[[M:.+]] = tosa.mul
// CHECK-NEXT:      remat.yield %[[M]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[H:.+]] = remat.recompute(%[[C1]])
// CHECK-NEXT:    ^bb0(%[[P:.+]]: tensor<64x64xf32>):
// CHECK-NEXT:      %[[R:.+]] = tosa.clamp %[[P]]
// CHECK-NEXT:      remat.yield %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    tosa.mul %{{.+}}, %[[H]]
// CHECK:         tosa.greater %[[C1]]
// SURVIVES-LABEL: remat.graph @res_blocks
// SURVIVES:         remat.backward
// SURVIVES:         %[[C1:.+]] = remat.recompute(%{{.+}}, %arg3)
// SURVIVES:         %[[H:.+]] = remat.recompute(%[[C1]])
// SURVIVES:         tosa.mul %{{.+}}, %[[H]]
// SURVIVES:         tosa.greater %[[C1]]
remat.graph @res_blocks(%x: tensor<64x64xf32>, %w1_0: tensor<64x64xf32>, %w2_0: tensor<64x64xf32>, %w1_1: tensor<64x64xf32>, %w2_1: tensor<64x64xf32>, %w1_2: tensor<64x64xf32>, %w2_2: tensor<64x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1_0 = tosa.mul %x, %w1_0, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %h_0 = tosa.clamp %c1_0 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c2_0 = tosa.mul %h_0, %w2_0, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %s_0 = tosa.add %c2_0, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %y_0 = tosa.clamp %s_0 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c1_1 = tosa.mul %y_0, %w1_1, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %h_1 = tosa.clamp %c1_1 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c2_1 = tosa.mul %h_1, %w2_1, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %s_1 = tosa.add %c2_1, %y_0 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %y_1 = tosa.clamp %s_1 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c1_2 = tosa.mul %y_1, %w1_2, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %h_2 = tosa.clamp %c1_2 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c2_2 = tosa.mul %h_2, %w2_2, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %s_2 = tosa.add %c2_2, %y_1 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %y_2 = tosa.clamp %s_2 {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %sq = tosa.mul %y_2, %y_2, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %loss = tosa.reduce_sum %sq {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  remat.backward
  %zero = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %two = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dout = tosa.mul %y_2, %two, %shift : (tensor<64x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %smask_2 = tosa.greater %s_2, %zero : (tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xi1>
  %ds_2 = tosa.select %smask_2, %dout, %zero : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xf32>
  %gw2m_2 = tosa.mul %ds_2, %h_2, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %gw2_2 = tosa.reduce_sum %gw2m_2 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %dh_2 = tosa.mul %ds_2, %w2_2, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %c1mask_2 = tosa.greater %c1_2, %zero : (tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xi1>
  %dc1_2 = tosa.select %c1mask_2, %dh_2, %zero : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xf32>
  %gw1m_2 = tosa.mul %dc1_2, %y_1, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %gw1_2 = tosa.reduce_sum %gw1m_2 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %dinw_2 = tosa.mul %dc1_2, %w1_2, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %din_2 = tosa.add %ds_2, %dinw_2 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %smask_1 = tosa.greater %s_1, %zero : (tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xi1>
  %ds_1 = tosa.select %smask_1, %din_2, %zero : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xf32>
  %gw2m_1 = tosa.mul %ds_1, %h_1, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %gw2_1 = tosa.reduce_sum %gw2m_1 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %dh_1 = tosa.mul %ds_1, %w2_1, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %c1mask_1 = tosa.greater %c1_1, %zero : (tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xi1>
  %dc1_1 = tosa.select %c1mask_1, %dh_1, %zero : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xf32>
  %gw1m_1 = tosa.mul %dc1_1, %y_0, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %gw1_1 = tosa.reduce_sum %gw1m_1 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %dinw_1 = tosa.mul %dc1_1, %w1_1, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %din_1 = tosa.add %ds_1, %dinw_1 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %smask_0 = tosa.greater %s_0, %zero : (tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xi1>
  %ds_0 = tosa.select %smask_0, %din_1, %zero : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xf32>
  %gw2m_0 = tosa.mul %ds_0, %h_0, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %gw2_0 = tosa.reduce_sum %gw2m_0 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %dh_0 = tosa.mul %ds_0, %w2_0, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %c1mask_0 = tosa.greater %c1_0, %zero : (tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xi1>
  %dc1_0 = tosa.select %c1mask_0, %dh_0, %zero : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xf32>
  %gw1m_0 = tosa.mul %dc1_0, %x, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %gw1_0 = tosa.reduce_sum %gw1m_0 {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<1x64xf32>
  %dinw_0 = tosa.mul %dc1_0, %w1_0, %shift : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %din_0 = tosa.add %ds_0, %dinw_0 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  remat.return %loss, %gw1_0, %gw2_0, %gw1_1, %gw2_1, %gw1_2, %gw2_2 : tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>
}
