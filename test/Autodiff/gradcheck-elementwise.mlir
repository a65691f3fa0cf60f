// Finite-difference check of the TOSA elementwise rules: broadcasting add,
// sub and mul, unary ops, clamp, maximum/minimum, select. (erf: see
// gradcheck-erf.mlir.)
// GRADCHECK: num-batch-args=1
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-4: ok
// CHECK: gradcheck: OK

func.func @elementwise(%x: tensor<2x3xf32>, %a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %c: tensor<2x1xf32>, %d: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %0 = tosa.add %x, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.mul %0, %a, %shift : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %2 = tosa.sub %1, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %3 = tosa.tanh %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.sigmoid %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.exp %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = tosa.sigmoid %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tosa.negate %6, %zp, %zp : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %8 = tosa.abs %d : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = tosa.maximum %5, %8 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = tosa.minimum %9, %7 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = tosa.clamp %d {max_val = 0.5 : f32, min_val = -0.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %gt = tosa.greater %2, %zero : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xi1>
  %12 = tosa.select %gt, %10, %11 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %13 = tosa.add %12, %8 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %13 : tensor<2x3xf32>
}
