// Finite-difference check of the tosa.matmul rule (both operands).
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-2: ok
// CHECK: gradcheck: OK

func.func @matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  %1 = tosa.tanh %0 : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %1 : tensor<2x3x5xf32>
}
