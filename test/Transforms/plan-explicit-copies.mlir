// RUN: remat-opt %s --split-input-file --remat-plan | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-schedule | FileCheck %s --check-prefix=SCHEDULE

// Where the lowering's bufferization would copy a destination (it is read
// again after the op writes into it), remat-plan and remat-schedule make the
// copy an op of the step: a tensor.empty, filled by a linalg.copy of the
// destination when the op reads it. Destinations that die at the op stay
// written in place.

// A generic that reads its destination %b, which the add reads afterwards:
// copied.
// CHECK-LABEL: func.func @read_later
// CHECK:         %[[B:.+]] = tosa.exp
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<16x16xf32>
// CHECK:         %[[C:.+]] = linalg.copy ins(%[[B]] : tensor<16x16xf32>) outs(%[[E]] : tensor<16x16xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%[[C]] : tensor<16x16xf32>)
// CHECK:         tosa.add %[[B]]
// SCHEDULE-LABEL: func.func @read_later
// SCHEDULE:         linalg.copy
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_later(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%b : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %d = tosa.add %b, %c : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// A fill does not read its destination: a new tensor.empty, no copy.
// CHECK-LABEL: func.func @fill_read_later
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NOT:     linalg.copy
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<16x16xf32>)
func.func @fill_read_later(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %cst = arith.constant 2.0 : f32
  %c = linalg.fill ins(%cst : f32) outs(%b : tensor<16x16xf32>) -> tensor<16x16xf32>
  %d = tosa.add %b, %c : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// The destination dies at the insert: written in place, nothing added.
// CHECK-LABEL: func.func @dies_there
// CHECK-NOT:     tensor.empty
// CHECK-NOT:     linalg.copy
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[0, 0]
func.func @dies_there(%x: tensor<16x16xf32>, %y: tensor<4x16xf32>) -> tensor<16x16xf32> {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %i = tensor.insert_slice %y into %b[0, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<16x16xf32>
  return %i : tensor<16x16xf32>
}

// -----

// Two writes into one destination: the first, whose result the second's
// reader does not see, is copied; the last writes in place.
// CHECK-LABEL: func.func @written_twice
// CHECK:         %[[B:.+]] = tosa.exp
// CHECK:         %[[E:.+]] = tensor.empty()
// CHECK:         %[[F1:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<16x16xf32>)
// CHECK:         %[[F2:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[B]] : tensor<16x16xf32>)
func.func @written_twice(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %f1 = linalg.fill ins(%one : f32) outs(%b : tensor<16x16xf32>) -> tensor<16x16xf32>
  %f2 = linalg.fill ins(%two : f32) outs(%b : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %f1, %f2 : tensor<16x16xf32>, tensor<16x16xf32>
}
