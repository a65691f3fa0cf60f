// Finite-difference check of the tosa.matmul rule where an adjoint is
// formed without transposing the larger operand: (B G^T)^T for a large
// right operand, (G^T A)^T for a large left one, and an operand that is
// itself a transpose (read through, no copy).
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-5: ok
// CHECK: gradcheck: OK

func.func @layouts(%a: tensor<1x2x6xf32>, %b: tensor<1x6x7xf32>, %c: tensor<1x7x6xf32>, %d: tensor<1x6x2xf32>, %e: tensor<1x6x3xf32>) -> (tensor<1x2x7xf32>, tensor<1x7x2xf32>, tensor<1x3x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x6xf32>, tensor<1x6x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x7xf32>
  %1 = tosa.tanh %0 : (tensor<1x2x7xf32>) -> tensor<1x2x7xf32>
  %2 = tosa.matmul %c, %d, %zp, %zp : (tensor<1x7x6xf32>, tensor<1x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x2xf32>
  %3 = tosa.tanh %2 : (tensor<1x7x2xf32>) -> tensor<1x7x2xf32>
  %4 = tosa.transpose %e {perms = array<i32: 0, 2, 1>} : (tensor<1x6x3xf32>) -> tensor<1x3x6xf32>
  %5 = tosa.matmul %4, %d, %zp, %zp : (tensor<1x3x6xf32>, tensor<1x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2xf32>
  %6 = tosa.tanh %5 : (tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  return %1, %3, %6 : tensor<1x2x7xf32>, tensor<1x7x2xf32>, tensor<1x3x2xf32>
}
