// RUN: remat-opt %s --split-input-file --remat-parallel-dims-outermost | FileCheck %s

// A column sum reduces dimension 0: it becomes a generic whose parallel
// dimension (the column) comes first and whose reduction follows, reading
// the input transposed.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @column_sum(
// CHECK-NOT: linalg.reduce
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%{{.+}} : memref<1024x10xf32>) outs(%{{.+}} : memref<10xf32>)
// CHECK: arith.addf
func.func @column_sum(%x: memref<1024x10xf32>, %s: memref<10xf32>) {
  linalg.reduce ins(%x : memref<1024x10xf32>) outs(%s : memref<10xf32>)
      dimensions = [0]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return
}

// -----

// A generic with a reduction between two parallel dimensions: the parallel
// ones move out, in their order.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @middle_reduction(
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @middle_reduction(%x: memref<2x1024x10xf32>, %s: memref<2x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<2x1024x10xf32>) outs(%s : memref<2x10xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
  }
  return
}

// -----

// Two reductions before a parallel dimension: the permutation (d0, d1, d2)
// -> (d2, d0, d1) is not its own inverse, so the maps pin its direction:
// the new d0 is the old parallel d2, the reductions follow in their order.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @two_reductions_first(
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "reduction"]}
func.func @two_reductions_first(%x: memref<4x6x10xf32>, %s: memref<10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2)>],
                  iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%x : memref<4x6x10xf32>) outs(%s : memref<10xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
  }
  return
}

// -----

// Ops whose parallel dimensions lead already are left as they are.
// CHECK-LABEL: func.func @row_sum(
// CHECK: linalg.reduce
// CHECK: linalg.batch_matmul
func.func @row_sum(%x: memref<1024x10xf32>, %s: memref<1024xf32>,
                   %a: memref<1x4x8xf32>, %b: memref<1x8x4xf32>,
                   %c: memref<1x4x4xf32>) {
  linalg.reduce ins(%x : memref<1024x10xf32>) outs(%s : memref<1024xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  linalg.batch_matmul ins(%a, %b : memref<1x4x8xf32>, memref<1x8x4xf32>)
                      outs(%c : memref<1x4x4xf32>)
  return
}
