// Finite-difference check of the gather rule (an embedding lookup): the
// table's adjoint is a scatter-add of the rows' adjoints, so a row picked
// twice (row 2) receives both, and a row never picked (row 3) receives
// zero. The indices are i32 and carry no adjoint.
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK: gradcheck: OK

func.func @embedding(%table: tensor<1x5x3xf32>, %w: tensor<1x4x3xf32>) -> tensor<1x4x3xf32> {
  %ids = "tosa.const"() <{values = dense<[[0, 2, 2, 4]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %rows = tosa.gather %table, %ids : (tensor<1x5x3xf32>, tensor<1x4xi32>) -> tensor<1x4x3xf32>
  %0 = tosa.mul %rows, %w, %shift : (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1xi8>) -> tensor<1x4x3xf32>
  %1 = tosa.mul %0, %rows, %shift : (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1xi8>) -> tensor<1x4x3xf32>
  return %1 : tensor<1x4x3xf32>
}
