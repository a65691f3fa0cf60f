// RUN: remat-opt %s --split-input-file --remat-autodiff="loss=mse" | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-autodiff="loss=sum num-batch-args=0" | FileCheck %s --check-prefix=SUM

// An MLP layer: the graph takes the batch, the parameters and the target,
// returns the loss and the gradient of each parameter. Only values that
// depend on a parameter are differentiated (nothing flows back to %x).

// CHECK-LABEL: remat.graph @layer(
// CHECK-SAME:    %[[X:.+]]: tensor<4x3xf32>, %[[W:.+]]: tensor<1x3x2xf32>, %[[B:.+]]: tensor<1x1x2xf32>, %[[T:.+]]: tensor<1x4x2xf32>)
// CHECK-SAME:    -> (tensor<f32>, tensor<1x3x2xf32>, tensor<1x1x2xf32>)
// CHECK:         %[[X3:.+]] = tosa.reshape %[[X]]
// CHECK:         %[[Z:.+]] = tosa.add
// CHECK:         %[[R:.+]] = tosa.clamp %[[Z]]
// CHECK:         %[[D:.+]] = tosa.sub %[[R]], %[[T]]
// CHECK:         %[[L:.+]] = tosa.reshape {{.*}} -> tensor<f32>
// CHECK-NEXT:    remat.backward
// CHECK:         %[[SEED:.+]] = tosa.mul %[[D]]
// CHECK:         %[[POS:.+]] = tosa.greater %[[R]]
// CHECK:         %[[DZ:.+]] = tosa.select %[[POS]], %[[SEED]]
// CHECK:         %[[DB:.+]] = tosa.reduce_sum %[[DZ]] {axis = 1 : i32}
// CHECK:         %[[XT:.+]] = tosa.transpose %[[X3]] {perms = array<i32: 0, 2, 1>}
// CHECK:         %[[DW:.+]] = tosa.matmul %[[XT]], %[[DZ]]
// CHECK:         remat.return %[[L]], %[[DW]], %[[DB]]

// SUM-LABEL: remat.graph @layer(
// SUM-SAME:    -> (tensor<f32>, tensor<4x3xf32>, tensor<1x3x2xf32>, tensor<1x1x2xf32>)
// SUM:         remat.backward
// SUM:         "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x4x2xf32>}>
func.func @layer(%x: tensor<4x3xf32>, %w: tensor<1x3x2xf32>, %b: tensor<1x1x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.const_shape {values = dense<[1, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s : (tensor<4x3xf32>, !tosa.shape<3>) -> tensor<1x4x3xf32>
  %mm = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x4x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  %z = tosa.add %mm, %b : (tensor<1x4x2xf32>, tensor<1x1x2xf32>) -> tensor<1x4x2xf32>
  %r = tosa.clamp %z {max_val = 3.40282347e38 : f32, min_val = 0.0 : f32} : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  return %r : tensor<1x4x2xf32>
}

// -----

// A parameter the loss does not depend on gets a zero gradient; fan-out
// adds the adjoints.

// CHECK-LABEL: remat.graph @fanout(
// CHECK:         remat.backward
// CHECK:         %[[G1:.+]] = tosa.mul
// CHECK:         %[[G2:.+]] = tosa.mul
// CHECK:         %[[ACC:.+]] = tosa.add
// CHECK:         %[[ZERO:.+]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<3xf32>}>
// CHECK:         remat.return %{{.+}}, %[[ACC]], %[[ZERO]]
func.func @fanout(%x: tensor<3xf32>, %w: tensor<3xf32>, %unused: tensor<3xf32>) -> tensor<3xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %w, %w, %shift : (tensor<3xf32>, tensor<3xf32>, tensor<1xi8>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
