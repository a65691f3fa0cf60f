// Finite-difference check of the tosa.depthwise_conv2d rule (input, weight,
// bias): multiplier 2 with stride 2 and uneven padding, then multiplier 1
// with dilation 2.
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-5: ok
// CHECK: gradcheck: OK

func.func @depthwise(%x: tensor<2x7x7x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>, %w2: tensor<2x2x6x1xf32>, %b2: tensor<6xf32>) -> tensor<2x3x2x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 2, 0>, stride = array<i64: 2, 2>} : (tensor<2x7x7x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4x6xf32>
  %1 = tosa.tanh %0 : (tensor<2x4x4x6xf32>) -> tensor<2x4x4x6xf32>
  %2 = tosa.depthwise_conv2d %1, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x4x6xf32>, tensor<2x2x6x1xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x2x6xf32>
  return %2 : tensor<2x3x2x6xf32>
}
