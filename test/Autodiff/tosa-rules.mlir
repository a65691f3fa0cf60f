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

// conv2d: each adjoint is one contraction that reads the padded operand in
// place through bounds checks (the adjoint g for the input's, the input x for
// the weight's) and the weight as stored: no pad, transpose or flip copy.
// CHECK-LABEL: remat.graph @conv(
// CHECK:         remat.backward
// CHECK-NOT:     tosa.pad
// CHECK-NOT:     tosa.transpose
// CHECK-NOT:     tosa.reverse
// The weight adjoint comes first: it is x's last reader here.
// CHECK:         linalg.generic {{.*}} ins(%[[G:.+]] : tensor<1x3x3x4xf32>) outs(%{{.+}} : tensor<4x3x3x2xf32>) attrs = {remat.flops = 1296 : i64, remat.window = {dilation = {{.+}}, kind = "weight_adjoint", pad = {{.+}}, stride = {{.+}}}}
// CHECK:           tensor.extract %arg0[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<1x6x6x2xf32>
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<4x3x3x2xf32>) outs(%{{.+}} : tensor<1x6x6x2xf32>) attrs = {remat.flops = 5184 : i64, remat.window = {dilation = {{.+}}, kind = "input_adjoint", pad = {{.+}}, stride = {{.+}}}}
// CHECK:           arith.remui
// CHECK:           tensor.extract %[[G]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<1x3x3x4xf32>
// CHECK-NOT:     tosa.transpose
// CHECK:         remat.return
func.func @conv(%x: tensor<1x6x6x2xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

// depthwise_conv2d: the same two in-place kernels, channel c*M+m read from
// input channel c (the weight adjoint reads g through an affine map); no
// per-offset product, pad, concat or flipped kernel.
// CHECK-LABEL: remat.graph @depthwise(
// CHECK:         remat.backward
// CHECK-NOT:     tosa.pad
// CHECK-NOT:     tosa.concat
// CHECK-NOT:     tosa.reverse
// CHECK:         linalg.generic {{.*}} ins(%[[G:.+]] : tensor<1x3x3x6xf32>) outs(%{{.+}} : tensor<3x3x2x3xf32>) attrs = {remat.flops = 972 : i64}
// CHECK:           tensor.extract %arg0
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<3x3x2x3xf32>) outs(%{{.+}} : tensor<1x6x6x2xf32>) attrs = {remat.flops = 3888 : i64}
// CHECK:           tensor.extract %[[G]]
// CHECK-NOT:     tosa.concat
// CHECK:         remat.return
func.func @depthwise(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x3xf32>, %b: tensor<6xf32>) -> tensor<1x3x3x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xf32>, tensor<3x3x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x6xf32>
  return %0 : tensor<1x3x3x6xf32>
}

// -----

// max_pool2d: one kernel gathers, for each input element, the adjoint of
// every window whose maximum it equals; the window sizes come from an unread
// [KH, KW] operand, the result and the adjoint are read in place.
// CHECK-LABEL: remat.graph @maxpool(
// CHECK:         remat.backward
// CHECK-NOT:     tosa.pad
// CHECK:         %[[TAPS:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[TAPS]], %arg0 : tensor<3x3xf32>, tensor<1x5x5x1xf32>) outs(%{{.+}} : tensor<1x5x5x1xf32>) attrs = {remat.flops = 225 : i64}
// CHECK:           %[[G:.+]] = tensor.extract %{{.+}} : tensor<1x3x3x1xf32>
// CHECK:           %[[Y:.+]] = tensor.extract %{{.+}} : tensor<1x3x3x1xf32>
// CHECK:           %[[MAX:.+]] = arith.cmpf oeq, %in_0, %[[Y]] : f32
// CHECK:           arith.andi %{{.+}}, %[[MAX]] : i1
// CHECK-NOT:     tosa.pad
// CHECK:         remat.return
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

// -----

// gather: the table's adjoint is a zero fill and one scatter-add kernel
// (lowered to loops over the positions), priced as those loops run:
// 2 * N * W * C = 2 * 2 * 3 * 4 = 48 FLOPs, not the dense nest's N*K*W*C.
// CHECK-LABEL: remat.graph @gather(
// CHECK:         remat.backward
// CHECK:         %[[ZERO:.+]] = linalg.fill {{.*}} -> tensor<2x5x4xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<2x3xi32>, tensor<2x3x4xf32>) outs(%[[ZERO]] : tensor<2x5x4xf32>) attrs = {remat.flops = 48 : i64, remat.scatter_add}
func.func @gather(%table: tensor<2x5x4xf32>) -> tensor<2x3x4xf32> {
  %ids = "tosa.const"() <{values = dense<[[0, 4, 4], [1, 1, 3]]> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %0 = tosa.gather %table, %ids : (tensor<2x5x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
