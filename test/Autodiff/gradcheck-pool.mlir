// Finite-difference check of the max_pool2d rule (overlapping 3x3 windows,
// stride 2, padding) and the avg_pool2d rule (3x3, stride 1, padding: the
// divisor counts only non-padding elements).
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-2: ok
// CHECK: gradcheck: OK

func.func @pool(%x: tensor<1x7x7x2xf32>, %y: tensor<1x5x5x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x5x5x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = tosa.tanh %0 : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %2 = tosa.avg_pool2d %y, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x2xf32>
  %3 = tosa.tanh %2 : (tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  return %1, %3 : tensor<1x4x4x2xf32>, tensor<1x5x5x2xf32>
}
