// The backward ops each TOSA rule emits (numerics: gradcheck-*.mlir).
// RUN: remat-opt %s --split-input-file --remat-autodiff="num-batch-args=0" | FileCheck %s

// tanh: dx = g (1 - y^2).
// CHECK-LABEL: remat.graph @tanh(
// CHECK:         %[[Y:.+]] = tosa.tanh
// CHECK:         remat.backward
// CHECK:         %[[YY:.+]] = tosa.mul %[[Y]], %[[Y]]
// CHECK:         %[[D:.+]] = tosa.sub %{{.+}}, %[[YY]]
// CHECK:         tosa.mul %{{.+}}, %[[D]]
func.func @tanh(%w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.tanh %w : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Broadcast operands sum the adjoint back to their shape.
// CHECK-LABEL: remat.graph @broadcast(
// CHECK:         remat.backward
// CHECK:         %[[S:.+]] = tosa.reduce_sum %{{.+}} {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK:         remat.return %{{.+}}, %{{.+}}, %[[S]]
func.func @broadcast(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// conv2d: the input gradient convolves the adjoint, dilated by the stride,
// with the flipped weight; the weight gradient convolves the transposed
// input with the transposed adjoint (stride and dilation swapped).
// CHECK-LABEL: remat.graph @conv(
// CHECK:         remat.backward
// CHECK:         tosa.pad {{.*}} -> tensor<1x3x2x3x2x4xf32>
// CHECK:         tosa.reverse %{{.+}} {axis = 1 : i32}
// CHECK:         tosa.reverse %{{.+}} {axis = 2 : i32}
// CHECK:         tosa.conv2d {{.*}}dilation = array<i64: 1, 1>, pad = array<i64: 1, 2, 1, 2>, stride = array<i64: 1, 1>{{.*}} -> tensor<1x6x6x2xf32>
// CHECK:         tosa.conv2d {{.*}}dilation = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>{{.*}} -> tensor<2x3x3x4xf32>
// CHECK:         tosa.transpose {{.*}} {perms = array<i32: 3, 1, 2, 0>} : (tensor<2x3x3x4xf32>) -> tensor<4x3x3x2xf32>
func.func @conv(%x: tensor<1x6x6x2xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

// max_pool2d: per window offset, a slice of the padded input seen as
// [N, Q, s, Q', s', C], a comparison with the maximum, and a pad that
// scatters the adjoint back.
// CHECK-LABEL: remat.graph @maxpool(
// CHECK:         remat.backward
// CHECK:         tosa.pad {{.*}} -> tensor<1x8x8x1xf32>
// CHECK:         tosa.reshape {{.*}} -> tensor<1x4x2x4x2x1xf32>
// CHECK-COUNT-9: tosa.equal
// CHECK:         tosa.slice {{.*}} -> tensor<1x5x5x1xf32>
func.func @maxpool(%x: tensor<1x5x5x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x5x5x1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}

// -----

// clamp masks on its result (x > lo iff y > lo, x < hi iff y < hi), so the
// backward reads y, not the input.
// CHECK-LABEL: remat.graph @clamp(
// CHECK-SAME:    %[[W:[^:]+]]: tensor<2x3xf32>
// CHECK:         %[[Y:.+]] = tosa.clamp %[[W]]
// CHECK:         remat.backward
// CHECK-NOT:     %[[W]]
// CHECK:         %[[LO:.+]] = tosa.greater %[[Y]], %{{.+}}
// CHECK:         %[[HI:.+]] = tosa.greater %{{.+}}, %[[Y]]
// CHECK:         %[[IN:.+]] = tosa.logical_and %[[LO]], %[[HI]]
// CHECK:         tosa.select %[[IN]]
// CHECK-NOT:     %[[W]]
// CHECK:         remat.return
func.func @clamp(%w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.clamp %w {max_val = 0.5 : f32, min_val = -0.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// maximum/minimum against a splat constant mask on the result as well
// (ties go to the constant); between two variables they compare the operands.
// CHECK-LABEL: remat.graph @bounded(
// CHECK-SAME:    %[[W:[^:]+]]: tensor<2x3xf32>, %[[V:[^:]+]]: tensor<2x3xf32>
// CHECK:         %[[R:.+]] = tosa.maximum %[[W]], %[[ZERO:[^ ]+]]
// CHECK:         %[[M:.+]] = tosa.minimum %[[R]], %[[V]]
// CHECK:         remat.backward
// CHECK:         tosa.greater_equal %[[V]], %[[R]]
// CHECK:         tosa.greater %[[R]], %[[ZERO]]
// CHECK-NOT:     %[[W]]
// CHECK:         remat.return
func.func @bounded(%w: tensor<2x3xf32>, %v: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %0 = tosa.maximum %w, %zero : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  %1 = tosa.minimum %0, %v : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
