// Finite-difference check of the tosa.conv2d rule (input, weight, bias)
// with stride 2, dilation 1 and uneven padding, then stride 1 dilation 2.
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-5: ok
// CHECK: gradcheck: OK

func.func @conv(%x: tensor<2x7x7x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %w2: tensor<2x2x2x4xf32>, %b2: tensor<2xf32>) -> tensor<2x3x2x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 2, 0>, stride = array<i64: 2, 2>} : (tensor<2x7x7x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4x4xf32>
  %1 = tosa.tanh %0 : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %2 = tosa.conv2d %1, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x4x4xf32>, tensor<2x2x2x4xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x2x2xf32>
  return %2 : tensor<2x3x2x2xf32>
}
