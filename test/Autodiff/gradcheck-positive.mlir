// Finite-difference check of the rules for ops defined on positive inputs:
// reciprocal, rsqrt, log, pow (both operands).
// GRADCHECK: num-batch-args=0 positive
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-2: ok
// CHECK: gradcheck: OK

func.func @positive(%a: tensor<3x2xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.reciprocal %a : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = tosa.rsqrt %b : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %2 = tosa.log %a : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %3 = tosa.pow %a, %b : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %4 = tosa.add %0, %1 : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %5 = tosa.mul %2, %4, %shift : (tensor<3x2xf32>, tensor<3x2xf32>, tensor<1xi8>) -> tensor<3x2xf32>
  %6 = tosa.add %5, %3 : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %6 : tensor<3x2xf32>
}
