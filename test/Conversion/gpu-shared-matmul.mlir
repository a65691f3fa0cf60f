// RUN: remat-opt %s --split-input-file --remat-gpu-shared-matmul --canonicalize --cse | FileCheck %s

// A batch of four 100x40 by 40x70 products: blocks of 16x16 threads, a
// 64x64 tile of one matrix each (grid 2 x 2 x 4), the operands staged in
// two workgroup buffers. Each thread starts from its 16 outputs' values
// (zero past the edges), copies 4 elements of each operand per step of 16
// along the reduction, and adds at most 16 products per output between
// the two barriers; only the outputs inside the matrix are stored.
// CHECK-LABEL: func.func @batched(
// CHECK-SAME: %[[A:.+]]: memref<4x100x40xf32>, %[[B:.+]]: memref<4x40x70xf32>, %[[C:.+]]: memref<4x100x70xf32>)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C40:.+]] = arith.constant 40 : index
// CHECK-NOT: linalg.batch_matmul
// CHECK: gpu.launch blocks(%[[BX:.+]], %[[BY:.+]], %[[BZ:.+]]) in (%{{.+}} = %[[C2]], %{{.+}} = %[[C2]], %{{.+}} = %[[C4]]) threads(%[[TX:.+]], %[[TY:.+]], %{{.+}}) in (%{{.+}} = %[[C16]], %{{.+}} = %[[C16]], %{{.+}} = %[[C1]])
// CHECK-SAME: workgroup(%[[AS:.+]] : memref<64x16xf32, #gpu.address_space<workgroup>>, %[[BS:.+]] : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-16: memref.load %[[C]][%[[BZ]],
// CHECK: %{{.+}}:16 = scf.for %[[K0:.+]] = %{{.+}} to %[[C40]] step %[[C16]] iter_args(
// CHECK-COUNT-4: memref.store %{{.+}}, %[[AS]][
// CHECK-COUNT-4: memref.store %{{.+}}, %[[BS]][
// CHECK: gpu.barrier
// CHECK: %[[LEFT:.+]] = arith.subi %[[C40]], %[[K0]] : index
// CHECK: %[[N:.+]] = arith.minui %[[LEFT]], %[[C16]] : index
// CHECK: scf.for %[[KK:.+]] = %{{.+}} to %[[N]] step %[[C1]] iter_args(
// CHECK-COUNT-4: memref.load %[[AS]][%{{.+}}, %[[KK]]]
// CHECK-COUNT-16: arith.addf
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK-COUNT-16: memref.store %{{.+}}, %[[C]][%[[BZ]],
// CHECK: gpu.terminator
func.func @batched(%a: memref<4x100x40xf32>, %b: memref<4x40x70xf32>,
                   %c: memref<4x100x70xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x100x40xf32>, memref<4x40x70xf32>)
                      outs(%c : memref<4x100x70xf32>)
  return
}

// -----

// An unbatched product on strided views: one matrix, indexed without a
// batch dimension.
// CHECK-LABEL: func.func @views(
// CHECK: gpu.launch
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<128x32xf32, strided<[64, 1]>>
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<128x128xf32>
func.func @views(%a: memref<128x32xf32, strided<[64, 1]>>,
                 %b: memref<32x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x32xf32, strided<[64, 1]>>, memref<32x128xf32>)
                outs(%c : memref<128x128xf32>)
  return
}

// -----

// Products this kernel does not compute stay linalg ops: integers, mixed
// types (casts), transposed operands, dynamic shapes.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: gpu.launch
// CHECK-COUNT-4: linalg.
// CHECK-NOT: gpu.launch
func.func @kept(%ai: memref<8x8xi32>, %bi: memref<8x8xi32>, %ci: memref<8x8xi32>,
                %ah: memref<8x8xf16>, %bh: memref<8x8xf16>, %cf: memref<8x8xf32>,
                %at: memref<8x8xf32>, %b: memref<8x8xf32>,
                %ad: memref<?x8xf32>, %cd: memref<?x8xf32>) {
  linalg.matmul ins(%ai, %bi : memref<8x8xi32>, memref<8x8xi32>)
                outs(%ci : memref<8x8xi32>)
  linalg.matmul ins(%ah, %bh : memref<8x8xf16>, memref<8x8xf16>)
                outs(%cf : memref<8x8xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
                ins(%at, %b : memref<8x8xf32>, memref<8x8xf32>)
                outs(%cf : memref<8x8xf32>)
  linalg.matmul ins(%ad, %b : memref<?x8xf32>, memref<8x8xf32>)
                outs(%cd : memref<?x8xf32>)
  return
}
