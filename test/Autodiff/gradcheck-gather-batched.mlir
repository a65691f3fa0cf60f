// Finite-difference check of the gather rule over two batches of a table
// (N = 2), each batch's positions picking rows of its own table slice with
// repeats: rows 1 and 2 are picked three times, so a scatter that stored
// instead of adding would lose two of the three adjoint rows. The ids are
// clamped first, as the ONNX importer clamps them (-2 reads row 0, 9 and 7
// the last row), and row 2 of batch 0 is never picked (adjoint zero).
// GRADCHECK: num-batch-args=0
// RUN: %python %S/Inputs/gradcheck.py %s | FileCheck %s
// CHECK: gradcheck: OK

func.func @embedding(%table: tensor<2x4x3xf32>, %w: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %raw = "tosa.const"() <{values = dense<[[-2, 1, 1, 9, 1], [2, 2, 7, 0, 2]]> : tensor<2x5xi32>}> : () -> tensor<2x5xi32>
  %ids = tosa.clamp %raw {max_val = 3 : i32, min_val = 0 : i32} : (tensor<2x5xi32>) -> tensor<2x5xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %rows = tosa.gather %table, %ids : (tensor<2x4x3xf32>, tensor<2x5xi32>) -> tensor<2x5x3xf32>
  %0 = tosa.mul %rows, %w, %shift : (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<1xi8>) -> tensor<2x5x3xf32>
  %1 = tosa.mul %0, %rows, %shift : (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<1xi8>) -> tensor<2x5x3xf32>
  return %1 : tensor<2x5x3xf32>
}
