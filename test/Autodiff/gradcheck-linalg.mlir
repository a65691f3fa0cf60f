// Finite-difference check of the linalg rules (matmul with an accumulating
// init, batch_matmul, transpose, add, sub, mul, exp, negf) and the arith and
// math rules on tensors (addf, subf, mulf, divf, negf, maximumf, minimumf,
// exp, log, tanh, sqrt, rsqrt).
// GRADCHECK: num-batch-args=0 positive
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK-COUNT-4: ok
// CHECK: gradcheck: OK

func.func @linalg(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>, %c: tensor<3x2xf32>, %d: tensor<2x3x2xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x2xf32>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32>
  %e0 = tensor.empty() : tensor<3x2xf32>
  %1 = linalg.exp ins(%0 : tensor<3x2xf32>) outs(%e0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %2 = linalg.mul ins(%1, %c : tensor<3x2xf32>, tensor<3x2xf32>) outs(%e0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %3 = linalg.sub ins(%2, %0 : tensor<3x2xf32>, tensor<3x2xf32>) outs(%e0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %4 = linalg.negf ins(%3 : tensor<3x2xf32>) outs(%e0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %5 = linalg.add ins(%4, %c : tensor<3x2xf32>, tensor<3x2xf32>) outs(%e0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %small = arith.constant dense<0.01> : tensor<3x2xf32>
  %6 = arith.mulf %5, %small : tensor<3x2xf32>
  %7 = math.tanh %6 : tensor<3x2xf32>
  %8 = math.sqrt %c : tensor<3x2xf32>
  %9 = math.rsqrt %c : tensor<3x2xf32>
  %10 = math.log %c : tensor<3x2xf32>
  %11 = arith.divf %8, %9 : tensor<3x2xf32>
  %12 = arith.addf %11, %10 : tensor<3x2xf32>
  %13 = arith.subf %12, %7 : tensor<3x2xf32>
  %14 = arith.negf %13 : tensor<3x2xf32>
  %15 = math.exp %14 : tensor<3x2xf32>
  %16 = arith.maximumf %15, %7 : tensor<3x2xf32>
  %17 = arith.minimumf %16, %12 : tensor<3x2xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %t = linalg.transpose ins(%17 : tensor<3x2xf32>) outs(%e1 : tensor<2x3xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<2x2x3xf32>
  %dt = linalg.transpose ins(%d : tensor<2x3x2xf32>) outs(%e2 : tensor<2x2x3xf32>) permutation = [0, 2, 1]
  %cst = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2x3x3xf32>
  %z3 = linalg.fill ins(%cst : f32) outs(%e3 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %dd = linalg.batch_matmul ins(%d, %dt : tensor<2x3x2xf32>, tensor<2x2x3xf32>) outs(%z3 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %dd, %t : tensor<2x3x3xf32>, tensor<2x3xf32>
}
