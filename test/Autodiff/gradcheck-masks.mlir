// Finite-difference check of the rules that mask on their result: clamp with
// a lower bound (relu), an upper bound, both; tosa.maximum/minimum and
// arith.maximumf/minimumf against a splat constant, in either operand order.
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-3: ok
// CHECK: gradcheck: OK

func.func @masks(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>, %c: tensor<1x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %bound = "tosa.const"() <{values = dense<0.25> : tensor<3x4xf32>}> : () -> tensor<3x4xf32>
  %0 = tosa.clamp %a {max_val = 3.40282347e38 : f32, min_val = 0.0 : f32} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = tosa.clamp %b {max_val = 0.3 : f32, min_val = -3.40282347e38 : f32} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = tosa.clamp %a {max_val = 0.4 : f32, min_val = -0.4 : f32} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %3 = tosa.mul %0, %1, %shift : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<1xi8>) -> tensor<3x4xf32>
  %4 = tosa.add %3, %2 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %5 = tosa.maximum %zero, %c : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %6 = tosa.minimum %b, %bound : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %7 = tosa.mul %6, %5, %shift : (tensor<3x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<3x4xf32>
  %8 = tosa.add %4, %7 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %low = arith.constant dense<-0.2> : tensor<3x4xf32>
  %9 = arith.maximumf %low, %8 : tensor<3x4xf32>
  %10 = arith.minimumf %a, %bound : tensor<3x4xf32>
  %11 = arith.mulf %9, %10 : tensor<3x4xf32>
  return %11, %1 : tensor<3x4xf32>, tensor<3x4xf32>
}
