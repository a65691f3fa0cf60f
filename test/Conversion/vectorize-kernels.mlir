// RUN: remat-opt %s --split-input-file --remat-vectorize-kernels="vector-bits=512" | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-vectorize-kernels="vector-bits=256" | FileCheck %s --check-prefix=AVX2
// RUN: remat-opt %s --split-input-file --remat-vectorize-kernels="vector-bits=512" --remarks-filter=remat -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A matrix product in register tiles: 8 rows by two 16-lane vectors (512
// bits) by 8 steps of k; the tiles are read into registers whole (the
// transfers in bounds, for convert-vector-to-scf to unroll), the
// accumulator rows are vectors, each k step one broadcast and one FMA per
// row. Nothing is allocated, on the heap or the stack.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: memref.alloc
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c8 {
// CHECK: vector.transfer_read {{.*}}in_bounds = [true, true]{{.*}} vector<8x32xf32>
// CHECK: %[[ROW:.+]] = vector.broadcast %{{.+}} : f32 to vector<32xf32>
// CHECK: vector.fma %[[ROW]], %{{.+}}, %{{.+}} : vector<32xf32>
// CHECK: vector.transfer_write {{.*}} vector<8x32xf32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: memref.alloc
// CHECK: return
// AVX2-LABEL: func.func @matmul
// AVX2: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c4
// AVX2: vector.fma {{.*}} : vector<16xf32>
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=matmul | Remark="contraction tiled [8, 32, 8] and vectorized"
func.func @matmul(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %c: memref<16x32xf32>) {
  linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>) outs(%c : memref<16x32xf32>)
  return
}

// -----

// Loops that the register tile does not divide get the largest divisor
// below it: every tile has one static shape and needs no mask.
// CHECK-LABEL: func.func @batch_matmul_odd
// CHECK: vector.fma {{.*}} : vector<10xf32>
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=batch_matmul_odd | Remark="contraction tiled [1, 6, 10, 12] and vectorized"
func.func @batch_matmul_odd(%a: memref<2x6x36xf32>, %b: memref<2x36x10xf32>, %c: memref<2x6x10xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x6x36xf32>, memref<2x36x10xf32>) outs(%c : memref<2x6x10xf32>)
  return
}

// -----

// An elementwise op: its innermost loop in tiles of two vectors.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.for
// CHECK: %[[X:.+]] = vector.load {{.*}} vector<32xf32>
// CHECK: %[[Y:.+]] = vector.load {{.*}} vector<32xf32>
// CHECK: arith.addf %[[X]], %[[Y]] : vector<32xf32>
// CHECK: vector.store
// REMARK: remark: [Passed] Vectorize | Category:remat | Function=elementwise | Remark="kernel tiled [1, 32] and vectorized"
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%x: memref<4x64xf32>, %y: memref<4x64xf32>, %z: memref<4x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<4x64xf32>, memref<4x64xf32>) outs(%z : memref<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A body the vectorizer does not take (a window kernel reading its input
// with memref.load) stays a linalg op, for convert-linalg-to-loops.
// CHECK-LABEL: func.func @window
// CHECK: linalg.generic
// CHECK-NOT: vector.
// REMARK: remark: [Missed] Vectorize | Category:remat | Function=window | Remark="linalg.generic stays a loop nest: the vectorizer does not take its body"
#out = affine_map<(d0) -> (d0)>
func.func @window(%x: memref<9xf32>, %z: memref<8xf32>) {
  linalg.generic {indexing_maps = [#out], iterator_types = ["parallel"]} outs(%z : memref<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    %v = memref.load %x[%j] : memref<9xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// Buffers of i1 hold a byte per element, vectors of i1 in memory a bit: an
// op on them stays a loop nest.
// CHECK-LABEL: func.func @mask
// CHECK: linalg.generic
// CHECK-NOT: vector.
// REMARK: remark: [Missed] Vectorize | Category:remat | Function=mask | Remark="linalg.generic stays a loop nest: its buffers hold elements narrower than a byte"
#m = affine_map<(d0) -> (d0)>
func.func @mask(%x: memref<32xf32>, %y: memref<32xf32>, %z: memref<32xi1>) {
  linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel"]}
      ins(%x, %y : memref<32xf32>, memref<32xf32>) outs(%z : memref<32xi1>) {
  ^bb0(%a: f32, %b: f32, %o: i1):
    %g = arith.cmpf ogt, %a, %b : f32
    linalg.yield %g : i1
  }
  return
}
